package world_test

import (
	"math"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// The sphere path's tables of one entry a sphere (Session 27): no radius
// and no material a sphere (a species has one of each: rOf, matOf), no
// body order (inBodyOrder reads sidx), the seen flags as bits (a byte a
// sphere for up to eight walls): idx, spec (4 B each), rad (8 B), the
// flags (1 B) and no body pointer (the spheres are a sphere block's):
// 17 B a sphere and idx's room for the walls' (under half a byte a sphere
// here), in a box of five walls (37 before: 8 B of radius, 4 of material,
// 4 of body order and a byte a wall). 300 spheres of sphere-box-soft fall
// for 0.05 s, renumbered every 50 steps (the tables are permuted, not
// remade); the radius and material of every sphere are its body's.
func TestSphereTablesBytes(t *testing.T) {
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
		b, walls := world.SphereTableBytes(w)
		if walls < 1 || walls > 8 {
			t.Fatalf("%s: %d walls, want 1…8", when, walls)
		}
		if b > 17.5 {
			t.Errorf("%s: the tables hold %.2f B a sphere (%d walls), want at most 17.5", when, b, walls)
		}
		path, bodies, rp, rb := world.SphereMaterials(w)
		for k := range path {
			if path[k] != bodies[k] || rp[k] != rb[k] {
				t.Fatalf("%s: sphere %d has material %d and radius %g, its body %d and %g", when, k, path[k], rp[k], bodies[k], rb[k])
			}
		}
	}
	check("after Start")
	if _, err := integrate.Advance(w, 0.05, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	check("after 0.05 s")
}

// The wall slots are built in place (Session 27): a rebuild at the same
// reference writes the same slots, their state carried, into the same
// storage — no second array of slots (before: into the spare, 112 B a slot
// twice). 300 spheres of sphere-box-soft, some at the walls, after 0.05 s.
func TestSphereSlotsInPlace(t *testing.T) {
	s, err := scene.LoadBuiltin("sphere-box-soft", "generators.s.count=300")
	if err != nil {
		t.Fatal(err)
	}
	w := startBuilt(t, s)
	if _, err := integrate.Advance(w, 0.05, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	at, n, sum := world.SphereSlots(w)
	if n == 0 {
		t.Fatal("no wall slot: the test does not test the slots")
	}
	for round := range 3 {
		world.RebuildSlots(w)
		at2, n2, sum2 := world.SphereSlots(w)
		if n2 != n || math.Float64bits(sum2) != math.Float64bits(sum) {
			t.Fatalf("rebuild %d: %d slots (sum %v), want %d (sum %v)", round, n2, sum2, n, sum)
		}
		if at2 != at {
			t.Errorf("rebuild %d: the slots moved to other storage (%#x, before %#x): not in place", round, at2, at)
		}
	}
}
