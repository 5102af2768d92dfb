package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// The sphere list's merge (rebuildParts: the old list and the new
// candidates → the new list with its history carried by key) against a
// reference built pair by pair by key (world.SphereMergeCheck): random old
// lists in merge order and shuffled as after a renumbering, random
// candidates (about 3/4 of them carried), 4500 spheres of one and three
// species (a table of pair classes, and one class a pair), Hookean and with
// friction (the friction history carried) and two materials of two laws
// (the law carried), on one worker and on two with the passes split (the
// ranges on the crew).
func TestSphereMergeByKey(t *testing.T) {
	for _, tc := range []struct {
		radii      []float64
		mu         float64
		maxSpecies int
		workers    int
	}{
		{[]float64{0.001}, 0, 64, 1},
		{[]float64{0.001, 0.0009, 0.0011}, 0, 64, 1},
		{[]float64{0.001, 0.0009, 0.0011}, 0.3, 64, 2},
		{[]float64{0.001, 0.0009, 0.0011}, 0.3, 0, 1},
	} {
		name := fmt.Sprintf("species=%d,mu=%g,table=%v,workers=%d", len(tc.radii), tc.mu, tc.maxSpecies > 0, tc.workers)
		t.Run(name, func(t *testing.T) {
			old := world.SetMaxClassSpecies(tc.maxSpecies)
			defer world.SetMaxClassSpecies(old)
			defer func(m int) { world.SphereReorderMin = m }(world.SphereReorderMin)
			for seed, reordered := range []bool{false, true, false, true} {
				// Spheres in body order (no renumbering), then in Morton order.
				morton := seed >= 2
				world.SphereReorderMin = math.MaxInt
				if morton {
					world.SphereReorderMin = 4096
				}
				w := partsWorld(t, 4500, tc.radii, tc.workers, tc.mu)
				for step := 0; step < 3 || morton && !sphereOrdered(w); step++ {
					if step > 300 {
						t.Fatal("not renumbered in 300 steps")
					}
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
				}
				if sphereOrdered(w) != morton {
					t.Fatalf("renumbered %v, want %v", !morton, morton)
				}
				if world.PairClassTable(w) != (tc.maxSpecies > 0) {
					t.Fatal("pair class table not as asked")
				}
				nc, carried, err := world.SphereMergeCheck(w, uint64(seed), reordered)
				if err != nil {
					t.Fatalf("Morton order %v, old list shuffled %v: %v", morton, reordered, err)
				}
				if carried < nc/2 || carried == nc {
					t.Fatalf("%d of %d candidates carried: not a mix", carried, nc)
				}
				t.Logf("Morton order %v, old list shuffled %v: %d candidates, %d carried", morton, reordered, nc, carried)
			}
		})
	}
}

func sphereOrdered(w *world.World) bool {
	_, _, _, ordered := world.SphereArrays(w)
	return ordered
}

// The list's pairs keep the class of their species and the law of their
// materials (what the merge carries over from the old list, unlooked-up)
// through rebuilds and renumberings (every 20 steps), a law edit, a shape
// edit of one material's spheres (new species) and its undo, and a restore
// of the history taken before them: 4500 spheres of two radii and two
// materials with friction, on one and two workers.
func TestSphereListClassesStay(t *testing.T) {
	oldEvery := world.SphereReorderEvery
	defer func() { world.SphereReorderEvery = oldEvery }()
	world.SphereReorderEvery = 20
	for _, workers := range []int{1, 2} {
		w, other := twoMaterialLattice(t, workers)
		for _, set := range []string{"contact.default.mu", "contact.other.default.mu"} {
			if err := w.SetParam(set, 0.3); err != nil {
				t.Fatal(err)
			}
		}
		steps := func(what string, n int) {
			t.Helper()
			for k := range n {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
				if err := world.SphereListConsistent(w); err != nil {
					t.Fatalf("%d workers, %s, step %d: %v", workers, what, k, err)
				}
			}
		}
		steps("set-up", 60)
		if !sphereOrdered(w) {
			t.Fatal("not renumbered")
		}
		h := w.TakeHistory()
		if err := w.SetParam("contact.other.default.mu", 0.1); err != nil {
			t.Fatal(err)
		}
		steps("law edit", 30)
		undo, err := w.EditSmoothShape(other, sq.Sphere(0.00095))
		if err != nil {
			t.Fatal(err)
		}
		steps("shape edit", 30)
		undo()
		steps("undo", 30)
		if err := w.RestoreHistory(h); err != nil {
			t.Fatal(err)
		}
		steps("restored", 30)
		t.Logf("%d workers: %d list builds", workers, w.VerletBuilds())
	}
}

// TestRebuildPairsReorderedNonPeriodic: rebuildPairs, the reference merge
// that pairsRange matches, takes a renumbered list of a world without
// periodic images (it sorts the old pairs with their fresh flags) and gives
// the list it was handed back: every pair of the candidates, none lost
// (review r3, session 17: it indexed the fresh flags after handing them
// over and panicked).
func TestRebuildPairsReorderedNonPeriodic(t *testing.T) {
	w := partsLattice(t, 500, []float64{0.001})
	for range 3 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	np, got, err := world.RebuildPairsReordered(w)
	if err != nil {
		t.Fatalf("rebuildPairs(reordered) on a list of %d pairs: %v", np, err)
	}
	if got != np {
		t.Fatalf("rebuildPairs(reordered) kept %d pairs of %d candidates", got, np)
	}
}

// twoMaterialLattice is partsLattice's 4500 spheres of two radii, every
// third body of material "other", on workers workers with every evaluation
// split; it returns the world and that material.
func twoMaterialLattice(t *testing.T, workers int) (*world.World, int) {
	t.Helper()
	w := partsLattice(t, 4500, []float64{0.001, 0.0009})
	w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
	other := w.Material("other")
	for k, b := range w.Bodies() {
		if b.Wall < 0 && k%3 == 0 {
			b.Material = other
		}
	}
	return w, other
}
