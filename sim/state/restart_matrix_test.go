package state

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// firstSplit steps a (uninterrupted) and b (restarted) one step at a time
// until t2 and names the first step after which their bodies, time or Δt
// differ: a diagnosis of a failed exact restart (B5DIAG=1).
func firstSplit(t *testing.T, a, b *world.World, t2, end float64) string {
	t.Helper()
	for k := 0; a.Time < t2-1e-12; k++ {
		if d := diffBodies(a, b); d != "" {
			return fmt.Sprintf("before step %d (t %.17g): %s", k, a.Time, d)
		}
		if math.Float64bits(a.Dt) != math.Float64bits(b.Dt) {
			return fmt.Sprintf("before step %d (t %.17g): Δt %.17g vs %.17g", k, a.Time, a.Dt, b.Dt)
		}
		lim := end - a.Time
		if _, err := a.Integrator.Step(a, lim); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Integrator.Step(b, lim); err != nil {
			t.Fatal(err)
		}
	}
	return diffBodies(a, b)
}

// TestExactRestartMatrix: every integrator (explicit, newmark, variational
// α = 0 and ½, cd) on a polyhedron pile (pile-of-blocks: ten blocks with
// friction, landing), superquadrics (sq-settling: 24 grains, n = 2 and n = 10,
// landing on the floor of a 0.03 m periodic box; kodam-impact: the
// cylinder's impact) and spheres (sphere-box-soft, 40 spheres, Hooke;
// sphere-piling, 60 spheres, Hertz with friction): a run restarted from
// its state file at an output time t1 (each case with contacts
// at t1) ends at t2 with the same bits as the
// uninterrupted run (tolerance: 0 bits in every body's x, q, v, ω, the time
// and the step count). sphere-piling under explicit failed before the state
// file kept the sphere path's neighbour list (World.refRadii: the restart
// rebuilt the list at once, and the next step bound, which reads the listed
// pairs of a Hertzian class, differed 582 steps later: 2.6e-7 m off at
// 0.17 s). More than SphereReorderMin (4096) spheres, whose sphere path
// renumbers them in spatial order: 5000 spheres, explicit, the state
// written as a run's final.json (WriteInPlace) and advanced as grainlab run
// does (AdvancePastLazy), which differed before the file kept the order
// (s0 4.79e-12 m off at 0.12 s; docs/performance.md, "Session 25: exact
// restarts"). B5DIAG=1 names the first step that differs.
func TestExactRestartMatrix(t *testing.T) {
	sq := []string{"generators[0].count=24", "generators[0].region.max=[0.03,0.03,0.02]", "periodic.max=[0.03,0.03,0.25]"}
	big := []string{"generators[0].count=5000", "generators[0].region.max=[0.0361,0.0361,0.0722]", "walls[0].max=[0.0361,0.0361,0.0722]"}
	scenes := []struct {
		scene  string
		sets   []string
		t1, t2 float64
		// only: the one integrator run (else every one); inPlace: the
		// state written as a run's final.json (WriteInPlace: the sphere
		// path keeps the history, and its spatial order, in place).
		only    string
		inPlace bool
	}{
		// A wall's rim in the history: sphere-piling's 700 spheres in the
		// funnel at 0.1 s (p104 on funnel_front's lower edge), the state
		// written in place. Failed at the first step before the in-place
		// file kept a rim slot's contacts (HistoryStreamInPlace stated the
		// slot's facet contact instead: p104's v 0.129962 vs 0.129993 m/s).
		{"sphere-piling", nil, 0.1, 0.105, "explicit", true},
		{"pile-of-blocks", nil, 0.16, 0.17, "", false},
		{"sq-settling", sq, 0.07, 0.075, "", false},
		{"sq-settling", append([]string{"params.n=10"}, sq...), 0.07, 0.075, "", false},
		{"kodam-impact", nil, 2e-5, 6e-5, "", false},
		{"sphere-box-soft", []string{"generators[0].count=40"}, 0.1, 0.11, "", false},
		{"sphere-piling", []string{"generators[0].count=60"}, 0.15, 0.165, "", false},
		// ≥ SphereReorderMin spheres: the sphere path in spatial order.
		{"sphere-box-soft", big, 0.05, 0.12, "explicit", true},
	}
	for _, sc := range scenes {
		for _, in := range integrate.Names {
			if sc.only != "" && in != sc.only {
				continue
			}
			t.Run(fmt.Sprintf("%s %v %s", sc.scene, sc.sets, in), func(t *testing.T) {
				sets := append([]string{"integrator.name=" + in}, sc.sets...)
				ref, end := started(t, sc.scene, sets...)
				to := to
				if sc.inPlace {
					to = toLazy // as grainlab run advances
				}
				to(t, ref, sc.t1, end)
				var data []byte
				var err error
				if sc.inPlace {
					data, err = inPlaceBytes(t, ref)
				} else {
					data, err = Encode(ref) // a checkpoint: the run goes on the same (TestExactRestart)
				}
				if err != nil {
					t.Fatal(err)
				}
				active := func(w *world.World) (n int) {
					w.EachContact(func(_, _ int, c *contact.Contact) {
						if c.Active() {
							n++
						}
					})
					return n
				}
				n1 := active(ref)
				o1, at1 := ref.SphereOrder()
				b1 := ref.VerletBuilds()
				to(t, ref, sc.t2, end)
				t.Logf("ordered %v at step %d (t1: step %d), %d list builds t1 → t2", o1, at1, ref.Steps, ref.VerletBuilds()-b1)
				b, notes := restartFrom(t, data, false, sc.scene, sets...)
				if len(notes) > 0 {
					t.Fatalf("notes on a restart onto its own scene: %v", notes)
				}
				to(t, b, sc.t2, end)
				if d := diffBodies(ref, b); d != "" {
					if os.Getenv("B5DIAG") != "" {
						a, _ := started(t, sc.scene, sets...)
						to(t, a, sc.t1, end)
						c, _ := restartFrom(t, data, false, sc.scene, sets...)
						t.Logf("first split: %s", firstSplit(t, a, c, sc.t2, end))
					}
					t.Fatalf("restart at %g s differs at %g s (%d steps): %s", sc.t1, sc.t2, ref.Steps, d)
				}
				if oa, aa := ref.SphereOrder(); sc.inPlace && ref.NumBodies() >= world.SphereReorderMin {
					if ob, ab := b.SphereOrder(); !oa || oa != ob || aa != ab || aa == at1 {
						t.Fatalf("spatial order at t2: run %v (step %d), restart %v (step %d); want the same, renumbered after t1 (step %d)", oa, aa, ob, ab, at1)
					}
				}
				if n1 == 0 {
					t.Fatalf("no contact at %g s: the case is void", sc.t1)
				}
				t.Logf("%d steps to %g s, %d contacts at t1, %d at t2: identical", b.Steps, sc.t2, n1, active(b))
			})
		}
	}
}

// inPlaceBytes is the state of w as a run's final.json holds it
// (WriteInPlace), read back.
func inPlaceBytes(t *testing.T, w *world.World) ([]byte, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "final.json")
	if err := WriteInPlace(p, w); err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// toLazy advances w as grainlab run does between output times
// (AdvancePastLazy: the bodies lazy between returns).
func toLazy(t *testing.T, w *world.World, at, end float64) {
	t.Helper()
	if _, err := integrate.AdvancePastLazy(w, at, end, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
}
