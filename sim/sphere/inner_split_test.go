package sphere

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// TestInnerSplitSameAsSelect: a selection split in ranges (SelectRange on
// consecutive ranges, JoinParts) gives Select's and SelectLoose's P, K,
// Out, Held, On and result to the bit, whatever the ranges (1 to 9 parts,
// random cuts, empty ones) and the order the parts ran in, at every level,
// one class and mixed, with limits from 0 to above the selection (every
// limit around the selection's size: the failure keeps the first limit
// pairs). It fails with the parts joined out of range order, with Out
// taken from one part or with a part's excess pairs kept.
func TestInnerSplitSameAsSelect(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	checked, failed := 0, 0
	for trial := range 24 {
		c := innerSetup(rng, 120, trial%3 == 2)
		l := c.l
		n := len(l.P)
		var loose []bool
		if trial%2 == 1 {
			loose = make([]bool, len(c.ref))
			for i := range loose {
				loose[i] = rng.Intn(9) == 0
			}
		}
		if trial == 5 { // a reference that is not a number: its pairs in no level
			c.ref[3].X = math.NaN()
		}
		for lev := range InnerLevels {
			var want Inner
			want.Delta = c.skin / InnerLevels
			want.SelectLoose(l, c.ref, loose, lev, n)
			m := len(want.P)
			for _, limit := range []int{0, 1, m / 2, m - 1, m, m + 1, n} {
				limit = max(limit, 0)
				var ws Inner
				ws.Delta = want.Delta
				wok := ws.SelectLoose(l, c.ref, loose, lev, limit)
				nparts := 1 + rng.Intn(9)
				cuts := []int{0, n}
				for range nparts - 1 {
					cuts = append(cuts, rng.Intn(n+1))
				}
				slices.Sort(cuts)
				var got Inner
				got.Delta = want.Delta
				got.P = append(got.P, Pair{I: 7, J: 8}) // stale pairs: replaced
				parts := got.Parts(len(cuts) - 1)
				for _, i := range rng.Perm(len(parts)) { // any order
					got.SelectRange(l, c.ref, loose, lev, limit, cuts[i], cuts[i+1], &parts[i])
				}
				gok := got.JoinParts(l, parts, lev, limit)
				if gok != wok || got.On != ws.On || got.Held != ws.Held ||
					math.Float64bits(got.Out) != math.Float64bits(ws.Out) ||
					!slices.Equal(got.P, ws.P) || !slices.Equal(got.K, ws.K) {
					t.Fatalf("trial %d level %d limit %d, %d parts: split (%v, on %v, held %d, out %g, %d pairs) != serial (%v, on %v, held %d, out %g, %d pairs)",
						trial, lev, limit, len(parts), gok, got.On, got.Held, got.Out, len(got.P), wok, ws.On, ws.Held, ws.Out, len(ws.P))
				}
				checked++
				if !wok {
					failed++
				}
			}
		}
	}
	t.Logf("%d selections compared, %d over their limit", checked, failed)
	if failed < 100 || checked-failed < 100 {
		t.Fatalf("too few of one outcome: %d of %d over the limit", failed, checked)
	}
}
