package world

import (
	"math/bits"
	"slices"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// The renumbering's passes over the spheres on the crew (reorder, when the
// passes split): the box of the trial centres and their Morton codes, each
// in nChunks ranges of spheres. A range's box is the least and largest of
// its centres (and its largest radius), and the ranges' boxes are joined by
// min and max, which are
// exact in any order (−0 is below +0, whichever comes first; a NaN gives a
// NaN, though not always the serial loop's NaN bits, and reorder only
// computes with it: the cell and every code are the same): the serial
// loop's box. A code is the centre's own (mortonCodes). So the codes, and
// the order, are those of one worker.

// orderCode is the split passes' job (kept in rebuildState: made once).
type orderCode struct {
	S        []sphere.Lin
	out      []uint64
	lo       geom.Vec3
	inv      float64
	phase    int
	partLo   [nChunks]geom.Vec3
	partHi   [nChunks]geom.Vec3
	partSome [nChunks]bool
	partR    [nChunks]float64 // each range's largest radius (phase 0)
	rad0     []float64
	partTop  [nChunks]uint64 // each range's codes ORed (phase 1)
	job      func(worker, lo, hi int)
	runs     int // split code passes run (tests)
	// mortonPerm's radix sort (phases 2 and 3): each range's counts by
	// digit, then its cursors; allocated at the first split sort, kept.
	rad      *[nChunks][1 << radixDigit]int32
	src, dst []uint64
	perm     []int32
	sh       int
	pack     bool // the count pass packs code<<32 | k first
	last     bool // the scatter writes perm (the spheres), not dst
	sortsRun int  // split Morton sorts run (tests)
}

// radixDigit is sortPacked's digit (bits a pass).
const radixDigit = 11

// box returns the least and largest coordinates of S's centres (S not
// empty) and the largest of rad (as long as S), by ranges on the crew.
func (o *orderCode) box(fork func(n int, job func(worker, lo, hi int)), S []sphere.Lin, rad []float64) (lo, hi geom.Vec3, rmax float64) {
	o.S, o.rad0, o.phase = S, rad[:len(S)], 0
	o.run(fork)
	lo, hi, rmax = S[0].X, S[0].X, rad[0]
	for c := range nChunks {
		if o.partSome[c] {
			l, h := o.partLo[c], o.partHi[c]
			lo = geom.V(min(lo.X, l.X), min(lo.Y, l.Y), min(lo.Z, l.Z))
			hi = geom.V(max(hi.X, h.X), max(hi.Y, h.Y), max(hi.Z, h.Z))
			rmax = max(rmax, o.partR[c])
		}
	}
	o.S, o.rad0 = nil, nil
	return lo, hi, rmax
}

// codes writes mortonCodes(S, codes, lo, inv) by ranges on the crew.
func (o *orderCode) codes(fork func(n int, job func(worker, lo, hi int)), S []sphere.Lin, codes []uint64, lo geom.Vec3, inv float64) {
	o.S, o.out, o.lo, o.inv, o.phase = S, codes, lo, inv, 1
	o.run(fork)
	o.S = nil
	o.runs++
}

// run runs the current pass's nChunks ranges through fork.
func (o *orderCode) run(fork func(n int, job func(worker, lo, hi int))) {
	if o.job == nil {
		o.job = func(_, lo, hi int) {
			for c := lo; c < hi; c++ {
				o.item(c)
			}
		}
	}
	fork(nChunks, o.job)
}

// item is range c of the current pass.
func (o *orderCode) item(c int) {
	n := len(o.S)
	k0, k1 := c*n/nChunks, (c+1)*n/nChunks
	S := o.S[k0:k1]
	switch o.phase {
	case 1:
		out := o.out[k0:k1]
		mortonCodes(S, out, o.lo, o.inv)
		var top uint64
		for _, c := range out {
			top |= c
		}
		o.partTop[c] = top
		return
	case 2, 3:
		o.radixItem(c)
		return
	}
	o.partSome[c] = len(S) > 0
	if len(S) == 0 {
		return
	}
	lo, hi := S[0].X, S[0].X
	for k := range S {
		x := S[k].X
		lo = geom.V(min(lo.X, x.X), min(lo.Y, x.Y), min(lo.Z, x.Z))
		hi = geom.V(max(hi.X, x.X), max(hi.Y, x.Y), max(hi.Z, x.Z))
	}
	o.partLo[c], o.partHi[c], o.partR[c] = lo, hi, slices.Max(o.rad0[k0:k1])
}

// mortonPerm is mortonPerm(codes, perm, sc) after codes (the same codes,
// their OR in partTop), its passes on the crew: codes below 2³² packed
// with their sphere and sorted by a least-significant-digit radix sort of
// radixDigit bits, each pass a count (each range its own counts by digit),
// a prefix (digit by digit, and within a digit range by range) and a
// scatter (each range from its own cursors, in its order) — stable, as
// sortPacked's, so the same order — the last scatter writing the spheres
// to perm. Codes from 2³² on (over 2¹⁰ cells an axis) go to the serial
// mortonPerm.
func (o *orderCode) mortonPerm(fork func(n int, job func(worker, lo, hi int)), codes []uint64, perm []int32, sc *orderScratch) {
	var top uint64
	for _, t := range o.partTop {
		top |= t
	}
	n := len(codes)
	perm = perm[:n]
	if top >= 1<<32 {
		mortonPerm(codes, perm, sc)
		return
	}
	if top == 0 { // every code 0: the spheres in order
		for k := range perm {
			perm[k] = int32(k)
		}
		return
	}
	if o.rad == nil {
		o.rad = new([nChunks][1 << radixDigit]int32)
	}
	hi := 32 + bits.Len64(top)
	o.src, o.dst, o.perm, o.pack = codes, sc.u64(n), perm, true
	for sh := 32; sh < hi; sh += radixDigit {
		o.sh, o.last = sh, sh+radixDigit >= hi
		o.phase = 2
		fork(nChunks, o.job)
		o.pack = false
		at := int32(0)
		for d := range 1 << radixDigit {
			for c := range nChunks {
				h := &o.rad[c][d]
				at, *h = at+*h, at
			}
		}
		o.phase = 3
		fork(nChunks, o.job)
		o.src, o.dst = o.dst, o.src
	}
	o.src, o.dst, o.perm = nil, nil, nil
	o.sortsRun++
}

// radixItem is range c of mortonPerm's count (phase 2) or scatter (3).
func (o *orderCode) radixItem(c int) {
	const mask = 1<<radixDigit - 1
	n := len(o.src)
	k0, k1 := c*n/nChunks, (c+1)*n/nChunks
	src, h, sh := o.src[k0:k1], &o.rad[c], o.sh
	if o.phase == 2 {
		if o.pack {
			for k := range src {
				src[k] = src[k]<<32 | uint64(k0+k)
			}
		}
		clear(h[:])
		for _, e := range src {
			h[e>>sh&mask]++
		}
		return
	}
	if o.last {
		perm := o.perm
		for _, e := range src {
			d := e >> sh & mask
			perm[h[d]] = int32(uint32(e))
			h[d]++
		}
		return
	}
	dst := o.dst
	for _, e := range src {
		d := e >> sh & mask
		dst[h[d]] = e
		h[d]++
	}
}
