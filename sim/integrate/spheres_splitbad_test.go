package integrate

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// splitBadWorld starts a frictionless lattice of 2560 spheres (≥ the
// split passes' 2048) on a floor, its lowest layer within reach of it,
// with workers workers, every evaluation split, lazy bodies; then runs
// steps steps.
func splitBadWorld(t *testing.T, workers, steps int) *world.World {
	t.Helper()
	return latticeOnPlate(t, workers, steps, 0.05)
}

// latticeOnPlate is splitBadWorld's lattice on a square plate of
// half-width hw (a narrow plate: the columns beyond its edges brush its
// rims while they fall).
func latticeOnPlate(t *testing.T, workers, steps int, hw float64) *world.World {
	t.Helper()
	const r = 0.001
	build := func(w *world.World) {
		addSquarePlate(t, w, "floor", geom.V(0, 0, 0), 2*hw, 2*hw)
		rng := rand.New(rand.NewSource(7))
		for i := range 16 {
			for j := range 16 {
				for k := range 10 {
					x := geom.V(float64(i-8)*2.3*r, float64(j-8)*2.3*r, r*1.0005+float64(k)*2.3*r)
					b := body.NewSphere("s", r, 2500, x)
					b.V = geom.V(0.01*(2*rng.Float64()-1), 0.01*(2*rng.Float64()-1), -0.02*rng.Float64())
					w.AddBody(b)
				}
			}
		}
	}
	w := startSpherePath(t, frictionlessReview, workers, build, true)
	w.Settings.SphereSplit = world.SplitAlways
	for range steps {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// splitBadCase sets some trial forces of a step (after EvaluateKick) to
// values that test forcesBad's rule.
type splitBadCase struct {
	name string
	set  func(F []geom.Vec3) // F: the trial forces, sphere order
}

var splitBadCases = []splitBadCase{
	{"NaN in one component", func(F []geom.Vec3) { F[1500].Y = math.NaN() }},
	{"+Inf", func(F []geom.Vec3) { F[10].Z = math.Inf(1) }},
	{"+Inf and −Inf in two ranges", func(F []geom.Vec3) { F[10].X, F[2500].X = math.Inf(1), math.Inf(-1) }},
	{"a term that overflows", func(F []geom.Vec3) { F[700].X, F[700].Y = 1e308, 1e308 }},
	{"overflow only in the serial sum (two ranges)", func(F []geom.Vec3) { F[10].X, F[2500].X = 1e308, 1e308 }},
	{"overflow in a range, not in the serial sum", func(F []geom.Vec3) { F[0].X, F[2500].X, F[2501].X = -1e308, 1e308, 1e308 }},
	{"cancelling before the overflow", func(F []geom.Vec3) { F[10].X, F[11].X, F[2500].X = 1e308, -1e308, 1e308 }},
	{"large, finite, |F|² finite", func(F []geom.Vec3) {
		for k := 0; k < len(F); k += 97 {
			F[k] = geom.V(1e150, -3e149, 7e149)
		}
	}},
	{"large, |F|² infinite, sum finite", func(F []geom.Vec3) { F[3].X, F[1999].Z = 1e303, -1e303 }},
	{"−0", func(F []geom.Vec3) {
		for k := range F {
			F[k] = geom.V(math.Copysign(0, -1), math.Copysign(0, -1), math.Copysign(0, -1))
		}
	}},
}

// serialBad is forcesBad's rule written out: the sum in sphere order of
// F.X + F.Y + F.Z (every T +0 under the rotational skip) is not finite.
func serialBad(F []geom.Vec3) bool {
	sum := 0.0
	for _, f := range F {
		sum += f.X + f.Y + f.Z
	}
	return sum-sum != 0
}

// The split step's force test in Accept's kick (world.Spheres.finish,
// finishSplitBad): with 1, 2 and 3 workers, forces set after EvaluateKick
// to NaN, ±Inf, finite values whose sum overflows only serially (or only
// in a range), large ones and −0, Accept answers as the serial sum of
// forcesBad does. With two or three workers the kick's test is the
// split one: one pass, accepted or rejected (the kick pass accepts the
// wall slots with an undo, which a failed test restores).
func TestSphereSplitKickForceTest(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		for _, c := range splitBadCases {
			t.Run(fmt.Sprintf("workers=%d/%s", workers, c.name), func(t *testing.T) {
				w := splitBadWorld(t, workers, 3)
				s := sphereStep{w.Spheres()}
				dt := w.Dt
				s.Drift(dt)
				owls, bad := s.EvaluateKick(w.Time+dt, dt)
				if owls != 0 || bad {
					t.Fatalf("the step before the edit: %d night owls, bad %v", owls, bad)
				}
				tr := s.Trial()
				F := make([]geom.Vec3, len(tr.L))
				for k := range tr.L {
					F[k] = tr.L[k].F
				}
				c.set(F)
				for k := range tr.L {
					tr.L[k].F = F[k]
				}
				want := serialBad(F)
				f0 := w.Stats.Profile.ForkJoins
				ok := s.Accept(0.5 * dt)
				forks := w.Stats.Profile.ForkJoins - f0
				if ok == want {
					t.Errorf("Accept %v, the serial sum says bad %v", ok, want)
				}
				if workers > 1 {
					// One pass either way: the kick pass accepts the wall
					// slots too, undone if the test fails (Session 25,
					// spheres_slots_undo.go).
					wantForks := int64(1)
					if forks != wantForks {
						t.Errorf("Accept forked %d passes, want %d (the split kick's test)", forks, wantForks)
					}
				}
				t.Logf("bad %v", want)
			})
		}
	}
}

// A rejected split step (a NaN force found by Accept's split kick) leaves
// the world as the one-worker rejection does: the run that follows it is,
// to the bit (every step's statistics, then every body), the run that
// never had the step, on 1, 2 and 3 workers alike: statistics, bodies
// and the contacts new at each step. It fails if the wall slots, which
// the split kick pass accepts, are not restored when the test fails (the
// rejected trial's contacts, at a
// longer step, would become the next step's history: contacts new at it
// are then not new).
func TestSphereSplitKickRejection(t *testing.T) {
	const before, after = 30, 60
	run := func(workers int, reject bool) string {
		w := splitBadWorld(t, workers, before)
		if reject {
			s := sphereStep{w.Spheres()}
			dt := 3 * w.Dt // a trial with more contacts than the next step's
			s.Drift(dt)
			if owls, bad := s.EvaluateKick(w.Time+dt, dt); owls != 0 || bad {
				t.Fatalf("the step before the edit: %d night owls, bad %v", owls, bad)
			}
			tr := s.Trial()
			tr.L[len(tr.L)-1].F.X = math.NaN()
			if s.Accept(0.5 * dt) {
				t.Fatal("a NaN force accepted")
			}
		}
		var out strings.Builder
		for range after {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%x %x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact,
				w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
			w.EachContact(func(a, b int, c *contact.Contact) {
				if c.New {
					fmt.Fprintf(&out, "new %d %d|", a, b)
				}
			})
		}
		if w.Stats.Contacts == 0 {
			t.Fatal("no contact: the wall slots' history is not tested")
		}
		writeBodyStates(&out, w)
		return out.String()
	}
	ref := run(1, false)
	for _, workers := range []int{1, 2, 3} {
		if got := run(workers, true); got != ref {
			t.Errorf("workers=%d: the run after a rejected step differs from the run without it: %s", workers, firstDiff(got, ref))
		}
	}
}
