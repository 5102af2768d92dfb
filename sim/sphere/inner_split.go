package sphere

import (
	"math"
	"sync/atomic"

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
// Over: the range stopped early — it selected more than the limit, or the
// parts' running total (Inner.taken) passed the limit: the selection
// fails whatever the other ranges hold.
type InnerPart struct {
	P    []Pair
	K    []int32
	Out  float64
	Over bool
	next int // len(P) at which the range adds its pairs to the running total
}

// Parts begins a split selection in n ranges and returns their parts
// (their storage kept from selection to selection, released when a
// selection fails: JoinParts).
func (in *Inner) Parts(n int) []InnerPart {
	if len(in.parts) != n {
		in.parts = make([]InnerPart, n)
	}
	atomic.StoreInt64(&in.taken, 0)
	return in.parts
}

// partBatch is the number of pairs a range adds to the running total at
// once for a limit and n ranges: limit/(8n), at least 1. A range holds at
// most b pairs more than it has added (b the batch), and once the total
// passes the limit (at most limit + b then) a range adds one batch more at
// most before it sees the total and stops, so a failed selection's parts
// hold at most limit + (n+1)·b ≤ 1.25·limit + n + 1 pairs (serial Select:
// at most limit), and checking the total costs one atomic add per batch.
func partBatch(limit, n int) int {
	return max(1, limit/(8*max(n, 1)))
}

// SelectRange selects into pt the pairs of l's range [lo, hi) that
// SelectLoose(l, ref, loose, t, limit) would select (Select's with loose
// nil), at most limit of them (Over: there were more). It writes pt only,
// and reads l, ref and loose: ranges can run at once.
func (in *Inner) SelectRange(l *List, ref []geom.Vec3, loose []bool, t, limit, lo, hi int, pt *InnerPart) {
	b := partBatch(limit, len(in.parts))
	pt.P, pt.K, pt.Out, pt.Over, pt.next = pt.P[:0], pt.K[:0], 0, false, b
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
			if !in.add1(pt, p, lo+k, limit, b) {
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
		if !in.add1(pt, p, lo+k, limit, b) {
			return
		}
	}
}

// add1 appends pair p, the list's k-th, to the part pt; at limit pairs
// already, or once the running total of the parts (added b at a time)
// passes limit, it sets Over and returns false: the selection fails.
func (in *Inner) add1(pt *InnerPart, p *Pair, k, limit, b int) bool {
	n := len(pt.P)
	if n == pt.next {
		pt.next += b
		if atomic.AddInt64(&in.taken, int64(b)) > int64(limit) {
			pt.Over = true
			return false
		}
	}
	if n == limit {
		pt.Over = true
		return false
	}
	if n == cap(pt.P) || n == cap(pt.K) {
		pt.grow(limit)
	}
	pt.P = append(pt.P, *p)
	pt.K = append(pt.K, int32(k))
	return true
}

// grow is Inner.grow's rule for a part: its storage doubled (at least
// innerMinCap pairs, at most limit), its pairs kept.
func (pt *InnerPart) grow(limit int) {
	c := min(limit, max(2*len(pt.P), innerMinCap))
	if cap(pt.P) < c {
		pt.P = append(make([]Pair, 0, c), pt.P...)
	}
	if cap(pt.K) < c {
		pt.K = append(make([]int32, 0, c), pt.K...)
	}
}

// JoinParts ends a split selection of level t: the parts (SelectRange of
// consecutive ranges covering the list, in order) are concatenated into P
// and K, Out is the least of theirs (one class), and the result is
// Select's or SelectLoose's for the same limit: more than limit pairs in
// all (or a part stopped early: Over) — the inner list is off, P and K
// are empty (Select's hold at most limit pairs: nothing reads them while
// the list is off), the parts' storage is released and false is returned.
// P and K keep their storage and grow as Inner.grow does (at least double).
func (in *Inner) JoinParts(l *List, parts []InnerPart, t, limit int) bool {
	n, over := 0, false
	for i := range parts {
		n += len(parts[i].P)
		over = over || parts[i].Over
	}
	in.Out = 0
	in.P, in.K = in.P[:0], in.K[:0]
	if over || n > limit {
		for i := range parts {
			parts[i].P, parts[i].K = nil, nil
		}
		in.On, in.Held = false, 0
		return false
	}
	if c := min(limit, max(n, 2*cap(in.P), innerMinCap)); cap(in.P) < n {
		in.P = make([]Pair, 0, c)
	}
	if c := min(limit, max(n, 2*cap(in.K), innerMinCap)); cap(in.K) < n {
		in.K = make([]int32, 0, c)
	}
	for i := range parts {
		in.P = append(in.P, parts[i].P...)
		in.K = append(in.K, parts[i].K...)
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
