package sphere

import (
	"math/rand"
	"testing"
)

// TestRVSplitFailMemory (review r1): a selection over its limit (the
// world's limit, a quarter of the list) split in 8 ranges keeps in its
// parts up to min(range, limit) pairs a range — the whole list — where the
// serial Select stops at limit pairs; the parts are kept in the Inner.
// It reports the parts' storage against Select's.
func TestRVSplitFailMemory(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	c := innerSetup(rng, 400, false)
	l := c.l
	n := len(l.P)
	limit := n / 4
	var ser Inner
	ser.Delta = c.skin / InnerLevels
	ok := ser.Select(l, c.ref, InnerLevels-1, limit)
	var sp Inner
	sp.Delta = ser.Delta
	parts := sp.Parts(8)
	for i := range parts {
		sp.SelectRange(l, c.ref, nil, InnerLevels-1, limit, i*n/8, (i+1)*n/8, &parts[i])
	}
	sok := sp.JoinParts(l, parts, InnerLevels-1, limit)
	held := 0
	for i := range sp.parts {
		held += cap(sp.parts[i].P)
	}
	t.Logf("list %d pairs, limit %d: serial ok=%v P cap %d; split ok=%v P cap %d, parts hold %d pairs (kept)", n, limit, ok, cap(ser.P), sok, cap(sp.P), held)
	if ok || sok {
		t.Fatal("the case should fail its limit")
	}
	if held > limit {
		t.Errorf("the parts keep %d pairs (%.1f× the limit %d) after a failed split selection; serial holds at most %d", held, float64(held)/float64(limit), limit, cap(ser.P))
	}
}
