package world_test

import (
	"testing"

	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// The wall slots' deep flags and step-size classes, which buildSlots takes
// from the walls' triangles and rims and a (species, wall) table prepared
// once a rebuild, equal their definitions (onSurface of the wall body, the
// distance to the nearest rim segment against the rebuild margin, the class
// of the (species, wall) key) at every step of 300 spheres of
// sphere-piling poured into its feed box and funnel (finite planes, whose
// rims leave slots that are not deep) for 2000 steps, with the species
// table of wall classes and without it (the map's class).
func TestSphereSlotsByDefinition(t *testing.T) {
	for _, maxSpecies := range []int{64, 0} { // the table; none
		old := world.SetMaxClassSpecies(maxSpecies)
		s, err := scene.LoadBuiltin("sphere-piling", "generators.0.count=300")
		if err != nil {
			t.Fatal(err)
		}
		w := startBuilt(t, s)
		most, deep, shallow := 0, 0, 0
		for step := range 2000 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			n, d, err := world.SphereSlotsByDefinition(w)
			if err != nil {
				t.Fatalf("max species %d, step %d: %v", maxSpecies, step, err)
			}
			most, deep, shallow = max(most, n), max(deep, d), max(shallow, n-d)
		}
		world.SetMaxClassSpecies(old)
		if deep == 0 || shallow == 0 {
			t.Errorf("max species %d: up to %d slots, %d deep, %d not: the test needs both", maxSpecies, most, deep, shallow)
		}
		t.Logf("max species %d: up to %d slots, %d deep, %d not, t = %.3g s", maxSpecies, most, deep, shallow, w.Time)
	}
}
