package world_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"grainlab/sim/world"
)

// Review r2 (session 23): a run that renumbers at every few rebuilds
// (SphereReorderEvery 5) with friction (two materials, two laws) and a live
// law edit, on 1, 2 and 3 workers: the same bits on each; the hash is
// logged to compare against base (bed9725) with the same test.
func TestRV23RenumberRunFriction(t *testing.T) {
	defer func(e int64) { world.SphereReorderEvery = e }(world.SphereReorderEvery)
	world.SphereReorderEvery = 5
	var ref string
	for _, workers := range []int{1, 2, 3} {
		w := partsWorld(t, 6000, []float64{0.001, 0.0009, 0.0011}, workers, 0.3)
		for step := range 120 {
			if step == 60 {
				if err := w.SetParam("contact.other.default.mu", 0.1); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		h := fnv.New64a()
		for _, b := range w.Bodies() {
			for _, v := range []float64{b.X.X, b.X.Y, b.X.Z, b.V.X, b.V.Y, b.V.Z, b.W.X, b.W.Y, b.W.Z} {
				fmt.Fprintf(h, "%x", math.Float64bits(v))
			}
		}
		got := fmt.Sprintf("%x steps=%d t=%g", h.Sum64(), w.Steps, w.Time)
		t.Logf("workers %d: %s", workers, got)
		if ref == "" {
			ref = got
		} else if got != ref {
			t.Errorf("workers %d: %s, want %s (1 worker)", workers, got, ref)
		}
	}
}
