package world

// SetMaxClassSpecies sets the largest number of species whose sphere pair
// classes are tabulated and returns the old value (tests).
func SetMaxClassSpecies(n int) int {
	old := maxClassSpecies
	maxClassSpecies = n
	return old
}

// PairClassTable reports whether the sphere path of w tabulates its pair
// classes by species pair (tests).
func PairClassTable(w *World) bool { return w.Spheres().pairCls != nil }
