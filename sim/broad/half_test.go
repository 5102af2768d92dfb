package broad

import (
	"math/rand"
	"slices"
	"testing"
)

// TestCellPairsMatchesGo: cellPairs (SSE2 on amd64) against cellPairsGo on
// random cells and ranges of 0–7 bodies, centres on a coarse lattice
// (many pairs exactly at the bound: the test is <=) and at random, the
// bound from a pair's own distance, bodies numbered apart from their
// slots: the same pairs of bodies in the same order.
func TestCellPairsMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	for round := range 4000 {
		n := 1 + rng.Intn(40)
		sl := make([]slotBody, n)
		for k := range sl {
			if round%2 == 0 {
				sl[k] = slotBody{float64(rng.Intn(4)) * 0.5, float64(rng.Intn(4)) * 0.5, float64(rng.Intn(4)) * 0.5, int32(7*k + 3)}
			} else {
				sl[k] = slotBody{rng.Float64(), rng.Float64(), rng.Float64(), int32(7*k + 3)}
			}
		}
		a0 := int32(rng.Intn(n))
		a1 := a0 + int32(rng.Intn(min(8, n-int(a0)+1)))
		if a1 == a0 {
			a1 = a0 + 1
		}
		var rg [5][2]int32
		rg[0][1] = a1 + int32(rng.Intn(n-int(a1)+1))
		nr := 1 + rng.Intn(5)
		for r := 1; r < nr; r++ {
			b0 := int32(rng.Intn(n))
			rg[r] = [2]int32{b0, b0 + 1 + int32(rng.Intn(n-int(b0)))}
		}
		p, q := sl[rng.Intn(n)], sl[rng.Intn(n)]
		dx, dy, dz := p.X-q.X, p.Y-q.Y, p.Z-q.Z
		s2 := float64(dx*dx) + float64(dy*dy) + float64(dz*dz)
		if round%3 == 0 {
			s2 = 0.25
		}
		tot := int(rg[0][1] - a0)
		for _, r := range rg[1:nr] {
			tot += int(r[1] - r[0])
		}
		need := int(a1-a0)*tot + 1
		got := make([][2]int32, need)
		want := make([][2]int32, need)
		rg2 := rg
		ng := cellPairs(sl, a0, a1, &rg, nr, s2, got)
		nw := cellPairsGo(sl, a0, a1, &rg2, nr, s2, want)
		if !slices.Equal(got[:ng], want[:nw]) {
			t.Fatalf("round %d: %d pairs %v, Go %d pairs %v", round, ng, got[:ng], nw, want[:nw])
		}
	}
}
