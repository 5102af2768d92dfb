package world

import "slices"

// The first build's fresh pairs in one array (issue #16, memory per sphere;
// docs/performance.md, "Session 25: the set-up's peak").
//
// A list's first build (no old list) makes every candidate pair new, hence
// fresh (its travel bound taken once by the next StableDt): the fresh list
// is every list index 0 … n−1. The ranges (pairsRange) used to list theirs
// in their own arrays and pairsEnd to copy them into s.fresh: two arrays of
// 4 bytes a pair (2 × 11.6 MB at 10⁶ spheres, 3 M pairs) at the set-up's
// peak, the ranges' kept until the next build. Now pairsBegin makes the one
// array (s.fresh's room), each range appends into its window of it (capped
// at the window's end: exactly its candidates, all new), and pairsEnd takes
// it whole. The fresh list is the same, in the same order.

// firstFresh returns the array the ranges of a first build (nold = 0 old
// pairs) write their fresh pairs into (n candidates), in s.fresh's room
// (whose contents pairsEnd replaces anyway); nil for a later build.
func (s *Spheres) firstFresh(nold, n int) []int32 {
	if nold != 0 {
		return nil
	}
	f := slices.Grow(s.fresh[:0], n)[:n]
	s.fresh = nil // the ranges' now, until pairsEnd (takeFirstFresh)
	return f
}

// takeFirstFresh is pairsEnd's join of a first build's fresh pairs: when
// every range wrote exactly its window of rb.freshAll (the candidates
// c0 … c1−1 of range p, all new), s.fresh is the array itself and no range
// keeps a window (a later build's ranges append into arrays of their own:
// their windows would alias s.fresh). It reports whether it took the array;
// otherwise (not a first build) pairsEnd joins the ranges' lists as ever.
func (s *Spheres) takeFirstFresh() bool {
	rb := &s.rb
	all := rb.freshAll
	if all == nil {
		return false
	}
	rb.freshAll = nil // s.fresh is nil (firstFresh): a join makes its own
	n := len(all)
	for p := range rb.part {
		c0, c1 := p*n/rebuildSplit, (p+1)*n/rebuildSplit
		f := rb.part[p].fresh
		if len(f) != c1-c0 || (c1 > c0 && &f[0] != &all[c0]) {
			return false // not pairsRange's first build (never): the ranges' lists joined into a new array
		}
	}
	for p := range rb.part {
		rb.part[p].fresh = nil
	}
	s.fresh = all
	return true
}
