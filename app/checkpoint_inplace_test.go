package app

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"grainlab/sim/world"
)

// A run with checkpoints gives the outputs of the same run without them,
// byte for byte (series.csv, contacts.csv, final.json): a checkpoint is
// written in place (WriteFinal → state.WriteInPlace), without the hand-over
// to the generic pair entries that put the spheres back in body order and
// dropped the list (the run then took other bits). The soft box renumbered
// at every list build (spatial order from 64 spheres), the friction pile
// (Hertz, μ = 0.5, planes and a box) on two workers. The box fails with
// the hand-over (state.Write): all three files differ.
func TestCheckpointSameRun(t *testing.T) {
	m, e := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 64, 1
	t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
	cases := []struct {
		scene      string
		sets       []string
		end, every float64
		workers    int
	}{
		{"sphere-box-soft", nil, 0.2, 0.03, 1},
		{"sphere-piling", []string{"generators[0].count=200"}, 0.08, 0.02, 2},
	}
	for _, c := range cases {
		o := Options{Scene: c.scene, Sets: c.sets, Time: c.end, Workers: c.workers}
		without, with := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
		if code := Run(o, RunConfig{Dir: without, Quiet: true}, io.Discard); code != 0 {
			t.Fatalf("%s: run: exit %d", c.scene, code)
		}
		if code := Run(o, RunConfig{Dir: with, Quiet: true, Checkpoint: c.every}, io.Discard); code != 0 {
			t.Fatalf("%s: run --checkpoint: exit %d", c.scene, code)
		}
		for _, f := range []string{SeriesFile, ContactsFile, FinalFile} {
			a, err := os.ReadFile(filepath.Join(without, f))
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(with, f))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s: %s with checkpoints every %g s differs from the run without (%d vs %d bytes)", c.scene, f, c.every, len(b), len(a))
			}
		}
	}
}
