package world

// matOf returns the material of sphere k: its species' (Session 27: a
// table by species, not an array of 4 bytes a sphere — every sphere of a
// species has one material, specKey).
func (s *Spheres) matOf(k int) int32 { return s.specMat[s.spec[k]] }

// rOf returns the radius of sphere k: its species' (Session 27: no array
// of 8 bytes a sphere; a species has one radius, specKey).
func (s *Spheres) rOf(k int) float64 { return s.specR[s.spec[k]] }
