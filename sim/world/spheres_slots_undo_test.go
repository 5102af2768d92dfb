package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/world"
)

// TestSphereSlotsAcceptedInKickPass: a falling lattice of 5000 spheres in
// the box (wall slots in use) with lazy bodies, every evaluation split: on
// two workers the kick passes accept the wall slots (with the undo noted,
// spheres_slots_undo.go) instead of a pass of their own after the force
// test, and after every step the slots' accepted state (flags, pHist, the
// rim entries' lists) is the one worker's, and so are the stats and the
// bodies at the end. (The undo itself, after a failed test, is
// TestSlotUndoRestores'.) It fails with a range of slots not accepted in
// the pass, or accepted twice.
func TestSphereSlotsAcceptedInKickPass(t *testing.T) {
	type out struct {
		steps  []string
		passes int
	}
	run := func(nw int) out {
		w := partsWorld(t, 5000, []float64{0.001}, nw, 0)
		w.SetLazyBodies(true) // the kick's force test (EvaluateKick) needs them
		var o out
		for step := range 120 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatalf("%d workers, step %d: %v", nw, step, err)
			}
			d, _, _ := world.SphereSlotsAccepted(w)
			st := &w.Stats
			o.steps = append(o.steps, d+" "+fmtStats(st.Kinetic, st.PotentialContact, st.Dt, st.Contacts))
		}
		_, o.passes, _ = world.SphereSlotsAccepted(w)
		t.Logf("%d workers: kick passes accepting the slots %d, %d builds", nw, o.passes, w.VerletBuilds())
		return o
	}
	one, two := run(1), run(2)
	for i := range one.steps {
		if one.steps[i] != two.steps[i] {
			t.Fatalf("step %d: the slots' accepted state or the stats differ between 1 and 2 workers", i)
		}
	}
	if two.passes < 60 || one.passes != 0 {
		t.Errorf("kick passes accepting the slots: %d on two workers, %d on one", two.passes, one.passes)
	}
}

func fmtStats(k, p, dt float64, n int) string {
	return fmt.Sprintf("%x %x %x %d", k, p, dt, n)
}
