package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/world"
)

// The touches' two arrays (spheres_touch_rot.go): after steps with list
// builds (renumbered or not) and after a build of its own, the list in use
// has its Touch and PrevTouch, the new Touch all false until an evaluation
// writes it, and the idle list keeps no array of touches when the pairs
// have a table of classes (one and three species); with a class a pair
// (no table) the idle list keeps its own after a build, as before. One and
// two workers.
func TestSphereTouchTwoArrays(t *testing.T) {
	for _, tc := range []struct {
		radii      []float64
		maxSpecies int
		workers    int
	}{
		{[]float64{0.001}, 64, 1},
		{[]float64{0.001}, 64, 2},
		{[]float64{0.001, 0.0009, 0.0011}, 64, 2},
		{[]float64{0.001, 0.0009, 0.0011}, 0, 1},
	} {
		name := fmt.Sprintf("species=%d,table=%v,w=%d", len(tc.radii), tc.maxSpecies > 0, tc.workers)
		t.Run(name, func(t *testing.T) {
			old := world.SetMaxClassSpecies(tc.maxSpecies)
			defer world.SetMaxClassSpecies(old)
			w := partsWorld(t, 5000, tc.radii, tc.workers, 0)
			table := tc.maxSpecies > 0
			for step := range 40 {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				cur, _, idle := world.SphereTouchArrays(w)
				if !cur || table && idle {
					t.Fatalf("step %d: list in use with touches %v, idle list keeps touches %v (table %v)", step, cur, idle, table)
				}
			}
			world.SphereRebuildNow(w)
			cur, clear, idle := world.SphereTouchArrays(w)
			if !cur || !clear || idle != !table {
				t.Fatalf("after a build: touches %v, Touch all false %v, idle list keeps touches %v", cur, clear, idle)
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		})
	}
}
