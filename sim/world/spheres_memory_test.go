package world_test

import (
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// The sphere path's arrays of one entry a sphere hold exactly the spheres
// (no growth slack: 72 + 80 bytes a sphere on a state's two arrays, the
// rotational one absent while nothing turns: rotNone), before and after
// renumberings (a renumbering permutes them in place: "Session 21: the
// list build's garbage"; docs/performance.md, "Session 9: memory per sphere"); after list
// rebuilds the spare pair list holds none of the arrays a rebuild does not
// carry (F_n, the touch flags, …: "Session 16: memory per sphere"). 300 spheres of
// sphere-box-soft fall for 0.05 s, renumbered in Morton order every 50
// steps.
func TestSpherePathArraysSized(t *testing.T) {
	oldMin, oldEvery := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 64, 50
	defer func() { world.SphereReorderMin, world.SphereReorderEvery = oldMin, oldEvery }()
	s, err := scene.LoadBuiltin("sphere-box-soft", "generators.s.count=300")
	if err != nil {
		t.Fatal(err)
	}
	w := startBuilt(t, s)
	check := func(when string) {
		t.Helper()
		n, lo, hi, _ := world.SphereArrays(w)
		if n != 300 || lo != n || hi != n {
			t.Errorf("%s: %d spheres, per-sphere arrays' capacity %d…%d, want exactly 300", when, n, lo, hi)
		}
	}
	check("after Start")
	renumbered := false
	if _, err := integrate.Advance(w, 0.05, func() bool {
		_, _, _, ordered := world.SphereArrays(w)
		renumbered = renumbered || ordered
		return false
	}); err != nil {
		t.Fatal(err)
	}
	if !renumbered {
		t.Fatal("the spheres were never renumbered: the test does not test renumberings")
	}
	check("after 0.05 s")
	if room := world.SpareScratch(w); room != 0 {
		t.Errorf("after 0.05 s (renumbered, so rebuilt): the spare pair list holds %d entries of room in arrays a rebuild does not carry, want 0", room)
	}
}
