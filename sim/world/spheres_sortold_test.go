package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/world"
)

// sortOld (the old list put in merge order after a renumbering: a counting
// sort by the lower sphere scattering the pairs, their last touches and
// fresh flags into the rebuild's scratch, rows sorted in place) against the
// merge's reference by key (SphereMergeCheck): a shuffled old list whose
// every 64th sphere has a row of 39 pairs (the sort of rows over 32) beside
// rows of a few, Hookean (pairs, touches, fresh flags) and with friction and
// two laws (PrevHist and Law following by cycles), on one and two workers.
// A pair of the old list lost or misplaced by the sort shows as a carried
// pair without its touch, flag or history, or as a new pair.
func TestSphereSortOldLongRows(t *testing.T) {
	defer func() { world.MergeCheckLong = false }()
	defer func(m int) { world.SphereReorderMin = m }(world.SphereReorderMin)
	world.SphereReorderMin = math.MaxInt
	for _, tc := range []struct {
		radii   []float64
		mu      float64
		workers int
	}{
		{[]float64{0.001}, 0, 1},
		{[]float64{0.001, 0.0009, 0.0011}, 0.3, 2},
	} {
		for _, long := range []bool{false, true} {
			name := fmt.Sprintf("species=%d,mu=%g,w=%d,long=%v", len(tc.radii), tc.mu, tc.workers, long)
			w := partsWorld(t, 5000, tc.radii, tc.workers, tc.mu)
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			world.MergeCheckLong = long
			nc, carried, err := world.SphereMergeCheck(w, 7, true)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if carried < nc/2 || carried == nc {
				t.Fatalf("%s: %d of %d candidates carried: not a mix", name, carried, nc)
			}
		}
	}
}
