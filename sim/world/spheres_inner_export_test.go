package world

// SetInnerOn turns the sphere path's inner list on or off (innerOn) and
// returns the previous setting.
func SetInnerOn(on bool) bool {
	was := innerOn
	innerOn = on
	return was
}

// InnerInUse reports whether the last evaluation's kernels scanned the
// inner list, and its pairs and the list's.
func InnerInUse(w *World) (on bool, inner, pairs int) {
	if w.sph == nil {
		return false, 0, 0
	}
	l := &w.sph.lists[w.sph.cur]
	return l.Inner.On, len(l.Inner.P), len(l.P)
}
