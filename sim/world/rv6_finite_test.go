package world_test

import (
	"math"
	"testing"

	"grainlab/sim/integrate"
)

// r6: CheckFiniteNext's skip trusts that q cannot change while rotation is
// still. A change to a sphere's body between two lazy steps (what a live
// edit or an event that set body state would do) with ω = 0 keeps
// rotStill: CheckFiniteNext then misses a NaN quaternion CheckFinite sees.
func TestRV6CheckFiniteNextMissesBodyQ(t *testing.T) {
	w := startScene(t, "sphere-box-soft", "")
	n := 0
	if _, err := integrate.AdvancePastLazy(w, 1, 1, func() bool { n++; return n >= 20 }); err != nil {
		t.Fatal(err)
	}
	w.SyncBodies()
	for _, b := range w.Bodies() {
		if b.Wall < 0 {
			b.Q.X = math.NaN()
			break
		}
	}
	n = 0
	if _, err := integrate.AdvancePastLazy(w, 1, 1, func() bool { n++; return true }); err != nil {
		t.Logf("the step refused it: %v", err)
		return
	}
	full, next := w.CheckFinite(), w.CheckFiniteNext()
	t.Logf("CheckFinite: %v; CheckFiniteNext: %v", full, next)
	if (full == nil) != (next == nil) {
		t.Errorf("CheckFiniteNext %v, CheckFinite %v", next, full)
	}
}
