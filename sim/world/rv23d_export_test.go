package world

// RV23DPoisonOnly sets component c (0–2 x, 3–5 v) of sphere o of the lazy
// sphere path's accepted state to val, leaving Stats as they are (review
// rv23d: the next real step's kick must sum the energies that flag it).
func RV23DPoisonOnly(w *World, o, c int, val float64) bool {
	s := w.lazySpheres()
	if s == nil {
		return false
	}
	a := &s.accepted().L[o]
	p := [6]*float64{&a.X.X, &a.X.Y, &a.X.Z, &a.V.X, &a.V.Y, &a.V.Z}
	*p[c] = val
	return true
}

// RV23DRotStill is rotStill of the lazy sphere path.
func RV23DRotStill(w *World) bool {
	s := w.lazySpheres()
	return s != nil && s.rotStill
}
