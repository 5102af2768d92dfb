package world

// SphereOrderSplits returns how many renumberings ran their Morton codes,
// their Morton sort and their sortOld on the crew (spheres_order_split.go,
// spheres_sortold_split.go) in w's sphere path.
func SphereOrderSplits(w *World) (codes, radix, sorts int) {
	if w.sph == nil {
		return 0, 0, 0
	}
	return w.sph.rb.oc.runs, w.sph.rb.oc.sortsRun, w.sph.rb.so.runs
}
