package app

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/dump"
	"grainlab/sim/lammps"
	"grainlab/sim/snap"
	"grainlab/sim/vtk"
	"grainlab/sim/vtk/vtktest"
)

const settledBox = "../sim/validation/testdata/sphere-box-soft-218-settled.json"

// allFrames decodes every frame of a run.
func allFrames(t *testing.T, f snap.Frames) []*snap.Snapshot {
	t.Helper()
	var out []*snap.Snapshot
	for i := range f.Len() {
		s, err := f.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// LAMMPS runs the deck of `grainlab lammps sphere-box-soft` (settled) for
// 100 steps writing its trajectory dump; `grainlab export` turns the dump
// into a ParaView series, which VTK's reader (python3-vtk9) finds where
// the dump's frames put the spheres (1e-12 relative), and into a dump of
// its own, whose centres, velocities and radii are the dump's exactly;
// the first frame holds the settled state's spheres (1e-15 m).
func TestExportLAMMPSDump(t *testing.T) {
	lmp, err := exec.LookPath("lmp")
	if err != nil {
		t.Skip("lmp (LAMMPS) not installed: apt-get install lammps")
	}
	deck := t.TempDir()
	var out, errb bytes.Buffer
	if code := Main([]string{"lammps", "sphere-box-soft", "--restart", settledBox, "--steps", "100", "--dt", "1e-5",
		"--dump-every", "25", "--out", deck}, &out, &errb); code != ExitOK {
		t.Fatalf("lammps: exit %d: %s", code, errb.String())
	}
	cmd := exec.Command(lmp, "-in", "in.lammps", "-log", "none", "-screen", "none")
	cmd.Dir = deck
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("lmp: %v\n%s", err, o)
	}
	in := filepath.Join(deck, lammps.TrajectoryName)
	dir := t.TempDir()
	back := filepath.Join(dir, "back.dump")
	if code := Main([]string{"export", in, "--vtk", dir, "--dump", back}, &out, &errb); code != ExitOK {
		t.Fatalf("export: exit %d: %s", code, errb.String())
	}
	src, err := OpenFrames(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	frames := allFrames(t, src)
	if len(frames) != 5 {
		t.Fatalf("%d frames, want 5 (steps 0, 25, …, 100)", len(frames))
	}
	worst := vtktest.Check(t, filepath.Join(dir, vtk.Subdir), frames, true)
	rb, err := OpenFrames(back)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Close()
	again := allFrames(t, rb)
	if len(again) != len(frames) {
		t.Fatalf("the exported dump has %d frames, want %d", len(again), len(frames))
	}
	for k := range frames {
		for i, b := range frames[k].Bodies {
			g := again[k].Bodies[i]
			if g.Pos != b.Pos || g.Vel != b.Vel || g.Radius != b.Radius || g.Material != b.Material || rb.Time(k) != src.Time(k) {
				t.Fatalf("frame %d body %d: exported %+v at %g, dump %+v at %g", k, i, g, rb.Time(k), b, src.Time(k))
			}
		}
	}
	k := sameAsSettledBox(t, frames[0])
	t.Logf("%d frames of %d spheres: VTK within %.3g m of the dump", len(frames), k, worst)
}

// finalSnapshot is the snapshot of the world in dir/final.json.
func finalSnapshot(t *testing.T, scene, dir string) *snap.Snapshot {
	t.Helper()
	s, err := Load(Options{Scene: scene, Restart: filepath.Join(dir, FinalFile)})
	if err != nil {
		t.Fatal(err)
	}
	return s.World.Snapshot(nil)
}

// pvdLen is the number of frames a collection lists.
func pvdLen(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "<DataSet ")
}

// `grainlab run --vtk` writes a frame per output row (as many as
// series.csv's rows) and VTK's reader finds the last one's bodies and
// walls where final.json puts them; a run stopped by a signal leaves
// collections that list its frames up to the stop, the last one at
// final.json's state.
func TestRunVTK(t *testing.T) {
	for _, stop := range []bool{false, true} {
		dir := t.TempDir()
		s, err := Load(Options{Scene: "cube-drop-a", Time: 0.02})
		if err != nil {
			t.Fatal(err)
		}
		c := RunConfig{Dir: dir, Quiet: true, VTK: true}
		if stop {
			c.stop = &stopFlag{}
			c.stop.sig.Store(os.Interrupt)
		}
		err = s.RunOutputs(c, io.Discard)
		var in *Interrupted
		if stop != errors.As(err, &in) || (!stop && err != nil) {
			t.Fatalf("stop %v: %v", stop, err)
		}
		csv, err := os.ReadFile(filepath.Join(dir, SeriesFile))
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Count(string(csv), "\n") - 1
		for _, name := range []string{vtk.BodiesPVD, vtk.ContactsPVD, vtk.WallsPVD} {
			if n := pvdLen(t, filepath.Join(dir, vtk.Subdir, name)); n != rows {
				t.Fatalf("stop %v: %s lists %d frames, series.csv has %d rows", stop, name, n, rows)
			}
		}
		if stop && rows != 2 {
			t.Fatalf("stopped after one step: %d rows", rows)
		}
		want := make([]*snap.Snapshot, rows)
		want[rows-1] = finalSnapshot(t, "cube-drop-a", dir)
		worst := vtktest.Check(t, filepath.Join(dir, vtk.Subdir), want, false)
		t.Logf("stop %v: %d frames; the last within %.3g m of final.json", stop, rows, worst)
	}
}

// Bad input to export: exit 2 with a message naming the file, line and
// column, whatever is to be written.
func TestExportBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.dump")
	os.WriteFile(bad, []byte("ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\nITEM: ATOMS id x y radius\n1 0 0 1\n"), 0o644)
	notDump := filepath.Join(dir, "final.json")
	os.WriteFile(notDump, []byte("{}\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", bad, "--vtk", dir}, bad + ":9: column z missing"},
		{[]string{"export", notDump, "--vtk", dir}, "not a Grainlab recording or a LAMMPS dump"},
		{[]string{"export", filepath.Join(dir, "none"), "--vtk", dir}, "no such file"},
		{[]string{"export", bad}, "nothing to write"},
		{[]string{"export", "--vtk", dir}, "expected one INPUT"},
	} {
		var out, errb bytes.Buffer
		if code := Main(c.args, &out, &errb); code != ExitInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%q: exit %d, %q; want exit 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// A recording made by `run --record` opens through OpenFrames and exports
// to a ParaView series that VTK's reader (python3-vtk9) finds equal to the
// recorded frames (bodies, walls and contacts), frame for frame; the
// recorded materials reach the series.
func TestExportRecording(t *testing.T) {
	dir := t.TempDir()
	rec, want := recordedRun(t, dir, "sliding-block-a", "0.05")
	var stderr bytes.Buffer
	if len(want) < 2 || len(want[len(want)-1].Contacts) == 0 {
		t.Fatalf("recording: %d frames, no contacts at the end", len(want))
	}
	out := filepath.Join(dir, "export")
	if code := Main([]string{"export", rec, "--vtk", out}, &bytes.Buffer{}, &stderr); code != ExitOK {
		t.Fatalf("export: exit %d: %s", code, stderr.String())
	}
	worst := vtktest.Check(t, filepath.Join(out, vtk.Subdir), want, true)
	t.Logf("%d recorded frames exported; bodies within %.3g m", len(want), worst)
}

// A signal during export stops it after the frame being written: the series
// lists that frame, the dump holds it (renamed from its .tmp), and the
// error is an *Interrupted (exit 130).
func TestExportStopsOnSignal(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.grec")
	var stderr bytes.Buffer
	if code := Main([]string{"run", "sliding-block-a", "--time", "0.02", "--record", rec, "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr); code != ExitOK {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	src, err := OpenFrames(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Len() < 3 {
		t.Fatalf("%d frames", src.Len())
	}
	out, dfile := filepath.Join(dir, "x"), filepath.Join(dir, "x.dump")
	c := &ExportConfig{VTK: out, Dump: dfile, stop: &stopFlag{}}
	c.stop.sig.Store(os.Interrupt)
	err = Export(src, c)
	var in *Interrupted
	if !errors.As(err, &in) || in.Code() != ExitInterrupt || c.written != 1 {
		t.Fatalf("Export: %v after %d frames; want *Interrupted after 1", err, c.written)
	}
	if n := pvdLen(t, filepath.Join(out, vtk.Subdir, vtk.BodiesPVD)); n != 1 {
		t.Errorf("bodies.pvd lists %d frames, want 1", n)
	}
	d, err := dump.Open(dfile)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Len() != 1 {
		t.Errorf("the dump holds %d frames, want 1", d.Len())
	}
	if _, err := os.Stat(dfile + ".tmp"); err == nil {
		t.Error("the dump's .tmp is left behind")
	}
}

// recordedRun runs scene to time with --record into dir and returns the
// recording's path and its frames as OpenFrames reads them.
func recordedRun(t *testing.T, dir, scene, time string) (string, []*snap.Snapshot) {
	t.Helper()
	rec := filepath.Join(dir, "run.grec")
	var stderr bytes.Buffer
	if code := Main([]string{"run", scene, "--time", time, "--record", rec, "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr); code != ExitOK {
		t.Fatalf("run: exit %d: %s", code, stderr.String())
	}
	src, err := OpenFrames(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	return rec, allFrames(t, src)
}
