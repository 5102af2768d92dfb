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
	total, totalFast, totalSwapped := 0, 0, 0
	for step := 0; step < steps; step++ {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		// The placements of the step's last pass, whose leases it honoured.
		held, fast, swapped, stale := world.HeldLeasesStale(w)
		total += held
		totalFast += fast
		totalSwapped += swapped
		if stale > 0 {
			t.Fatalf("step %d (t = %.5g s): %d of %d held leases on stale caches", step, w.Time, stale, held)
		}
	}
	t.Logf("t = %.4g s: %d lease checks (%d decided by the weighted test, %d on swapped leases), none stale", w.Time, total, totalFast, totalSwapped)
	if 2*totalFast < total || totalSwapped == 0 {
		t.Fatalf("the weighted test decided %d of %d held leases, %d swapped: they are not probed", totalFast, total, totalSwapped)
	}
}

// Leases go on being granted once a body's travel nears the count above
// which Grant refuses (contact.Travel.Worn): the pass restarts every body's
// travel and drops every lease, and the leases granted after the restart
// prove their caches not stale. Without the restart the counts stay above
// 2⁴⁹ and no pair gets a lease again (checked: the test fails).
func TestTravelRestart(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	w := startScene(t, "box-of-tetrapods", packed)
	w.Settings.Workers = 2
	step := func(n int) (held, fast int) {
		t.Helper()
		for k := 0; k < n; k++ {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			h, f, _, stale := world.HeldLeasesStale(w)
			if stale > 0 {
				t.Fatalf("%d of %d held leases on stale caches", stale, h)
			}
			held, fast = held+h, fast+f
		}
		return held, fast
	}
	step(5)
	// Wear every body's travel past 2⁴⁹ quanta (the grant limit) in one
	// go: without a restart no pair would get a lease again.
	for i := range w.Bodies() {
		world.WearTravel(w, i, 300)
	}
	if m := world.MaxTravel(w); m < 0x1p49 {
		t.Fatalf("travel %g after wearing", m)
	}
	before := world.PairLeasesHeld(w)
	held, fast := step(20)
	if m := world.MaxTravel(w); m >= 0x1p41 {
		t.Fatalf("travel %g: the counts did not restart", m)
	}
	gained := world.PairLeasesHeld(w) - before
	t.Logf("after the restart: %d pairs left alone on a lease in 20 steps, %d held leases checked (%d weighted), none stale", gained, held, fast)
	if gained == 0 || held == 0 || fast == 0 {
		t.Fatal("no lease after the restart")
	}
}
