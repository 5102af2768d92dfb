package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/snap"
	"grainlab/sim/vtk"
	"grainlab/sim/vtk/vtktest"
)

// `grainlab run --vtk` on the sphere box writes its spheres as points
// (spheres.pvd, a frame per output row like the other collections) and
// bodies.pvd without them; VTK's reader finds the last frame's spheres at
// final.json's centres and radii bit for bit. With --vtk-sphere-mesh the
// spheres are meshes in bodies.pvd again and there is no spheres.pvd.
func TestRunVTKSpheres(t *testing.T) {
	for _, mesh := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"run", "sphere-box-soft", "--time", "0.004", "--quiet", "--out", dir, "--vtk"}
		if mesh {
			args = append(args, "--vtk-sphere-mesh")
		}
		var out, errb bytes.Buffer
		if code := Main(args, &out, &errb); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		csv, err := os.ReadFile(filepath.Join(dir, SeriesFile))
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Count(string(csv), "\n") - 1
		names := []string{vtk.BodiesPVD, vtk.ContactsPVD, vtk.WallsPVD}
		if !mesh {
			names = append(names, vtk.SpheresPVD)
		} else if _, err := os.Stat(filepath.Join(dir, vtk.Subdir, vtk.SpheresPVD)); err == nil {
			t.Fatal("--vtk-sphere-mesh wrote spheres.pvd")
		}
		for _, name := range names {
			if n := pvdLen(t, filepath.Join(dir, vtk.Subdir, name)); n != rows || rows < 2 {
				t.Fatalf("mesh %v: %s lists %d frames, series.csv has %d rows", mesh, name, n, rows)
			}
		}
		want := make([]*snap.Snapshot, rows)
		want[rows-1] = finalSnapshot(t, "sphere-box-soft", dir)
		check := vtktest.Check
		if mesh {
			check = vtktest.CheckSphereMesh
		}
		worst := check(t, filepath.Join(dir, vtk.Subdir), want, false)
		t.Logf("mesh %v: %d frames; the last within %.3g m of final.json", mesh, rows, worst)
	}
}

// `grainlab export` of a recorded sphere run writes the spheres as points
// (spheres.pvd), or as meshes with --vtk-sphere-mesh; VTK's reader finds
// them equal to the recorded frames (centres, radii and contact forces
// bit for bit) either way.
func TestExportRecordingSpheres(t *testing.T) {
	dir := t.TempDir()
	rec, want := recordedRun(t, dir, "sphere-box-soft", "0.004")
	var stderr bytes.Buffer
	for _, mesh := range []bool{false, true} {
		out := filepath.Join(dir, "export")
		args := []string{"export", rec, "--vtk", out}
		check := vtktest.Check
		if mesh {
			args, check = append(args, "--vtk-sphere-mesh"), vtktest.CheckSphereMesh
		}
		var stdout bytes.Buffer
		if code := Main(args, &stdout, &stderr); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		if got := strings.Contains(stdout.String(), vtk.SpheresPVD); got == mesh {
			t.Fatalf("%v: %q", args, stdout.String())
		}
		worst := check(t, filepath.Join(out, vtk.Subdir), want, true)
		t.Logf("mesh %v: %d recorded frames exported; bodies within %.3g m", mesh, len(want), worst)
	}
}

// --vtk-sphere-mesh without a VTK series is refused (exit 2, naming the
// flag it needs), by run and export, before anything is written.
func TestVTKSphereMeshNeedsVTK(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "sphere-box-soft", "--time", "0.001", "--quiet", "--out", dir, "--vtk-sphere-mesh"},
		{"export", filepath.Join(dir, "none.dump"), "--dump", filepath.Join(dir, "x.dump"), "--vtk-sphere-mesh"},
	} {
		var out, errb bytes.Buffer
		if code := Main(args, &out, &errb); code != ExitInput || !strings.Contains(errb.String(), "--vtk-sphere-mesh needs --vtk") {
			t.Fatalf("%v: exit %d, %q; want %d naming --vtk", args, code, errb.String(), ExitInput)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, SeriesFile)); err == nil {
		t.Fatal("the refused run wrote series.csv")
	}
}
