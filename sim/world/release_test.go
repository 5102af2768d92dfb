package world_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// A checkpoint hands the sphere path's history over to the generic pair
// entries (a final.json by state.Write) and the sphere path takes it back
// at its next step; it releases the entries after the first Accept
// (releaseGeneric). The run with the release and the run keeping the
// entries (as before) write the same bytes at every checkpoint and at the
// end, through a checkpoint right after another, a second hand-over before
// any Accept (the entries are then still the history: released at the
// import, that checkpoint loses its pairs), and a stretch of generic stages
// (NoSpherePath) in between, which makes every pair entry anew from the
// released ones. The release must also happen: no entry is left two steps
// after a checkpoint.
func TestCheckpointReleaseSameRun(t *testing.T) {
	for _, name := range []string{"sphere-box-soft", "sphere-piling"} {
		t.Run(name, func(t *testing.T) {
			run := func(off bool) [][]byte {
				world.SetReleaseOff(off)
				defer world.SetReleaseOff(false)
				w := startScene(t, name, "")
				dir := t.TempDir()
				var files [][]byte
				write := func() { files = append(files, checkpointBytes(t, w, dir)) }
				step := func(n int) { stepsOf(t, w, n) }
				for i := range 8 {
					step(15)
					write()
					switch i {
					case 2:
						write() // a second hand-over right after the first
					case 4:
						w.Spheres() // taken back, nothing accepted since
						write()
					case 5:
						w.Settings.NoSpherePath = true
						step(5)
						w.Settings.NoSpherePath = false
					}
					step(2)
					if n := w.GenericEntries(); !off && n != 0 && i < 5 { // after the generic stretch: entries with their state, kept
						t.Fatalf("checkpoint %d: %d generic pair entries kept two steps after", i, n)
					}
				}
				step(20)
				return append(files, finalBytes(t, w))
			}
			keep, rel := run(true), run(false)
			if len(keep) != len(rel) {
				t.Fatalf("%d files against %d", len(rel), len(keep))
			}
			for k := range keep {
				if !bytes.Equal(keep[k], rel[k]) {
					t.Fatalf("file %d (%d bytes) differs from the run keeping the entries (%d bytes)", k, len(rel[k]), len(keep[k]))
				}
			}
			if len(keep[0]) < 1000 {
				t.Fatalf("final.json of %d bytes", len(keep[0]))
			}
		})
	}
}

// finalBytes is w's final.json stated in place (the end of a run).
func finalBytes(t *testing.T, w *world.World) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "final.json")
	if err := state.WriteInPlace(p, w); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkpointBytes writes w's state file (final.json) in dir, as a
// checkpoint does, and returns its bytes.
func checkpointBytes(t *testing.T, w *world.World, dir string) []byte {
	t.Helper()
	p := filepath.Join(dir, "final.json")
	if err := state.Write(p, w); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// stepsOf advances w by n steps (one step each: a target just past its time).
func stepsOf(t *testing.T, w *world.World, n int) {
	t.Helper()
	for range n {
		if _, err := integrate.Advance(w, w.Time+1e-9, nil); err != nil {
			t.Fatal(err)
		}
	}
}
