package world

import "testing"

// relTop.first2 (review r8): the two largest values of spheres not loose,
// ties kept (a multiset), entries without a sphere not counted, and the
// count that tells relSelect when the lists do not decide (n < 2: the
// full pass over the tight spheres).
func TestRelTopFirst2(t *testing.T) {
	var top relTop
	vals := []float64{5, 9, 9, 1, 7, 3, 8, 2, 6, 4} // 10 values: the list keeps the 8 largest
	for i, v := range vals {
		if v > top.v[relTopN-1] {
			top.add(v, i)
		}
	}
	loose := make([]bool, len(vals))
	if a, b, n := top.first2(loose); a != 9 || b != 9 || n != 2 {
		t.Errorf("none loose: %g %g %d, want 9 9 2 (a tie kept)", a, b, n)
	}
	loose[1] = true // one 9 loose
	if a, b, n := top.first2(loose); a != 9 || b != 8 || n != 2 {
		t.Errorf("one 9 loose: %g %g %d, want 9 8 2", a, b, n)
	}
	for i := range loose {
		loose[i] = true
	}
	loose[0] = false // only the 5 left tight among the list's spheres
	if a, _, n := top.first2(loose); a != 5 || n != 1 {
		t.Errorf("one tight: %g %d, want 5 1 (the full pass decides)", a, n)
	}
	loose[0] = true
	if _, _, n := top.first2(loose); n != 0 {
		t.Errorf("all loose: n = %d, want 0", n)
	}
	var empty relTop // nothing added above 0: no sphere counts
	if _, _, n := empty.first2(make([]bool, 3)); n != 0 {
		t.Errorf("empty list: n = %d, want 0", n)
	}
}
