package state

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"grainlab/sim/world"
)

// Write lays the state out straight into the file: its bytes are Encode's,
// byte for byte, for states of several layout flushes (218 spheres in
// contact, with their history; the packed tetrapods with the feature
// history) and for the kinematics-only fallback (a non-finite force:
// Encode drops the forces and the history); a state that cannot be encoded
// (a non-finite position) gives Encode's error and leaves no file.
func TestWriteIsEncode(t *testing.T) {
	dir := t.TempDir()
	check := func(name string, w *world.World) {
		t.Helper()
		want, wantErr := Encode(w)
		path := filepath.Join(dir, name+".json")
		err := Write(path, w)
		if wantErr != nil {
			if err == nil || err.Error() != wantErr.Error() {
				t.Fatalf("%s: Write error %v, Encode's %v", name, err, wantErr)
			}
			if _, serr := os.Stat(path); !os.IsNotExist(serr) {
				t.Fatalf("%s: Write failed but made the file (%v)", name, serr)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Fatalf("%s: Write's %d bytes differ from Encode's %d at byte %d", name, len(got), len(want), i)
		}
		if len(want) < 2*layoutFlush && name != "nan-force" {
			t.Fatalf("%s: %d bytes, want a state of several flushes", name, len(want))
		}
	}

	spheres := build(t, "sphere-box-soft")
	to(t, spheres, 0.3, 0.3)
	spheres.SyncBodies()
	if spheres.Stats.Contacts == 0 {
		t.Fatal("sphere-box-soft: no contacts at 0.3 s")
	}
	check("spheres", spheres)

	tetra := build(t, "box-of-tetrapods")
	f, err := Read("builtin:box-of-tetrapods-300-packed")
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(tetra, f, "packed"); err != nil {
		t.Fatal(err)
	}
	to(t, tetra, tetra.Time+1e-3, tetra.Time+1e-3)
	tetra.SyncBodies()
	check("tetrapods", tetra)

	spheres.Bodies()[3].F.X = math.NaN()
	check("nan-force", spheres)
	spheres.Bodies()[3].X.Y = math.Inf(1)
	check("nan-position", spheres)
}
