package integrate

import (
	"fmt"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// The sphere path keeps no rotational array while nothing turns in a world
// without moments and each q is its body's (world's rotNone), and makes it
// again, from the bodies' q with ω = T = +0, when a pass must write it.
// Each case runs lazy bodies (no array) against eager ones (two arrays all
// along) and compares every step's statistics and the final bodies to the
// bit, with one worker and two (the evaluation split: wall moments noted
// aside by the parts):
//
//   - prerotated: spheres of random orientations fall without friction (no
//     array), then μ = 0.5 mid-fall: they land and turn from their own
//     orientations (an array made from identity or stale q's ends elsewhere);
//   - synced-turned: the same, with the bodies synced mid-fall and one
//     sphere's orientation set by the user (ω = 0: still no array, its q the
//     body's new one) before μ goes on;
//   - spinning: some spheres start with ω ≠ 0 (a restart of a turning bed):
//     the array stays (they turn), frictionless to the end;
//   - rim: frictionless, pre-rotated spheres fall on the holed plate's rim,
//     whose rounding moments (noted aside while there is no array, pendRot)
//     turn a few: the array is made again from the bodies' q mid-evaluation.
func TestSphereRotNone(t *testing.T) {
	const r, at = 0.001, 100
	build := func(spin, rim bool) func(w *world.World) {
		return func(w *world.World) {
			holedPlate(t, w)
			if rim {
				dropSpheres(w, 90, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.05), 0, 2)
			} else {
				dropSpheres(w, 120, r, geom.V(-0.006, -0.006, 0.012), geom.V(0.006, 0.006, 0.04), 0, 3)
			}
			rng := rand.New(rand.NewSource(7))
			for i, b := range w.Bodies() {
				if b.Wall >= 0 {
					continue
				}
				b.Q = geom.QAxisAngle(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5), 6*rng.Float64())
				if spin && i%7 == 0 {
					b.W = geom.V(0, 40*rng.Float64(), -20)
				}
			}
		}
	}
	friction := func(t *testing.T, w *world.World) {
		if err := w.SetParam("contact.default.mu", 0.5); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name      string
		spin, rim bool
		steps     int
		edit      func(t *testing.T, w *world.World, step int)
		before    int // the arrays the lazy run holds at step at (before the edit)
	}{
		{"prerotated", false, false, 1500, func(t *testing.T, w *world.World, step int) {
			if step == at {
				friction(t, w)
			}
		}, 0},
		{"synced-turned", false, false, 1500, func(t *testing.T, w *world.World, step int) {
			switch step {
			case at:
				w.SyncBodies()
				for _, b := range w.Bodies() {
					if b.Wall < 0 {
						b.Q = geom.QAxisAngle(geom.V(1, 2, 3), 1)
						break
					}
				}
			case at + 50:
				friction(t, w)
			}
		}, 0},
		{"spinning", true, false, 1500, nil, 2},
		{"rim", false, true, 4000, nil, 0},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", c.name, workers), func(t *testing.T) {
				var arrays []int
				run := func(lazy bool) rotSkipResult {
					return rotSkipRun(t, rotShareLaw, workers, build(c.spin, c.rim), func(w *world.World, step int) {
						if lazy && step == at {
							arrays = append(arrays, w.SphereRotArrays())
						}
						if c.edit != nil {
							c.edit(t, w, step)
						}
					}, c.steps, lazy, false)
				}
				lazy, eager := run(true), run(false)
				if lazy.out != eager.out {
					t.Errorf("lazy (rotational array absent while still) and eager runs differ:\n%s", firstDiff(lazy.out, eager.out))
				}
				if len(arrays) != 1 || arrays[0] != c.before {
					t.Errorf("lazy run's rotational arrays at step %d: %v, want %d", at, arrays, c.before)
				}
				if c.spin && lazy.turning == 0 {
					t.Error("no sphere turns at the end: the spinning case does not exercise the array")
				}
				if !c.spin && lazy.turning == 0 {
					t.Error("no sphere turns at the end: friction or the rim did not turn them (the case does not test the array made again)")
				}
			})
		}
	}
}
