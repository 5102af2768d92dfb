package world_test

import (
	"testing"

	"grainlab/sim/world"
)

// TestSphereForkCostedSameBits: a falling lattice of 5000 spheres, every
// evaluation split, its evaluation and list rebuilds claimed largest first
// by their last costs, Drift's and the kick's ranges two-ended over the
// evaluation's assignment (spheres_fork_cost.go), gives the same stats at
// every step and the same final bodies on 1, 2 and 3 workers, one species
// without friction and three with friction and two laws; on 2 and 3
// workers every part of the evaluation (its parts, or its pairs without
// parts) and of the rebuild has been timed, and Drift and Accept's kick
// have run near the evaluation (forkNear) at almost every step.
func TestSphereForkCostedSameBits(t *testing.T) {
	for _, tc := range []struct {
		radii []float64
		mu    float64
	}{
		{[]float64{0.001}, 0},
		{[]float64{0.001, 0.0009, 0.0011}, 0.3},
	} {
		var ref string
		for _, nw := range []int{1, 2, 3} {
			w := partsWorld(t, 5000, tc.radii, nw, tc.mu)
			d := partsDigest(t, w, 150, true)
			ev, rb, sorted, near := world.SphereForkCosts(w)
			t.Logf("mu=%g, %d workers: digest %s, %d builds, timed parts: evaluation %d, rebuild %d; near passes %d", tc.mu, nw, d[:16], w.VerletBuilds(), ev, rb, near)
			switch {
			case nw == 1:
				ref = d
			case d != ref:
				t.Errorf("mu=%g: %d workers differ from one", tc.mu, nw)
			case ev < 8 || rb == 0 || !sorted || near < 2*140:
				t.Errorf("mu=%g, %d workers: %d evaluation parts and %d rebuild parts timed (sorted %v), %d passes near the evaluation: the costed passes did not run", tc.mu, nw, ev, rb, sorted, near)
			}
		}
	}
}
