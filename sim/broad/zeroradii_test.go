package broad

import (
	"math/rand"
	"slices"
	"testing"
)

// TestOneLevelZeroRadii: 5000 bodies of radius 0 (valid: validBody takes
// r = 0) with a positive margin qualify for oneLevel (rmin = margin > 0);
// Pairs must return the brute-force list, serial and on two workers, on a
// fresh Grid. Review r2 (session 16): one radius of 0 left rsame = 0 and
// slR unsized while slotRange wrote it — index out of range.
func TestOneLevelZeroRadii(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	n := 5000
	c := randBox(rng, n, 5)
	r := make([]float64, n)
	margin := 0.15
	want := brute(c, r, margin, nil)
	for w, fk := range []func(int, func(int, int, int)){nil, forkWorkers(2)} {
		var got [][2]int32
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("workers %d: panic %v", w, e)
				}
			}()
			g := Grid{Fork: fk}
			got = g.Pairs(c, r, margin, nil, nil)
		}()
		if !slices.Equal(got, want) {
			t.Fatalf("workers %d: %d pairs, brute force %d", w, len(got), len(want))
		}
	}
}
