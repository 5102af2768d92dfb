package world

// The sphere path's "seen" flags (Spheres.seen: the sphere–wall pair has
// been a candidate; a generic entry exists for it) as bits (Session 27):
// a byte a sphere holds the flags of eight walls, so a world of w walls
// keeps ⌈w/8⌉ bytes a sphere, not w (5 walls at 10⁶ spheres: 1 MB, not
// 4.8). The bytes are in columns of n, column c holding walls 8c…8c+7 of
// every sphere: s.seen[c·n + k], bit wi mod 8. A sphere's byte is written
// only by the pass that owns the sphere (the slots are evaluated in
// ranges of spheres), so the split evaluation's parts share none.

// seenCols returns the number of columns of flags for walls walls.
func seenCols(walls int) int { return (walls + 7) / 8 }

// seenAt reports whether the pair of wall wi and sphere k has been a
// candidate.
func (s *Spheres) seenAt(wi, k int) bool {
	return s.seen[(wi>>3)*len(s.idx)+k]>>(wi&7)&1 != 0
}

// setSeen marks the pair of wall wi and sphere k as seen.
func (s *Spheres) setSeen(wi, k int) {
	s.seen[(wi>>3)*len(s.idx)+k] |= 1 << (wi & 7)
}

// putSeen sets the pair's flag to v.
func (s *Spheres) putSeen(wi, k int, v bool) {
	i, b := (wi>>3)*len(s.idx)+k, uint8(1)<<(wi&7)
	if v {
		s.seen[i] |= b
	} else {
		s.seen[i] &^= b
	}
}

// anySeen reports whether some pair has been seen.
func (s *Spheres) anySeen() bool {
	for _, v := range s.seen[:seenCols(len(s.planes))*len(s.idx)] {
		if v != 0 {
			return true
		}
	}
	return false
}
