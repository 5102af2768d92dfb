package world

import (
	"runtime"

	"grainlab/sim/geom"
)

// SphereReorderBytes renumbers the spheres of w (reorder, as a rebuild
// does before its list) and returns the bytes it allocated, whether its
// temporaries had the idle list's room (orderScratch), and whether the
// spheres are then in Morton order of their trial centres (the codes
// nondecreasing along the new numbering, as reorder computes them) with
// idx a permutation (tests). w is not usable afterwards (its old list is
// not sorted for a merge).
func SphereReorderBytes(w *World) (bytes uint64, scratch, ordered bool) {
	s := w.Spheres()
	n := len(s.idx)
	sc := s.orderScratch()
	scratch = len(sc.w) > 0
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	s.reorder()
	runtime.ReadMemStats(&m1)
	S := s.tr.L
	lo, hi := S[0].X, S[0].X
	for k := range S {
		x := S[k].X
		lo = geom.V(min(lo.X, x.X), min(lo.Y, x.Y), min(lo.Z, x.Z))
		hi = geom.V(max(hi.X, x.X), max(hi.Y, x.Y), max(hi.Z, x.Z))
	}
	cell := 0.0
	for _, r := range s.rad {
		cell = max(cell, 2*r)
	}
	q := func(v float64) uint64 { return min(uint64(max(v/cell, 0)), 1<<21-1) }
	ordered = true
	seen := make(map[int32]bool, n)
	prev := uint64(0)
	for k := range S {
		x := S[k].X
		c := morton(q(x.X-lo.X), q(x.Y-lo.Y), q(x.Z-lo.Z))
		ordered = ordered && c >= prev
		prev = c
		i := s.idx[k]
		ordered = ordered && !seen[i] && s.sidx[i] == int32(k)
		seen[i] = true
	}
	return m1.TotalAlloc - m0.TotalAlloc, scratch, ordered
}
