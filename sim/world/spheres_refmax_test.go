package world_test

import (
	"math"
	"testing"

	"grainlab/sim/world"
)

// TestSphereRefMaxFolded: on two workers with every evaluation split, each
// list build takes the reference's largest |coordinate| in its own
// fork–join (spheres_refmax.go), and after every step of a falling lattice
// of 5000 spheres the value kept for the current build is maxAbsCoord of
// the whole reference, to the bit; one worker folds none. It fails with a
// range of the reference left out of the join or the value kept for the
// wrong build.
func TestSphereRefMaxFolded(t *testing.T) {
	for _, nw := range []int{1, 2} {
		w := partsWorld(t, 5000, []float64{0.001}, nw, 0)
		checked := 0
		for step := range 150 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			kept, ok, now, _ := world.SphereRefMax(w)
			if ok {
				if math.Float64bits(kept) != math.Float64bits(now) {
					t.Fatalf("%d workers, step %d: kept %v, the reference's %v", nw, step, kept, now)
				}
				checked++
			}
		}
		_, _, _, folds := world.SphereRefMax(w)
		t.Logf("%d workers: %d builds, %d folded, %d steps checked", nw, w.VerletBuilds(), folds, checked)
		switch {
		case nw == 1 && folds != 0:
			t.Errorf("one worker folded %d", folds)
		case nw == 2 && (folds < 3 || checked < 100):
			t.Errorf("two workers: %d folded, %d steps checked", folds, checked)
		}
	}
}
