package world

import (
	"math/rand"
	"runtime"
	"slices"
	"testing"
)

// TestSortKeysAsComparison: the radix sort of the renumbering gives the order
// of the comparison sort it replaced (by key, then by sphere) on keys with
// many ties, on keys spread over all 63 bits of a Morton code and on none.
func TestSortKeysAsComparison(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	for _, tc := range []struct {
		n    int
		span uint64
	}{{0, 1}, {1, 1}, {5000, 7}, {20000, 1 << 21}, {20000, 1 << 63}} {
		keys := make([]orderKey, tc.n)
		for k := range keys {
			keys[k] = orderKey{rng.Uint64() % tc.span, int32(k)}
		}
		want := slices.Clone(keys)
		slices.SortFunc(want, func(a, b orderKey) int {
			if a.key != b.key {
				if a.key < b.key {
					return -1
				}
				return 1
			}
			return int(a.k - b.k)
		})
		if got := sortKeys(keys); !slices.Equal(got, want) {
			t.Fatalf("n %d, keys below %d: radix order differs from the comparison sort's", tc.n, tc.span)
		}
	}
}

// TestMortonPermAsSortKeys: the renumbering's order from the codes in one
// word with their sphere (sortPacked, codes below 2³²) or as orderKeys
// (above) is sortKeys' (by code, then by sphere), on codes with many ties,
// spread over 21, 31 and 32 bits (the largest packed and the smallest
// not), and over all 63 bits of a Morton code.
func TestMortonPermAsSortKeys(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	for _, tc := range []struct {
		n    int
		span uint64
	}{{0, 1}, {1, 1}, {3000, 1}, {5000, 7}, {20000, 1 << 21}, {20000, 1 << 31}, {20000, 1 << 32}, {20000, 1 << 33}, {20000, 1 << 63}} {
		codes := make([]uint64, tc.n)
		keys := make([]orderKey, tc.n)
		for k := range codes {
			codes[k] = rng.Uint64() % tc.span
			if tc.span == 1<<32 && k == 0 {
				codes[k] = 1<<32 - 1 // the largest packed code
			}
			keys[k] = orderKey{codes[k], int32(k)}
		}
		keys = sortKeys(keys)
		got := make([]int32, tc.n)
		mortonPerm(codes, got, &orderScratch{})
		if len(got) != tc.n {
			t.Fatalf("n %d: %d spheres in the order", tc.n, len(got))
		}
		for k := range keys {
			if got[k] != keys[k].k {
				t.Fatalf("n %d, codes below %d: sphere %d of the order is %d, sortKeys' %d", tc.n, tc.span, k, got[k], keys[k].k)
			}
		}
	}
}

// TestMortonPermBytes: the renumbering's sort of 10⁵ codes of a 47³-cell
// lattice allocates the order (4 bytes a sphere) and the radix sort's
// buffer (8): sortKeys' orderKeys took 16 bytes a sphere and as many for
// its buffer (36 with the order; 16 MB more at 10⁶ spheres).
func TestMortonPermBytes(t *testing.T) {
	const n = 100000
	codes := make([]uint64, n)
	for k := range codes {
		c := uint64(k) * 7919 % (47 * 47 * 47)
		codes[k] = morton(c%47, c/47%47, c/(47*47))
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	perm := make([]int32, n)
	mortonPerm(codes, perm, &orderScratch{})
	runtime.ReadMemStats(&m1)
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 13*n {
		t.Fatalf("mortonPerm of %d codes allocated %d bytes (%.1f a sphere), want at most 13 a sphere", n, got, float64(got)/n)
	}
	if len(perm) != n {
		t.Fatal("not every sphere ordered")
	}
}

// BenchmarkSortKeys: the renumbering's sort of 10⁵ Morton keys of a
// shuffled 47³-cell lattice, radix and the comparison sort it replaced.
func BenchmarkSortKeys(b *testing.B) {
	rng := rand.New(rand.NewSource(16))
	src := make([]orderKey, 100000)
	for k := range src {
		c := uint64(rng.Intn(47 * 47 * 47))
		src[k] = orderKey{morton(c%47, c/47%47, c/(47*47)), int32(k)}
	}
	keys := make([]orderKey, len(src))
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(keys, src)
			sortKeys(keys)
		}
	})
	b.Run("comparison", func(b *testing.B) {
		for b.Loop() {
			copy(keys, src)
			slices.SortFunc(keys, func(a, b orderKey) int {
				if a.key != b.key {
					if a.key < b.key {
						return -1
					}
					return 1
				}
				return int(a.k - b.k)
			})
		}
	})
}

// TestPermuteAsGather: the in-place renumbering along the cycles of a
// permutation gives what the gather out[k] = v[perm[k]] into a second array
// gave, for the identity, one swap, one long cycle and random permutations
// (with fixed points), and it is read no further than the array's length.
func TestPermuteAsGather(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	perms := [][]int32{{}, {0}, {0, 1, 2}, {1, 0}, {1, 2, 3, 4, 0}}
	for _, n := range []int{7, 100, 5000} {
		p := make([]int32, n)
		for k := range p {
			p[k] = int32(k)
		}
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		perms = append(perms, p)
		q := make([]int32, n) // mostly fixed points, a few swaps
		for k := range q {
			q[k] = int32(k)
		}
		for range n / 10 {
			i, j := rng.Intn(n), rng.Intn(n)
			q[i], q[j] = q[j], q[i]
		}
		perms = append(perms, q)
	}
	for _, perm := range perms {
		n := len(perm)
		v := make([]float64, n)
		for k := range v {
			v[k] = rng.Float64()
		}
		want := make([]float64, n)
		for k, o := range perm {
			want[k] = v[o]
		}
		cyc := cycleOrder(perm, &orderScratch{})
		permute(v, cyc)
		if !slices.Equal(v, want) {
			t.Errorf("n = %d: permute gives %v, want %v", n, v[:min(n, 8)], want[:min(n, 8)])
		}
		if len(cyc) > n {
			t.Errorf("n = %d: %d cycle entries", n, len(cyc))
		}
	}
}
