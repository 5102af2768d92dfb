package world

// SphereSpeciesRV is the sphere path's number of species and whether its
// step-size classes are tabulated by species (review r2).
func SphereSpeciesRV(w *World) (int, bool) {
	s := w.Spheres()
	if s == nil {
		return 0, false
	}
	return len(s.rep), s.dt.bySpec != nil
}

// SphereHookeMinRV is the sphere path's least Hookean spring bound and its list's length (review r2).
func SphereHookeMinRV(w *World) (float64, int) {
	s := w.Spheres()
	if s == nil {
		return -1, -1
	}
	return s.dt.hookeMin, len(s.lists[s.cur].P)
}
