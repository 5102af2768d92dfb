package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// TestSphereInnerRelLiveWalls (review r1): the falling lattice of
// TestSphereInnerRelSameBits with live edits between steps and no
// SyncBodies: the floor starts moving up (a still wall that moves), a side
// wall is switched off, then gravity is turned sideways. At every step the
// inner list holds every listed pair within its cut-off (a full scan), and
// the results equal those without the inner list.
func TestSphereInnerRelLiveWalls(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	defer world.SetInnerRelOn(world.SetInnerRelOn(true))
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			run := func(inner, rel bool) string {
				world.SetInnerOn(inner)
				world.SetInnerRelOn(rel)
				w := sphereLattice(t, 4000, []float64{0.001}, latticeSpec{pitch: 1.05, perLayer: 100, seed: [2]uint64{23, 1}})
				relSetup(w, workers)
				floor, side := -1, -1
				for i := range w.Walls {
					if n := w.Walls[i].N; n.Z > 0.9 {
						floor = i
					} else if n.X > 0.9 {
						side = i
					}
				}
				if floor < 0 || side < 0 {
					t.Fatal("no floor or side wall")
				}
				out, used, missed := "", 0, 0
				for step := range 900 {
					switch step {
					case 300:
						w.Bodies()[w.Walls[floor].Body].V = geom.V(0, 0, 0.02)
					case 400:
						w.Bodies()[w.Walls[floor].Body].V = geom.Vec3{}
					case 500:
						w.Walls[side].Enabled = false
					case 700:
						w.Gravity = geom.V(3, 0, -9.81)
					}
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
					on, r, miss := world.InnerMissed(w)
					if on && r {
						used++
					}
					if miss > 0 && missed == 0 {
						t.Errorf("step %d: the inner list (moving frame %v) misses %d pairs within the cut-off", step, r, miss)
					}
					missed += miss
					st := &w.Stats
					out += fmt.Sprintf("%x %x %d %x|", st.Kinetic, st.PotentialContact, st.Contacts, st.Dt)
				}
				sel, _ := world.InnerRelSelects(w)
				t.Logf("inner %v frame %v: %d steps in the frame, %d selections, %d builds, missed %d", inner, rel, used, sel, w.VerletBuilds(), missed)
				return out
			}
			ref := run(false, false)
			if got := run(true, true); got != ref {
				t.Errorf("the moving frame changes the results")
			}
		})
	}
}
