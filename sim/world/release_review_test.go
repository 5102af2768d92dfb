package world_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// Review r6: a friction pile (sphere-piling, mu 0.5) stepped until its
// spheres touch and slide, written (a checkpoint), restarted from that file
// (the restored entries carry Spring, cache state), then checkpoints with
// generic stretches between them (NoSpherePath: the step bound and the
// laws read the entries the release kept or dropped). The run with the
// release and the run keeping every entry (releaseOff) must write the same
// bytes at every checkpoint and at the end.
func TestReviewReleaseRestartGeneric(t *testing.T) {
	for _, sc := range []struct {
		name string
		t    float64
	}{{"sphere-piling", 0.09}, {"sphere-box-soft", 0.3}} {
		t.Run(sc.name, func(t *testing.T) { reviewRestart(t, sc.name, sc.t) })
	}
}

func reviewRestart(t *testing.T, name string, t0 float64) {
	w0 := startScene(t, name, "")
	if _, err := integrate.Advance(w0, t0, nil); err != nil {
		t.Fatal(err)
	}
	p0 := filepath.Join(t.TempDir(), "ck0.json")
	if err := state.Write(p0, w0); err != nil {
		t.Fatal(err)
	}
	t.Logf("at t=%g: %d contacts, %d steps", w0.Time, w0.Stats.Contacts, w0.Steps)
	if w0.Stats.Contacts < 50 {
		t.Fatalf("only %d contacts: the pile does not touch", w0.Stats.Contacts)
	}
	run := func(off bool) [][]byte {
		world.SetReleaseOff(off)
		defer world.SetReleaseOff(false)
		w := startScene(t, name, p0)
		dir := t.TempDir()
		var files [][]byte
		write := func() { files = append(files, checkpointBytes(t, w, dir)) }
		step := func(n int) { stepsOf(t, w, n) }
		for i := range 6 {
			step(7)
			write()
			step(3) // accepted: the release
			if !off {
				t.Logf("checkpoint %d: %d generic entries kept after the release", i, w.GenericEntries())
			}
			if i%2 == 1 {
				w.Settings.NoSpherePath = true
				step(6)
				w.Settings.NoSpherePath = false
			}
		}
		step(40)
		return append(files, finalBytes(t, w))
	}
	keep, rel := run(true), run(false)
	for k := range keep {
		if !bytes.Equal(keep[k], rel[k]) {
			t.Fatalf("file %d (%d bytes) differs from the run keeping the entries (%d bytes)", k, len(rel[k]), len(keep[k]))
		}
	}
}
