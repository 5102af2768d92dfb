package validation

import (
	"fmt"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// TestSpherePathLazyBodies: with lazy bodies (world.SetLazyBodies: the
// sphere path's flat arrays are the state of record, the bodies written only
// by SyncBodies) a run gives the same bits as with the bodies written every
// step — the energies of every step and the final states — on one worker and
// two, with friction and rolling resistance (spinning spheres: the rotational
// energy read from the species), with the spheres renumbered in spatial
// order, and across a sync in the middle after which a body is changed (the
// next step must see the change, as with bodies written every step).
// integrate.Advance without a per-step callback runs lazily; it must land on
// the same state as with one (bodies written every step).
func TestSpherePathLazyBodies(t *testing.T) {
	cases := []struct {
		name    string
		workers int
		reorder bool
		sets    []string
	}{
		{"hooke-1w", 1, false, nil},
		{"hooke-2w-reordered", 2, true, nil},
		{"friction-rolling-2w", 2, false, []string{"contact.default.kt=4", "contact.default.mu=0.5", "contact.default.mu_roll=0.05"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.reorder {
				reorderAll(t, 50)
			}
			run := func(lazy bool) string {
				w := load(t, "sphere-box-soft", append([]string{"generators.s.count=2500",
					"walls.box.max=[0.03, 0.03, 0.06]", "generators.s.region.max=[0.03, 0.03, 0.06]"}, c.sets...)...)
				w.Settings.Workers, w.Settings.SphereSplit = c.workers, world.SplitAlways
				if err := integrate.Start(w); err != nil {
					t.Fatal(err)
				}
				w.SetLazyBodies(lazy)
				out := ""
				for i := range 240 {
					if i == 120 { // someone reads and changes a body between steps
						w.SyncBodies()
						for _, b := range w.Bodies {
							if b.Wall < 0 {
								b.V = b.V.Add(geom.V(0.3, 0, 0))
								break
							}
						}
					}
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
					out += fmt.Sprintf("%x %x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
				}
				w.SetLazyBodies(false)
				for _, b := range w.Bodies {
					out += fmt.Sprintf("%x %x %x %x %x %x|", b.X, b.Q, b.V, b.W, b.F, b.T)
				}
				return out
			}
			eager, lazy := run(false), run(true)
			if eager != lazy {
				t.Fatal("lazy bodies change the run")
			}
		})
	}
	t.Run("advance", func(t *testing.T) {
		final := func(each func() bool) string {
			w := load(t, "sphere-box-soft", "generators.s.count=2500",
				"walls.box.max=[0.03, 0.03, 0.06]", "generators.s.region.max=[0.03, 0.03, 0.06]")
			if err := integrate.Start(w); err != nil {
				t.Fatal(err)
			}
			if _, err := integrate.Advance(w, 0.02, each); err != nil {
				t.Fatal(err)
			}
			out := fmt.Sprintf("%d %x|", w.Steps, w.Time)
			for _, b := range w.Bodies {
				out += fmt.Sprintf("%x %x %x %x|", b.X, b.Q, b.V, b.W)
			}
			return out
		}
		// A callback that may read the bodies: written every step; none: lazy.
		if final(func() bool { return false }) != final(nil) {
			t.Fatal("Advance with lazy bodies gives another state")
		}
	})
}
