package world

// SphereFreshSpare returns the room of the spare array of fresh flags
// (0: none kept; spheres_fresh_none.go).
func SphereFreshSpare(w *World) int { return cap(w.Spheres().freshBuf) }
