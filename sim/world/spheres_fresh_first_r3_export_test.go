package world

// R3ShrinkSkin scales the world's skin and invalidates the Verlet list (a
// forced rebuild at the next evaluation; review r3).
func R3ShrinkSkin(w *World, f float64) { w.skin *= f; w.verlet.Invalidate() }

// R3Fresh returns the list's length, the set fresh flags, freshCount and
// its parts.
func R3Fresh(w *World) (n, set, count, first, listed int) {
	s := w.sph
	n = len(s.lists[s.cur].P)
	for _, f := range s.isFresh[:n] {
		if f {
			set++
		}
	}
	return n, set, s.freshCount(), s.rb.freshFirst, len(s.fresh)
}
