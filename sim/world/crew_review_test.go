package world

import (
	"sync/atomic"
	"testing"
	"time"
)

// rv1 review: a panic in a pass's body on the caller (worker 0) is
// recovered by app.SimLoop.guard ("internal error …; paused (R resets)").
// The World must then be usable as before: no job left open, no helper
// still running the panicked job's body after the caller recovered, and
// later passes on two workers again. Fails at 3f6595b: crew.run has no
// deferred cleanup, so busy stays true (every later fork–join runs on
// the caller alone: Helped stays 0) and the epoch stays open.
func TestCrewAfterCallerPanic(t *testing.T) {
	w := New("crew")
	w.Settings.Workers = 2
	for rep := 0; rep < 20; rep++ { // the helper up and polling
		w.parallel(4096, func(_, i int) {})
	}
	var after atomic.Int64 // items of the panicked job run after the recovery
	var recovered atomic.Bool
	func() {
		defer func() {
			if recover() != nil {
				recovered.Store(true)
			}
		}()
		w.parallel(4096, func(k, i int) {
			if recovered.Load() {
				after.Add(1)
			}
			if k == 0 {
				panic("a bug in a stage")
			}
			time.Sleep(time.Microsecond) // the helper still busy when the caller panics
		})
	}()
	time.Sleep(50 * time.Millisecond)
	if n := after.Load(); n > 0 {
		t.Errorf("%d items of the panicked job ran after the caller recovered (the helper still inside the job)", n)
	}
	if w.crew.busy {
		t.Errorf("crew.busy still true after the panic: every later fork–join runs serially")
	}
	if e := w.crew.epoch.Load(); e&1 == 0 {
		t.Errorf("epoch %d: the panicked job is still open", e)
	}
	h0 := w.Stats.Profile.Helped
	for rep := 0; rep < 200; rep++ {
		x := make([]float64, 4096)
		w.parallel(len(x), func(_, i int) {
			for j := 0; j < 200; j++ {
				x[i] += float64(j) * 1e-3
			}
		})
	}
	if w.Stats.Profile.Helped == h0 {
		t.Errorf("after the panic, 200 passes of 4096 items on 2 workers: the helper ran no batch")
	}
}

// rv1 review: a panic in a helper's batch is a panic of the pass, raised
// on the caller after the join, so app.SimLoop.guard can recover it as it
// recovers one on the caller. At 3f6595b (as with runBatches' goroutines
// before it) the panic kills the process: run it in a subprocess to see,
// `go test -run TestCrewHelperPanic ./sim/world/`.
func TestCrewHelperPanic(t *testing.T) {
	w := New("crew")
	w.Settings.Workers = 2
	var got any
	for rep := 0; rep < 100 && got == nil; rep++ {
		func() {
			defer func() { got = recover() }()
			w.parallel(4096, func(k, i int) {
				if k != 0 {
					panic("a bug in a stage, on the helper")
				}
				time.Sleep(time.Microsecond)
			})
		}()
	}
	if got != "a bug in a stage, on the helper" {
		t.Fatalf("recovered %v on the caller, want the helper's panic", got)
	}
	count := make([]int32, 4096)
	w.parallel(len(count), func(_, i int) { count[i]++ })
	for i, c := range count {
		if c != 1 {
			t.Fatalf("after the helper's panic: item %d ran %d times", i, c)
		}
	}
}

// rv1 review: two Worlds stepping at once in one process (--compare runs
// the second world on its own goroutine) each have their own crew: under
// -race, every item once and no shared state between the crews.
func TestCrewTwoWorldsAtOnce(t *testing.T) {
	done := make(chan string, 2)
	for g := 0; g < 2; g++ {
		go func() {
			w := New("crew")
			w.Settings.Workers = 2 + g
			count := make([]int32, 3000)
			for rep := 0; rep < 300; rep++ {
				w.parallel(len(count), func(_, i int) { count[i]++ })
			}
			for i, c := range count {
				if c != 300 {
					done <- "an item ran a wrong number of times: " + string(rune('0'+i%10))
					return
				}
			}
			done <- ""
		}()
	}
	for g := 0; g < 2; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}
