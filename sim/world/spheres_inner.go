package world

import "grainlab/sim/sphere"

// innerUpdate sets the inner list of l (sphere.Inner: the pairs that can
// be within their cut-off, an ordered subsequence of the list) for the
// evaluation after a Drift whose list test was test. It is on only when
// that Drift kept the list, so that its bound D on |x_I − ref_I| + |x_J −
// ref_J| is known (test.pair: √D1 + √D2, or twice dispBound's bound), on a
// Hookean list without periodic images; the kernels then scan its pairs
// only, with the same results (the same pairs within the cut-off, in the
// same order). A level (sphere.Inner.Level: D ≤ t·Δ, Δ = skin/8) is
// selected when the pairs held no longer hold for D (sphere.Inner.Holds:
// D past the level held and, one class, past the smallest gap of the
// pairs left out) — a scan of the whole list on the reference centres,
// about the cost of a step's scan — only when D's last
// growth says it will hold for innerMinSteps steps; a level that holds
// more than a quarter of the list gives the inner list up until the next
// build
// (the falling box's lattice neighbours all lie at one gap: once D reaches
// it, every pair can touch). Otherwise the kernels scan the whole list.
func (s *Spheres) innerUpdate(l *sphere.List, test driftTest) {
	in := &l.Inner
	in.On = false
	if !innerOn || !test.keep || !s.hooke || l.Shift != nil || s.w.Periodic.On() || len(l.P) == 0 {
		return
	}
	ref := s.w.verlet.Ref()
	if len(ref) != len(s.tr.L) || in.Dead {
		return
	}
	d, prev := test.pair, in.Prev
	in.Prev = d
	in.Delta = s.skin / sphere.InnerLevels
	if in.Holds(l, d) {
		in.On = true
		return
	}
	t := in.Level(d)
	if t < 0 {
		return
	}
	// A new level: worth its scan if D, growing as in the last step,
	// stays within it for innerMinSteps steps (D at rest: always).
	if grow := d - prev; grow > 0 && float64(t)*in.Delta-d < innerMinSteps*grow {
		return
	}
	if !in.Select(l, ref, t, len(l.P)/innerMaxShare) {
		in.Dead = true
	}
}

// innerMaxShare: a level that holds more than 1/innerMaxShare of the list
// gives the inner list up until the next build (its scan stops there: the
// inner list's buffers hold at most that share, 12 bytes a pair).
const innerMaxShare = 4

// innerMinSteps is the number of steps a new level must be expected to
// hold for its selection (a scan of the list) to be made.
const innerMinSteps = 2

// innerOn turns the inner list on (tests turn it off to compare).
var innerOn = true
