package broad

import (
	"math"
	"math/rand"
	"runtime"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// Review r2 (session 21): the one-radius path (cellPairs into a bounded
// buffer) against brute force on adversarial inputs: crowded cells (a
// cluster of coincident spheres, so a cell's m × slots > 1024: the heap
// buffer), a lattice with neighbours exactly at the cut-off, a far body,
// NaN and ±Inf centres; serial and on 1, 2, 3 workers, buffers reused.
func TestRV21OneRadiusAdversarial(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for _, n := range []int{4096, 5000, 6000} {
		for _, kind := range []string{"cluster", "twoclusters", "lattice", "far", "nan"} {
			r0, margin := 0.5, 0.0
			side := math.Cbrt(float64(n) * 4.19 * r0 * r0 * r0 / 0.3)
			c := randBox(rng, n, side)
			r := make([]float64, n)
			for i := range r {
				r[i] = r0
			}
			switch kind {
			case "cluster": // 600 coincident spheres: one cell, 600 × ≥600 slots
				p := c[0]
				for i := 0; i < 600; i++ {
					c[rng.Intn(n)] = p
				}
			case "twoclusters": // two crowded neighbouring cells, odd counts
				p, q := c[0], c[0].Add(geom.V(1.0001, 0, 0))
				for i := 0; i < 301; i++ {
					c[rng.Intn(n)] = p
					c[rng.Intn(n)] = q
				}
			case "lattice": // spacing 1 = 2 r0 exactly: every neighbour at the cut-off
				m := int(math.Cbrt(float64(n))) + 1
				for i := range c {
					c[i] = geom.V(float64(i%m), float64((i/m)%m), float64(i/(m*m)))
				}
			case "far":
				c[rng.Intn(n)] = geom.V(1e3, -1e3, 0)
			case "nan":
				c[rng.Intn(n)] = geom.V(math.NaN(), 0, 0)
				c[rng.Intn(n)] = geom.V(0, math.Inf(1), 0)
			}
			want := brute(c, r, margin, nil)
			for w, fk := range []func(int, func(int, int, int)){nil, forkWorkers(1), forkWorkers(2), forkWorkers(3)} {
				g := Grid{Fork: fk}
				for round := range 2 {
					got := g.Pairs(c, r, margin, nil, nil)
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d %s workers %d round %d: %d pairs, brute %d", n, kind, w, round, len(got), len(want))
					}
				}
				if kind == "cluster" && g.levs[0].rsame != r0 {
					t.Logf("n=%d %s: one-radius path not taken", n, kind)
				}
			}
		}
	}
}

// A crowded cell (n spheres at one point: all n(n−1)/2 pairs) costs a warm
// Pairs call about its output, not the cell's bodies × slots (review r2, F1:
// the first cellPairs version made (a1−a0)·tot pairs of buffer at every call,
// 3.7× the output at n = 4096; crowdedCell chunks the cell instead). Bound:
// twice the bytes of the pairs found.
func TestRV21CoincidentAlloc(t *testing.T) {
	const n = 4096
	c := make([]geom.Vec3, n)
	r := make([]float64, n)
	for i := range r {
		r[i] = 0.5
	}
	var g Grid
	out := g.Pairs(c, r, 0, nil, nil)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	out = g.Pairs(c, r, 0, nil, out)
	runtime.ReadMemStats(&m1)
	if len(out) != n*(n-1)/2 {
		t.Fatalf("%d pairs, want %d", len(out), n*(n-1)/2)
	}
	alloc, bound := m1.TotalAlloc-m0.TotalAlloc, uint64(2*8*len(out))
	if alloc > bound {
		t.Fatalf("warm call allocated %d B, above twice its %d pairs' bytes (%d B)", alloc, len(out), bound)
	}
	t.Logf("warm call allocated %.0f MB for %d pairs", float64(alloc)/1e6, len(out))
}

// crowdedCell with buffers of 1 to 3 × tot pairs (chunks of 2 … a1−a0
// bodies) drops the same pairs in the same order as one cellPairsGo call.
func TestRV21CrowdedCellChunks(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := range 2000 {
		n := 2 + rng.Intn(60)
		sl := make([]slotBody, n)
		for k := range sl {
			sl[k] = slotBody{float64(rng.Intn(3)) * 0.5, float64(rng.Intn(3)) * 0.5, float64(rng.Intn(3)) * 0.5, int32(k)}
		}
		a0 := int32(rng.Intn(n - 1))
		a1 := a0 + 1 + int32(rng.Intn(n-int(a0)))
		var rg [5][2]int32
		rg[0][1] = a1 + int32(rng.Intn(n-int(a1)+1))
		nr := 1 + rng.Intn(5)
		tot := rg[0][1] - a0
		for r := 1; r < nr; r++ {
			b0 := int32(rng.Intn(n))
			rg[r] = [2]int32{b0, b0 + 1 + int32(rng.Intn(n-int(b0)))}
			tot += rg[r][1] - rg[r][0]
		}
		s2 := 0.25
		want := make([][2]int32, int(a1-a0)*int(tot))
		rg2 := rg
		want = want[:cellPairsGo(sl, a0, a1, &rg2, nr, s2, want)]
		buf := make([][2]int32, 1+rng.Intn(3*int(tot)))
		var bk buckets
		cur, kc := crowdedCell(sl, a0, a1, &rg, nr, tot, s2, buf, &bk, nil, 0, 31)
		bk.cur[kc] = cur
		got := bk.cur[0]
		for i := range want {
			want[i] = [2]int32{min(want[i][0], want[i][1]), max(want[i][0], want[i][1])}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: buf %d tot %d: %v, want %v", round, len(buf), tot, got, want)
		}
	}
}
