package window

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/app"
)

// TestHistoryDirBadInput: `view --history-dir` naming no directory exits 2
// naming the flag and the path, before any window opens.
func TestHistoryDirBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		var so, se strings.Builder
		if code := app.Main([]string{"view", "--history-dir", dir}, &so, &se); code != app.ExitInput || !strings.Contains(se.String(), "--history-dir "+dir) {
			t.Errorf("--history-dir %s: exit %d, %q", dir, code, se.String())
		}
	}
}

// TestExportFramesBadInput: export --frames reports a bad dump (file, line,
// column) with exit 2 before any window opens.
func TestExportFramesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.dump")
	os.WriteFile(bad, []byte("ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\nITEM: ATOMS id x y radius\n1 0 0 1\n"), 0o644)
	var so, se strings.Builder
	if code := app.Main([]string{"export", bad, "--frames", dir}, &so, &se); code != app.ExitInput || !strings.Contains(se.String(), bad+":9: column z missing") {
		t.Errorf("export --frames of a bad dump: exit %d, %q; want exit 2 and %q", code, se.String(), bad+":9: column z missing")
	}
}
