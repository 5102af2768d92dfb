package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/world"
)

// Review r5 (session 22): the block merge at block edges: ranges of
// exactly 512·k candidates (n = 8·512·k), one candidate short and over,
// empty ranges (n < 8), no old list, no candidate carried, all carried; one
// and three species, with friction and two laws, one and two workers.
func TestSphereMergeBlockEdges(t *testing.T) {
	defer func() { world.MergeCheckN, world.MergeCheckMode = -1, 0 }()
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
		for _, n := range []int{0, 1, 5, 7, 8, 9, 511 * 8, 512 * 8, 512*8 + 1, 512*8 + 7, 1024 * 8, 1024*8 - 1, 1536 * 8} {
			for mode := range 4 {
				for _, reordered := range []bool{false, true} {
					name := fmt.Sprintf("species=%d,mu=%g,w=%d,n=%d,mode=%d,re=%v", len(tc.radii), tc.mu, tc.workers, n, mode, reordered)
					w := partsWorld(t, 5000, tc.radii, tc.workers, tc.mu)
					for range 3 {
						if _, err := w.Integrator.Step(w, 1); err != nil {
							t.Fatal(err)
						}
					}
					world.MergeCheckN, world.MergeCheckMode = n, mode
					nc, carried, err := world.SphereMergeCheck(w, uint64(n+mode), reordered)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if nc != n || (mode == 3 && carried != n) || ((mode == 1 || mode == 2) && carried != 0) {
						t.Fatalf("%s: %d candidates, %d carried", name, nc, carried)
					}
				}
			}
		}
	}
}
