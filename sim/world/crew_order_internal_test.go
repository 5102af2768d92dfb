package world

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCrewOrderedClaims: an ordered job (crew.run with an order, as
// crewPassOrder gives it) runs every item once, one item a call; on one
// worker in the given order, and on two and three each worker's items in
// the order's sequence (claims from the front). It fails when the claim
// ignores the order or claims an item twice.
//
// Two-ended (guide > 0, crewPassNear): every item once; on one worker in
// the order; the caller's items in the order's sequence from its front,
// each helper's from its back.
func TestCrewOrderedClaims(t *testing.T) {
	order := []int32{5, 2, 7, 0, 1, 6, 3, 4, 9, 8}
	n := len(order)
	pos := make([]int, n)
	for p, i := range order {
		pos[i] = p
	}
	for _, two := range []bool{false, true} {
		for _, nw := range []int{1, 2, 3} {
			c := newCrew(nw)
			guide := 0
			if two {
				guide = n
			}
			for round := 0; round < 200; round++ {
				var mu sync.Mutex
				seq := make([][]int, nw)
				var runs [10]atomic.Int32
				c.run(n, 1, guide, order, func(k, lo, hi int) {
					if hi != lo+1 {
						t.Errorf("items [%d, %d) in one call", lo, hi)
					}
					runs[lo].Add(1)
					mu.Lock()
					seq[k] = append(seq[k], lo)
					mu.Unlock()
				})
				for i := range runs {
					if r := runs[i].Load(); r != 1 {
						t.Fatalf("%d workers: item %d ran %d times", nw, i, r)
					}
				}
				if nw == 1 && !slices.Equal(seq[0], []int{5, 2, 7, 0, 1, 6, 3, 4, 9, 8}) {
					t.Fatalf("one worker ran %v, not the order %v", seq[0], order)
				}
				for k, s := range seq {
					for j := 1; j < len(s); j++ {
						if back := two && k > 0; pos[s[j]] < pos[s[j-1]] != back {
							t.Fatalf("%d workers (two-ended %v): worker %d ran %v, not in the order's sequence", nw, two, k, s)
						}
					}
				}
				if c.order != nil || c.body != nil {
					t.Fatal("the job's order or body kept after the join")
				}
			}
			c.close()
		}
	}
}

// TestForkCostOrder: a costed pass's claim order is its items by their
// last costs, largest first, equal costs by index.
func TestForkCostOrder(t *testing.T) {
	c := forkCost{ns: []int64{5, 9, 9, 1, 0, 7, 0}, order: make([]int32, 7)}
	c.sortOrder()
	if want := []int32{1, 2, 5, 0, 3, 4, 6}; !slices.Equal(c.order, want) {
		t.Fatalf("order %v, want %v", c.order, want)
	}
	c.ns = []int64{0, 0, 0}
	c.order = c.order[:3]
	c.sortOrder()
	if want := []int32{0, 1, 2}; !slices.Equal(c.order, want) {
		t.Fatalf("no costs yet: order %v, want %v", c.order, want)
	}
}
