package world

// refRadii returns the radii the Verlet list was last built with, for a
// state file's verlet_rad: the sphere path's (s.rad, r + ḡ/2 a sphere)
// while it lists the spheres of a world without periodic images — its
// Update reads s.rad and its own centres, not the generic stages' w.radii,
// which are then stale or empty (before, the file then left the list's
// reference out and a restart rebuilt the list at once, at another step
// than the run that went on: the next step bound, which reads the listed
// pairs of a Hertzian class, differed; sphere-piling restarted at 0.15 s
// was 2.6e-7 m off at 0.17 s) — else the generic stages' radii. With
// periodic images the sphere path fills w.radii itself (updateList).
func (w *World) refRadii() []float64 {
	if s := w.sph; s != nil && s.listed && !w.Periodic.On() && len(s.rad) == len(w.verlet.Ref()) {
		return s.rad
	}
	return w.radii
}
