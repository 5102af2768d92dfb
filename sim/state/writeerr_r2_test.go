package state

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Review r2 (session 14): Write's error paths against the old
// os.WriteFile(path, Encode's bytes): a full disk (a symlink to /dev/full)
// is an error (ENOSPC) as before, not a silent short file; an unwritable
// directory is an error and makes no file; an existing file that Write
// cannot replace because the state cannot be encoded is left as it was.
func TestWriteErrorPathsR2(t *testing.T) {
	w := build(t, "sphere-box-soft")
	w.SyncBodies()
	dir := t.TempDir()
	if _, err := os.Stat("/dev/full"); err == nil {
		full := filepath.Join(dir, "full.json")
		if err := os.Symlink("/dev/full", full); err != nil {
			t.Fatal(err)
		}
		err := Write(full, w)
		want := os.WriteFile(full, []byte("x"), 0o644)
		if err == nil || want == nil {
			t.Fatalf("Write to /dev/full: %v (os.WriteFile's: %v), want an error", err, want)
		}
		t.Logf("/dev/full: %v", err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		if err := Write(filepath.Join(ro, "final.json"), w); err == nil {
			t.Fatal("Write into an unwritable directory: no error")
		}
		if _, err := os.Stat(filepath.Join(ro, "final.json")); !os.IsNotExist(err) {
			t.Fatalf("file made in an unwritable directory (%v)", err)
		}
	}
	keep := filepath.Join(dir, "keep.json")
	old := []byte("{\"old\": true}\n")
	if err := os.WriteFile(keep, old, 0o644); err != nil {
		t.Fatal(err)
	}
	w.Bodies()[len(w.Bodies())-1].X.Z = 1 / zero() // +Inf in a sphere's position: no state file
	if _, err := Encode(w); err == nil {
		t.Fatal("Encode: no error for a non-finite position")
	}
	if err := Write(keep, w); err == nil {
		t.Fatal("a non-finite position: no error")
	}
	if got, _ := os.ReadFile(keep); !bytes.Equal(got, old) {
		t.Fatalf("the existing file was changed: %q", got)
	}
}

func zero() float64 { return 0 }
