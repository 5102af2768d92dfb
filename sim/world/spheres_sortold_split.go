package world

import "grainlab/sim/sphere"

// sortOld on the crew (a renumbering with split passes: the two workers'
// Session 24 left it serial, ≈ 35 M instructions at 10⁵ spheres, 1.3 M
// pairs' bytes moved at random). The old list is cut in sortOldParts
// ranges, each counting its pairs by lower sphere in a histogram of its
// own; the offsets are laid out row by row and, within a row, range by
// range (a serial prefix over the spheres), so each range scatters its
// pairs into slots no other range writes; then the rows are sorted by the
// higher sphere in nChunks ranges of spheres. A row holds the same pairs
// as sortOldSerial's, and its keys (lower, higher) are distinct, so its
// sorted order — and every array written, P2, T2, F2, ord — is the same
// whatever the ranges and whichever worker ran them.

// sortOldParts is the number of ranges of the old list a split sortOld
// counts and scatters.
const sortOldParts = 2

// oldSort is a split sortOld's job (kept in rebuildState: made once).
type oldSort struct {
	P            []sphere.Pair
	touch, fresh []bool
	P2           []sphere.Pair
	T2, F2       []bool
	ord          []int32
	cnt          []int32 // sortOldParts histograms of n counts, then the slots
	n            int
	phase        int
	job          func(worker, lo, hi int)
	runs         int // split sorts run (tests)
}

// split runs sortOld's sort on the crew (the arrays as sortOldSerial's),
// its counts (one per sphere and range) in room, the dead floats beyond
// the scattered pairs, when they hold them (rowEnds), else in an array
// made for the call.
func (o *oldSort) split(s *Spheres, room []float64, P []sphere.Pair, touch, fresh []bool, P2 []sphere.Pair, T2, F2 []bool, ord []int32) {
	n := len(s.idx)
	o.P, o.touch, o.fresh, o.P2, o.T2, o.F2, o.ord = P, touch, fresh, P2, T2, F2, ord
	o.cnt, o.n = rowEnds(room, sortOldParts*n), n
	if o.job == nil {
		o.job = func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				o.item(j)
			}
		}
	}
	o.run(s.fork)
	*o = oldSort{job: o.job, runs: o.runs + 1}

}

// run is the split sort's three passes through fork (the count, the
// scatter, the rows) and the prefix between the first two.
func (o *oldSort) run(fork func(n int, job func(worker, lo, hi int))) {
	o.phase = 0
	fork(sortOldParts, o.job)
	o.prefix()
	o.phase = 1
	fork(sortOldParts, o.job)
	o.phase = 2
	fork(nChunks, o.job)
}

// item is item j of the current pass.
func (o *oldSort) item(j int) {
	n, np := o.n, len(o.P)
	switch o.phase {
	case 0: // count range j's pairs by lower sphere
		h := o.cnt[j*n : (j+1)*n]
		clear(h)
		for _, p := range o.P[j*np/sortOldParts : (j+1)*np/sortOldParts] {
			h[min(p.I, p.J)]++
		}
	case 1: // scatter range j's pairs into their slots
		h := o.cnt[j*n : (j+1)*n]
		q0 := j * np / sortOldParts
		P := o.P[q0 : (j+1)*np/sortOldParts]
		touch, fresh := o.touch[q0:q0+len(P)], o.fresh[q0:q0+len(P)]
		P2, T2, F2 := o.P2, o.T2, o.F2
		for q, p := range P {
			lo := min(p.I, p.J)
			at := h[lo]
			h[lo]++
			P2[at], T2[at], F2[at] = p, touch[q], fresh[q]
			if o.ord != nil {
				o.ord[at] = int32(q0 + q)
			}
		}
	default: // sort the rows of spheres range j (the last range's cursors are the row ends)
		ends := o.cnt[(sortOldParts-1)*n : sortOldParts*n]
		k0, k1 := j*n/nChunks, (j+1)*n/nChunks
		start := int32(0)
		if k0 > 0 {
			start = ends[k0-1]
		}
		sortOldRows(o.P2, o.T2, o.F2, o.ord, ends, k0, k1, start)
	}
}

// prefix turns the counts into each range's first slot for each row: row
// by row, and within a row range by range.
func (o *oldSort) prefix() {
	n, at := o.n, int32(0)
	// Two ranges: each row's two counts side by side (4 instructions a
	// sphere fewer than the general loop, ≈ 3.5 M serial at 10⁵ spheres).
	h0, h1 := o.cnt[:n], o.cnt[n:2*n]
	for k := range h0 {
		c0, c1 := h0[k], h1[k]
		h0[k], h1[k] = at, at+c0
		at += c0 + c1
	}
}

// sortOldParts is two: prefix's loop reads two histograms.
var _ [sortOldParts - 2]struct{}
var _ [2 - sortOldParts]struct{}
