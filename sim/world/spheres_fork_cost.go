package world

import "time"

// Costed passes: the sphere path's passes whose items differ much in cost
// (the evaluation's eight parts: the bottom of a settling box has the
// contacts, its part ≈ 6× the top's; the list rebuild's first part) are
// claimed largest first, by the costs their items took at the pass's last
// run on the crew — longest-processing-time-first list scheduling: the
// items left when one worker runs out of work are the smallest, so the
// other's last item ends soon after. The two-ended claim (crew.claim)
// ends the workers within one item, whichever item that is; on the 10⁵
// box's trace (crew_trace.go, 534 steps, every step split) replayed, the
// evaluation's excess over half its work is 22.1 ms two-ended and 13.1 ms
// largest first by the last step's costs (8.4 ms by its own), the grid's
// 2.7 → 1.3 ms, the rebuild's 2.2 → 1.1 ms (docs/performance.md, "Session
// 26: two workers").
//
// Only the order in which items are claimed changes: each item writes its
// own data, so the results are the same for any order and worker count, as
// for every fork–join of the crew.

// The costed passes (crew.costs).
const (
	costEvalParts   = iota // the evaluation's parts (spheres_eval.go: splitParts)
	costEvalPairs          // its pairs and spheres without parts (splitPairs, splitSpheres)
	costEvalSpheres        //
	costRebuild            // the list rebuild's parts (spheres_list.go: rb.job)
	numCostSites
)

// forkCost is one costed pass's item costs at its last run and its claim
// order, kept by the crew (a new crew starts from no costs).
type forkCost struct {
	ns    []int64 // per item, the wall time of its last run (ns); 0: not run yet
	by    []int8  // per item, the worker that ran it last
	order []int32 // the claim order of the next run: by ns, largest first, then by index
	job   func(k, lo, hi int)
	timed func(k, lo, hi int) // job, timing the item into ns (made once)
}

// forkCosted is s.fork(n, job) with the items claimed largest first by
// their costs at site's last run (see above). Nested in a job, on one
// worker, or traced (crew_trace.go), it is s.fork.
func (s *Spheres) forkCosted(site, n int, job func(worker, lo, hi int)) {
	w := s.w
	nw := max(w.Settings.Workers, 1)
	if _, ok := w.nested(); ok || nw == 1 || crewTracing || n <= 1 {
		s.fork(n, job)
		return
	}
	t := w.crewFor(nw)
	c := &t.costs[site]
	if len(c.ns) != n {
		c.ns, c.order, c.by = make([]int64, n), make([]int32, n), make([]int8, n)
	}
	if site == costEvalParts || site == costEvalSpheres {
		t.lastEval = site // the passes by sphere range that follow it go near it (forkNear)
	}
	c.sortOrder()
	if c.timed == nil {
		c.timed = func(k, lo, hi int) {
			t0 := time.Now()
			c.job(k, lo, hi)
			c.ns[lo] = int64(time.Since(t0)) // item lo's own slots (one item a claim)
			c.by[lo] = int8(min(k, 127))
		}
	}
	c.job = job
	t0 := time.Now()
	w.crewPassOrder(n, nw, c.order, c.timed)
	c.job = nil // the job's closure is not kept
	w.Stats.Profile.Parallel += time.Since(t0)
}

// sortOrder sets order to the items by ns, largest first, equal costs by
// index (insertion sort: a pass has a few dozen items at most).
func (c *forkCost) sortOrder() {
	o := c.order
	for i := range o {
		o[i] = int32(i)
	}
	for i := 1; i < len(o); i++ {
		x := o[i]
		j := i
		for ; j > 0 && c.ns[o[j-1]] < c.ns[x]; j-- {
			o[j] = o[j-1]
		}
		o[j] = x
	}
}

// forkNear is s.fork(n, job) for a pass over the spheres in n equal ranges
// (n a multiple of nChunks), that
// follows or precedes the evaluation (Accept's kick, Drift): its ranges
// are claimed two-ended over an order that puts first the chunks the
// caller evaluated last, in sphere order, then the others, so that a
// worker kicks and drifts the spheres whose forces it computed and finds
// them in its own cache: the evaluation claimed largest first no longer
// splits the spheres at one boundary, as the two-ended claims of all three
// passes did (a first version, the kick and drift two-ended over the
// spheres in order, ran the 10⁵ box's two-worker steps slower than base in
// 10 of 15 alternated runs, on a loaded machine). Nested, on one worker,
// traced, or before an evaluation was costed, it is s.fork.
func (s *Spheres) forkNear(n int, job func(worker, lo, hi int)) {
	w := s.w
	nw := max(w.Settings.Workers, 1)
	if _, ok := w.nested(); ok || nw == 1 || crewTracing || n%nChunks != 0 {
		s.fork(n, job)
		return
	}
	t := w.crewFor(nw)
	e := &t.costs[t.lastEval]
	if len(e.by) != nChunks {
		s.fork(n, job)
		return
	}
	o := resize(t.near, n)
	t.near = o
	// The evaluation's chunk of range i: the part holding its middle
	// sphere (evalParts: the parts s.parts, by pairs), or i·nChunks/n
	// (evalSpheres: the same ranges as these passes').
	nb := len(s.idx)
	chunkOf := func(i int) int {
		if t.lastEval != costEvalParts {
			return i * nChunks / n
		}
		m := int32((i*nb/n + (i+1)*nb/n) / 2)
		q := 0
		for q < nChunks-1 && s.parts[q+1] <= m {
			q++
		}
		return q
	}
	p := 0
	for _, mine := range [2]bool{true, false} {
		for i := range n {
			if (e.by[chunkOf(i)] == 0) == mine {
				o[p] = int32(i)
				p++
			}
		}
	}
	t.nearRuns++
	t0 := time.Now()
	w.crewPassNear(n, nw, o, job)
	w.Stats.Profile.Parallel += time.Since(t0)
}
