package world

// SetMaxClassSpecies sets the largest number of species whose sphere pair
// classes are tabulated and returns the old value (tests).
func SetMaxClassSpecies(n int) int {
	old := maxClassSpecies
	maxClassSpecies = n
	return old
}

// PairClassTable reports whether the sphere path of w tabulates its pair
// classes by species pair (tests).
func PairClassTable(w *World) bool { return w.Spheres().pairCls != nil }

// SphereArrays describes the memory of the sphere path of w (tests): the
// number of spheres, the least and largest capacity of its arrays of one
// entry a sphere, whether it holds spare renumbering arrays between
// renumberings, and whether the spheres are renumbered.
func SphereArrays(w *World) (n, minCap, maxCap int, spares, ordered bool) {
	s := w.Spheres()
	n = len(s.body)
	caps := []int{cap(s.tr.S), cap(s.tr.X), cap(s.acc), cap(s.r), cap(s.rad),
		cap(s.spec), cap(s.mat), cap(s.byBody)}
	minCap, maxCap = caps[0], caps[0]
	for _, c := range caps {
		minCap, maxCap = min(minCap, c), max(maxCap, c)
	}
	spares = s.bodyBuf != nil || s.idxBuf != nil || s.matBuf != nil || s.f64Buf != nil ||
		s.vecBuf != nil || s.stateBuf != nil || s.seenBuf != nil
	return n, minCap, maxCap, spares, s.ordered
}

// SpherePartsReady reports whether the next split evaluation of the sphere
// path of w goes by parts of spheres (evalParts) rather than by stored pair
// forces gathered per sphere (tests).
func SpherePartsReady(w *World) bool {
	s := w.Spheres()
	return s.partsOK && s.hooke && s.lists[s.cur].Shift == nil
}

// SphereCrossPairs returns how many pairs of the sphere list cross between
// the parts of a split evaluation (tests).
func SphereCrossPairs(w *World) (n int) {
	s := w.Spheres()
	for p := range s.rb.part {
		for q := range s.rb.part[p].cross {
			n += len(s.rb.part[p].cross[q])
		}
	}
	return n
}

// VerletBuilds returns how many times the world's Verlet list was rebuilt (tests).
func (w *World) VerletBuilds() int { return w.verlet.Builds() }
