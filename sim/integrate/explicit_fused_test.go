package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// oldExplicitStep is Explicit.Step as at 0e819c7 (before the fused passes):
// save, then kick–drift and Evaluate per attempt, then kick, Commit and
// UpdateStats as separate passes.
func oldExplicitStep(x *Explicit, w *world.World, dtMax float64) (float64, error) {
	x.cp.save(w)
	dt := math.Min(w.Dt, dtMax)
	rt := newRetry(w, x.Name(), 0.25, &x.cp)
	kd := func() {
		w.Parallel(len(w.Bodies()), func(i int) {
			if b := w.Bodies()[i]; !b.Fixed {
				kickDrift(b, dt)
			}
		})
	}
	for {
		kd()
		r := w.Evaluate(w.Time+dt, dt, world.Eval{})
		if !r.Bad && r.NightOwls == 0 {
			break
		}
		w.Stats.NightOwls += int64(r.NightOwls)
		next, err := rt.reject(dt, rejectWhy(r.Bad))
		if err != nil {
			if r.Bad {
				return 0, err
			}
			kd()
			w.Evaluate(w.Time+dt, dt, world.Eval{})
			break
		}
		dt = next
	}
	w.Parallel(len(w.Bodies()), func(i int) {
		if b := w.Bodies()[i]; !b.Fixed {
			kick(b, dt)
		}
	})
	w.Commit(world.Commit{})
	w.Time += dt
	w.Steps++
	w.UpdateStats()
	w.Stats.Dt = dt
	sb := w.StableDtBelow(dt * 1.25)
	w.Dt = math.Min(dt*1.25, math.Max(math.Min(sb, travelDtBelow(w, 0.5, sb)), w.Settings.DtMin))
	return dt, nil
}

// rv1 review: the fused explicit step (the checkpoint and kick–drift in the
// placing pass; the kick and the statistics' and step bound's body terms in
// the accumulation's pass, Eval.Then; the step bound's visit in
// Commit's pass, Commit.Below) gives the bits of the separate passes, the
// next Δt included, in the rejected/retried path too: 96 cubes falling
// fast onto the ground with Δt forced up each step, so that attempts are
// rejected (night owls, reversed normals) and retried, on 1, 2 and 3
// workers.
func TestFusedExplicitSameBitsWithRejections(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		build := func() *world.World {
			w := groundWorld(t, cubeParams(0.5, 0.4))
			w.Settings.Workers = workers
			w.Settings.DtMin = 1e-7
			for i := 0; i < 96; i++ {
				q := geom.QAxisAngle(geom.V(1, 0.3*float64(i%5), 0.2), 0.37*float64(i))
				b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(-0.7+0.16*float64(i%8), -0.45+0.16*float64((i/8)%6), 0), q)
				lowestAt(b, 0.02+0.15*float64(i/48))
				b.V = geom.V(0.3*float64(i%3-1), 0, -4)
				w.AddBody(b)
			}
			w.Integrator = &Explicit{}
			if err := Start(w); err != nil {
				t.Fatal(err)
			}
			return w
		}
		a, b := build(), build()
		xa, xb := a.Integrator.(*Explicit), b.Integrator.(*Explicit)
		for step := 0; step < 150; step++ {
			a.Dt, b.Dt = 3e-3, 3e-3 // far above the stable step: rejections
			da, ea := xa.Step(a, 1)
			db, eb := oldExplicitStep(xb, b, 1)
			if da != db || (ea == nil) != (eb == nil) {
				t.Fatalf("workers %d, step %d: dt %g/%g err %v/%v", workers, step, da, db, ea, eb)
			}
			for i, ba := range a.Bodies() {
				bb := b.Bodies()[i]
				if ba.X != bb.X || ba.V != bb.V || ba.W != bb.W || ba.Q != bb.Q || ba.F != bb.F || ba.T != bb.T {
					t.Fatalf("workers %d, step %d, body %d differs: X %v/%v V %v/%v", workers, step, i, ba.X, bb.X, ba.V, bb.V)
				}
			}
			sa, sb := a.Stats, b.Stats
			if sa.Kinetic != sb.Kinetic || sa.PotentialGravity != sb.PotentialGravity || sa.PotentialContact != sb.PotentialContact ||
				sa.Contacts != sb.Contacts || sa.Suppressed != sb.Suppressed || sa.ByKind != sb.ByKind || sa.Rejected != sb.Rejected || sa.NightOwls != sb.NightOwls || a.Dt != b.Dt {
				t.Fatalf("workers %d, step %d: stats differ: %+v / %+v", workers, step, sa, sb)
			}
		}
		t.Logf("workers %d: %d steps, %d rejected %v, %d night owls, %d contacts", workers, a.Steps, a.Stats.Rejected, a.Stats.RejectedBy, a.Stats.NightOwls, a.Stats.Contacts)
		if a.Stats.Rejected == 0 {
			t.Errorf("workers %d: no rejection: the retry path was not exercised", workers)
		}
	}
}
