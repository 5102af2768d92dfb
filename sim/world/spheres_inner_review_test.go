package world_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// reviewLattice is innerLattice with speeds up to v (fast: D reaches the
// skin in a few steps after each build).
func reviewLattice(t *testing.T, n int, radii []float64, v float64) *world.World {
	t.Helper()
	const d = 0.002
	pitch := 1.15 * d
	m := 1
	for m*m*20 < n {
		m++
	}
	layers := (n + m*m - 1) / (m * m)
	side, height := float64(m)*pitch, float64(layers+2)*pitch
	w, proto := emptySphereBox(t,
		fmt.Sprintf("walls.box.max=[%g, %g, %g]", side, side, height),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", side, side, height))
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range rng.Perm(n) {
		i, j, k := c%m, (c/m)%m, c/(m*m)
		jit := func() float64 { return (rng.Float64() - 0.5) * 0.1 * d }
		x := geom.V((float64(i)+0.5)*pitch+jit(), (float64(j)+0.5)*pitch+jit(), (float64(k)+0.5)*pitch+jit())
		b := body.NewSphere(fmt.Sprintf("s%d", c), radii[c%len(radii)], proto.Density(), x)
		b.Material = proto.Material
		b.V = geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(v)
		w.AddBody(b)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
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
							b := body.NewSphere("fast", radii[0], w.Bodies[len(w.Bodies)-1].Density(), w.Bodies[len(w.Bodies)-1].X.Add(geom.V(0, 0, 0.0012)))
							b.Material = w.Bodies[len(w.Bodies)-1].Material
							b.V = geom.V(0, 0, -3)
							w.AddBody(b)
						case 220:
							if !lazy { // a panel edit: spheres moved while paused
								for i := 7; i < len(w.Bodies); i += 13 {
									if bd := w.Bodies[i]; !bd.Fixed {
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
					for _, b := range w.Bodies {
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
