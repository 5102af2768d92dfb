package world

// The first build's fresh pairs: every pair, no list (issue #16, memory
// per sphere; docs/performance.md, "Session 25: the set-up's peak" and
// "Session 26: memory at 10⁶").
//
// A list's first build (no old list) makes every candidate pair new, hence
// fresh (its travel bound taken once by the next StableDt): the fresh list
// is every list index 0 … n−1. Session 25 wrote it into one array (4 bytes
// a pair, 11.6 MB at 10⁶ spheres, 3 M pairs) at the set-up's peak, freed
// by that StableDt. Now no range lists its fresh pairs (merger.allNew),
// pairsEnd records their number (rebuildState.freshFirst) with s.fresh
// empty, and the readers take the pairs 0 … n−1 in its place (freshCount,
// StableDt's ranges of the list: the same pairs in the same order, the
// same minimum). The next StableDt or finishList ends it.

// takeFirstFresh is pairsEnd's join of a first build's fresh pairs (np of
// them: the whole list): it records them as the list's first np pairs,
// s.fresh empty, and reports whether it did (else, a later build, pairsEnd
// joins the ranges' lists as ever).
func (s *Spheres) takeFirstFresh(np int) bool {
	rb := &s.rb
	if !rb.allNew {
		rb.freshFirst = 0 // a later build: its fresh pairs are the ranges' (review r3)
		return false
	}
	rb.allNew = false
	s.fresh, rb.freshFirst = s.fresh[:0], np
	return true
}

// freshCount returns the number of fresh pairs: those of s.fresh, or the
// first build's (freshFirst).
func (s *Spheres) freshCount() int { return len(s.fresh) + s.rb.freshFirst }
