package world

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sq"
)

// The Hertz Δt bound of a smooth pair apart (the spring at the least
// overlap, kept per pair by pairDtSmooth) follows a change of the masses
// made on the bodies directly: after one body is fixed, StableDt equals that
// of a world built with it fixed, and with both free again that of the
// first world, to the bit (the bound is the binding one here: bodies at
// rest, no gravity, dt_max 1 s). The same for the Hookean bound kept per
// pair (found in review: it was keyed on the law only, 3.2× too large
// after freeing a body again).
func TestSmoothDtFloorFollowsMass(t *testing.T) {
	for _, l := range []law.Smooth{
		{Model: law.HertzMaterial, E: 5e6, Nu: 0.3, Restitution: 0.5, Mu: 0.5},
		{Model: law.HookeLAMMPS, Kn: 2000, GammaN: 50, Kt: 1000, GammaT: 25, Mu: 0.5},
	} {
		t.Run(l.Model.String(), func(t *testing.T) { smoothDtFollowsMass(t, l) })
	}
}

func smoothDtFollowsMass(t *testing.T, l law.Smooth) {
	mk := func(fixB bool) (*World, *body.Body) {
		w := New("dt")
		if err := w.SetParams(0, 0, ContactParams{Smooth: l}); err != nil {
			t.Fatal(err)
		}
		w.Gravity = geom.Vec3{}
		w.Settings.Workers, w.Settings.DtMax = 1, 1
		s := sq.Shape{A: 0.004, B: 0.003, C: 0.0025, N1: 4, N2: 4}
		w.AddBody(body.NewSuperquadric("a", s, 2500, geom.V(0, 0, 0), geom.QIdent()))
		b := body.NewSuperquadric("b", s, 2500, geom.V(0.0085, 0, 0), geom.QAxisAngle(geom.V(0, 0, 1), 0.2))
		b.Fixed = fixB
		w.AddBody(b)
		return w, b
	}
	dtOf := func(w *World) float64 {
		w.Evaluate(w.Time, 1e-5, Eval{})
		return w.StableDt()
	}
	w, b := mk(false)
	free := dtOf(w)
	wf, _ := mk(true)
	fixed := dtOf(wf)
	if !(free > 0) || math.IsInf(free, 0) || free >= 1 || fixed == free {
		t.Fatalf("the floor bound does not bind: free %g, fixed %g", free, fixed)
	}
	b.Fixed = true
	if got := dtOf(w); got != fixed {
		t.Errorf("after fixing b: Δt %.17g, want %.17g (a world built so)", got, fixed)
	}
	b.Fixed = false
	if got := dtOf(w); got != free {
		t.Errorf("after freeing b: Δt %.17g, want %.17g", got, free)
	}
}
