package world_test

import (
	"testing"

	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// Review r3 (session 26): a list's first build records its fresh pairs
// as a count (rb.freshFirst); a second build before the next StableDt
// (here: a smaller skin, so a shorter list) must not keep that count:
// the fresh pairs are then s.fresh's, and StableDt must take exactly the
// pairs whose flag is set, clearing every flag.
func TestR3SecondBuildBeforeStableDt(t *testing.T) {
	for _, tc := range []struct {
		workers int
		skin    float64
	}{{1, 0.1}, {2, 0.1}, {1, 0.6}, {2, 0.6}} {
		workers := tc.workers
		sc, err := scene.LoadBuiltin("sphere-box-soft", "generators[0].count=3000")
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(sc)
		if err != nil {
			t.Fatal(err)
		}
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		sp := w.Spheres()
		sp.TrialFromBodies()
		if _, bad := sp.Evaluate(w.Time, 0); bad {
			t.Fatal("bad start")
		}
		n1, _, _, _, _ := world.R3Fresh(w)
		world.R3ShrinkSkin(w, tc.skin) // a second build before any StableDt, fewer pairs
		if _, bad := sp.Evaluate(w.Time, 0); bad {
			t.Fatal("bad second evaluation")
		}
		n2, set, count, first, listed := world.R3Fresh(w)
		t.Logf("%d workers: first build %d pairs, second %d; flags set %d, freshCount %d (freshFirst %d, len(s.fresh) %d)",
			workers, n1, n2, set, count, first, listed)
		if count != set {
			t.Errorf("%d workers: freshCount %d, flags set %d", workers, count, set)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%d workers: StableDt panicked: %v", workers, r)
				}
			}()
			sp.StableDt()
		}()
		if _, set, _, _, _ := world.R3Fresh(w); set != 0 {
			t.Errorf("%d workers: %d pairs still fresh after StableDt", workers, set)
		}
	}
}
