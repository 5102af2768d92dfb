package app

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/snap"
)

// TestWindowCommandsRefusedWithoutGL: with no window commands registered
// (the CGO_ENABLED=0 build; package app's tests register none) the window,
// view, shot and export --frames exit 2 with one line saying they need the
// GL build, before reading or writing anything; registered ones are run.
func TestWindowCommandsRefusedWithoutGL(t *testing.T) {
	saved := windowCmds
	t.Cleanup(func() { windowCmds = saved })
	windowCmds = WindowCommands{}
	dir := t.TempDir()
	vtkDir := filepath.Join(dir, "vtk-out")
	framesDir := filepath.Join(dir, "frames")
	cases := [][]string{
		nil,
		{"view"},
		{"view", "sliding-block-a", "--play"},
		{"shot", "sliding-block-a", "--time", "0.01", "--out", filepath.Join(dir, "a.png")},
		{"export", filepath.Join(dir, "missing.grec"), "--frames", framesDir},
		{"export", filepath.Join(dir, "missing.grec"), "--vtk", vtkDir, "--frames", framesDir},
	}
	for _, args := range cases {
		var out, errb strings.Builder
		code := Main(args, &out, &errb)
		msg := errb.String()
		if code != ExitInput {
			t.Errorf("grainlab %q: exit %d, want %d (stderr %q)", args, code, ExitInput, msg)
		}
		if !strings.Contains(msg, "needs the GL build of grainlab (this one was built with CGO_ENABLED=0); ") ||
			strings.Count(msg, "\n") != 1 || out.Len() != 0 {
			t.Errorf("grainlab %q: want one line saying it needs the GL build, got stdout %q stderr %q", args, out.String(), msg)
		}
	}
	for _, p := range []string{vtkDir, framesDir, filepath.Join(dir, "a.png")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written by a refused command", p)
		}
	}
	// The headless commands are unaffected.
	var out strings.Builder
	if code := Main([]string{"scenes"}, &out, io.Discard); code != ExitOK || !strings.Contains(out.String(), "sliding-block-a") {
		t.Errorf("scenes: exit %d, %q", code, out.String())
	}
	// Registered commands are what Main runs.
	var got []string
	RegisterWindow(WindowCommands{
		Default: func(_, _ io.Writer) int { got = append(got, "default"); return ExitOK },
		View:    func(a []string, _, _ io.Writer) int { got = append(got, "view "+strings.Join(a, " ")); return ExitOK },
		Shot:    func(a []string, _, _ io.Writer) int { got = append(got, "shot "+strings.Join(a, " ")); return ExitOK },
		Frames: func(_ snap.Frames, d, _ string, _ int, _ io.Writer) int {
			got = append(got, "frames "+d)
			return ExitOK
		},
	})
	for _, args := range [][]string{nil, {"view", "x"}, {"shot", "y"}} {
		if code := Main(args, io.Discard, io.Discard); code != ExitOK {
			t.Errorf("registered %q: exit %d", args, code)
		}
	}
	if want := "default|view x|shot y"; strings.Join(got, "|") != want {
		t.Errorf("registered commands ran %q, want %q", strings.Join(got, "|"), want)
	}
}
