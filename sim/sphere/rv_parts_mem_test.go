package sphere

import (
	"math/rand"
	"testing"
)

// TestRVSplitFailMemory (review r1; bound since b1f): a selection over its
// limit (the world's limit, a quarter of the list) split in 8 ranges, run
// in order and in reverse order (the crew claims ranges in any order):
// while it runs, its parts hold at most limit + (n+1)·partBatch(limit, n)
// pairs (n ranges; ≤ 1.25·limit + n + 1, where each range alone may keep
// up to the whole list), the failed join releases them, and P holds no
// more than the limit — with the serial outcome (false, off). Before b1f
// the parts held the whole list (1 075 pairs, 4.0× the limit 268) and kept
// it after the join.
func TestRVSplitFailMemory(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	c := innerSetup(rng, 400, false)
	l := c.l
	n := len(l.P)
	limit := n / 4
	var ser Inner
	ser.Delta = c.skin / InnerLevels
	ok := ser.Select(l, c.ref, InnerLevels-1, limit)
	if ok {
		t.Fatal("the case should fail its limit")
	}
	const np = 8
	bound := limit + (np+1)*partBatch(limit, np)
	for _, rev := range []bool{false, true} {
		var sp Inner
		sp.Delta = ser.Delta
		parts := sp.Parts(np)
		for k := range parts {
			i := k
			if rev {
				i = np - 1 - k
			}
			sp.SelectRange(l, c.ref, nil, InnerLevels-1, limit, i*n/np, (i+1)*n/np, &parts[i])
		}
		during := 0
		for i := range parts {
			during += len(parts[i].P)
		}
		sok := sp.JoinParts(l, parts, InnerLevels-1, limit)
		kept := 0
		for i := range sp.parts {
			kept += cap(sp.parts[i].P) + cap(sp.parts[i].K)
		}
		t.Logf("reverse %v: list %d pairs, limit %d: serial ok=%v P cap %d; split ok=%v on %v held %d, P cap %d, parts held %d pairs (bound %d), %d kept after the join", rev, n, limit, ok, cap(ser.P), sok, sp.On, sp.Held, cap(sp.P), during, bound, kept)
		if sok || sp.On || sp.Held != 0 {
			t.Fatalf("reverse %v: split selection (%v, on %v, held %d), serial (false, off, 0)", rev, sok, sp.On, sp.Held)
		}
		if during > bound {
			t.Errorf("reverse %v: the parts held %d pairs (%.1f× the limit %d), bound %d", rev, during, float64(during)/float64(limit), limit, bound)
		}
		if kept != 0 || cap(sp.P) > limit || cap(sp.K) > limit {
			t.Errorf("reverse %v: after the failed join the parts keep %d entries, P cap %d, K cap %d (limit %d)", rev, kept, cap(sp.P), cap(sp.K), limit)
		}
	}
}
