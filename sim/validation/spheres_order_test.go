package validation

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/world"
)

// reorderAll renumbers every sphere system in spatial order every `every`
// steps until the test ends.
func reorderAll(t *testing.T, every int64) {
	m, e := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 2, every
	t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
}

// renumbered reports whether the sphere path of w holds its spheres out of
// body order.
func renumbered(w *world.World) bool {
	s := w.Spheres()
	k := 0
	for _, b := range w.Bodies() {
		if b.Wall < 0 {
			if s.Bodies()[k] != b {
				return true
			}
			k++
		}
	}
	return false
}

// With the spheres renumbered in Morton order (every 100 steps), the sphere
// path still runs the generic stages' physics: every pair has the same
// force and history (carried by key), only each sphere's sum runs over its
// pairs in another order, a rounding difference (1e-19 m) that the falling
// and colliding box amplifies about tenfold every 100 steps. Over 600 steps
// (six renumberings) positions agree within 1e-9 m, contact counts and
// the step exactly, energies within 1e-6.
func TestSpherePathReorderedMatchesGeneric(t *testing.T) {
	reorderAll(t, 100)
	base := []string{"generators.s.count=40", "generators.s.region.max=[0.012, 0.012, 0.04]"}
	for _, c := range []struct {
		name string
		sets []string
	}{
		{"hooke", nil},
		{"hooke-friction-rolling", []string{"contact.default.kt=4", "contact.default.mu=0.5", "contact.default.mu_roll=0.05"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dx, fast, gen := spherePair(t, 600, 1, append(base, c.sets...)...)
			t.Logf("max |Δx| = %.3g m; contacts %d / %d", dx, fast.Stats.Contacts, gen.Stats.Contacts)
			if !renumbered(fast) {
				t.Fatal("the spheres were not renumbered")
			}
			if dx > 1e-9 {
				t.Errorf("positions differ by %.3g m (> 1e-9 m)", dx)
			}
			if fast.Stats.Contacts != gen.Stats.Contacts || fast.Stats.Contacts == 0 || math.Abs(fast.Time-gen.Time) > 1e-12 {
				t.Errorf("contacts %d / %d, t = %.12g / %.12g s", fast.Stats.Contacts, gen.Stats.Contacts, fast.Time, gen.Time)
			}
			for _, q := range [][2]float64{{fast.Stats.Kinetic, gen.Stats.Kinetic}, {fast.Stats.PotentialContact, gen.Stats.PotentialContact}} {
				if math.Abs(q[0]-q[1]) > 1e-6*math.Abs(q[1])+1e-15 {
					t.Errorf("energy %.9g / %.9g J", q[0], q[1])
				}
			}
		})
	}
}

// A large system (3000 spheres: Drift and Accept split between two
// workers, the spheres renumbered every 50 steps) runs to the same bits on
// one worker and on two: the energies of every step and the final state.
func TestSpherePathLargeWorkersDeterministic(t *testing.T) {
	reorderAll(t, 50)
	final := func(workers int) (string, bool) {
		w := sphereLattice(t, 3000)
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		out := ""
		for range 200 { // the energies of every step, then the final state
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("%x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.PotentialGravity, w.Stats.Contacts)
		}
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x %x %x|", b.X, b.Q, b.V, b.W)
		}
		return out, renumbered(w)
	}
	a, ra := final(1)
	b, rb := final(2)
	if !ra || !rb {
		t.Fatal("the spheres were not renumbered")
	}
	if a != b {
		t.Fatal("final states differ between 1 and 2 workers")
	}
}
