package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// reviewLattice is innerLattice with speeds up to v (fast: D reaches the
// skin in a few steps after each build).
func reviewLattice(t *testing.T, n int, radii []float64, v float64) *world.World {
	return sphereLattice(t, n, radii, latticeSpec{pitch: 1.15, perLayer: 20, jitter: 0.1, speed: v, seed: [2]uint64{7, 8}})
}

// TestReviewInnerEdits (review r1): inner list on vs off, fast spheres,
// live edits between steps (a contact parameter, the walls off and on, a
// step far above the stable one: rejections, a restore of an earlier
// history, a sphere added moving fast, spheres teleported), eager and lazy
// bodies, 1/2/3 workers: the same bits at every step.
func TestReviewInnerEdits(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	results := map[string]string{}
	for _, radii := range [][]float64{{0.001}, {0.001, 0.0009}} {
		for _, lazy := range []bool{false, true} {
			for _, workers := range []int{1, 2, 3} {
				name := fmt.Sprintf("species=%d/lazy=%v/workers=%d", len(radii), lazy, workers)
				run := func(on bool) (string, int) {
					world.SetInnerOn(on)
					w := reviewLattice(t, 1500, radii, 0.05)
					w.Settings.Workers = workers
					if workers > 1 {
						w.Settings.SphereSplit = world.SplitAlways
					}
					w.SetLazyBodies(lazy)
					out, used := "", 0
					var h *world.History
					for step := range 300 {
						switch step {
						case 40:
							w.SyncBodies()
							h = w.TakeHistory()
						case 60:
							if err := w.SetParam("contact.default.kn", 14); err != nil {
								t.Fatal(err)
							}
						case 90:
							if err := w.SetWallEnabled(w.Walls[0].Name, false); err != nil {
								t.Fatal(err)
							}
						case 110:
							if err := w.SetWallEnabled(w.Walls[0].Name, true); err != nil {
								t.Fatal(err)
							}
						case 130:
							w.Dt = 2e-4 // far above the stable step: rejections
						case 160:
							if err := w.RestoreHistory(h); err != nil {
								t.Fatal(err)
							}
						case 190:
							w.SyncBodies()
							b := body.NewSphere("fast", radii[0], w.Bodies()[len(w.Bodies())-1].Density(), w.Bodies()[len(w.Bodies())-1].X.Add(geom.V(0, 0, 0.0012)))
							b.Material = w.Bodies()[len(w.Bodies())-1].Material
							b.V = geom.V(0, 0, -3)
							w.AddBody(b)
						case 220:
							if !lazy { // a panel edit: spheres moved while paused
								for i := 7; i < len(w.Bodies()); i += 13 {
									if bd := w.Bodies()[i]; !bd.Fixed {
										bd.X.X += 0.0007
										bd.V.Z -= 1
									}
								}
							}
						}
						if _, err := w.Integrator.Step(w, 1); err != nil {
							t.Fatal(err)
						}
						if in, n, np := world.InnerInUse(w); in && n < np {
							used++
						}
						st := &w.Stats
						out += fmt.Sprintf("%d %x %x %x %d %x %d %d|", w.Steps, st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt, st.Rejected, st.NightOwls)
					}
					w.SyncBodies()
					for _, b := range w.Bodies() {
						out += fmt.Sprintf("%x %x|", b.X, b.V)
					}
					t.Logf("%s inner %v: %d of 300 steps on the inner list, %d builds, %d rejected, %d disp skips", name, on, used, w.VerletBuilds(), w.Stats.Rejected, w.SphereDispSkips())
					return out, used
				}
				ref, _ := run(false)
				got, used := run(true)
				if len(radii) == 1 && used < 10 {
					t.Errorf("%s: %d steps on the inner list", name, used)
				}
				if got != ref {
					t.Errorf("%s: the inner list changes the results", name)
				}
				key := fmt.Sprintf("%d/%v", len(radii), lazy)
				if r, ok := results[key]; ok && r != got {
					t.Errorf("%s: differs from 1 worker", name)
				}
				results[key] = got
			}
		}
	}
}
