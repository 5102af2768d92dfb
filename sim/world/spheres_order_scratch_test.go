package world_test

import (
	"testing"

	"grainlab/sim/world"
)

// A renumbering (reorder) of 5000 spheres of a dense lattice whose lists
// have been built (the idle list's pairs have the room: 20 bytes a sphere)
// allocates nothing and leaves the spheres in Morton order; its
// temporaries (codes, the radix sort's buffer, the order, its inverse and
// cycles: 28 bytes a sphere, 42 MB of garbage at 10⁶ spheres) lie in the
// idle list's pairs (Session 23).
func TestSphereReorderScratch(t *testing.T) {
	w := partsLattice(t, 5000, []float64{0.001})
	for range 3 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	bytes, scratch, ordered := world.SphereReorderBytes(w)
	if !scratch {
		t.Fatal("the idle list has no room for the renumbering's temporaries: the test does not test them")
	}
	if !ordered {
		t.Fatal("the spheres are not in Morton order after the renumbering")
	}
	if bytes > 4096 {
		t.Fatalf("the renumbering allocated %d bytes (%.1f a sphere), want none", bytes, float64(bytes)/5000)
	}
}
