package world

import (
	"fmt"
	"grainlab/sim/contact"
	"math"
	"runtime"
	"sync/atomic"
	"time"
)

// The parallel runtime of the solver stages: every fork–join of a World
// (parallel, parallelRange, stagesPass) hands its batches to the World's
// crew — Settings.Workers − 1 helper goroutines that live across
// fork–joins, so a fork–join costs a few atomic operations instead of
// starting goroutines (which an idle processor must first be woken for).
//
// A job is open while the crew's epoch is even. The caller (worker 0)
// writes the job (n, batch, guide, body) while the epoch is odd, opens it,
// claims batches from an atomic counter like every helper, and when the
// counter is spent closes the epoch (odd again) and waits until no
// helper is inside the job. A guided job's batches shrink as the items
// run out (guided self-scheduling: each claim takes 1/guide of what is
// left, at least batch items), so a pass starts with few large batches
// and its workers finish within a small batch of each other; the caller
// claims them from the front and the helpers from the back, so a core
// keeps its part of the items from pass to pass (claim). A helper
// announces itself (its slot's inside flag, on its own cache line) and
// then checks that the epoch is still the one it was woken for before it
// reads the job; the operations being sequentially consistent, either the
// caller's close comes after that announcement (and waits for it) or the
// helper sees the new epoch and touches nothing. A batch costs one atomic
// operation on the shared counter (an addition, or a compare-and-swap for
// a guided job); the announcement and the check are once per job. So a
// helper that arrives late — the machine busy with other work — finds the
// job closed and does nothing, and the caller never waits for a helper
// that has not started a batch: it does the batches itself. Results must
// not depend on which worker ran an item (each item writes only its own
// data), so they are the same for any worker count.
//
// Between jobs a helper polls the epoch for up to crewSpin (the serial
// gaps between a step's fork–joins are tens of microseconds; less when it
// is seldom scheduled in time, see helper), then parks on its
// wake channel; a helper parked for crewIdle exits, and the next job
// starts it again. So a World that is dropped, or whose Settings.Workers
// changed (the crew is replaced), leaves no goroutine behind once
// crewIdle has passed.

const (
	crewSpin     = 50 * time.Microsecond  // a helper polls for a job this long before parking
	crewIdle     = 100 * time.Millisecond // a parked helper exits after this long
	crewLate     = 10 * time.Microsecond  // a helper that sees a job later than this after it opened was descheduled
	crewProbe    = 128                    // jobs between full polls of a helper whose polling time has decayed
	crewJoinSpin = 5 * time.Microsecond   // a join polls for a helper this long, then sleeps
)

// crewClock is the origin of crew.opened (monotonic).
var crewClock = time.Now()

// Helper states (crewSlot.state).
const (
	helperExited  = iota // no goroutine: the next job starts one
	helperRunning        // polling for a job or in one
	helperParked         // blocked on wake (or about to)
)

// crew is the persistent helpers of one World's fork–joins (see above).
type crew struct {
	nw    int           // workers, the caller included
	spin  time.Duration // polling time before parking (0 with GOMAXPROCS 1)
	_     [64]byte
	epoch atomic.Uint64 // even: a job is open; odd: closed (starts at 1)
	// opened: when the last job opened (since crewClock), for the
	// helpers' lateness; written before the epoch opens it.
	opened atomic.Int64
	_      [48]byte
	next   atomic.Int64 // the job's next unclaimed item; a guided job's unclaimed range (claimWord)
	_      [56]byte
	// The job: written by the caller only while the epoch is odd and no
	// helper is inside, read by the workers while it is open.
	n, batch, guide int
	// order: an ordered job's items in the order they are claimed, one
	// at a time from the front by every worker, or two-ended with guide
	// (nil: batches as above).
	order []int32
	body  func(k, lo, hi int)
	costs [numCostSites]forkCost // the costed passes' item costs (spheres_fork_cost.go)
	// lastEval: the costed site of the last evaluation by sphere chunks;
	// near: forkNear's order (spheres_fork_cost.go).
	lastEval int
	near     []int32
	nearRuns int                 // forkNear's passes (statistics, tests)
	busy     bool                // a job is running (a nested fork–join runs inline, self)
	helped   atomic.Int64        // batches run by helpers (statistics)
	closed   atomic.Bool         // the crew was replaced: its helpers exit
	failed   atomic.Pointer[any] // a helper's panic, re-raised by the caller
	slots    []crewSlot          // [1, nw): one per helper
}

// crewSlot is one helper's state, on its own cache lines: written by the
// helper, read by the caller at joins and forks.
type crewSlot struct {
	// inside: the helper is between its announcement for a job and its
	// leaving it (the job closed or spent); the caller's join waits for it.
	inside atomic.Bool
	// waiter: the caller's join sleeps on left until the helper leaves
	// (set by the caller, taken back by whichever of the two comes second).
	waiter atomic.Bool
	// prompt: the helper's polling time is at least half of crew.spin (it
	// has had a processor of its own): a join polls for it to the end.
	prompt atomic.Bool
	state  atomic.Int32
	gid    atomic.Uint64 // the helper goroutine's id (self), set when it starts
	wake   chan struct{} // one token per parked → running transition made by the caller
	left   chan struct{} // one token per join the caller slept in
	_      [31]byte
}

// newCrew returns a crew of nw workers (the caller and nw−1 helpers, started
// by the first job).
func newCrew(nw int) *crew {
	t := &crew{nw: nw, slots: make([]crewSlot, nw)}
	t.epoch.Store(1)
	if runtime.GOMAXPROCS(0) > 1 {
		t.spin = crewSpin
	}
	for k := range t.slots {
		t.slots[k].wake = make(chan struct{}, 1)
		t.slots[k].left = make(chan struct{}, 1)
	}
	return t
}

// run runs body(worker, lo, hi) over [0, n) in batches on the crew (the
// caller is worker 0) — batch items each, or with guide > 0 max(batch,
// left/guide) items each, left being the items not yet claimed — and
// returns when every batch is done, with the time the caller waited for
// helpers to finish theirs and the number of batches the caller ran.
//
// With order (len n), the items are claimed one at a time in that order
// by every worker (guide 0: crewPassOrder), or two-ended over the order's
// positions (guide > 0, batch 1: crewPassNear).
func (t *crew) run(n, batch, guide int, order []int32, body func(k, lo, hi int)) (wait time.Duration, own int64) {
	if t.busy { // a fork–join inside a job's body: inline, as the worker running that body
		k := t.self()
		for lo := 0; lo < n; lo += batch {
			body(k, lo, min(lo+batch, n))
		}
		return 0, 0
	}
	if n > math.MaxInt32 { // claimWord holds 32-bit ends
		panic(fmt.Sprintf("world: a fork–join over %d items (at most 2³¹−1)", n))
	}
	t.busy = true
	t.n, t.batch, t.guide, t.order, t.body = n, batch, guide, order, body
	t.next.Store(0)
	if guide > 0 {
		t.next.Store(claimWord(0, n))
	}
	if t.spin > 0 {
		t.opened.Store(int64(time.Since(crewClock)))
	}
	t.epoch.Add(1) // open
	joined := false
	defer func() {
		if !joined { // the caller's batch panicked: end the job (the panic goes on)
			t.next.Store(int64(n)) // no helper claims another batch
			t.join()
			t.failed.Store(nil) // a helper's panic too: the caller's goes on
		}
	}()
	t.wakeAll()
	own = t.claim(0)
	wait = t.join()
	joined = true
	if p := t.failed.Swap(nil); p != nil { // a helper's batch panicked: raise it here
		panic(*p)
	}
	return wait, own
}

// join closes the open job, waits for the helpers inside it and clears it;
// it returns the time waited.
func (t *crew) join() (wait time.Duration) {
	t.epoch.Add(1) // close: no helper enters this job from now on
	var t0 time.Time
	for k := 1; k < t.nw; k++ {
		for s := &t.slots[k]; s.inside.Load(); {
			if t0.IsZero() {
				t0 = time.Now()
			}
			if s.prompt.Load() || time.Since(t0) < crewJoinSpin {
				runtime.Gosched()
				continue
			}
			// Sleep until the helper leaves: it has been seldom scheduled
			// in time, so its thread may be waiting for this one's
			// processor (the OS does not know that polling here waits
			// for it).
			s.waiter.Store(true)
			if s.inside.Load() || !s.waiter.CompareAndSwap(true, false) {
				<-s.left // the helper takes waiter back and sends
			}
			break
		}
	}
	if !t0.IsZero() {
		wait = time.Since(t0)
	}
	t.body = nil // the job's closure (and the World it holds) is not kept
	t.order = nil
	t.busy = false
	return wait
}

// claim runs the open job's batches as worker k until they are spent and
// returns how many it ran.
func (t *crew) claim(k int) (batches int64) {
	n, batch, guide, order, body := t.n, t.batch, t.guide, t.order, t.body
	for {
		var lo, hi int
		if order != nil && guide == 0 {
			// An ordered job: the next position, one item (a panic's
			// t.next.Store(n) ends it too).
			p := int(t.next.Add(1)) - 1
			if p >= n {
				return batches
			}
			lo = int(order[p])
			hi = lo + 1
		} else if guide > 0 {
			// Two-ended: the caller (k = 0) takes batches from the front,
			// the helpers from the back, so each core runs the same part
			// of every pass over the bodies and over the pairs (in the
			// Verlet list's order, by lower body) and finds the data of
			// that part in its own cache (session 13: the accumulation
			// read the contacts the pair pass had written on the other
			// core). Which worker runs an item does not change a result.
			w := t.next.Load()
			front, back := int(uint32(w)), int(uint32(w>>32))
			if front >= back {
				return batches
			}
			size := max(batch, (back-front)/guide)
			if k == 0 {
				lo, hi = front, min(back, front+size)
				front = hi
			} else {
				lo, hi = max(front, back-size), back
				back = lo
			}
			if !t.next.CompareAndSwap(w, claimWord(front, back)) {
				continue // another worker claimed from w: look again
			}
			if order != nil { // two-ended over the order's positions: one item each
				lo = int(order[lo])
				hi = lo + 1
			}
		} else {
			if lo = int(t.next.Add(int64(batch))) - batch; lo >= n {
				return batches
			}
			hi = min(lo+batch, n)
		}
		body(k, lo, hi)
		batches++
	}
}

// claimWord packs a guided job's unclaimed items [front, back) into the
// crew's counter: front in the low 32 bits, back in the high ones. A word
// with front ≥ back has nothing left (t.next.Store(n) ends any job: front n,
// back 0).
func claimWord(front, back int) int64 {
	return int64(uint64(uint32(front)) | uint64(uint32(back))<<32)
}

// work is helper k's part in the job of epoch e, the batches it ran: it announces itself
// (inside), and only if the job is still open claims batches (the caller
// closes a job before it waits for the helpers inside, so either it waits
// for this one or this one sees the job closed and touches nothing).
func (t *crew) work(k int, e uint64) (batches int64) {
	s := &t.slots[k]
	s.inside.Store(true)
	defer s.leave()
	defer func() {
		if r := recover(); r != nil { // handed to the caller, which re-panics after the join
			t.next.Store(int64(t.n))
			p := r // a copy of its own: &r would put r on the heap at every job
			t.failed.CompareAndSwap(nil, &p)
		}
	}()
	if t.epoch.Load() == e {
		batches = t.claim(k)
		t.helped.Add(batches)
	}
	return batches
}

// leave ends the helper's part in a job and wakes the caller if it sleeps
// in join for it.
func (s *crewSlot) leave() {
	s.inside.Store(false)
	if s.waiter.CompareAndSwap(true, false) {
		s.left <- struct{}{}
	}
}

// wakeAll makes every helper look at the job just opened: a parked one is
// woken, an exited one started.
func (t *crew) wakeAll() {
	for k := 1; k < t.nw; k++ {
		s := &t.slots[k]
		for {
			st := s.state.Load()
			if st == helperParked {
				if !s.state.CompareAndSwap(helperParked, helperRunning) {
					continue // it woke or exited meanwhile
				}
				s.wake <- struct{}{}
			} else if st == helperExited {
				s.state.Store(helperRunning)
				go t.helper(k)
			}
			break
		}
	}
}

// close retires the crew: its helpers exit (the parked ones are woken).
func (t *crew) close() {
	t.closed.Store(true)
	for k := 1; k < t.nw; k++ {
		s := &t.slots[k]
		if s.state.CompareAndSwap(helperParked, helperRunning) {
			s.wake <- struct{}{}
		}
	}
}

// self returns the worker index of the calling goroutine while a job runs:
// k for helper k, 0 for any other (the caller). Only a fork–join nested in
// a job's body asks (about a microsecond: goid), so that it runs with the
// enclosing worker's index and scratch.
func (t *crew) self() int {
	g := goid()
	for k := 1; k < t.nw; k++ {
		if t.slots[k].gid.Load() == g {
			return k
		}
	}
	return 0
}

// goid returns the calling goroutine's id, read from the first line of its
// stack trace ("goroutine 123 [running]:"); ids are never reused.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = b[len("goroutine "):]
	var id uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			break
		}
		id = 10*id + uint64(c-'0')
	}
	return id
}

// open reports whether epoch e is an open job that a helper which last
// worked on seen has not worked on yet.
func open(e, seen uint64) bool { return e&1 == 0 && e != seen }

// helper is the loop of helper k: poll for a job, work on it, park when
// none comes for its polling time, exit when parked for crewIdle or when
// the crew is closed.
//
// The polling time adapts to how the helper is scheduled. It doubles (up
// to t.spin) only when a job opened during the polling and the helper saw
// it within crewLate: the helper was on a processor of its own, waiting
// for the caller. It halves when the polling timed out, or when the job
// opened during the polling but the helper saw it late (its thread was
// descheduled meanwhile: the machine is busy, or the helper shares the
// caller's processor and runs only when the caller is preempted — a batch
// it then takes is no sign that polling pays). A job already open when the
// helper looks (woken from park, or opened while it ran the last one)
// changes nothing. Below t.spin/64 the helper parks almost at once; every
// crewProbe jobs it polls the full t.spin once, so it comes back when a
// processor frees up.
func (t *crew) helper(k int) {
	s := &t.slots[k]
	s.gid.Store(goid())
	timer := time.NewTimer(crewIdle)
	timer.Stop()
	var seen uint64
	spin, probe := t.spin, 0
	for !t.closed.Load() {
		try := spin
		if spin < t.spin/64 {
			if probe++; probe%crewProbe == 0 {
				try = t.spin
			}
		}
		e, polled, ok := t.poll(seen, try)
		switch {
		case !ok:
			spin /= 2
		case polled && time.Since(crewClock)-time.Duration(t.opened.Load()) <= crewLate:
			spin = min(max(2*try, time.Microsecond), t.spin)
		case polled:
			spin /= 2
		}
		if p := spin >= t.spin/2; p != s.prompt.Load() {
			s.prompt.Store(p)
		}
		if ok {
			seen = e
			t.work(k, e)
			continue
		}
		s.state.Store(helperParked)
		if e := t.epoch.Load(); open(e, seen) || t.closed.Load() {
			if !s.state.CompareAndSwap(helperParked, helperRunning) {
				<-s.wake // the caller moved it to running and sends a token
			}
			continue
		}
		timer.Reset(crewIdle)
		select {
		case <-s.wake:
		case <-timer.C:
			if s.state.CompareAndSwap(helperParked, helperExited) {
				return
			}
			<-s.wake
		}
		timer.Stop()
	}
}

// poll waits up to spin for a job not yet seen and returns its epoch, and
// whether it opened while polling (false: it was open at the first look).
func (t *crew) poll(seen uint64, spin time.Duration) (e uint64, polled, ok bool) {
	var deadline time.Time
	for i := 0; ; i++ {
		if e := t.epoch.Load(); open(e, seen) {
			return e, i > 0, true
		}
		if i&63 != 63 {
			continue
		}
		if i == 63 {
			deadline = time.Now().Add(spin)
		} else if t.closed.Load() || time.Now().After(deadline) {
			return 0, false, false
		}
		runtime.Gosched() // others' goroutines on this processor run too
	}
}

// parallelMin is the fewest items a pass splits over the workers: below
// it a pass runs on the caller alone.
const parallelMin = 64

// passWorkers returns the number of workers of a pass over n items (1
// below parallelMin) and gives every worker its scratch.
func (w *World) passWorkers(n int) int {
	nw := max(w.Settings.Workers, 1)
	if len(w.scratch) < nw {
		w.scratch = make([]paddedScratch, nw)
	}
	if n < parallelMin {
		return 1
	}
	return nw
}

// passBatch and passGuide set the batches of a pass on more than one
// worker (crew.run): each claim takes 1/(passGuide·nw) of the items left,
// at least passBatch. A pass starts with a few large batches (fewer claims
// and clock readings than equal batches) and ends with small ones, so the
// workers finish within a few items of each other even where costly items
// (pairs whose lists are rebuilt) cluster. Chosen by replaying per-item
// costs of the collapse (crew_trace.go, internal/crewreplay;
// docs/performance.md, "Session 9: two workers"): over 687 steps the
// passes' excess over half the one-worker work fell from 8.0% (batches of
// n/(16·nw)) to 2.6%.
const (
	passBatch = 8
	passGuide = 2
)

// runPass runs body(worker, lo, hi) over [0, n) on nw workers (from
// passWorkers) in guided batches (passBatch, passGuide), or all of [0, n)
// in one call on the caller when nw = 1. A pass over at least parallelMin
// items is timed in Profile.Parallel, with any number of workers.
func (w *World) runPass(n, nw int, body func(worker, lo, hi int)) {
	if k, ok := w.nested(); ok {
		body(k, 0, n)
		return
	}
	if n < parallelMin {
		body(0, 0, n)
		return
	}
	t0 := time.Now()
	if nw == 1 {
		body(0, 0, n)
	} else {
		w.crewPass(n, nw, passBatch, passGuide*nw, body)
	}
	w.Stats.Profile.Parallel += time.Since(t0)
}

// nested reports whether a pass of the World's crew is running, and if so
// the worker index of the calling goroutine: a pass inside a pass's body
// runs inline on that worker (its index, its scratch), untimed and
// uncounted in Profile (which the caller alone updates).
func (w *World) nested() (int, bool) {
	if t := w.crew; t != nil && t.busy {
		return t.self(), true
	}
	return 0, false
}

// parallel runs f(worker, i) for i in [0, n) on Settings.Workers workers
// (runPass). Results must not depend on which worker ran an item.
func (w *World) parallel(n int, f func(worker, i int)) {
	w.runPass(n, w.passWorkers(n), func(k, lo, hi int) {
		for i := lo; i < hi; i++ {
			f(k, i)
		}
	})
}

// parallelRange is parallel handing f whole batches [lo, hi) (all of
// [0, n) on one worker): one call per batch, for loops too light for a
// call per item.
func (w *World) parallelRange(n int, f func(worker, lo, hi int)) {
	w.runPass(n, w.passWorkers(n), f)
}

// stagesPass runs up to three stages over the items [0, n) in one pass
// (runPass): each batch [lo, hi) runs stage 0 on all its items, then
// stage 1, then stage 2 (a nil stage is skipped; a stage loops over the
// batch itself, so there is one call per stage and batch, not per item),
// so a stage may rely on the earlier ones having run for the same item but
// not for other items. The workers' time in each stage (one clock reading
// per stage per batch) is added to spent. Results must not depend on which
// worker ran an item.
func (w *World) stagesPass(n int, stages [3]func(worker, lo, hi int), spent *[3]time.Duration) {
	if k, ok := w.nested(); ok {
		for _, f := range stages {
			if f != nil {
				f(k, 0, n)
			}
		}
		return
	}
	nw := w.passWorkers(n)
	for k := 0; k < nw; k++ {
		w.scratch[k].spent = [3]time.Duration{}
	}
	if crewTracing { // items timed one by one (crew_trace.go): no clock readings per stage
		w.runPass(n, nw, func(k, lo, hi int) {
			for _, f := range stages {
				if f != nil {
					f(k, lo, hi)
				}
			}
		})
		return
	}
	w.stages = stages
	w.runPass(n, nw, w.stagesFn())
	w.stages = [3]func(worker, lo, hi int){}
	for k := 0; k < nw; k++ {
		for s := range spent {
			spent[s] += w.scratch[k].spent[s]
		}
	}
}

// stagesFn returns the pass body of stagesPass (made once: no allocation
// per pass): the stages of w.stages in order on the batch, each timed into
// the worker's scratch.
func (w *World) stagesFn() func(k, lo, hi int) {
	if w.stagesRun == nil {
		w.stagesRun = func(k, lo, hi int) {
			sc := &w.scratch[k]
			t := time.Now()
			for s, f := range &w.stages {
				if f == nil {
					continue
				}
				f(k, lo, hi)
				t1 := time.Now()
				sc.spent[s] += t1.Sub(t)
				t = t1
			}
		}
	}
	return w.stagesRun
}

// Parallel runs f(i) for i in [0, n) on the world's workers, as the solver
// stages do (Settings.Workers; serial below 64 items). f must write only
// item i's data, so the result does not depend on the number of workers.
func (w *World) Parallel(n int, f func(i int)) { w.parallel(n, func(_, i int) { f(i) }) }

// paddedScratch keeps each worker's buffers on their own cache lines.
type paddedScratch struct {
	contact.Scratch
	spent [3]time.Duration // stagesPass: this worker's time per stage
	tally passTally
	broad broadTally // placeBodies' broad-phase part (broadPrep)
	_     [64]byte
}

// forkJoin runs body over [0, n) in batches of batch items on nw workers
// (the World's crew, replaced when nw changed) and counts the fork–join and
// the caller's wait in Stats.Profile.
func (w *World) forkJoin(n, nw, batch int, body func(k, lo, hi int)) {
	w.crewPass(n, nw, batch, 0, body)
}

// crewPass is forkJoin with guided batches when guide > 0 (crew.run).
func (w *World) crewPass(n, nw, batch, guide int, body func(k, lo, hi int)) {
	w.crewJob(n, nw, batch, guide, nil, body)
}

// crewPassOrder is crewPass over n items claimed one at a time in order
// (a permutation of [0, n)) by every worker, the caller included.
func (w *World) crewPassOrder(n, nw int, order []int32, body func(k, lo, hi int)) {
	w.crewJob(n, nw, 1, 0, order, body)
}

// crewPassNear is crewPass over n items claimed one at a time two-ended
// over order (a permutation of [0, n)): the caller from its front, the
// helpers from its back.
func (w *World) crewPassNear(n, nw int, order []int32, body func(k, lo, hi int)) {
	w.crewJob(n, nw, 1, n, order, body)
}

// crewFor returns the World's crew of nw workers (replaced when nw changed).
func (w *World) crewFor(nw int) *crew {
	if w.crew == nil || w.crew.nw != nw {
		if w.crew != nil {
			w.crew.close()
		}
		w.crew = newCrew(nw)
	}
	return w.crew
}

// crewJob is crewPass and crewPassOrder (order nil: batches).
func (w *World) crewJob(n, nw, batch, guide int, order []int32, body func(k, lo, hi int)) {
	if crewTracing && traceRun(n, body) {
		return
	}
	if k, ok := w.nested(); ok {
		// Inside a job's body (crew.run's inline fork–join): on the worker
		// running it, and not counted — the Profile counters are the
		// caller's alone, and this may be a helper's goroutine.
		for lo := 0; lo < n; lo += batch {
			body(k, lo, min(lo+batch, n))
		}
		return
	}
	t := w.crewFor(nw)
	h0 := t.helped.Load()
	wait, own := t.run(n, batch, guide, order, body)
	helped := t.helped.Load() - h0
	p := &w.Stats.Profile
	p.ForkJoins++
	p.Batches += own + helped
	p.Helped += helped
	p.JoinWait += wait
}
