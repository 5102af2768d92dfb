package integrate

import (
	"fmt"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// A rejected trial on the sphere path starts again from the accepted state
// exactly, with lazy bodies too (the accepted state then stays in the trial
// array after Accept, and Drift takes the other array as its trial buffer:
// a second Drift must not take it again). Spheres with friction and
// rolling resistance (so ω, the moments and q are carried) fall onto a
// floor with random velocities (from 5 mm up); before every step the test drives the path
// as a rejection would: Drift and Evaluate at Δt, again at Δt (the same
// trial, forces and moments to the bit), then at Δt/4, then the step
// proper. The same run with the bodies written every step (no lazy state)
// gives the same bits step by step. A second case forces real rejections
// (night owls: spheres from up to 12 mm, every step asked for at 3 ms,
// through the skin) and
// compares lazy with eager bodies the same way.
func TestSpherePathRollbackExact(t *testing.T) {
	rolling := frictionLaw
	rolling.MuRoll = 0.05
	build := func(top float64, lazy bool) *world.World {
		const L, r = 0.01, 0.001
		return startSpherePath(t, rolling, 0, func(w *world.World) {
			if _, err := w.AddWall("floor", plane(t, "floor", geom.V(L/2, L/2, 0), geom.V(0, 0, 1), L), 0, true); err != nil {
				t.Fatal(err)
			}
			dropSpheres(w, 40, r, geom.V(0, 0, r), geom.V(L, L, top), 0.2, 3)
		}, lazy)
	}
	trial := func(w *world.World, dt float64) string {
		s := sphereStep{w.Spheres()}
		s.Drift(dt)
		s.Evaluate(w.Time+dt, dt)
		tr := s.Trial()
		return fmt.Sprintf("%x %x", tr.L, tr.R)
	}
	record := func(w *world.World) string {
		return fmt.Sprintf("%x %x %x %x %d %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.PotentialGravity,
			w.Stats.Dt, w.Stats.Contacts, w.Stats.Rejected)
	}
	final := func(w *world.World) string {
		w.SetLazyBodies(false)
		out := ""
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x %x %x %x %x|", b.X, b.Q, b.V, b.W, b.F, b.T)
		}
		return out
	}

	t.Run("retried-trials", func(t *testing.T) {
		touching := 0
		run := func(lazy bool) string {
			w := build(0.005, lazy)
			out := ""
			for i := range 1000 {
				dt := w.Dt
				first := trial(w, dt)
				if again := trial(w, dt); first != again {
					t.Fatalf("lazy %v, step %d: a trial retried at the same Δt differs from the first", lazy, i)
				}
				trial(w, dt/4)
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				touching = max(touching, w.Stats.Contacts)
				out += record(w)
			}
			return out + final(w)
		}
		eager, lazy := run(false), run(true)
		t.Logf("up to %d contacts", touching)
		if touching == 0 {
			t.Fatal("no contacts: the case does not exercise the friction history")
		}
		if eager != lazy {
			t.Fatal("lazy bodies change a run with retried trials")
		}
	})

	t.Run("rejections", func(t *testing.T) {
		rejected := int64(0)
		run := func(lazy bool) string {
			w := build(0.012, lazy)
			out := ""
			for range 300 {
				w.Dt = 3e-3
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				out += record(w)
			}
			rejected = w.Stats.Rejected
			return out + final(w)
		}
		eager, lazy := run(false), run(true)
		t.Logf("%d rejected attempts", rejected)
		if rejected == 0 {
			t.Fatal("no rejections: the case does not exercise the roll-back")
		}
		if eager != lazy {
			t.Fatal("lazy bodies change a run with rejections")
		}
	})
}

// The sphere path refuses a trial whose forces are not finite: a contact
// force that overflows (two 1 m spheres 1.9 m deep at k_n = 10³⁰⁸ N/m, a
// 2 m sphere 1.9 m deep in the floor: Start refuses the initial state), and
// a weight that overflows (a 10 kg sphere whose gravity is turned to 10³⁰⁸
// m/s² after Start: every attempt is rejected down to Δt_min, the step fails
// and the sphere stays where it was).
func TestSpherePathNonFiniteForces(t *testing.T) {
	start := func(t *testing.T, w *world.World) error {
		w.Integrator = &Explicit{}
		if w.Spheres() == nil {
			t.Fatal("not on the sphere path")
		}
		return Start(w)
	}
	t.Run("pair", func(t *testing.T) {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e308})
		w.Gravity = geom.Vec3{}
		w.AddBody(body.NewSphere("a", 1, 2500, geom.V(0, 0, 0)))
		w.AddBody(body.NewSphere("b", 1, 2500, geom.V(0.1, 0, 0)))
		if err := start(t, w); err == nil {
			t.Fatal("Start accepts a contact force of 1.9e308 N")
		}
	})
	t.Run("wall", func(t *testing.T) {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e308})
		w.Gravity = geom.Vec3{}
		if _, err := w.AddWall("floor", plane(t, "floor", geom.V(0, 0, 0), geom.V(0, 0, 1), 10), 0, true); err != nil {
			t.Fatal(err)
		}
		w.AddBody(body.NewSphere("a", 2, 2500, geom.V(0, 0, 0.1)))
		if err := start(t, w); err == nil {
			t.Fatal("Start accepts a wall force of 1.9e308 N")
		}
	})
	t.Run("weight", func(t *testing.T) {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 100})
		b := body.NewSphere("a", 0.1, 2500, geom.V(0, 0, 1))
		w.AddBody(b)
		if err := start(t, w); err != nil {
			t.Fatal(err)
		}
		w.SetLazyBodies(true)
		for range 3 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		w.SyncBodies()
		x := b.X
		w.Gravity = geom.V(0, 0, -1e308)
		if _, err := w.Integrator.Step(w, 1); err == nil {
			t.Fatalf("a step with a weight of %g N is accepted", b.Mass()*1e308)
		}
		w.SyncBodies()
		if b.X != x || w.Stats.RejectedBy[world.RejectPenetration] == 0 {
			t.Errorf("x %v (was %v), rejected %v: want the sphere where it was and the attempts rejected as non-finite", b.X, x, w.Stats.RejectedBy)
		}
	})
}
