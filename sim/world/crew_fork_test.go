package world

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// The sphere path's fork claims its parts from both ends: the caller from
// the front, the helpers from the back, so that from pass to pass each
// core runs the same ranges of spheres (docs/performance.md, "Session 17:
// two workers"). The caller holds its first part until a helper has run
// one: that part must be the last, and at the end the caller's parts are
// a prefix of [0, n) and the helper's the rest. (Claimed from one counter
// in order, the helper's first part was part 1.) Every part runs once.
func TestSphereForkTwoEnded(t *testing.T) {
	w := New("fork")
	w.Settings.Workers = 2
	s := &Spheres{w: w}
	for _, n := range []int{2, nChunks, nChunks + 1, 3 * nChunks} {
		var mu sync.Mutex
		ran := make([]int, n) // worker+1 of each part (0: not run)
		var order []int       // the helper's parts in the order it ran them
		helped := make(chan struct{})
		timedOut := false
		s.fork(n, func(k, lo, hi int) {
			for p := lo; p < hi; p++ {
				mu.Lock()
				if ran[p] != 0 {
					t.Errorf("n %d: part %d ran twice", n, p)
				}
				ran[p] = k + 1
				if k > 0 {
					if len(order) == 0 {
						close(helped)
					}
					order = append(order, p)
				}
				mu.Unlock()
				if k == 0 && p == 0 {
					select { // the caller waits in its first part for the helper
					case <-helped:
					case <-time.After(5 * time.Second):
						timedOut = true
					}
				}
				runtime.Gosched()
			}
		})
		if timedOut {
			t.Skipf("n %d: no helper ran a part within 5 s", n)
		}
		if order[0] != n-1 {
			t.Errorf("n %d: the helper's first part is %d, want the last, %d (helper's parts %v)", n, order[0], n-1, order)
		}
		m := 0 // the caller's prefix
		for m < n && ran[m] == 1 {
			m++
		}
		for p := range n {
			if ran[p] == 0 {
				t.Fatalf("n %d: part %d did not run", n, p)
			}
			if p >= m && ran[p] != 2 {
				t.Errorf("n %d: parts by worker+1 %v: the caller's are not a prefix and the helper's the rest", n, ran)
				break
			}
		}
	}
}
