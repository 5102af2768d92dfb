package world

// The sphere path's tables of one entry a sphere, Session 27 (memory at
// 10⁶): what a species fixes is read through the species — the radius
// (rOf, specR) and the material (matOf, specMat), each the same for every
// sphere of a species (specKey) — and the body order through sidx
// (inBodyOrder): no arrays r (8 B a sphere), mat and byBody (4 B each).
// Left per sphere: idx and spec (4 B each), rad (8 B: the broad phase's
// radii, sim/broad reads them by sphere), the seen flags (spheres_seen.go).

// matOf returns the material of sphere k: its species' (Session 27: a
// table by species, not an array of 4 bytes a sphere — every sphere of a
// species has one material, specKey).
func (s *Spheres) matOf(k int) int32 { return s.specMat[s.spec[k]] }

// rOf returns the radius of sphere k: its species' (Session 27: no array
// of 8 bytes a sphere; a species has one radius, specKey).
func (s *Spheres) rOf(k int) float64 { return s.specR[s.spec[k]] }

// inBodyOrder returns the spheres in body order (new array): sidx's
// spheres, walls left out. (Session 27: no array byBody kept for the rare
// restoreOrder, 4 B a sphere.)
func (s *Spheres) inBodyOrder() []int32 {
	perm := make([]int32, 0, len(s.idx))
	for _, k := range s.sidx {
		if k >= 0 {
			perm = append(perm, k)
		}
	}
	return perm
}
