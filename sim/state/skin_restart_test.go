package state

import (
	"strings"
	"testing"

	"grainlab/sim/world"
)

// A restart continues with the Verlet skin of the run (History.Skin) and
// rebuilds the list at the same steps: 1000 spheres falling in a box on
// the sphere path (a rebuild every ~16 steps at the sphere path's skin,
// 0.6 r_min), written at 0.012 s and continued to 0.03 s, give the same
// bodies to the bit, the same skin and as many rebuilds after t1 as the
// run that went on; so does a restart whose scene asks for another skin
// (contact.skin): the file's skin wins, as the saved list was built with
// it, and a note says so.
func TestExactRestartSkin(t *testing.T) {
	const t1, t2 = 0.012, 0.03
	defer func(n int) { world.SphereSkinMin = n }(world.SphereSkinMin)
	world.SphereSkinMin = 1000 // the sphere path's skin from 1000 spheres
	sets := []string{"generators.s.count=1000", "generators.s.region.max=[0.0211, 0.0211, 0.0422]", "walls.box.max=[0.0211, 0.0211, 0.0422]"}
	ref, end := started(t, "sphere-box-soft", sets...)
	to(t, ref, t1, end)
	b1 := ref.VerletBuilds()
	to(t, ref, t2, end)
	want := ref.VerletBuilds() - b1
	if skin := ref.VerletSkin(); skin != 0.6*ref.MinBodyRadius() {
		t.Fatalf("skin %g, want 0.6 r_min = %g", skin, 0.6*ref.MinBodyRadius())
	}
	if want < 5 {
		t.Fatalf("%d rebuilds between %g and %g s: the check of the rebuild steps is void", want, t1, t2)
	}
	a, _ := started(t, "sphere-box-soft", sets...)
	to(t, a, t1, end)
	data, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"contact.skin=0.0002"}} {
		b, notes := restartFrom(t, data, false, "sphere-box-soft", append(sets[:len(sets):len(sets)], extra...)...)
		// No note without contact.skin; with one that differs, one note
		// that names both skins (review r1: the file's skin won silently).
		if wantNotes := len(extra); len(notes) != wantNotes ||
			wantNotes == 1 && !(strings.Contains(notes[0], "contact.skin 0.0002 m") && strings.Contains(notes[0], "0.0006 m")) {
			t.Fatalf("%v: notes %q, want %d naming both skins", extra, notes, wantNotes)
		}
		b0 := b.VerletBuilds()
		to(t, b, t2, end)
		if d := diffBodies(ref, b); d != "" {
			t.Fatalf("%v: restart at %g s differs at %g s: %s", extra, t1, t2, d)
		}
		if got := b.VerletBuilds() - b0; got != want || b.VerletSkin() != ref.VerletSkin() {
			t.Fatalf("%v: %d rebuilds at skin %g after the restart, the run that went on %d at %g", extra, got, b.VerletSkin(), want, ref.VerletSkin())
		}
		t.Logf("%v: %d rebuilds at skin %g between %g and %g s: identical", extra, want, ref.VerletSkin(), t1, t2)
	}
}
