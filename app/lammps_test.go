package app

import (
	"bytes"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/dump"
	"grainlab/sim/lammps"
	"grainlab/sim/snap"
)

// `grainlab liggghts` writes the LIGGGHTS deck of the settled soft box;
// LIGGGHTS (Debian's liggghts) runs it for 100 steps of 1e-5 s, dumping
// every 25; the dump opens with --dt 1e-5 (LIGGGHTS writes no ITEM: TIME):
// 5 frames at 0, 0.25, …, 1 ms, the first holding the settled state's
// spheres (1e-15 m), and `grainlab export` turns it into a ParaView series.
// Bad input: a scene of polyhedra is refused naming the body (exit 2).
func TestLiggghtsDeckRunsAndOpens(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main([]string{"liggghts", "cube-drop-a", "--out", t.TempDir()}, &out, &errb); code != ExitInput ||
		!strings.Contains(errb.String(), "grainlab liggghts: scene cube-drop-a:") || !strings.Contains(errb.String(), "is not a sphere") {
		t.Errorf("polyhedra: exit %d, stderr %q", code, errb.String())
	}
	bin, err := exec.LookPath("liggghts")
	if err != nil {
		t.Skip("liggghts not installed: apt-get install liggghts")
	}
	deck := t.TempDir()
	out.Reset()
	errb.Reset()
	if code := Main([]string{"liggghts", "sphere-box-soft", "--restart", settledBox, "--steps", "100", "--dt", "1e-5",
		"--dump-every", "25", "--out", deck}, &out, &errb); code != ExitOK {
		t.Fatalf("liggghts: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "--dt 1e-05") {
		t.Errorf("the command does not say how to open the dump: %q", out.String())
	}
	cmd := exec.Command(bin, "-in", lammps.InputLIGGGHTS, "-log", "none", "-screen", "none")
	cmd.Dir = deck
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("liggghts: %v\n%s", err, o)
	}
	in := filepath.Join(deck, lammps.TrajectoryName)
	src, err := OpenFramesWith(in, dump.Options{Dt: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	frames := allFrames(t, src)
	if len(frames) != 5 {
		t.Fatalf("%d frames, want 5", len(frames))
	}
	for i := range frames {
		if want := float64(25*i) * 1e-5; math.Abs(src.Time(i)-want) > 1e-15 {
			t.Errorf("frame %d at %g s, want %g", i, src.Time(i), want)
		}
	}
	k := sameAsSettledBox(t, frames[0])
	if k != len(frames[0].Bodies) {
		t.Fatalf("%d spheres in frame 0, want %d", len(frames[0].Bodies), k)
	}
	if code := Main([]string{"export", in, "--dt", "1e-5", "--vtk", t.TempDir()}, &out, &errb); code != ExitOK {
		t.Fatalf("export: exit %d: %s", code, errb.String())
	}
}

// sameAsSettledBox checks that frame f holds the spheres of the settled
// sphere-box-soft state (settledBox) at their positions to 1e-15 m, in
// body order, and returns how many spheres it compared.
func sameAsSettledBox(t *testing.T, f *snap.Snapshot) int {
	t.Helper()
	s, err := Load(Options{Scene: "sphere-box-soft", Restart: settledBox})
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, b := range s.World.Bodies() {
		if b.Wall >= 0 {
			continue
		}
		if d := f.Bodies[k].Pos.Sub(b.X).Norm(); d > 1e-15 {
			t.Fatalf("sphere %d: %g m from the settled state", k, d)
		}
		k++
	}
	return k
}
