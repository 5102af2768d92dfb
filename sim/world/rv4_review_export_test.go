package world

// ReviewRimTouches returns how many wall slots touch a wall's rim at the
// last evaluation (review rv4's tests).
func ReviewRimTouches(w *World) (n int) {
	s := w.Spheres()
	for i := range s.slots {
		if s.slots[i].rim && s.slots[i].touch {
			n++
		}
	}
	return n
}
