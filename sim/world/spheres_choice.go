package world

import (
	"slices"
	"time"
)

// splitChoice is SplitAuto's bookkeeping: the wall time of a step
// (splitRound: Drift, evaluation, Accept) per unit of work on one worker
// and on two, the faster way in use, the other tried for a few steps every
// so often (a probe). The first step each way is not counted: it is cold
// (the world's first evaluation: buffers made and first touched; the first
// split one: the helper started), 3–4× a later one on the 10⁵-sphere box,
// and it weighed on the first choice (docs/performance.md, "Session 17:
// two workers").
//
// Session 27 (docs/performance.md, "Session 27: two workers"): each way's
// figure is the median of its last splitWin counted steps, not a moving
// mean, and the way in use changes only when both figures are fresh — at
// the end of a probe. A logged run of the 10⁵ box showed why: one slow
// step (a pre-emption, a step that selects the inner list) weighed 1/8 in
// the mean of the way in use and switched the choice to one worker, where
// it stayed until the next probe, 100–200 steps later, because the
// figure of two workers then kept that spike; and a step's cost triples
// along the run (the spheres come to touch; the listed pairs, the unit of
// work, grow by 10%), so the figure of the way in use rose past the other
// way's, measured at the last probe when steps were cheaper, and the
// choice left two workers that were still the faster. Now a figure of the
// other way that looks the faster starts a probe at once (not sooner than
// splitProbeGap steps after the last one): on a machine that gets busy,
// that probe is the fall-back to one worker, and the probe's end keeps
// it there if it measures so; after a mere drift of the cost it measures
// both ways afresh and stays.
type splitChoice struct {
	ns    [2]float64           // one worker, two: the median of win (wall ns a unit of work)
	win   [2][splitWin]float64 // the last counted steps each way since it was last switched to (a ring)
	runs  [2]int               // steps timed each way, the cold first included
	since [2]int               // steps counted each way since it was last switched to
	count int
	way   int8 // the last step's way: 0 one worker, 1 two
	// use: the way in use, outside the probes (set when the first probes
	// end, then at the end of each probe).
	use   int8
	begun bool // a step has been recorded (way is set)
	// every: steps from the start of one periodic probe of the other way
	// to the next (splitProbeEvery, doubled up to splitProbeMax while
	// each probe finds the split way the faster by the margin); next: the
	// count at which the next one starts (0: not set yet); ended: the
	// count at which the last one ended.
	every, next, ended int
	probe              bool // the last pick was a probe's (the first probes' or a later one)
}

// The slower way is tried every splitProbeEvery steps for splitProbeRuns
// steps (the first cold, not counted), longer while fewer than
// splitProbeFresh of its steps counted (a step with a list build or an
// inner selection does not), up to splitProbeLong steps. A step's cost
// changes along a run (the 10⁵ box: 1.2 ms a step at its start, 3.5 ms
// at 534 steps, as the spheres settle and touch), so the figures are per
// unit of work, and a way's figure restarts when the choice comes back to
// it: a figure hundreds of steps old made the way not in use look the
// faster.
//
// A probe of one worker costs its steps on one worker and a cold step
// back (Session 19: ~2.5% of the quiet 10⁵ box's wall time). So each
// probe that finds the split way faster by splitMargin doubles the
// interval to the next, up to splitProbeMax; any other outcome sets it
// back to splitProbeEvery. Between probes the figure of the way in use is
// measured at every step, and when the other way's (older) figure is
// below splitMargin of it, a probe starts at once: a machine that gets
// busy makes two workers' figure rise and the choice falls back to one
// within about splitWin/2 + splitProbeRuns steps.
const (
	splitProbeEvery = 256  // steps between tries of the slower way
	splitProbeMax   = 2048 // the longest interval, after repeated clear wins of the split way
	splitProbeRuns  = 6    // steps per try
	splitProbeFresh = 5    // counted steps of the probed way a probe needs to end …
	splitProbeLong  = 24   // … unless it has lasted this many steps
	splitProbeGap   = 32   // steps from a probe's end to the earliest early one
	splitMargin     = 0.85 // the other way is taken when this much faster
	splitWin        = 9    // the steps in a way's median (odd: no mean of two)
)

// pick reports whether the next step (splitRound) is split.
func (c *splitChoice) pick(can bool, mode SplitMode) bool {
	switch {
	case !can || mode == SplitNever:
		return false
	case mode == SplitAlways:
		return true
	}
	c.count++
	c.probe = true
	switch { // the first probes: one way, then the other, splitProbeRuns counted after the cold one each
	case c.runs[0] <= splitProbeRuns:
		return false
	case c.runs[1] <= splitProbeRuns:
		return true
	}
	other := 1 - c.use
	if c.next == 0 { // the first probes have ended: both figures are fresh
		c.use, other = c.way, 1-c.way
		c.every, c.next = splitProbeEvery, (c.count/splitProbeEvery+1)*splitProbeEvery
		c.ended = c.count
		if c.ns[other] < splitMargin*c.ns[c.use] {
			c.use, other = other, c.use
		}
	}
	// The other way is the faster by the margin: by its figure from the
	// last probe (or before the last switch) between probes, by the
	// probe's own at a probe's end.
	better := c.ns[other] < splitMargin*c.ns[c.use]
	in := c.count - c.next // steps into the probe (if ≥ 0)
	switch {
	case in >= splitProbeRuns && (c.since[other] >= splitProbeFresh || in >= splitProbeLong):
		// A probe has ended: both figures are fresh. The way in use
		// changes here only, and not on the probed way's old figure
		// (a long probe none of whose steps counted: review r3).
		if better && c.since[other] > 0 {
			c.use, other = other, c.use
		}
		// Two workers in use after a probe that found them the faster
		// by the margin: a clear win, probe less often.
		if c.use == 1 && c.ns[1] < splitMargin*c.ns[0] {
			c.every = min(2*c.every, splitProbeMax)
		} else {
			c.every = splitProbeEvery
		}
		c.next += c.every
		if c.next <= c.count { // a long probe
			c.next = c.count + c.every
		}
		c.ended = c.count
	case in < 0 && better && c.count >= c.ended+splitProbeGap:
		// The way in use got slower than the other's last figure (a busy
		// machine, or a step's cost grown since): measure the other now.
		c.next = c.count
	}
	c.probe = c.count >= c.next
	if c.probe { // the other way of the one in use, for the whole probe
		return c.use == 0
	}
	return c.use == 1
}

// record notes the wall time of a step, counted in the figures if counted
// and the step is not the first of its way after a step of the other
// (cold: the helper parked or slow to come, the states in the other
// core's cache).
func (c *splitChoice) record(split bool, d time.Duration, work int, counted bool) {
	i := int8(0)
	if split {
		i = 1
	}
	switched := c.begun && i != c.way
	c.way, c.begun = i, true
	if switched {
		c.since[i] = 0
	}
	if !counted || switched {
		return
	}
	x := float64(d) / float64(max(work, 1))
	c.runs[i]++
	if c.runs[i] == 1 { // the world's first step this way: cold, not counted
		return
	}
	c.win[i][c.since[i]%splitWin] = x
	c.since[i]++
	c.ns[i] = median(c.win[i][:min(c.since[i], splitWin)])
}

// median is the median of v (len ≤ splitWin; the lower of the two middle
// values for an even length: a step is slowed, never sped up, by what
// else runs), v left as it is.
func median(v []float64) float64 {
	var b [splitWin]float64
	s := b[:copy(b[:], v)]
	slices.Sort(s)
	return s[(len(s)-1)/2]
}
