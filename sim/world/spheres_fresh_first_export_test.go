package world

// SphereFirstFresh returns the sphere path's fresh pairs (s.fresh, or a
// first build's 0 … n−1: freshPairs), the list's length, and how many
// ranges of the last build keep a fresh list with room
// (spheres_fresh_first.go).
func SphereFirstFresh(w *World) (fresh []int32, pairs, rangesKept int) {
	s := w.sph
	for p := range s.rb.part {
		if cap(s.rb.part[p].fresh) > 0 {
			rangesKept++
		}
	}
	return s.freshPairs(), len(s.lists[s.cur].P), rangesKept
}

// SphereFreshRoom returns the room of the array of fresh pairs (s.fresh)
// and the number of a first build's fresh pairs (freshFirst).
func SphereFreshRoom(w *World) (room, first int) {
	s := w.sph
	return cap(s.fresh), s.rb.freshFirst
}

// freshPairs returns the fresh pairs as a list: s.fresh's, or a first
// build's 0 … freshFirst−1.
func (s *Spheres) freshPairs() []int32 {
	if s.rb.freshFirst == 0 {
		return s.fresh
	}
	f := make([]int32, s.rb.freshFirst)
	for k := range f {
		f[k] = int32(k)
	}
	return f
}
