package world

import "unsafe"

// SphereTableBytes returns the bytes a sphere of the sphere path's tables
// of one entry a sphere (body, idx, spec, rad, the seen flags:
// their capacities) and its number of walls (tests).
func SphereTableBytes(w *World) (perSphere float64, walls int) {
	s := w.Spheres()
	b := 8*cap(s.body) + 4*(cap(s.idx)+cap(s.spec)) + 8*cap(s.rad) + cap(s.seen)
	return float64(b) / float64(len(s.idx)), len(s.planes)
}

// SphereSlots returns the address of the wall slots' storage, their number
// and their sum of a few carried fields (tests: the slots built in place).
func SphereSlots(w *World) (at uintptr, n int, sum float64) {
	s := w.Spheres()
	if cap(s.slots) == 0 {
		return 0, 0, 0
	}
	for i := range s.slots {
		sl := &s.slots[i]
		sum += float64(sl.k) + 1e-3*float64(sl.wall) + sl.fn + sl.kn
		if sl.seen {
			sum += 0.5
		}
	}
	return uintptr(unsafe.Pointer(&s.slots[:1][0])), len(s.slots), sum
}

// RebuildSlots builds the wall slots again at the list's reference (tests).
func RebuildSlots(w *World) {
	s := w.Spheres()
	s.buildSlots(w.verlet.Ref()[:len(s.idx)], w.skin)
}

// SphereMaterials returns the material and radius the sphere path gives
// each sphere and its body's (tests).
func SphereMaterials(w *World) (path, bodies []int, rPath, rBodies []float64) {
	s := w.Spheres()
	for k := range s.idx {
		b := w.BodyRec(int(s.idx[k]))
		path, bodies = append(path, int(s.matOf(k))), append(bodies, b.Material)
		rPath, rBodies = append(rPath, s.rOf(k)), append(rBodies, b.R)
	}
	return path, bodies, rPath, rBodies
}
