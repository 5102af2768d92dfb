package world

import "grainlab/sim/geom"

// A sphere block's centres in the sphere path's accepted array until its
// first Accept (issue #16, memory per sphere; docs/performance.md,
// "Session 25: the set-up's peak").
//
// A block's centres (24 bytes a sphere, 23 MB at 10⁶) are the spheres'
// state from the generator until the sphere path's first Accept, which
// writes the accepted array acc and frees them (sphere_block.go). acc
// itself (72 bytes a sphere) is made by the sphere path's build and holds
// nothing until a Drift or that Accept writes it: so the build moves the
// centres into acc's X (sphere o's at acc.L[o].X, o = sidx of the body)
// and drops the block's array, which then dies before the first list
// build's arrays are made (the set-up's peak: every array of the run, the
// first list's, and this garbage). The centres are still the truth
// (blockCentres): fillState reads a sphere's X there, and so every reader
// of the block (TrialFromBodies, a Drift's readVirtual, EachBody,
// materialize) gets the same bits as from the block's array. What moves
// acc.L moves the centres with it: the renumbering permutes acc.L with
// sidx (orderJob); a Drift's readVirtual writes each sphere's slot of acc
// from that same slot (X unchanged, V and F the template's); the first
// Accept overwrites acc and frees them (freeBlockCentres). A build of the
// path while they are there (a changed spheresKey) puts them back into a
// block array first (centresFromAcc): the build rewrites sidx and may
// remake acc.

// centresToAcc moves the blocks' centres into acc at the end of a virtual
// build (s.virt: every movable body a block's sphere, each with its sphere
// o = sidx[i]).
func (s *Spheres) centresToAcc() {
	w := s.w
	if !s.virt || len(w.blocks) == 0 || len(s.acc.L) != len(s.idx) {
		return
	}
	for _, bl := range w.blocks {
		if bl.x == nil {
			return // the state is already the path's (not a first build): nothing to move
		}
	}
	acc := s.acc.L
	for _, bl := range w.blocks {
		sidx := s.sidx[bl.first : bl.first+bl.count]
		for k, x := range bl.x {
			acc[sidx[k]].X = x
		}
		bl.x, bl.xAcc = nil, true
	}
}

// centreInAcc returns the centre of body i, a block's sphere whose centre
// is in acc (bl.xAcc).
func (s *Spheres) centreInAcc(i int) geom.Vec3 {
	return s.acc.L[s.sidx[i]].X
}

// centresFromAcc puts the blocks' centres held in acc back into arrays of
// their own (before a build rewrites sidx and acc).
func (s *Spheres) centresFromAcc() {
	for _, bl := range s.w.blocks {
		if !bl.xAcc {
			continue
		}
		x := make([]geom.Vec3, bl.count)
		for k := range x {
			x[k] = s.centreInAcc(bl.first + k)
		}
		bl.x, bl.xAcc = x, false
	}
}
