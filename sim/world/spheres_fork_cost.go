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
// box's trace (crew_trace.go, 534 steps, every step split) the
// evaluation's excess over half its work was 22.1 ms two-ended and 8.4 ms
// largest first (docs/performance.md, "Session 26: two workers").
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
	costGrid               // the broad grid's parts (verletUpdate's Grid.Fork)
	numCostSites
)

// forkCost is one costed pass's item costs at its last run and its claim
// order, kept by the crew (a new crew starts from no costs).
type forkCost struct {
	ns    []int64 // per item, the wall time of its last run (ns); 0: not run yet
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
	c := &w.crewFor(nw).costs[site]
	if len(c.ns) != n {
		c.ns, c.order = make([]int64, n), make([]int32, n)
	}
	c.sortOrder()
	if c.timed == nil {
		c.timed = func(k, lo, hi int) {
			t0 := time.Now()
			c.job(k, lo, hi)
			c.ns[lo] = int64(time.Since(t0)) // item lo's own slot (one item a claim)
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
