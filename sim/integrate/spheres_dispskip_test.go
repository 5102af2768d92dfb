package integrate

import (
	"fmt"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// The sphere path's displacement bound (world.Spheres, dispBound: a Drift
// skips the Verlet list's per-sphere displacement test while a bound on
// the displacements proves that the list is kept) changes no list
// decision: the bound is used only with lazy bodies, so each case runs
// lazy (skipping) and eager (testing every sphere every step) and compares
// every step's statistics and every body's state at the end to the bit.
// The spheres fall onto a floor and pile up (list rebuilds, contacts);
// "owls" asks every 37th step for 3 ms, through the skin, so that attempts
// are rejected (night owls; a rejected trial may rebuild the list, after
// which the bound must not be used until a test anchors it again). Each case must
// skip the test on some steps and rebuild the list on others; the bound
// set far too small (dispBound.step's bound halved, tried by hand) makes
// the lazy run differ.
func TestSphereDisplacementBound(t *testing.T) {
	frictionless := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}
	const r = 0.001
	floor := func(w *world.World) { addSquarePlate(t, w, "floor", geom.V(0, 0, 0), 0.1, 0.1) }
	cases := []struct {
		name    string
		workers int
		steps   int
		owls    bool // every 37th step asked for at 3 ms
	}{
		{"pile", 0, 3000, false},
		{"pile-2-workers", 2, 3000, false},
		{"owls", 0, 3000, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			build := func(w *world.World) {
				floor(w)
				dropSpheres(w, 300, r, geom.V(-0.01, -0.01, 0.002), geom.V(0.01, 0.01, 0.03), 0.05, 7)
			}
			eager, eSkips, _, _ := dispSkipRun(t, frictionless, c.workers, build, c.steps, c.owls, false)
			if eSkips != 0 {
				t.Fatalf("the eager run skipped the test %d times", eSkips)
			}
			lazy, skips, builds, rejected := dispSkipRun(t, frictionless, c.workers, build, c.steps, c.owls, true)
			t.Logf("%d of %d Drifts skipped the displacement test; %d list builds, %d rejected attempts", skips, c.steps, builds, rejected)
			if c.owls && rejected == 0 {
				t.Error("no attempt rejected")
			}
			if skips == 0 {
				t.Error("the lazy run never skipped the test")
			}
			if builds < 3 {
				t.Errorf("%d list builds: the case does not exercise rebuilds", builds)
			}
			if lazy != eager {
				t.Error("the displacement bound changes the run (lazy against eager bodies)")
			}
		})
	}
}

// dispSkipRun is rotSkipRun's run for the displacement bound: it returns
// the statistics of every step and the bodies' states at the end (%x),
// World.SphereDispSkips, the list builds and the rejected attempts. With
// owls every 37th step is asked for at 3 ms (night owls).
func dispSkipRun(t *testing.T, lw law.Smooth, workers int, build func(*world.World), steps int, owls, lazy bool) (string, int64, int, int64) {
	t.Helper()
	w := startSpherePath(t, lw, workers, build, lazy)
	var out strings.Builder
	for i := range steps {
		if owls && i%37 == 36 {
			w.Dt = 3e-3
		}
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%x %x %x %x %d %d|", w.Stats.Kinetic, w.Stats.PotentialContact,
			w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts, w.Stats.NightOwls)
	}
	writeBodyStates(&out, w)
	return out.String(), w.SphereDispSkips(), w.VerletBuilds(), w.Stats.Rejected
}
