package world

import (
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// The renumbering's passes over the spheres on the crew (reorder, when the
// passes split): the box of the trial centres and their Morton codes, each
// in nChunks ranges of spheres. A range's box is the least and largest of
// its centres, and the ranges' boxes are joined by min and max, which are
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
	job      func(worker, lo, hi int)
	runs     int // split code passes run (tests)
}

// box returns the least and largest coordinates of S's centres (S not
// empty), by ranges on the crew.
func (o *orderCode) box(fork func(n int, job func(worker, lo, hi int)), S []sphere.Lin) (lo, hi geom.Vec3) {
	o.S, o.phase = S, 0
	o.run(fork)
	lo, hi = S[0].X, S[0].X
	for c := range nChunks {
		if o.partSome[c] {
			l, h := o.partLo[c], o.partHi[c]
			lo = geom.V(min(lo.X, l.X), min(lo.Y, l.Y), min(lo.Z, l.Z))
			hi = geom.V(max(hi.X, h.X), max(hi.Y, h.Y), max(hi.Z, h.Z))
		}
	}
	o.S = nil
	return lo, hi
}

// codes writes mortonCodes(S, codes, lo, inv) by ranges on the crew.
func (o *orderCode) codes(fork func(n int, job func(worker, lo, hi int)), S []sphere.Lin, codes []uint64, lo geom.Vec3, inv float64) {
	o.S, o.out, o.lo, o.inv, o.phase = S, codes, lo, inv, 1
	o.run(fork)
	o.S, o.out = nil, nil
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
	if o.phase == 1 {
		mortonCodes(S, o.out[k0:k1], o.lo, o.inv)
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
	o.partLo[c], o.partHi[c] = lo, hi
}
