package world

import (
	"testing"
	"time"
)

// rv1 (abdf806, failed by design before): a pass inside a pass's body on a
// helper ran with worker index 0 — the caller's index and scratch — and
// updated Stats.Profile from the helper. It now runs inline as the enclosing
// worker: every nested item once, with the enclosing index, for parallel
// and stagesPass, with two helpers nesting at once (under -race, a shared
// scratch or Profile written from two goroutines is a data race), and the
// nested passes are not counted as fork–joins.
func TestCrewNestedOnHelper(t *testing.T) {
	w := New("crew")
	for _, nw := range []int{2, 3} {
		w.Settings.Workers = nw
		onHelper := 0
		for rep := 0; rep < 50; rep++ {
			x := make([]float64, 2048)
			wrong := make([]int32, 2048) // per outer item: nested items with a wrong index
			count := make([]int32, 2048*128)
			nestedOn := make([]int, 2048)
			f0 := w.Stats.Profile.ForkJoins
			w.parallel(len(x), func(k, i int) {
				for j := 0; j < 2000; j++ {
					x[i] += float64(j)
				}
				nestedOn[i] = -1
				if i%64 != 0 {
					return
				}
				nestedOn[i] = k
				w.parallel(128, func(k2, j int) {
					count[i*128+j]++
					if k2 != k {
						wrong[i]++
					}
				})
				var spent [3]time.Duration
				w.stagesPass(128, [3]func(worker, lo, hi int){nil, func(k2, lo, hi int) {
					for j := lo; j < hi; j++ {
						count[i*128+j]++
						if k2 != k {
							wrong[i]++
						}
					}
				}}, &spent)
			})
			if got := w.Stats.Profile.ForkJoins - f0; got != 1 {
				t.Errorf("workers %d: %d fork–joins counted for one pass with nested ones, want 1", nw, got)
			}
			for i := range wrong {
				if wrong[i] != 0 {
					t.Fatalf("workers %d: a pass nested in worker %d's batch ran %d items with another worker index", nw, nestedOn[i], wrong[i])
				}
				if nestedOn[i] > 0 {
					onHelper++
				}
				for j := 0; j < 128; j++ {
					if want := int32(0); nestedOn[i] >= 0 {
						want = 2
						if count[i*128+j] != want {
							t.Fatalf("workers %d: nested item %d of outer %d ran %d times, want %d", nw, j, i, count[i*128+j], want)
						}
					}
				}
			}
		}
		if onHelper == 0 {
			t.Logf("workers %d: no nested pass ran on a helper (machine busy); the index check was on the caller only", nw)
		}
	}
}
