package world_test

import (
	"os"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// Review r2 (session 15): the sphere path's species (with the SameRecord shortcut)
// equal, id for id, the species of the old build's specKey map: first-seen
// ids over (R, Mass, InvMass, diag IBodyInv, IBody, Material). A mixed scene
// (explicit spheres of 3 shapes, 2 densities, a mass, 3 materials in
// irregular A B A B order; 3 generators), then after a live shape edit of
// one material (EditSmoothShape) and its undo, each followed by steps.
func TestSphereSpeciesShortcutMatchesKeyMap(t *testing.T) {
	data, err := os.ReadFile("testdata/mixed-species.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scene.Parse(data, "testdata/mixed-species.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w := startBuilt(t, s)
	check := func(when string) {
		type key struct {
			r, m, im float64
			ii       [3]float64
			ib       [3][3]float64
			mat      int
		}
		of := map[key]int32{}
		var want []int32
		for _, b := range w.Bodies() {
			if b.Wall >= 0 {
				continue
			}
			ii := b.IBodyInv()
			k := key{b.R, b.Mass(), b.InvMass(), [3]float64{ii[0][0], ii[1][1], ii[2][2]}, b.IBody(), b.Material}
			id, ok := of[k]
			if !ok {
				id = int32(len(of))
				of[k] = id
			}
			want = append(want, id)
		}
		got := world.SphereSpecies(w)
		if len(got) != len(want) {
			t.Fatalf("%s: %d species for %d spheres (sphere path off?)", when, len(got), len(want))
		}
		bad := 0
		for k := range got {
			if got[k] != want[k] {
				bad++
			}
		}
		t.Logf("%s: %d spheres, %d species, %d differ", when, len(want), len(of), bad)
		if bad > 0 {
			t.Errorf("%s: %d spheres' species differ from the key map's", when, bad)
		}
	}
	check("set-up")
	if _, err := integrate.Advance(w, w.Time+0.002, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	check("after steps")
	a := w.Material("a")
	undo, err := w.EditSmoothShape(a, sq.Sphere(0.0011))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := integrate.Advance(w, w.Time+0.002, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	check("after the shape edit")
	undo()
	if _, err := integrate.Advance(w, w.Time+0.002, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	check("after the undo")
	// A per-body mass edit on every third sphere of generator g1 (copy on
	// write: those get a new record), then a rebuild.
	n := 0
	for _, b := range w.Bodies() {
		if b.Group() == "g1" && n%3 == 0 {
			b.SetMass(b.Mass()*1.5, b.IBody().Scale(1.5))
		}
		if b.Group() == "g1" {
			n++
		}
	}
	if _, err := w.EditSmoothShape(a, sq.Sphere(0.001)); err != nil { // a rebuild
		t.Fatal(err)
	}
	if _, err := integrate.Advance(w, w.Time+0.002, func() bool { return false }); err != nil {
		t.Fatal(err)
	}
	check("after per-body mass edits and a rebuild")
}
