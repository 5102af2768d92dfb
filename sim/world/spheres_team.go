package world

import (
	"sync"
	"sync/atomic"
	"time"
)

// team runs a split evaluation of the sphere path on two goroutines: the
// caller and a persistent helper. A step of a small system lasts
// microseconds, less than waking a sleeping goroutine costs, so every wait
// (the helper for the next job, the caller for the helper, either at a
// barrier) first spins for a few microseconds and only then sleeps: on an
// idle machine the two meet spinning; on a busy one a waiter soon gives its
// processor away. The helper exits after a second without work.
type team struct {
	workers int // 2 while a job runs

	job  func(worker int)
	seq  atomic.Uint64 // jobs posted
	done atomic.Uint64 // jobs the helper finished
	bar  atomic.Uint64 // barrier arrivals, two per job
	wake [2]signal     // per worker: 0 the caller, 1 the helper

	mu      sync.Mutex
	running bool // a helper goroutine exists (guarded by mu)
}

const (
	teamSpin = 4096            // polls before a waiter sleeps (a few µs)
	teamIdle = 1 * time.Second // a sleeping helper exits after this long without work
)

// signal lets one goroutine sleep until another has made a condition true.
type signal struct {
	mu       sync.Mutex
	sleeping bool
	ch       chan struct{}
}

// notify wakes the goroutine sleeping on s, if any; call it after making
// its condition true.
func (s *signal) notify() {
	s.mu.Lock()
	if s.sleeping {
		s.sleeping = false
		s.ch <- struct{}{}
	}
	s.mu.Unlock()
}

// wait returns once ready reports true: it spins teamSpin polls, then
// sleeps until notified (and checks again). With a non-nil timeout it gives
// up when a sleep lasts that long and reports false.
func (s *signal) wait(ready func() bool, timeout *time.Timer) bool {
	for {
		for i := 0; i < teamSpin; i++ {
			if ready() {
				return true
			}
		}
		s.mu.Lock()
		if s.ch == nil {
			s.ch = make(chan struct{}, 1)
		}
		if ready() {
			s.mu.Unlock()
			return true
		}
		s.sleeping = true
		s.mu.Unlock()
		if timeout == nil {
			<-s.ch
			continue
		}
		timeout.Reset(teamIdle)
		select {
		case <-s.ch:
		case <-timeout.C:
			s.mu.Lock()
			if s.sleeping { // nobody is coming: give up
				s.sleeping = false
				s.mu.Unlock()
				return false
			}
			s.mu.Unlock()
			<-s.ch // notified while the timer fired
		}
	}
}

// run calls f(0) on the calling goroutine and f(1) on the helper, and
// returns when both are done. Each job must call barrier once per worker.
func (t *team) run(f func(worker int)) {
	t.workers = 2
	t.job = f
	g := t.seq.Add(1)
	t.mu.Lock()
	if !t.running {
		t.running = true
		go t.helper(g - 1)
	}
	t.mu.Unlock()
	t.wake[1].notify()
	f(0)
	t.wake[0].wait(func() bool { return t.done.Load() >= g }, nil)
}

// barrier returns once both workers of the job have reached it.
func (t *team) barrier(worker int) {
	target := t.seq.Load() * 2
	t.bar.Add(1)
	t.wake[1-worker].notify()
	t.wake[worker].wait(func() bool { return t.bar.Load() >= target }, nil)
}

// helper is the second worker: it runs jobs last+1, last+2, … as they are
// posted, and exits after teamIdle without one.
func (t *team) helper(last uint64) {
	timer := time.NewTimer(teamIdle)
	defer timer.Stop()
	for {
		g := last + 1
		if !t.wake[1].wait(func() bool { return t.seq.Load() >= g }, timer) {
			t.mu.Lock()
			if t.seq.Load() < g {
				t.running = false
				t.mu.Unlock()
				return
			}
			t.mu.Unlock() // a job came after all
		}
		t.job(1)
		last = g
		t.done.Store(g)
		t.wake[0].notify()
	}
}

// SplitMode says how the sphere path uses two workers (Settings.Workers > 1):
// its evaluations on one worker and on two give the same bits, so the choice
// is about time only.
type SplitMode uint8

// The split modes.
const (
	// SplitAuto splits an evaluation when that has measured faster: a step
	// of a small system lasts microseconds, and on a shared machine the two
	// workers rarely run at once.
	SplitAuto SplitMode = iota
	SplitNever
	SplitAlways
)

// splitChoice is SplitAuto's bookkeeping: moving averages of an
// evaluation's wall time on one worker and on two, the faster way in use,
// the other tried for a few evaluations every so often.
type splitChoice struct {
	ns    [2]float64 // one worker, two
	runs  [2]int
	count int
}

const (
	splitProbeEvery = 2048 // evaluations between tries of the slower way
	splitProbeRuns  = 8    // evaluations per try
)

// pick reports whether the next evaluation is split.
func (c *splitChoice) pick(can bool, mode SplitMode) bool {
	switch {
	case !can || mode == SplitNever:
		return false
	case mode == SplitAlways:
		return true
	}
	c.count++
	if c.runs[0] < splitProbeRuns || c.runs[1] < splitProbeRuns {
		return c.count%2 == 0
	}
	faster := c.ns[1] < c.ns[0]
	if c.count%splitProbeEvery < splitProbeRuns {
		return !faster
	}
	return faster
}

// record notes the wall time of an evaluation.
func (c *splitChoice) record(split bool, d time.Duration) {
	i := 0
	if split {
		i = 1
	}
	x := float64(d)
	if c.runs[i] == 0 {
		c.ns[i] = x
	}
	c.ns[i] += (x - c.ns[i]) / 8
	c.runs[i]++
}
