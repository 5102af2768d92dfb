package app

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// r6: WriteInPlace's bytes are Write's at many points of lazy sphere runs
// (walls with candidate slots, friction, periodic, renumbering every
// build, a wall switched off), taken at every 37th step.
func TestRV6WriteInPlaceIsWrite(t *testing.T) {
	m, e := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 64, 1
	t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
	per := "/tmp/rv6/per.yaml"
	cases := []struct {
		scene string
		sets  []string
		end   float64
		off   bool
	}{{"sphere-box-soft", nil, 0.3, false}, {"sphere-piling", nil, 0.05, false}, {per, nil, 0.1, false},
		{"sphere-box-soft", []string{"generators[0].count=1"}, 0.05, false}, {"sphere-box-soft", nil, 0.3, true}}
	for _, c := range cases {
		s, err := Load(Options{Scene: c.scene, Sets: c.sets, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		w := s.World
		if c.off {
			w.SyncBodies()
			if err := w.SetWallEnabled(w.Walls[0].Name, false); err != nil {
				t.Fatal(err)
			}
		}
		dir := t.TempDir()
		k, n := 0, 0
		for w.Time < c.end-1e-12 {
			if _, err := integrate.AdvancePastLazy(w, c.end, c.end, func() bool { k++; return k%37 == 0 }); err != nil {
				t.Fatal(err)
			}
			a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
			if err := state.WriteInPlace(a, w); err != nil {
				t.Fatal(err)
			}
			if err := state.Write(b, w); err != nil {
				t.Fatal(err)
			}
			da, _ := os.ReadFile(a)
			db, _ := os.ReadFile(b)
			if !bytes.Equal(da, db) {
				t.Fatalf("%s %v step %d: WriteInPlace %d bytes, Write %d", c.scene, c.sets, w.Steps, len(da), len(db))
			}
			n++
		}
		t.Logf("%s %v off=%v: %d writes equal, last %d steps", c.scene, c.sets, c.off, n, w.Steps)
	}
}
