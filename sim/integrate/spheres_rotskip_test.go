package integrate

import (
	"fmt"
	"math"
	"strings"
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
	plate := func(w *world.World) { holedPlate(t, w) }
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
				w.Bodies()[3].W = geom.V(math.Copysign(0, -1), 0, math.Copysign(0, -1))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var skips, steps int64
			turning := 0
			run := func(lazy bool) string {
				res := rotSkipRun(t, c.law, 0, c.build, c.edit, c.steps, lazy, false)
				skips, steps, turning = res.skips, res.steps, res.turning
				return res.out
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

// addSquarePlate adds an enabled wall: a horizontal sx × sy rectangle of two
// triangles centred at c. It returns the wall's index.
func addSquarePlate(t *testing.T, w *world.World, name string, c geom.Vec3, sx, sy float64) int {
	t.Helper()
	vs := []geom.Vec3{c.Add(geom.V(-sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, sy/2, 0)), c.Add(geom.V(-sx/2, sy/2, 0))}
	p, err := shape.NewSurface(name, vs, [][3]int32{{0, 1, 2}, {0, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	i, err := w.AddWall(name, p, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// rotSkipResult is one run of rotSkipRun.
type rotSkipResult struct {
	out          string // every step's statistics, then every body's state, in hex
	skips, steps int64  // World.SphereRotSkips and World.Steps at the end
	turning      int    // spheres with ω ≠ 0 at the end
}

// rotSkipRun builds a sphere world with law lw (workers > 0 sets the
// world's workers), starts explicit on the sphere path with lazy or eager
// bodies, applies edit before each of the steps, and records the
// statistics of every step and every body's state at the end to the bit
// (%x: −0 and +0 apart). With keepErr a failing step or CheckFinite ends
// the run with "ERR …" in out; otherwise it fails the test.
func rotSkipRun(t *testing.T, lw law.Smooth, workers int, build func(*world.World), edit func(*world.World, int), steps int, lazy, keepErr bool) rotSkipResult {
	t.Helper()
	w := startSpherePath(t, lw, workers, build, lazy)
	var out strings.Builder
	for i := range steps {
		if edit != nil {
			edit(w, i)
		}
		_, err := w.Integrator.Step(w, 1)
		if err == nil && keepErr {
			err = w.CheckFinite()
		}
		if err != nil {
			if !keepErr {
				t.Fatal(err)
			}
			out.WriteString("ERR " + err.Error())
			break
		}
		fmt.Fprintf(&out, "%x %x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact,
			w.Stats.PotentialGravity, w.Stats.Dt, w.Stats.Contacts)
	}
	res := rotSkipResult{skips: w.SphereRotSkips(), steps: w.Steps}
	writeBodyStates(&out, w)
	for _, b := range w.Bodies() {
		if b.Wall < 0 && b.W.Norm2() != 0 {
			res.turning++
		}
	}
	res.out = out.String()
	return res
}

// startSpherePath builds a sphere world with law lw (workers > 0 sets the
// world's workers) and starts explicit on the sphere path with lazy or
// eager bodies: the start of the lazy-against-eager runs.
func startSpherePath(t *testing.T, lw law.Smooth, workers int, build func(*world.World), lazy bool) *world.World {
	t.Helper()
	w := smoothWorld(t, lw)
	if workers > 0 {
		w.Settings.Workers = workers
	}
	build(w)
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
	return w
}

// writeBodyStates syncs the bodies (SetLazyBodies(false)) and writes every
// body's state to out to the bit (%x: −0 and +0 apart).
func writeBodyStates(out *strings.Builder, w *world.World) {
	w.SetLazyBodies(false)
	for _, b := range w.Bodies() {
		fmt.Fprintf(out, "%x %x %x %x %x %x|", b.X, b.Q, b.V, b.W, b.F, b.T)
	}
}

// holedPlate adds the rim tests' walls: a plate 15 mm square at z = 10 mm
// with a hole 5 mm wide (four one-sided plates) and a floor below.
func holedPlate(t *testing.T, w *world.World) {
	add := func(name string, c geom.Vec3, sx, sy float64) { addSquarePlate(t, w, name, c, sx, sy) }
	add("west", geom.V(-0.00625, 0, 0.01), 0.0075, 0.015)
	add("east", geom.V(0.00625, 0, 0.01), 0.0075, 0.015)
	add("south", geom.V(0, -0.00375, 0.01), 0.005, 0.0025)
	add("north", geom.V(0, 0.00375, 0.01), 0.005, 0.0025)
	add("floor", geom.V(0, 0, 0), 0.1, 0.1)
}

// holedPlateFall builds holedPlate with 25 spheres of radius 1 mm at rest
// above its hole (the rim's rounding moments turn some of them).
func holedPlateFall(t *testing.T) func(w *world.World) {
	return func(w *world.World) {
		holedPlate(t, w)
		dropSpheres(w, 25, 0.001, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.03), 0, 2)
	}
}
