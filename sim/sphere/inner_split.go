package sphere

import (
	"math"

	"grainlab/sim/geom"
)

// A selection split in ranges of the list (session 24; docs/performance.md,
// "Session 24: two workers"). Select and SelectLoose are a filter of the
// list in its order: each range [lo, hi) of the list is filtered into its
// own part (SelectRange, one worker each), and JoinParts concatenates the
// parts in range order — the pairs, their order, Out (a min, exact in any
// order) and the limit's outcome are those of the serial selection, for
// any ranges and any worker that ran them.

// InnerPart is one range's share of a split selection (SelectRange): the
// range's selected pairs and their list indices, in list order, and its
// Out (one class: the smallest reference d² of the pairs it left out).
// Over: the range selected more than the limit (it kept the first limit).
type InnerPart struct {
	P    []Pair
	K    []int32
	Out  float64
	Over bool
}

// Parts returns n parts of the inner list's split selections (their
// storage kept from selection to selection).
func (in *Inner) Parts(n int) []InnerPart {
	if len(in.parts) != n {
		in.parts = make([]InnerPart, n)
	}
	return in.parts
}

// SelectRange selects into pt the pairs of l's range [lo, hi) that
// SelectLoose(l, ref, loose, t, limit) would select (Select's with loose
// nil), at most limit of them (Over: there were more). It writes pt only,
// and reads l, ref and loose: ranges can run at once.
func (in *Inner) SelectRange(l *List, ref []geom.Vec3, loose []bool, t, limit, lo, hi int, pt *InnerPart) {
	pt.P, pt.K, pt.Out, pt.Over = pt.P[:0], pt.K[:0], 0, false
	P := l.P[lo:hi]
	if len(l.Class) == 1 {
		s, out := innerBound(l.Class[0].Cut2, in.Delta, t), math.Inf(1)
		for k := range P {
			p := &P[k]
			if loose == nil || !loose[p.I] && !loose[p.J] {
				a, b := &ref[p.I], &ref[p.J]
				if d2 := dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z); !(d2 < s) {
					out = min(out, d2)
					continue
				}
			}
			if !pt.add(p, lo+k, limit) {
				return
			}
		}
		pt.Out = out
		return
	}
	var last *PairClass
	s := 0.0
	for k := range P {
		p := &P[k]
		if loose == nil || !loose[p.I] && !loose[p.J] {
			if pc := l.ClassOf(lo + k); pc != last {
				last, s = pc, innerBound(pc.Cut2, in.Delta, t)
			}
			a, b := &ref[p.I], &ref[p.J]
			if !(dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z) < s) {
				continue
			}
		}
		if !pt.add(p, lo+k, limit) {
			return
		}
	}
}

// add appends pair p, the list's k-th, to the part; at limit pairs
// already, it sets Over and returns false.
func (pt *InnerPart) add(p *Pair, k, limit int) bool {
	if len(pt.P) == limit {
		pt.Over = true
		return false
	}
	pt.P = append(pt.P, *p)
	pt.K = append(pt.K, int32(k))
	return true
}

// JoinParts ends a split selection of level t: the parts (SelectRange of
// consecutive ranges covering the list, in order) are concatenated into P
// and K, Out is the least of theirs (one class), and the result is
// Select's or SelectLoose's for the same limit: more than limit pairs in
// all — P and K hold the first limit of them, the inner list is off and
// false is returned.
func (in *Inner) JoinParts(l *List, parts []InnerPart, t, limit int) bool {
	n, over := 0, false
	for i := range parts {
		n += len(parts[i].P)
		over = over || parts[i].Over
	}
	in.Out = 0
	fail := over || n > limit
	if fail {
		n = limit
	}
	if cap(in.P) < n {
		in.P = make([]Pair, 0, min(limit, max(n, innerMinCap)))
	}
	if cap(in.K) < n {
		in.K = make([]int32, 0, min(limit, max(n, innerMinCap)))
	}
	in.P, in.K = in.P[:0], in.K[:0]
	for i := range parts {
		m := min(len(parts[i].P), n-len(in.P))
		in.P = append(in.P, parts[i].P[:m]...)
		in.K = append(in.K, parts[i].K[:m]...)
	}
	if fail {
		in.On, in.Held = false, 0
		return false
	}
	if len(l.Class) == 1 {
		out := math.Inf(1)
		for i := range parts {
			out = min(out, parts[i].Out)
		}
		in.Out = out
	}
	in.Held, in.On = t+1, true
	return true
}
