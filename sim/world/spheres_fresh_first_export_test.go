package world

// SphereFirstFresh returns the sphere path's fresh pairs (s.fresh), the
// list's length, and how many ranges of the last build keep a fresh list
// with room (spheres_fresh_first.go).
func SphereFirstFresh(w *World) (fresh []int32, pairs, rangesKept int) {
	s := w.sph
	for p := range s.rb.part {
		if cap(s.rb.part[p].fresh) > 0 {
			rangesKept++
		}
	}
	return s.fresh, len(s.lists[s.cur].P), rangesKept
}
