package validation

// The sphere list rebuilt in parts (rebuildParts,
// Grid.Fork rows, Verlet test in parts) and the guided crew batches must
// give the same bits for any worker count, on systems large enough for
// every parallel branch (≥ rowMin = 4096 spheres: oneLevel / rows; ≥
// passMin: rebuildParts on the crew), renumbered often, with friction
// history carried across rebuilds, mixed radii and periodic images.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// anyWorkersLattice is sphereLattice with friction and, with mixed, radii spread
// over [lo, 1]·R (one grid level when lo > 0.5, several below), and with
// periodic x and y (no side walls) when periodic is set.
func anyWorkersLattice(t testing.TB, n int, lo float64, periodic bool) *world.World {
	t.Helper()
	const d = 0.002
	pitch := 1.02 * d
	m := 1
	for m*m*40 < n {
		m++
	}
	layers := (n + m*m - 1) / (m * m)
	side := float64(m) * pitch
	height := float64(layers+2) * pitch
	sets := []string{"generators.s.count=1", "contact.default.kt=4", "contact.default.mu=0.5",
		fmt.Sprintf("walls.box.max=[%g, %g, %g]", side, side, height),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", side, side, height)}
	if periodic {
		sets = append(sets,
			fmt.Sprintf("walls=[{name: bottom, type: plane, point: [%g, %g, 0], normal: [0, 0, 1], size: [%g, %g]}]", side/2, side/2, side, side),
			fmt.Sprintf("periodic={x: true, y: true, min: [0, 0, 0], max: [%g, %g, %g]}", side, side, 2*height))
	}
	sp, err := scene.LoadBuiltin("sphere-box-soft", sets...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(sp)
	if err != nil {
		t.Fatal(err)
	}
	var proto *body.Body
	bodies := w.Bodies()[:0]
	for _, b := range w.Bodies() {
		if b.Wall >= 0 {
			bodies = append(bodies, b)
		} else {
			proto = b
		}
	}
	w.SetBodies(bodies)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range rng.Perm(n) {
		i, j, k := c%m, (c/m)%m, c/(m*m)
		jit := func() float64 { return (rng.Float64() - 0.5) * 0.01 * d }
		x := geom.V((float64(i)+0.5)*pitch+jit(), (float64(j)+0.5)*pitch+jit(), (float64(k)+0.5)*pitch+jit())
		r := proto.R
		if lo < 1 {
			r *= lo + (1-lo)*float64(c%anyWorkersSpecies)/float64(anyWorkersSpecies-1) // anyWorkersSpecies species
		}
		b := body.NewSphere(fmt.Sprintf("s%d", c), r, proto.Density(), x)
		b.Material = proto.Material
		b.V = geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(0.1)
		w.AddBody(b)
	}
	if anyWorkersEdit != nil {
		anyWorkersEdit(w)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// anyWorkersSpecies is how many radii anyWorkersLattice spreads over [lo, 1]·R.
var anyWorkersSpecies = 3

// anyWorkersEdit, when set, changes anyWorkersLattice's world before it starts.
var anyWorkersEdit func(w *world.World)

// anyWorkersSteps is how many steps the cases run (GRAINLAB_WORKERS_STEPS, default 150).
func anyWorkersSteps() int {
	if v, err := strconv.Atoi(os.Getenv("GRAINLAB_WORKERS_STEPS")); err == nil && v > 0 {
		return v
	}
	return 150
}

// anyWorkersCounts is the worker counts compared (GRAINLAB_WORKERS, default "1235").
func anyWorkersCounts() []int {
	s := os.Getenv("GRAINLAB_WORKERS")
	if s == "" {
		s = "1235"
	}
	var out []int
	for _, c := range s {
		out = append(out, int(c-'0'))
	}
	return out
}

func TestSpherePathLargeAnyWorkers(t *testing.T) {
	reorderAll(t, 20)
	for _, c := range []struct {
		name     string
		lo       float64
		periodic bool
	}{
		{"mono", 1, false},
		{"onebinade", 0.8, false},
		{"levels", 0.3, false},
		{"periodic", 1, true},
		{"many species", 0.9, false}, // 100 species > maxClassSpecies: no class tables
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "many species" {
				anyWorkersSpecies = 100
				defer func() { anyWorkersSpecies = 3 }()
			}
			final := func(workers int) string {
				w := anyWorkersLattice(t, 4500, c.lo, c.periodic)
				w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
				out := ""
				for range anyWorkersSteps() {
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
					out += fmt.Sprintf("%x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.PotentialGravity, w.Stats.Contacts)
				}
				if !c.periodic && !renumbered(w) {
					t.Fatal("the spheres were not renumbered")
				}
				for _, b := range w.Bodies() {
					out += fmt.Sprintf("%x %x %x %x|", b.X, b.Q, b.V, b.W)
				}
				t.Logf("%d workers: contacts %d", workers, w.Stats.Contacts)
				return out
			}
			ws := anyWorkersCounts()
			ref := final(ws[0])
			for _, nw := range ws[1:] {
				if got := final(nw); got != ref {
					t.Errorf("%d workers differ from %d", nw, ws[0])
				}
			}
		})
	}
}

// A resume in the middle of a run (the window's branch from a keyframe:
// state.Apply on the running world, then the restart's start path) after
// rebuilds in parts and renumberings, on 1, 2, 3 and 5 workers: the same bits.
func TestSpherePathResumeAnyWorkers(t *testing.T) {
	reorderAll(t, 20)
	final := func(workers int) string {
		w := anyWorkersLattice(t, 4500, 0.8, false)
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		step := func(n int) {
			for range n {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
			}
		}
		step(50)
		data, err := state.Encode(w)
		if err != nil {
			t.Fatal(err)
		}
		steps, dt := w.Steps, w.Dt
		step(50)
		f, err := state.Parse(data, "keyframe")
		if err != nil {
			t.Fatal(err)
		}
		if err := state.Apply(w, f, "keyframe"); err != nil {
			t.Fatal(err)
		}
		w.Steps, w.Dt = steps, dt
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
		out := ""
		for range 80 {
			step(1)
			out += fmt.Sprintf("%x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.Contacts)
		}
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x %x %x|", b.X, b.Q, b.V, b.W)
		}
		return out
	}
	ws := anyWorkersCounts()
	ref := final(ws[0])
	for _, nw := range ws[1:] {
		if got := final(nw); got != ref {
			t.Errorf("%d workers differ from %d", nw, ws[0])
		}
	}
}

// The generic path (NoSpherePath) on 600 settling spheres with a bond, and
// a load added mid-run (as the window's panel does) then removed: gravity
// is applied once whatever the worker count (Σ F over the spheres = M g +
// loads + the walls' forces on them, within rounding), and 1, 2, 3 and 5
// workers give the same bits.
func TestGenericGravityOnceAnyWorkers(t *testing.T) {
	final := func(workers int) string {
		w := anyWorkersLattice(t, 600, 1, false)
		w.Settings.Workers, w.Settings.NoSpherePath = workers, true
		first := -1
		for i, b := range w.Bodies() {
			if b.Wall < 0 {
				if first < 0 {
					first = i
				}
			}
		}
		w.AddBond(first, first+1, 5, 0.01, 0)
		out := ""
		for s := range 90 {
			switch s {
			case 30:
				w.Loads = append(w.Loads, body.Load{Body: first + 2, Force: body.Const(geom.V(1e-3, 0, 2e-4))})
			case 60:
				w.Loads = w.Loads[:0]
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			var sum, want geom.Vec3
			mg := 0.0
			for _, b := range w.Bodies() {
				if b.Wall < 0 && !b.Fixed {
					sum = sum.Add(b.F)
					want = want.Add(w.Gravity.Scale(b.Mass()))
					mg += b.Mass() * w.Gravity.Norm()
				}
			}
			for _, l := range w.Loads {
				want = want.Add(l.Force.At(w.Time))
			}
			for i := range w.Walls {
				want = want.Add(w.Walls[i].Force)
			}
			if d := sum.Sub(want).Norm(); d > 1e-9*mg {
				t.Fatalf("%d workers, step %d: Σ F − (M g + loads + walls) = %.3g N (M g = %.3g N)", workers, s, d, mg)
			}
			out += fmt.Sprintf("%x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.Contacts)
		}
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x %x %x %x|", b.X, b.Q, b.V, b.W, b.F)
		}
		return out
	}
	ws := anyWorkersCounts()
	ref := final(ws[0])
	for _, nw := range ws[1:] {
		if got := final(nw); got != ref {
			t.Errorf("%d workers differ from %d", nw, ws[0])
		}
	}
}

// Spheres that leave the box fast (side walls off, one at 2·10³ m/s, one at
// 1·10⁶ m/s: the grid's span grows past the dense level's limit and the
// search falls back to hashed cells) and the Morton renumbering crossing
// those rebuilds: no panic, the same bits on 1, 2, 3 and 5 workers.
func TestSpherePathEscapeAnyWorkers(t *testing.T) {
	reorderAll(t, 20)
	anyWorkersEdit = func(w *world.World) {
		k := 0
		for _, b := range w.Bodies() {
			if b.Wall < 0 {
				switch k {
				case 10:
					b.V = geom.V(2e3, 0, 0)
				case 20:
					b.V = geom.V(0, -1e6, 0)
				}
				k++
			}
		}
		for i := range w.Walls {
			if n := w.Walls[i].Name; n != "bottom" {
				if err := w.SetWallEnabled(n, false); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	t.Cleanup(func() { anyWorkersEdit = nil })
	final := func(workers int) string {
		w := anyWorkersLattice(t, 4500, 0.8, false)
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		out := ""
		for range anyWorkersSteps() {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("%x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.Contacts)
		}
		if !renumbered(w) {
			t.Fatal("the spheres were not renumbered")
		}
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x %x %x|", b.X, b.Q, b.V, b.W)
		}
		return out
	}
	ws := anyWorkersCounts()
	ref := final(ws[0])
	for _, nw := range ws[1:] {
		if got := final(nw); got != ref {
			t.Errorf("%d workers differ from %d", nw, ws[0])
		}
	}
}

// A load added to a 4500-sphere world in the middle of a run (the panel's
// edit: the world leaves the sphere path for the generic stages) and
// removed again (back to the sphere path, its list rebuilt from the
// generic state): the same bits on 1, 2, 3 and 5 workers.
func TestSpherePathLoadMidRunAnyWorkers(t *testing.T) {
	reorderAll(t, 20)
	final := func(workers int) string {
		w := anyWorkersLattice(t, 4500, 0.8, false)
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		first := -1
		for i, b := range w.Bodies() {
			if b.Wall < 0 && first < 0 {
				first = i
			}
		}
		out := ""
		for s := range 120 {
			switch s {
			case 40:
				w.Loads = append(w.Loads, body.Load{Body: first, Force: body.Const(geom.V(1e-3, 0, 2e-4))})
			case 80:
				w.Loads = w.Loads[:0]
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("%x %x %x %d|", w.Stats.Kinetic, w.Stats.PotentialContact, w.Stats.PotentialGravity, w.Stats.Contacts)
		}
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x %x %x|", b.X, b.Q, b.V, b.W)
		}
		return out
	}
	ws := anyWorkersCounts()
	ref := final(ws[0])
	for _, nw := range ws[1:] {
		if got := final(nw); got != ref {
			t.Errorf("%d workers differ from %d", nw, ws[0])
		}
	}
}
