package world_test

import (
	"testing"

	"grainlab/sim/world"
)

// sortOld's counts go into dead room (spheres_sortold_room.go): with the
// per-pair arrays' room of 1/sphere.PairRoom, the spare array's room is
// short of the row ends (a sphere's int32 at a few pairs a sphere), and
// the room beyond the Verlet reference takes them — a renumbering's sort
// of the old list allocates nothing. It fails when sortOldRoom returns the
// short room (rowEnds then makes an array: one allocation each sort).
func TestSphereSortOldNoAlloc(t *testing.T) {
	w := partsWorld(t, 20000, []float64{0.001}, 1, 0)
	for range 3 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	allocs, pairs, spheres := world.SphereSortOldAllocs(w)
	if pairs/16 >= spheres/2 {
		t.Fatalf("%d pairs of %d spheres: the spare array's room holds the row ends, the test shows nothing", pairs, spheres)
	}
	if allocs != 0 {
		t.Fatalf("sortOld of %d pairs (%d spheres): %.0f allocations, want 0", pairs, spheres, allocs)
	}
}
