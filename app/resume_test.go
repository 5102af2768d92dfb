package app

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"grainlab/sim/state"
)

// resumeArgs is the pile of 200 spheres with every contact written
// (output.contacts=every: contacts.csv continued too) on one worker.
var resumeArgs = []string{"sphere-piling", "--set", "generators[0].count=200", "--set", "output.contacts=every", "--workers", "1", "--quiet"}

// shellWords splits a command line printed by resumeCommand (words
// separated by spaces, single quotes as shellQuote writes them).
func shellWords(s string) []string {
	var out []string
	var w strings.Builder
	in, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			in, any = !in, true
		case r == ' ' && !in:
			if any {
				out = append(out, w.String())
			}
			w.Reset()
			any = false
		default:
			w.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, w.String())
	}
	return out
}

// sameOutputs checks that dir's CSV files and final.json are ref's, byte
// for byte.
func sameOutputs(t *testing.T, what, dir, ref string) {
	t.Helper()
	for _, f := range []string{SeriesFile, ContactsFile, FinalFile} {
		a, err := os.ReadFile(filepath.Join(ref, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: %s differs from the uninterrupted run's (%d vs %d bytes, %d vs %d lines)", what, f,
				len(b), len(a), bytes.Count(b, []byte("\n")), bytes.Count(a, []byte("\n")))
		}
	}
}

// Following the command an interrupted run prints (SIGINT: exit 130) — or,
// after a SIGKILL, the same command from the last checkpoint, with a last
// row cut by the kill — gives the outputs of the uninterrupted run, byte
// for byte: series.csv and contacts.csv (output.contacts=every) keep their
// rows up to the restart time and go on; the stop row of the SIGINT (at a
// time off the output grid) is not kept twice nor left as an extra row.
// With --vtk, the earlier series is moved aside, not removed. Today's
// code (a resume starts the CSV files anew) fails: the rows before the
// restart time are lost.
func TestResumeKeepsRows(t *testing.T) {
	if testing.Short() {
		t.Skip("child runs")
	}
	const end = "0.5"
	ref := t.TempDir()
	if code := Main(append([]string{"run", "--time", end, "--out", ref}, resumeArgs...), io.Discard, io.Discard); code != 0 {
		t.Fatalf("uninterrupted run: exit %d", code)
	}

	t.Run("SIGINT", func(t *testing.T) {
		dir := t.TempDir()
		cmd, stderr := child(t, append([]string{"run", "--time", end, "--out", dir, "--vtk"}, resumeArgs...)...)
		series := filepath.Join(dir, SeriesFile)
		waitFor(t, "series.csv rows", func() bool { return lineCount(series) > 8 })
		cmd.Process.Signal(syscall.SIGINT)
		var ee *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != ExitInterrupt {
			t.Fatalf("exit %v, want %d; stderr %s", err, ExitInterrupt, stderr)
		}
		_, line, ok := strings.Cut(stderr.String(), "grainlab: to resume: ")
		if !ok {
			t.Fatalf("no resume command in %s", stderr)
		}
		line, _, _ = strings.Cut(line, "\n")
		args := shellWords(line)
		if len(args) < 2 || args[0] != "grainlab" || args[1] != "run" {
			t.Fatalf("resume command %q", line)
		}
		var errb bytes.Buffer
		if code := Main(append(args[1:], "--quiet"), io.Discard, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", line, code, &errb)
		}
		sameOutputs(t, "SIGINT, resumed", dir, ref)
		if _, err := os.Stat(filepath.Join(dir, "vtk.before-resume-1", "bodies.pvd")); err != nil {
			t.Errorf("the earlier VTK series was not moved aside: %v (stderr %s)", err, &errb)
		}
		if _, err := os.Stat(filepath.Join(dir, "vtk", "bodies.pvd")); err != nil {
			t.Errorf("no VTK series after the resume: %v", err)
		}
	})

	t.Run("SIGKILL", func(t *testing.T) {
		dir := t.TempDir()
		run := append([]string{"run", "--time", end, "--out", dir, "--checkpoint", "0.1"}, resumeArgs...)
		cmd, stderr := child(t, run...)
		series := filepath.Join(dir, SeriesFile)
		// Rows up to t = 0.13 at least: past the checkpoint at 0.1.
		waitFor(t, "series.csv rows past a checkpoint", func() bool { return lineCount(series) > 14 })
		cmd.Process.Kill()
		cmd.Wait()
		f, err := state.Read(filepath.Join(dir, FinalFile))
		if err != nil {
			t.Fatalf("checkpoint: %v (stderr %s)", err, stderr)
		}
		rows := readSeries(t, series)
		if last := rows[len(rows)-1][0]; !(last > f.Time) {
			t.Logf("the kill came at the checkpoint t=%v (last row %v): no row to drop", f.Time, last)
		}
		// A kill inside the kernel's write of a row: a cut last line.
		fs, err := os.OpenFile(series, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		fs.WriteString("0.49,1.2e-0")
		fs.Close()
		var errb bytes.Buffer
		if code := Main(append(run[:len(run):len(run)], "--restart", filepath.Join(dir, FinalFile)), io.Discard, &errb); code != 0 {
			t.Fatalf("resume from the checkpoint at t=%v: exit %d: %s", f.Time, code, &errb)
		}
		sameOutputs(t, "SIGKILL, resumed from the checkpoint", dir, ref)
	})
}

// A resume whose series.csv has other columns (another scene, other
// flags) is refused with exit 2 and changes nothing; a --restart from a
// copy of final.json (not the directory's own file) starts the outputs
// anew, as before.
func TestResumeRefusesOtherColumns(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "cube-drop-a", "--time", "0.02", "--out", dir, "--quiet"}
	if code := Main(args, io.Discard, io.Discard); code != 0 {
		t.Fatalf("run: exit %d", code)
	}
	series := filepath.Join(dir, SeriesFile)
	data, err := os.ReadFile(series)
	if err != nil {
		t.Fatal(err)
	}
	other := bytes.Replace(data, []byte(",dt,"), []byte(",step,"), 1)
	os.WriteFile(series, other, 0o644)
	final, _ := os.ReadFile(filepath.Join(dir, FinalFile))
	cons, _ := os.ReadFile(filepath.Join(dir, ContactsFile))
	var errb bytes.Buffer
	resume := []string{"run", "cube-drop-a", "--time", "0.04", "--out", dir, "--quiet", "--restart", filepath.Join(dir, FinalFile)}
	if code := Main(resume, io.Discard, &errb); code != ExitInput {
		t.Fatalf("resume into other columns: exit %d, want %d: %s", code, ExitInput, &errb)
	}
	if !strings.Contains(errb.String(), `column 2 is "step", this run's is "dt"`) {
		t.Errorf("the refusal does not name the column: %s", &errb)
	}
	for name, want := range map[string][]byte{SeriesFile: other, FinalFile: final, ContactsFile: cons} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, want) {
			t.Errorf("the refused resume changed %s", name)
		}
	}

	// A copy of final.json elsewhere: not a resume, the run starts anew.
	cp := filepath.Join(t.TempDir(), "copy.json")
	os.WriteFile(cp, final, 0o644)
	resume[len(resume)-1] = cp
	if code := Main(resume, io.Discard, &errb); code != 0 {
		t.Fatalf("restart from a copy: exit %d: %s", code, &errb)
	}
	if got, _ := os.ReadFile(series); bytes.Contains(got, []byte(",step,")) || !bytes.HasPrefix(got, []byte("t,dt,")) {
		t.Errorf("a restart from a copy kept the earlier series.csv: %.60q", got)
	}
}

// The cut of a resume, file by file: rows up to t0 kept, later rows and a
// cut last line dropped; a stop row off the output grid (and contacts.csv's
// instant there) dropped, a row on the grid kept; a time that is not a
// number refused.
func TestResumeCut(t *testing.T) {
	const head = "t,dt"
	cases := []struct {
		name, series, contacts string
		t0                     float64
		keepS, keepC           string // the bytes kept
		first                  bool   // the resumed run writes its start row
	}{
		{"stop row off the grid", "0,1\n0.01,1\n0.02,1\n0.0234,1\n",
			"0.01,a\n0.02,a\n0.02,b\n0.0234,a\n0.0234,b\n", 0.0234,
			"0,1\n0.01,1\n0.02,1\n", "0.01,a\n0.02,a\n0.02,b\n", false},
		{"stop row on the grid", "0,1\n0.01,1\n0.02,1\n0.0300001,1\n",
			"0.02,a\n0.0300001,a\n", 0.0300001,
			"0,1\n0.01,1\n0.02,1\n0.0300001,1\n", "0.02,a\n0.0300001,a\n", false},
		{"checkpoint between rows, later rows and a cut line", "0,1\n0.01,1\n0.02,1\n0.03,1\n0.04",
			"0.01,a\n0.02,a\n0.03,a\n0.03,b\n0.0", 0.025,
			"0,1\n0.01,1\n0.02,1\n", "0.01,a\n0.02,a\n", false},
		{"only the start row", "0.5,1\n0.51,1\n", "", 0.5, "0.5,1\n", "", false},
		{"no row yet", "", "", 0.5, "", "", true},
	}
	for _, c := range cases {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, SeriesFile), []byte(head+"\n"+c.series), 0o644)
		os.WriteFile(filepath.Join(dir, ContactsFile), []byte(contactsHeader+"\n"+c.contacts), 0o644)
		p, err := planResume(dir, []string{"t", "dt"}, c.t0, true)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p.decide(0.01)
		if got, want := p.series.keep, int64(len(head)+1+len(c.keepS)); got != want {
			t.Errorf("%s: series.csv keeps %d bytes, want %d (%q)", c.name, got, want, c.keepS)
		}
		if got, want := p.contacts.keep, int64(len(contactsHeader)+1+len(c.keepC)); got != want {
			t.Errorf("%s: contacts.csv keeps %d bytes, want %d (%q)", c.name, got, want, c.keepC)
		}
		if p.resumeFirstRow() != c.first {
			t.Errorf("%s: start row written %v, want %v", c.name, !c.first, c.first)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, SeriesFile), []byte("t,dt\n0,1\nx,1\n"), 0o644)
	if _, err := planResume(dir, []string{"t", "dt"}, 1, false); !errors.As(err, new(*InputError)) || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("a time that is not a number: %v, want an input error naming line 3", err)
	}
	os.WriteFile(filepath.Join(dir, SeriesFile), []byte("t,d"), 0o644)
	if _, err := planResume(dir, []string{"t", "dt"}, 1, false); !errors.As(err, new(*InputError)) {
		t.Errorf("a cut header: %v, want an input error", err)
	}
}
