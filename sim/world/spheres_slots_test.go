package world_test

import (
	"testing"

	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// The wall slots' deep flags and step-size classes, which buildSlots takes
// from the walls' triangles and rims and a (species, wall) table prepared
// once a rebuild, equal their definitions (onSurface of the wall body, the
// distance to the nearest rim segment against the rebuild margin, the class
// of the (species, wall) key) at every step of 300 spheres of
// sphere-piling poured into its feed box and funnel (finite planes, whose
// rims leave slots that are not deep) for 2000 steps, with the species
// table of wall classes and without it (the map's class).
func TestSphereSlotsByDefinition(t *testing.T) {
	for _, maxSpecies := range []int{64, 0} { // the table; none
		old := world.SetMaxClassSpecies(maxSpecies)
		s, err := scene.LoadBuiltin("sphere-piling", "generators.0.count=300")
		if err != nil {
			t.Fatal(err)
		}
		w := startBuilt(t, s)
		most, deep, shallow := 0, 0, 0
		for step := range 2000 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			n, d, err := world.SphereSlotsByDefinition(w)
			if err != nil {
				t.Fatalf("max species %d, step %d: %v", maxSpecies, step, err)
			}
			most, deep, shallow = max(most, n), max(deep, d), max(shallow, n-d)
		}
		world.SetMaxClassSpecies(old)
		if deep == 0 || shallow == 0 {
			t.Errorf("max species %d: up to %d slots, %d deep, %d not: the test needs both", maxSpecies, most, deep, shallow)
		}
		t.Logf("max species %d: up to %d slots, %d deep, %d not, t = %.3g s", maxSpecies, most, deep, shallow, w.Time)
	}
}

// A wall slot whose law has neither friction nor rolling resistance carries
// no friction side (F_t, the moment and the two friction histories live in
// Spheres.hists, two entries a slot of a frictional law): 112 bytes a slot
// (280 before session 16; docs/performance.md, "Session 16: memory per
// sphere"). 300 spheres of sphere-box-soft (μ = 0) and of sphere-piling
// (μ = 0.5, poured into its funnel: rim contacts, slots made and dropped at
// rebuilds) over 1500 steps: none and two entries a slot, each slot's own.
func TestWallSlotFrictionSide(t *testing.T) {
	if world.WallSlotSize > 112 {
		t.Errorf("a wall slot is %d bytes, want ≤ 112", world.WallSlotSize)
	}
	for _, c := range []struct {
		scene    string
		friction bool
	}{{"sphere-box-soft", false}, {"sphere-piling", true}} {
		s, err := scene.LoadBuiltin(c.scene, "generators.0.count=300")
		if err != nil {
			t.Fatal(err)
		}
		w := startBuilt(t, s)
		most := 0
		for step := range 1500 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			slots, with, entries, owned := world.SlotHists(w)
			want := 0
			if c.friction {
				want = slots
			}
			if with != want || entries != 2*want || !owned {
				t.Fatalf("%s, step %d: %d slots, %d with a friction side, %d entries (each slot's own: %v); want %d, %d",
					c.scene, step, slots, with, entries, owned, want, 2*want)
			}
			most = max(most, slots)
		}
		if most == 0 {
			t.Errorf("%s: no wall slots: the test tests nothing", c.scene)
		}
		t.Logf("%s: up to %d slots, t = %.3g s", c.scene, most, w.Time)
	}
}

// The sphere path keeps one array of its pairs: the Verlet list's
// candidates are written into the idle list's pair array and turned into
// the new list in place (the candidates and the list were two arrays
// before session 22, 8 bytes a pair each). 5000 spheres of sphere-box-soft
// over 300 steps (rebuilds, a renumbering at the first): after each
// rebuild the Verlet list is the new list's array (fails with
// verletUpdate's SetOut left out), which is not its Fn's; and the idle
// list's pairs are that Fn's storage (spareCand: two arrays of 8 bytes a
// pair, not three; fails with Session 23's idle array). The merge reads
// the old pairs from the array that becomes the new Fn (or, after a
// renumbering, from the old Fn's, where sortOld put them), never the
// array it writes.
func TestSphereCandidatesInList(t *testing.T) {
	s, err := scene.LoadBuiltin("sphere-box-soft", "generators.0.count=5000")
	if err != nil {
		t.Fatal(err)
	}
	w := startBuilt(t, s)
	checked := 0
	for step := range 300 {
		b := w.VerletBuilds()
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		if w.VerletBuilds() == b {
			continue
		}
		shared, _ := world.CandidatesInList(w)
		p, fn, idle := world.PairArrays(w)
		if !shared || p == fn || idle != fn {
			t.Fatalf("step %d: the Verlet list in the list's array %v, the pairs in Fn's array %v, the idle pairs in Fn's %v", step, shared, p == fn, idle == fn)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no rebuild in 300 steps")
	}
	t.Logf("%d rebuilds checked", checked)
}
