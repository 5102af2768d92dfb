package world

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// Every pass on the World's crew runs each item exactly once, on a worker
// index below Settings.Workers, for pass sizes around the batch and
// parallel limits and for worker counts changed between passes (the crew
// is replaced); a fork–join inside a pass's body runs inline on the worker
// running that body.
// Run under -race: the items are plain writes, so a batch run twice at
// once, or a job read while the caller rewrites it, is a data race.
func TestCrewRunsEveryItemOnce(t *testing.T) {
	w := New("crew")
	for rep := 0; rep < 200; rep++ {
		nw := 1 + rep%4
		w.Settings.Workers = nw
		n := []int{0, 1, 63, 64, 65, 300, 1000, 5483}[rep%8]
		count := make([]int32, n)
		bad := make([]bool, n)
		w.parallel(n, func(k, i int) {
			count[i]++
			bad[i] = k < 0 || k >= nw
		})
		for i := range count {
			if count[i] != 1 || bad[i] {
				t.Fatalf("workers %d, n %d: item %d ran %d times (bad worker index: %v)", nw, n, i, count[i], bad[i])
			}
		}
		var spent [3]time.Duration
		seen := make([][3]bool, n)
		order := make([]bool, n)
		w.stagesPass(n, [3]func(worker, lo, hi int){
			func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					seen[i][0] = true
				}
			},
			nil,
			func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					order[i] = seen[i][0] && !seen[i][2]
					seen[i][2] = true
				}
			},
		}, &spent)
		for i := range seen {
			if !order[i] || seen[i][1] {
				t.Fatalf("workers %d, n %d: stages of item %d ran %v (in order: %v)", nw, n, i, seen[i], order[i])
			}
		}
	}
	// A pass inside a pass's body: on the calling worker, every item once.
	w.Settings.Workers = 2
	outer, inner := make([]int32, 256), make([]int32, 256*100)
	w.parallel(len(outer), func(k, i int) {
		outer[i]++
		if i == 7 && k == 0 { // the caller's batch: its nested pass runs inline, as worker 0
			w.parallel(len(inner), func(k2, j int) {
				if k2 == 0 {
					inner[j]++
				}
			})
		}
	})
	for i, c := range outer {
		if c != 1 {
			t.Fatalf("outer item %d ran %d times", i, c)
		}
	}
}

// The crew's helpers exit once parked for crewIdle: a World that stops
// stepping, or whose crew was replaced when Settings.Workers changed,
// leaves no goroutine behind (the window's loop drops its World on every
// load and reset; Settings.Workers is set once, when a World is built,
// and changed between passes only by tests).
func TestCrewLeavesNoGoroutine(t *testing.T) {
	base := runtime.NumGoroutine()
	w := New("crew")
	for _, nw := range []int{2, 4, 3, 2} {
		w.Settings.Workers = nw
		for rep := 0; rep < 50; rep++ {
			w.parallel(1000, func(_, i int) {})
		}
	}
	if w.Stats.Profile.ForkJoins != 200 {
		t.Errorf("%d fork–joins counted, want 200", w.Stats.Profile.ForkJoins)
	}
	deadline := time.Now().Add(20 * crewIdle)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines %v after the last pass, %d before:\n%s", runtime.NumGoroutine(), 20*crewIdle, base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
	// And they come back for the next pass.
	count := make([]int32, 1000)
	w.parallel(len(count), func(_, i int) { count[i]++ })
	for i, c := range count {
		if c != 1 {
			t.Fatalf("after the helpers exited: item %d ran %d times", i, c)
		}
	}
}

// The cost of one fork–join on the crew: a pass over 300 items with
// almost no work (the kick of 300 bodies is some 30 µs on one core).
func BenchmarkForkJoin(b *testing.B) {
	for _, nw := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[nw], func(b *testing.B) {
			w := New("crew")
			w.Settings.Workers = nw
			x := make([]float64, 300)
			for b.Loop() {
				w.parallelRange(len(x), func(_, lo, hi int) {
					for i := lo; i < hi; i++ {
						x[i]++
					}
				})
			}
		})
	}
}

// A pass on two or more workers claims guided batches, the caller from the
// front and the helpers from the back: they tile [0, n), the first claimed
// is 1/(passGuide·nw) of the items (at one end), sizes never grow towards
// the point where the two ends meet (a valley: non-increasing, then
// non-decreasing), and every batch but the one that met the other end has
// at least passBatch items, so the workers of a pass finish within a few
// items of each other; the Profile counts the batches run.
func TestCrewGuidedBatches(t *testing.T) {
	w := New("crew")
	for _, nw := range []int{2, 3} {
		w.Settings.Workers = nw
		for _, n := range []int{64, 300, 5483} {
			var mu sync.Mutex
			var got [][2]int
			b0 := w.Stats.Profile.Batches
			w.parallelRange(n, func(_, lo, hi int) {
				mu.Lock()
				got = append(got, [2]int{lo, hi})
				mu.Unlock()
			})
			slices.SortFunc(got, func(a, b [2]int) int { return a[0] - b[0] })
			if int(w.Stats.Profile.Batches-b0) != len(got) {
				t.Fatalf("workers %d, n %d: %d batches counted, %d run", nw, n, w.Stats.Profile.Batches-b0, len(got))
			}
			want := max(passBatch, n/(passGuide*nw))
			size := func(i int) int { return got[i][1] - got[i][0] }
			if first, last := size(0), size(len(got)-1); max(first, last) != want {
				t.Errorf("workers %d, n %d: end batches %d and %d items, want one of %d", nw, n, first, last, want)
			}
			small, falling := 0, true
			for i, b := range got {
				if (i == 0 && b[0] != 0) || (i > 0 && b[0] != got[i-1][1]) || size(i) <= 0 {
					t.Fatalf("workers %d, n %d: batches %v do not tile [0, n)", nw, n, got)
				}
				if i > 0 && size(i) > size(i-1) {
					falling = false
				} else if i > 0 && !falling && size(i) < size(i-1) {
					t.Fatalf("workers %d, n %d: batch sizes %v grow towards the meeting point", nw, n, got)
				}
				if size(i) < passBatch {
					small++
				}
			}
			if got[len(got)-1][1] != n || small > 1 {
				t.Fatalf("workers %d, n %d: batches %v: end %d, %d under %d items", nw, n, got, got[len(got)-1][1], small, passBatch)
			}
			if n > 1000 && len(got) >= (n+passBatch-1)/passBatch/4 {
				t.Errorf("workers %d, n %d: %d batches", nw, n, len(got))
			}
		}
	}
}

// contactSums.split tiles the bodies with one range per worker, each range
// holding about the same count of contact sides plus bodies, range 0's
// extra work included (the next pass's planning, n/planShare on two or
// more workers): within the largest single body's weight of the mean.
func TestContactSumsSplit(t *testing.T) {
	var s contactSums
	s.split(10, 3) // no counts yet: bodies shared evenly, range 0 less by 10/3
	if want := []int32{0, 2, 6, 10}; !slices.Equal(s.bounds, want) {
		t.Fatalf("even split %v, want %v", s.bounds, want)
	}
	for _, nw := range []int{1, 2, 3, 7} {
		s.sides = make([]int32, 305)
		extra := int64(0)
		if nw > 1 {
			extra = 305 / planShare
		}
		total, heaviest := extra, int64(0)
		for i := range s.sides {
			s.sides[i] = int32((i * 7919) % 23)
			if i > 250 {
				s.sides[i] = 0 // a cluster of free bodies at the end
			}
			total += int64(s.sides[i]) + 1
			heaviest = max(heaviest, int64(s.sides[i])+1)
		}
		s.split(305, nw)
		if s.bounds[0] != 0 || s.bounds[nw] != 305 || len(s.bounds) != nw+1 {
			t.Fatalf("%d workers: bounds %v", nw, s.bounds)
		}
		for k := 0; k < nw; k++ {
			w := int64(0)
			if k == 0 {
				w = extra
			}
			for _, c := range s.sides[s.bounds[k]:s.bounds[k+1]] {
				w += int64(c) + 1
			}
			if d := w - total/int64(nw); d > heaviest || d < -heaviest {
				t.Errorf("%d workers: range %d weighs %d, mean %d (bounds %v)", nw, k, w, total/int64(nw), s.bounds)
			}
		}
	}
}
