package world

import "testing"

// SphereSortOldAllocs returns the allocations of sortOld on the list in
// use of w's sphere path (as a renumbering's rebuild sorts it, into its
// own spare array: updateList), once warmed up, with the pairs listed and
// the spheres. The list stays a list of the same pairs (sorted), its
// forces stale: the world must not step after.
func SphereSortOldAllocs(w *World) (allocs float64, pairs, spheres int) {
	s := w.Spheres()
	old := &s.lists[s.cur]
	pairs, spheres = len(old.P), len(s.idx)
	allocs = testing.AllocsPerRun(3, func() { s.sortOld(old, old) })
	return allocs, pairs, spheres
}
