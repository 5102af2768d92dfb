package integrate

import (
	"fmt"
	"strings"

	"grainlab/sim/law"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
	"grainlab/sim/world"
)

// The sphere path keeps one rotational array for its accepted and trial
// states while rotation is still in a world without moments (world's
// rotShare), and two again when a pass must write them. Each case runs lazy
// bodies (sharing) against eager ones (two arrays all along: Accept never
// finds rotation still without lazy bodies) and compares every step's
// statistics and the final bodies to the bit:
//
//   - friction-on: frictionless spheres fall freely (one array), then the
//     default pair gets μ = 0.5 mid-fall and the spheres land on the rim
//     plate and floor with friction (two arrays again, turning);
//   - rim: frictionless, the rim's rounding moments turn a few spheres (two
//     arrays from then on), with a rejected-and-retried step possible on
//     the way (the trial's moments written into the shared array: rotSplit
//     puts acc's back);
//   - turned: a body turned by the user mid-run (synced first), which the
//     next Drift reads from the bodies.
//
// Each case checks that the lazy run shared the array before its change
// and does not after it where rotation must go on.
func TestSphereRotShare(t *testing.T) {
	const r = 0.001
	plate := func(w *world.World) { holedPlate(t, w) }
	build := func(w *world.World) {
		plate(w)
		dropSpheres(w, 25, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.03), 0, 2)
	}
	const at = 100
	cases := []struct {
		name  string
		steps int
		edit  func(t *testing.T, w *world.World, step int)
		after int // the arrays the lazy run holds at the end
	}{
		{"friction-on", 3000, func(t *testing.T, w *world.World, step int) {
			if step == at {
				if err := w.SetParam("contact.default.mu", 0.5); err != nil {
					t.Fatal(err)
				}
			}
		}, 2},
		{"rim", 4000, nil, 2},
		{"turned", 600, func(t *testing.T, w *world.World, step int) {
			if step == at {
				w.SyncBodies()
				w.Bodies()[3].W = geom.V(0, 3, 0)
			}
		}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			arrays := map[bool][]int{}
			run := func(lazy bool) string {
				edit := func(w *world.World, step int) {
					if step == at {
						arrays[lazy] = append(arrays[lazy], w.SphereRotArrays())
					}
					if c.edit != nil {
						c.edit(t, w, step)
					}
				}
				res := rotSkipRunArrays(t, build, edit, c.steps, lazy, func(w *world.World) {
					arrays[lazy] = append(arrays[lazy], w.SphereRotArrays())
				})
				return res
			}
			lazy, eager := run(true), run(false)
			if lazy != eager {
				t.Errorf("lazy (one shared rotational array) and eager runs differ:\n%s", firstDiff(lazy, eager))
			}
			if got := arrays[true]; len(got) != 2 || got[0] != 0 || got[1] != c.after {
				t.Errorf("lazy run's rotational arrays at step %d and at the end: %v, want [0 %d] (none while still: rotNone)", at, got, c.after)
			}
			if got := arrays[false]; len(got) != 2 || got[0] != 2 || got[1] != 2 {
				t.Errorf("eager run's rotational arrays: %v, want [2 2]", got)
			}
		})
	}
}

// A trial thrown away after its evaluation wrote moments into the shared
// rotational array (the rim's rounding moments, frictionless) is retried
// from the accepted state exactly: before every step the test drives the
// path as a rejection would (Drift and Evaluate at Δt, again at Δt: the
// same trial to the bit), then steps; lazy (sharing) against eager bodies.
// Without rotSplit's putting acc's ω and T back, the retry starts from the
// thrown-away trial's moments.
func TestSphereRotShareRetried(t *testing.T) {
	build := holedPlateFall(t)
	shared := 0
	run := func(lazy bool) string {
		return retriedRun(t, build, lazy, 4000, func(w *world.World) {
			if lazy && w.SphereRotArrays() <= 1 {
				shared++
			}
		})
	}
	eager, lazy := run(false), run(true)
	if shared == 0 {
		t.Fatal("the lazy run never shared its rotational array: the case does not exercise it")
	}
	if eager != lazy {
		t.Errorf("lazy (shared rotational array) and eager runs with retried trials differ:\n%s", firstDiff(lazy, eager))
	}
}

// retriedRun runs the sphere path built by build (rotShareLaw, one
// worker) for steps steps, each preceded by each(w) and by a trial driven
// twice as a rejection would drive it (Drift and Evaluate at Δt, again at
// Δt), which must give the same trial to the bit; it returns a record of
// every step's statistics and the bodies' final states.
func retriedRun(t *testing.T, build func(*world.World), lazy bool, steps int, each func(*world.World)) string {
	t.Helper()
	trial := func(w *world.World, dt float64) string {
		s := sphereStep{w.Spheres()}
		s.Drift(dt)
		s.Evaluate(w.Time+dt, dt)
		return fmt.Sprintf("%x %x", s.Trial().L, trialRot(s))
	}
	w := startSpherePath(t, rotShareLaw, 0, build, lazy)
	var out strings.Builder
	for i := range steps {
		each(w)
		dt := w.Dt
		if first, again := trial(w, dt), trial(w, dt); first != again {
			t.Fatalf("lazy %v, step %d: a trial retried at the same Δt differs from the first", lazy, i)
		}
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%x %x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact,
			w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
	}
	writeBodyStates(&out, w)
	return out.String()
}

// rotSkipRunArrays is rotSkipRun with the frictionless law on one worker,
// calling end on the world after the last step.
func rotSkipRunArrays(t *testing.T, build func(*world.World), edit func(*world.World, int), steps int, lazy bool, end func(*world.World)) string {
	t.Helper()
	var last *world.World
	res := rotSkipRun(t, rotShareLaw, 0, build, func(w *world.World, step int) {
		last = w
		if edit != nil {
			edit(w, step)
		}
	}, steps, lazy, false)
	end(last)
	return res.out
}

// rotShareLaw is frictionLaw without friction (μ = 0: no moments) until a
// case turns μ on.
var rotShareLaw = law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50, Kt: 60, GammaT: 25}

// firstDiff returns the first of a's |-separated records that differs from b's.
func firstDiff(a, b string) string {
	ra, rb := strings.Split(a, "|"), strings.Split(b, "|")
	for i := range min(len(ra), len(rb)) {
		if ra[i] != rb[i] {
			return fmt.Sprintf("record %d: %s\nagainst  %s", i, ra[i], rb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(ra), len(rb))
}

// trialRot returns the trial rotational states of s, with ω = T = +0 and
// the bodies' q while the world keeps no rotational array (rotNone: it
// holds the same values): a retried trial compares values, not storage.
func trialRot(s sphereStep) []sphere.Rot {
	tr := s.Trial()
	if tr.R != nil {
		return tr.R
	}
	r := make([]sphere.Rot, len(tr.L))
	for k, b := range s.Bodies() {
		r[k].Q = b.Q
	}
	return r
}
