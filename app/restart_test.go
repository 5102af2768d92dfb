package app

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/assets"
)

// grainlab run SCENE --restart A/final.json continues bit for bit: a run to
// T2 and a run to T1 restarted to T2 write the same final.json, byte for
// byte (every body's x, q, v, ω, forces, contact history, statistics), for
// the explicit and newmark integrators on the sliding block with friction.
// T1 is the time of a scene event, so that both runs have a step ending
// exactly there (an output time in the middle of a step is not a state of
// the longer run). A file without a version restarts with a note.
func TestRunRestartExact(t *testing.T) {
	data, err := fs.ReadFile(assets.FS, "scenes/sliding-block-a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	scn := filepath.Join(t.TempDir(), "slide.yaml")
	data = append(data, "\nevents:\n  - \"at 0.05 s set contact.default.mu_d = 0.55\"\n"...)
	if err := os.WriteFile(scn, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(dir string, args ...string) string {
		t.Helper()
		var stderr bytes.Buffer
		a := append([]string{"run", scn, "--out", dir, "--quiet"}, args...)
		if code := Main(a, &bytes.Buffer{}, &stderr); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", a, code, stderr.String())
		}
		return stderr.String()
	}
	read := func(dir string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, FinalFile))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, in := range []string{"explicit", "newmark"} {
		t.Run(in, func(t *testing.T) {
			full, half, rest := t.TempDir(), t.TempDir(), t.TempDir()
			run(full, "--integrator", in, "--time", "0.1")
			run(half, "--integrator", in, "--time", "0.05")
			if msg := run(rest, "--integrator", in, "--time", "0.1", "--restart", filepath.Join(half, FinalFile)); msg != "" {
				t.Errorf("restart printed %q", msg)
			}
			a, b := read(full), read(rest)
			if !bytes.Equal(a, b) {
				i := 0
				for i < len(a) && i < len(b) && a[i] == b[i] {
					i++
				}
				lo := max(0, i-200)
				t.Fatalf("final.json differs at byte %d:\nfull run: …%s\nrestarted: …%s", i, a[lo:min(len(a), i+100)], b[lo:min(len(b), i+100)])
			}
			t.Logf("final.json identical (%d bytes)", len(a))

			// The same file without its version and history: a note, and the run goes on.
			var f map[string]any
			if err := json.Unmarshal(read(half), &f); err != nil {
				t.Fatal(err)
			}
			delete(f, "version")
			delete(f, "history")
			delete(f, "integrator")
			old, _ := json.Marshal(f)
			oldPath := filepath.Join(t.TempDir(), "old.json")
			os.WriteFile(oldPath, old, 0o644)
			msg := run(t.TempDir(), "--integrator", in, "--time", "0.1", "--restart", oldPath)
			if !strings.Contains(msg, "note: "+oldPath+": old state file: contact history and integrator state start fresh") {
				t.Errorf("old file: stderr %q, want the old-file note", msg)
			}
		})
	}
}
