package world

// matOf returns the material of sphere k: its species' (Session 27: a
// table by species, not an array of 4 bytes a sphere — every sphere of a
// species has one material, specKey).
func (s *Spheres) matOf(k int) int32 { return s.specMat[s.spec[k]] }
