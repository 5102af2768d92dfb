package world_test

import (
	"testing"

	"grainlab/sim/world"
)

// Over a long stretch of the collapse (walls removed, explicit,
// 2 workers), at every step every lease that held in the step's last pass (the same
// placements)
// must prove its cache not stale: Stale, run on a copy, answers false.
// Unlike the step-by-step comparison with leases off, this fails when the
// travel is undercounted (checked: Travel never counted → stale leases).
func TestHeldLeasesNeverStale(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	w := startScene(t, "box-of-tetrapods", packed)
	for _, side := range []string{"left", "right", "front", "back"} {
		if err := w.SetWallEnabled(side, false); err != nil {
			t.Fatal(err)
		}
	}
	w.Settings.Workers = 2
	steps := 1500
	if testing.Short() {
		steps = 300
	}
	total := 0
	for step := 0; step < steps; step++ {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		// The placements of the step's last pass, whose leases it honoured.
		held, stale := world.HeldLeasesStale(w)
		total += held
		if stale > 0 {
			t.Fatalf("step %d (t = %.5g s): %d of %d held leases on stale caches", step, w.Time, stale, held)
		}
	}
	t.Logf("t = %.4g s: %d lease checks, none stale", w.Time, total)
}
