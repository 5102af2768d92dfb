package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/world"
)

// The merge and sortOld when no old pair is fresh (a build after a
// StableDt: spheres_fresh_none.go, one array of flags written over in
// place) against the merge's reference by key (SphereMergeCheck): every
// carried pair not fresh, every new pair fresh, the fresh list the new
// pairs; the old list in merge order and shuffled (sortOld), rows of a
// few and long rows, Hookean and with friction and two laws, one and two
// workers. And no spare array of flags is kept by such a build.
func TestSphereMergeNoFresh(t *testing.T) {
	defer func() { world.MergeCheckNoFresh, world.MergeCheckLong = false, false }()
	defer func(m int) { world.SphereReorderMin = m }(world.SphereReorderMin)
	world.SphereReorderMin = math.MaxInt
	for _, tc := range []struct {
		radii   []float64
		mu      float64
		workers int
	}{
		{[]float64{0.001}, 0, 1},
		{[]float64{0.001}, 0, 2},
		{[]float64{0.001, 0.0009, 0.0011}, 0.3, 1},
		{[]float64{0.001, 0.0009, 0.0011}, 0.3, 2},
	} {
		for _, reordered := range []bool{false, true} {
			for _, long := range []bool{false, true} {
				name := fmt.Sprintf("species=%d,mu=%g,w=%d,re=%v,long=%v", len(tc.radii), tc.mu, tc.workers, reordered, long)
				w := partsWorld(t, 5000, tc.radii, tc.workers, tc.mu)
				for range 2 {
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
				}
				world.MergeCheckNoFresh, world.MergeCheckLong = true, long
				nc, carried, err := world.SphereMergeCheck(w, 11, reordered)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if carried < nc/2 || carried == nc {
					t.Fatalf("%s: %d of %d candidates carried: not a mix", name, carried, nc)
				}
				if c := world.SphereFreshSpare(w); c != 0 {
					t.Fatalf("%s: a spare array of %d fresh flags kept, want none", name, c)
				}
			}
		}
	}
}
