package world

// SphereTouchArrays returns, for the list in use, whether Touch and
// PrevTouch have room, whether Touch is all false, and for the idle list
// whether it keeps a Touch or PrevTouch array (spheres_touch_rot.go).
func SphereTouchArrays(w *World) (cur, touchClear, idleKeeps bool) {
	s := w.sph
	l, idle := &s.lists[s.cur], &s.lists[1-s.cur]
	cur = cap(l.Touch) > 0 && cap(l.PrevTouch) > 0
	touchClear = true
	for _, t := range l.Touch {
		touchClear = touchClear && !t
	}
	idleKeeps = cap(idle.Touch) > 0 || cap(idle.PrevTouch) > 0
	return
}

// SphereRebuildNow runs the list build of the trial state as the next
// evaluation's would (the Verlet list rebuilt, the renumbering if due):
// updateList with its test failed.
func SphereRebuildNow(w *World) {
	s := w.sph
	w.verlet.Invalidate()
	s.drift = driftTest{}
	s.updateList()
}
