package world_test

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// Review r4 (s26): the costed and near passes (spheres_fork_cost.go) with
// the worker count changed live between steps (2 → 3 → 1 → 2 → 3: a new
// crew, costs started afresh, the near passes before any costed
// evaluation), a wall switched off and on, lazy bodies (the kick's
// force test and the slots' undo) and fast spheres given live on 2- and
// 3-worker steps (rejected attempts after the near passes): every step's
// stats and the final bodies equal to one worker's throughout.
func TestRV26dLiveWorkerCounts(t *testing.T) {
	sched := func(step int) int { return []int{2, 3, 1, 2, 3}[step/30] }
	run := func(fixed int) string {
		w := partsWorld(t, 5000, []float64{0.001, 0.0009}, 1, 0.3)
		w.SetLazyBodies(true)
		h := sha256.New()
		for step := range 150 {
			if fixed > 0 {
				w.Settings.Workers = fixed
			} else {
				w.Settings.Workers = sched(step)
			}
			switch step {
			case 45:
				if err := w.SetWallEnabled(w.Walls[0].Name, false); err != nil {
					t.Fatal(err)
				}
			case 95, 96, 125, 126:
				w.SyncBodies()
				k := 0
				for _, b := range w.Bodies() {
					if b.Wall < 0 {
						k++
						if k%50 == 0 {
							b.V = geom.V(0, 0, -40)
						}
					}
				}
			case 100:
				if err := w.SetWallEnabled(w.Walls[0].Name, true); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			st := &w.Stats
			fmt.Fprintf(h, "%x %x %x %d %x %d|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt, st.Rejected)
		}
		w.SyncBodies()
		for _, b := range w.Bodies() {
			fmt.Fprintf(h, "%x %x %x %x|", b.X, b.V, b.W, b.F)
		}
		_, _, _, near := world.SphereForkCosts(w)
		t.Logf("fixed %d: %d builds, %d rejected, near passes on the last crew %d", fixed, w.VerletBuilds(), w.Stats.Rejected, near)
		if w.Stats.Rejected == 0 {
			t.Errorf("fixed %d: no rejected attempt", fixed)
		}
		return fmt.Sprintf("%x", h.Sum(nil))
	}
	ref := run(1)
	if got := run(0); got != ref {
		t.Errorf("worker counts changed live: differ from one worker")
	}
}
