package world_test

import (
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// TestRenumberPermutesEveryArray (review r5, session 21): every slice of the
// sphere path whose length is a multiple of the number of spheres is
// permuted exactly once by a renumbering (found by reflection: a
// per-sphere array added later and forgotten in applyOrder fails it), on a
// frictionless box (one shared rotational array) and a box with friction,
// rolling resistance and walls (two rotational arrays, wall flags), after
// some steps so that the lists, slots and state arrays are all in use.
func TestRenumberPermutesEveryArray(t *testing.T) {
	for _, tc := range []struct {
		scene string
		sets  []string
		share bool
	}{
		{"sphere-box-soft", []string{"generators[0].count=300"}, false},
		{"sphere-box-soft", []string{"generators[0].count=300"}, true},
		{"sphere-piling", []string{"generators[0].count=300", "contact.default.mu_roll=0.1"}, false},
	} {
		s, err := scene.LoadBuiltin(tc.scene, tc.sets...)
		if err != nil {
			t.Fatal(err)
		}
		w := startBuilt(t, s)
		if _, err := integrate.Advance(w, 0.02, func() bool { return false }); err != nil {
			t.Fatal(err)
		}
		checked, err := world.SphereRenumberCheck(w, 5, tc.share)
		t.Logf("%s: checked %v", tc.scene, checked)
		if err != nil {
			t.Errorf("%s: %v", tc.scene, err)
		}
	}
}
