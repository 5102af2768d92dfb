package broad

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// Review r3 (s22): one Grid with Fork called again and again on sets of
// changing size, density (crowded cells), radii (equal / slightly mixed)
// and numbering (shuffled, sorted): the pooled blocks kept between calls
// must never leak pairs of an earlier call or lose any. Each call is
// compared with a fresh serial Grid, and a few with brute force; the
// parts run in reverse and on goroutines (race).
func TestRV22cBucketsReusedAcrossCalls(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	var g Grid
	var out [][2]int32
	for it := range 40 {
		if it%2 == 0 {
			g.Fork = forkReverse
		} else {
			g.Fork = forkGo
		}
		n := rowMin + rng.Intn(3*rowMin)
		if it%7 == 3 {
			n = rowMin // the smallest split set
		}
		side := math.Cbrt(float64(n)) * (0.6 + 1.4*rng.Float64()) // dense .. sparse
		c := make([]geom.Vec3, n)
		r := make([]float64, n)
		crowd := it%5 == 1
		for i := range c {
			c[i] = geom.V(side*rng.Float64(), side*rng.Float64(), side*rng.Float64())
			if crowd && i%3 == 0 { // a third of the spheres in a few cells
				c[i] = geom.V(rng.Float64(), rng.Float64(), rng.Float64())
			}
			r[i] = 0.5
			if it%3 == 2 {
				r[i] = 0.5 * (1 + 0.05*rng.Float64())
			}
		}
		if it%4 == 0 { // numbered along x (a renumbering's pattern)
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			slices.SortFunc(idx, func(a, b int) int { return int(math.Copysign(1, c[a].X-c[b].X)) })
			c2, r2 := make([]geom.Vec3, n), make([]float64, n)
			for k, i := range idx {
				c2[k], r2[k] = c[i], r[i]
			}
			c, r = c2, r2
		}
		margin := 0.05 * rng.Float64()
		out = g.Pairs(c, r, margin, nil, out)
		if g.blk == 0 || g.lastBlocks == 0 {
			t.Fatalf("call %d: not the split search (blk %d)", it, g.blk)
		}
		var s Grid
		want := s.Pairs(c, r, margin, nil, nil)
		if !slices.Equal(out, want) {
			t.Fatalf("call %d (n %d, crowd %v): %d pairs in parts, %d serial", it, n, crowd, len(out), len(want))
		}
		if it < 4 {
			if b := brute(c, r, margin, nil); !slices.Equal(want, b) {
				t.Fatalf("call %d: serial %d pairs, brute %d", it, len(want), len(b))
			}
		}
	}
}
