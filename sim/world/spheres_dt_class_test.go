package world_test

import (
	"testing"

	"grainlab/sim/law"
	"grainlab/sim/world"
)

// The step-size classes of the sphere list's pairs (dtTables.classOf: the
// species pair's class, read from the list's class keys; no class kept a
// pair) are those of each pair's own spheres — law, Hooke or not, r_min,
// R_eff, m_eq — after every step of 4500 spheres of two radii and two
// materials whose pair has a Hertzian law (two laws, four species),
// through list rebuilds in ranges and renumberings (every 20 steps), a
// history restore (the list imported whole) and an edit that makes every
// pair Hookean, on one and two workers (every evaluation split); and a
// world of one species keeps no class a pair.
func TestSphereDtClassesBySpecies(t *testing.T) {
	oldEvery := world.SphereReorderEvery
	defer func() { world.SphereReorderEvery = oldEvery }()
	world.SphereReorderEvery = 20
	for _, workers := range []int{1, 2} {
		w, other := twoMaterialLattice(t, workers)
		hertz := *w.Params(0, 0)
		hertz.Smooth.Model = law.HertzLAMMPS
		if err := w.SetParams(other, 0, hertz); err != nil {
			t.Fatal(err)
		}
		most := 0
		steps := func(what string, n, want int) {
			t.Helper()
			for k := range n {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				nc, err := world.SphereDtClassesCheck(w)
				if err != nil {
					t.Fatalf("%d workers, %s, step %d: %v", workers, what, k, err)
				}
				most = max(most, nc)
			}
			if most < want {
				t.Fatalf("%d workers, %s: at most %d classes in the list, want %d", workers, what, most, want)
			}
		}
		steps("two laws", 80, 10) // 4 species: 10 species pairs
		// The list imported whole (dtTables.pairs' pass over the class keys).
		if err := w.RestoreHistory(w.TakeHistory()); err != nil {
			t.Fatal(err)
		}
		steps("restored", 10, 10)
		if b := world.SphereDtPairBytes(w); b != 0 {
			t.Errorf("%d workers: %g bytes a pair of step-size classes, want 0", workers, b)
		}
		if err := w.SetParams(other, 0, *w.Params(0, 0)); err != nil {
			t.Fatal(err)
		}
		steps("one law", 40, 10)
		t.Logf("%d workers: %d list builds, up to %d classes", workers, w.VerletBuilds(), most)
	}
	one := partsLattice(t, 2000, []float64{0.001})
	for range 30 {
		if _, err := one.Integrator.Step(one, 1); err != nil {
			t.Fatal(err)
		}
		if nc, err := world.SphereDtClassesCheck(one); err != nil || nc != 1 {
			t.Fatalf("one species: %d classes, %v", nc, err)
		}
	}
	if b := world.SphereDtPairBytes(one); b != 0 {
		t.Errorf("one species: %g bytes a pair of step-size classes, want 0", b)
	}
}
