package integrate

import (
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// Review rv24b: SaveRef taken while the rotational array is absent
// (rotNone), then a step whose evaluation makes the array again (a rim
// moment: pendApply, one array shared by acc and tr) and kicks ω ≠ 0 into
// it: Restore must put back the saved state (ω = +0), as Save's copy does.
func TestRV24bSaveRefAcrossRotMake(t *testing.T) {
	const r = 0.001
	build := func(w *world.World) {
		holedPlate(t, w)
		dropSpheres(w, 90, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.05), 0, 2)
		rng := rand.New(rand.NewSource(7))
		for _, b := range w.Bodies {
			if b.Wall < 0 {
				b.Q = geom.QAxisAngle(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5), 6*rng.Float64())
			}
		}
	}
	w := startSpherePath(t, rotShareLaw, 1, build, true)
	var ref, cp world.BodyStates
	for i := range 4000 {
		none := w.SphereRotArrays() == 0
		if none {
			ref.SaveRef(w)
			cp.Save(w)
		}
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		if !none || w.SphereRotArrays() == 0 {
			continue
		}
		t.Logf("array made at step %d (%d arrays)", i, w.SphereRotArrays())
		ref.Restore(w)
		bad := 0
		for j, bi := range cp.Body {
			b := w.Bodies[bi]
			if b.W != cp.W[j] || b.Q != cp.Q[j] || b.X != cp.X[j] || b.V != cp.V[j] {
				if bad < 3 {
					t.Errorf("body %d restored ω %v q %v, saved ω %v q %v", bi, b.W, b.Q, cp.W[j], cp.Q[j])
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("%d bodies restored differently from Save's copy", bad)
		}
		return
	}
	t.Fatal("the rotational array was never made again: the case tests nothing")
}
