package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// rv23hLattice: tiltedLattice's 4000-sphere lattice in a box whose
// x extent is xs sides, optionally with a tilted plane floor below it.
func rv23hLattice(t *testing.T, g string, xs float64, ramp geom.Vec3) *world.World {
	t.Helper()
	const d = 0.002
	pitch := 1.05 * d
	m, n := 10, 4000
	layers := n / (m * m)
	side, height := float64(m)*pitch, float64(layers+2)*pitch
	sp, err := scene.LoadBuiltin("sphere-box-soft", "generators.s.count=1",
		fmt.Sprintf("walls.box.min=[0, 0, %g]", -0.05),
		fmt.Sprintf("walls.box.max=[%g, %g, %g]", xs*side, side, height),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", side, side, height),
		"gravity="+g)
	if err != nil {
		t.Fatal(err)
	}
	if ramp != (geom.Vec3{}) {
		wl := sp.Walls[0]
		wl.Name, wl.Box, wl.Side, wl.Type = "ramp", "", "", "plane"
		wl.Point, wl.Normal, wl.Size = geom.V(side/2, side/2, -0.0005-0.5*side*math.Abs(ramp.X/ramp.Z)-0.5*side*math.Abs(ramp.Y/ramp.Z)), ramp.Unit(), [2]float64{1, 1}
		sp.Walls = append(sp.Walls, wl)
	}
	w, err := scene.Build(sp)
	if err != nil {
		t.Fatal(err)
	}
	var proto *body.Body
	keep := w.Bodies()[:0]
	for _, b := range w.Bodies() {
		if b.Wall >= 0 {
			keep = append(keep, b)
		} else {
			proto = b
		}
	}
	w.SetBodies(keep)
	return placeLattice(t, w, proto, n, m, pitch)
}

// TestRV23hWallWatchAdversarial: frames travelling fast toward a side
// wall and falling onto a tilted (non axis-aligned) floor; at every step
// in the frame every watched slot passes the per-slot test.
func TestRV23hWallWatchAdversarial(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	defer world.SetInnerRelOn(world.SetInnerRelOn(true))
	for _, c := range []struct {
		g    string
		xs   float64
		ramp geom.Vec3
	}{
		{"[80,0,-9.81]", 3, geom.Vec3{}},
		{"[-40,25,-9.81]", 1, geom.V(0.3, -0.2, 1)},
		{"[0,0,-9.81]", 1, geom.V(0.5, 0.4, 1)},
		{"[30,0,-30]", 3, geom.V(-0.6, 0, 1)},
	} {
		t.Run(fmt.Sprintf("g=%s,ramp=%v", c.g, c.ramp), func(t *testing.T) {
			w := rv23hLattice(t, c.g, c.xs, c.ramp)
			checkWallWatch(t, w, 1500)
		})
	}
}

// TestRV23hWallWatchSpeeds: lattices with random speeds (the tight
// spheres move relative to the frame: Grow), checked as above.
func TestRV23hWallWatchSpeeds(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	defer world.SetInnerRelOn(world.SetInnerRelOn(true))
	for _, sp := range []float64{0.002, 0.01, 0.05} {
		t.Run(fmt.Sprint(sp), func(t *testing.T) {
			w := sphereLattice(t, 4000, []float64{0.001}, latticeSpec{pitch: 1.02, perLayer: 100, speed: sp, seed: [2]uint64{7, 1}})
			w.SetLazyBodies(true)
			w.Settings.DtMax = 2e-5
			w.Dt = min(w.Dt, w.Settings.DtMax)
			checkWallWatch(t, w, 1500)
		})
	}
}
