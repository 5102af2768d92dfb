package world_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// TestSphereInnerRelWallWatch: the moving frame's wall test, one a wall
// (relWalls: the frame's travel along the wall's normal against the
// margin found at the last refresh), is never looser than the test of
// every tight sphere's slot it stands for. A lattice of 4000 spheres falls
// with gravity straight down (the frame falls toward the floor) and
// tilted (the frame also drifts toward one or two side walls, which the
// bulk reaches within the run): at every step the frame is in use, every
// watched slot's centre is at least r(1 + 2⁻²⁰) + 2⁻⁴⁰·XMax from its
// wall's plane (InnerRelWalls), and on the tilted cases a tight sphere
// comes within a tenth of Δ of a side wall on some step (the cases test
// the margin; straight down, the spheres near the floor are loose). It
// fails with the frame's travel C left out of the wall test (checked by
// hand: the tilted cases then have 760 watched slots within a wall's reach
// on one step).
func TestSphereInnerRelWallWatch(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	defer world.SetInnerRelOn(world.SetInnerRelOn(true))
	for _, c := range []struct {
		g     string
		close bool // the frame must come within Δ/10 of a wall
	}{{"[0,0,-9.81]", false}, {"[4,0,-9.81]", true}, {"[-3,-3,-9.81]", true}} {
		g := c.g
		t.Run("g="+g, func(t *testing.T) {
			w := tiltedLattice(t, 4000, g)
			used, least := checkWallWatch(t, w, 1000)
			if used < 100 || c.close && !(least < 0.1) {
				t.Fatalf("%d steps in the frame, least margin %g Δ: the case does not test the wall watch", used, least)
			}
		})
	}
}

// tiltedLattice is sphereLattice's lattice at rest (pitch 1.05, 100 a
// layer) under gravity g, with lazy bodies and steps of ≤ 2·10⁻⁵ s.
func tiltedLattice(t *testing.T, n int, g string) *world.World {
	t.Helper()
	const d = 0.002
	pitch := 1.05 * d
	m := 10
	layers := (n + m*m - 1) / (m * m)
	side, height := float64(m)*pitch, float64(layers+2)*pitch
	w, proto := emptySphereBox(t,
		fmt.Sprintf("walls.box.max=[%g, %g, %g]", side, side, height),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", side, side, height),
		"gravity="+g)
	return placeLattice(t, w, proto, n, m, pitch)
}

// checkWallWatch steps w n times and, at every step in the moving frame,
// checks every watched slot against the per-slot test (InnerRelWalls); it
// returns the steps in the frame and the least (d − r)/Δ of a watched slot.
func checkWallWatch(t *testing.T, w *world.World, n int) (used int, least float64) {
	t.Helper()
	least = math.Inf(1)
	for step := range n {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		u, bad, l := world.InnerRelWalls(w)
		if !u {
			continue
		}
		used++
		least = min(least, l)
		if bad > 0 {
			t.Fatalf("step %d: %d watched slots of tight spheres within a wall's reach (least (d − r)/Δ %g)", step, bad, l)
		}
	}
	sel, _ := world.InnerRelSelects(w)
	t.Logf("%d of %d steps in the frame, %d selections, least (d − r)/Δ of a watched slot %.3g", used, n, sel, least)
	return used, least
}

// placeLattice adds n spheres like proto (radius 1 mm) at the sites of a
// cubic lattice of the pitch, m×m a layer, in random order, and starts w
// with lazy bodies and steps of ≤ 2·10⁻⁵ s.
func placeLattice(t *testing.T, w *world.World, proto *body.Body, n, m int, pitch float64) *world.World {
	t.Helper()
	rng := rand.New(rand.NewPCG(23, 5))
	for _, c := range rng.Perm(n) {
		i, j, k := c%m, (c/m)%m, c/(m*m)
		x := geom.V((float64(i)+0.5)*pitch, (float64(j)+0.5)*pitch, (float64(k)+0.5)*pitch)
		b := body.NewSphere(fmt.Sprintf("s%d", c), 0.001, proto.Density(), x)
		b.Material = proto.Material
		w.AddBody(b)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	w.SetLazyBodies(true)
	w.Settings.DtMax = 2e-5
	w.Dt = min(w.Dt, w.Settings.DtMax)
	return w
}

// TestSphereInnerRelTop: relSelect's top lists (relTop) give the tight
// set's two largest relative displacements and its largest relative speed
// exactly, as the pass over the tight spheres does, on the falling
// lattices of TestSphereInnerRelWallWatch and TestSphereInnerRelSameBits'
// (one and two radii, at rest and with random speeds): the pass is run
// beside the lists at every selection and the values compared. Fails with
// first2 reading the loose flags wrongly (checked by hand: first2 taking
// the lists' entries whatever their flags gives a wrong value at one of
// the second world's 19 selections).
func TestSphereInnerRelTop(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	defer world.SetInnerRelOn(world.SetInnerRelOn(true))
	defer world.InnerRelTopCheck(false)
	worlds := []func() *world.World{
		func() *world.World { return tiltedLattice(t, 4000, "[0,0,-9.81]") },
		func() *world.World { return tiltedLattice(t, 4000, "[4,0,-9.81]") },
		func() *world.World { return tiltedLattice(t, 4000, "[-3,-3,-9.81]") },
	}
	for _, sp := range []struct {
		radii []float64
		speed float64
	}{{[]float64{0.001}, 0}, {[]float64{0.001}, 0.002}, {[]float64{0.001, 0.00095}, 0.002}} {
		worlds = append(worlds, func() *world.World {
			w := sphereLattice(t, 4000, sp.radii, latticeSpec{pitch: 1.05, perLayer: 100, speed: sp.speed, seed: [2]uint64{23, 1}})
			w.SetLazyBodies(true)
			w.Settings.DtMax = 2e-5
			w.Dt = min(w.Dt, w.Settings.DtMax)
			return w
		})
	}
	full, checked := 0, 0
	for k, mk := range worlds {
		world.InnerRelTopCheck(true)
		w := mk()
		for range 1000 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		f, c, bad := world.InnerRelTopCheck(false)
		t.Logf("world %d: %d selections from the top lists, %d with the full pass", k, c, f)
		if bad > 0 {
			t.Fatalf("world %d: the top lists gave other values than the pass at %d of %d selections", k, bad, c)
		}
		full, checked = full+f, checked+c
	}
	if checked < 20 {
		t.Fatalf("only %d selections from the top lists (%d with the pass): the case does not test them", checked, full)
	}
}
