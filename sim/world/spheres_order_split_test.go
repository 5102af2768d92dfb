package world_test

import (
	"testing"

	"grainlab/sim/world"
)

// TestSphereRenumberSplitSameBits: a falling lattice of 5000 spheres
// renumbered every 30 steps (the box, the Morton codes and order, and sortOld on the
// crew when the passes split: spheres_order_split.go,
// spheres_sortold_split.go) gives the same stats at every step and the
// same final bodies on 1, 2 and 3 workers (every evaluation split), one
// species without friction (no extras) and three species with friction
// and two laws (sortOld's old indices: Law, PrevHist by cycles); the split
// passes must have run on 2 and 3 workers. It fails with a split sortOld
// that misplaces a pair (its row's start, a range's cursors) or a box
// joined wrong.
func TestSphereRenumberSplitSameBits(t *testing.T) {
	defer func(e int64) { world.SphereReorderEvery = e }(world.SphereReorderEvery)
	world.SphereReorderEvery = 30
	for _, tc := range []struct {
		radii []float64
		mu    float64
	}{
		{[]float64{0.001}, 0},
		{[]float64{0.001, 0.0009, 0.0011}, 0.3},
	} {
		var ref string
		for _, nw := range []int{1, 2, 3} {
			w := partsWorld(t, 5000, tc.radii, nw, tc.mu)
			d := partsDigest(t, w, 200, false)
			codes, radix, sorts := world.SphereOrderSplits(w)
			t.Logf("mu=%g, %d workers: digest %s, %d builds, split codes %d, Morton sorts %d, sortOld %d", tc.mu, nw, d[:16], w.VerletBuilds(), codes, radix, sorts)
			switch {
			case nw == 1:
				ref = d
				if codes != 0 || radix != 0 || sorts != 0 {
					t.Errorf("one worker ran %d split codes, %d split Morton sorts, %d split sortOld", codes, radix, sorts)
				}
			case d != ref:
				t.Errorf("mu=%g: %d workers differ from one", tc.mu, nw)
			case codes < 2 || radix < 2 || sorts < 2:
				t.Errorf("mu=%g, %d workers: %d split codes, %d Morton sorts, %d sortOld: the split passes did not run", tc.mu, nw, codes, radix, sorts)
			}
		}
	}
}
