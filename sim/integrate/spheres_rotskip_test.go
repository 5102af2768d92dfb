package integrate

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// The sphere path's rotational skip (world.Spheres: while every ω and T is
// +0, Drift, Accept and the force test leave the rotational states alone)
// gives the same bits as the passes that write them. The skip is taken only
// with lazy bodies, so each case runs lazy (skipping) and eager (never
// skipping) and compares the statistics step by step and every body's
// state to the bit at the end (−0 and +0 apart: %x):
//
//   - rim: frictionless Hooke, spheres fall freely (the skip is taken) onto
//     a plate with a square hole; those landing on its rim get the rim
//     contact's moments (rounding ones: the force passes through the centre
//     up to rounding) and turn, so the skip must stop mid-run;
//   - friction: the same with friction (a law with moments: no skip);
//   - negative zero: frictionless spheres in free fall; after 100 steps a
//     sphere's ω is set to (−0, 0, −0) (the bodies synced first, as a
//     caller editing a body must): the next kick makes it +0, which a skip
//     that took −0 for zero would leave as −0 in the array it swaps back.
//     (At Start the kick of 0 already turns −0 into +0.)
//
// Each case must exercise what it names: skips in the lazy run where
// expected, and (rim) a sphere that turns.
func TestSphereRotationalSkip(t *testing.T) {
	frictionless := law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50}
	const r = 0.001
	plate := func(w *world.World) {
		add := func(name string, c geom.Vec3, sx, sy float64) {
			vs := []geom.Vec3{c.Add(geom.V(-sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, sy/2, 0)), c.Add(geom.V(-sx/2, sy/2, 0))}
			p, err := shape.NewSurface(name, vs, [][3]int32{{0, 1, 2}, {0, 2, 3}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.AddWall(name, p, 0, true); err != nil {
				t.Fatal(err)
			}
		}
		// Hole 5 mm wide at z = 10 mm, plate 15 mm square; floor below.
		add("west", geom.V(-0.00625, 0, 0.01), 0.0075, 0.015)
		add("east", geom.V(0.00625, 0, 0.01), 0.0075, 0.015)
		add("south", geom.V(0, -0.00375, 0.01), 0.005, 0.0025)
		add("north", geom.V(0, 0.00375, 0.01), 0.005, 0.0025)
		add("floor", geom.V(0, 0, 0), 0.1, 0.1)
	}
	cases := []struct {
		name       string
		law        law.Smooth
		steps      int
		build      func(w *world.World)
		skips      bool // the lazy run takes the skip
		mustTurn   bool // a sphere turns by the end
		stopsSkips bool // the skip stops mid-run
		edit       func(w *world.World, step int)
	}{
		{"rim", frictionless, 4000, func(w *world.World) {
			plate(w)
			dropSpheres(w, 25, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.03), 0, 2)
		}, true, true, true, nil},
		{"friction", frictionLaw, 3000, func(w *world.World) {
			plate(w)
			dropSpheres(w, 25, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.03), 0.05, 2)
		}, false, true, false, nil},
		{"negative-zero", frictionless, 300, func(w *world.World) {
			dropSpheres(w, 10, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.03), 0.05, 4)
		}, true, false, false, func(w *world.World, step int) {
			if step == 100 {
				w.SyncBodies()
				w.Bodies[3].W = geom.V(math.Copysign(0, -1), 0, math.Copysign(0, -1))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var skips int64
			var steps int64
			turning := 0
			run := func(lazy bool) string {
				w := smoothWorld(t, c.law)
				c.build(w)
				if err := w.Check(); err != nil {
					t.Fatal(err)
				}
				w.Integrator = &Explicit{}
				if err := Start(w); err != nil {
					t.Fatal(err)
				}
				if w.Spheres() == nil {
					t.Fatal("not on the sphere path")
				}
				w.SetLazyBodies(lazy)
				out := ""
				for i := range c.steps {
					if c.edit != nil {
						c.edit(w, i)
					}
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
					out += fmt.Sprintf("%x %x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact,
						w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
				}
				w.SetLazyBodies(false)
				turning = 0
				for _, b := range w.Bodies {
					out += fmt.Sprintf("%x %x %x %x %x %x|", b.X, b.Q, b.V, b.W, b.F, b.T)
					if b.Wall < 0 && b.W.Norm2() != 0 {
						turning++
					}
				}
				skips, steps = w.SphereRotSkips(), w.Steps
				return out
			}
			eager := run(false)
			if skips != 0 {
				t.Fatalf("the eager run took the skip %d times", skips)
			}
			lazy := run(true)
			t.Logf("%d of %d steps skipped the rotational states; %d spheres turn at the end", skips, steps, turning)
			if c.skips != (skips > 0) {
				t.Errorf("skips taken: %v, want %v", skips > 0, c.skips)
			}
			if c.stopsSkips && skips >= steps-1 {
				t.Errorf("the skip never stopped (%d of %d steps)", skips, steps)
			}
			if c.mustTurn && turning == 0 {
				t.Error("no sphere turns: the case gives no moment")
			}
			if eager != lazy {
				t.Error("the rotational skip changes the run (lazy against eager bodies)")
			}
		})
	}
}
