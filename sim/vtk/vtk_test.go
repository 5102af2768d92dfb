package vtk_test

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/state"
	"grainlab/sim/vtk"
	"grainlab/sim/vtk/vtktest"
	"grainlab/sim/world"
)

// world returns a built-in scene, from a state file when given, started.
func start(t testing.TB, name, st string, sets ...string) *world.World {
	t.Helper()
	s, err := scene.LoadBuiltin(name, sets...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if st != "" {
		f, err := state.Read(st)
		if err != nil {
			t.Fatal(err)
		}
		if err := state.Apply(w, f, st); err != nil {
			t.Fatal(err)
		}
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// pvdFiles lists the files a collection names.
func pvdFiles(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		DataSets []struct {
			File string `xml:"file,attr"`
		} `xml:"Collection>DataSet"`
	}
	if err := xml.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, d := range c.DataSets {
		out = append(out, d.File)
	}
	return out
}

// VTK's own reader (python3-vtk9) opens every frame of a series of real
// snapshots — 300 packed tetrapods with their walls and contacts, the same
// after 20 explicit steps, the settled soft sphere box (spheres, planar
// walls, sphere contacts), and superquadrics — and finds every body, wall
// and contact where the snapshot puts it (vtktest.Check: positions to
// 1e-12 relative, float32 velocities to 1e-6, contact arrays exact).
// After each frame the three collections list exactly the frames written,
// each of which exists (a killed run leaves valid collections).
func TestSeriesVTKReader(t *testing.T) {
	tp := start(t, "box-of-tetrapods", "../../assets/states/box-of-tetrapods-300-packed.json")
	var frames []*snap.Snapshot
	frames = append(frames, tp.Snapshot(nil))
	for range 20 {
		if _, err := tp.Integrator.Step(tp, tp.StableDt()); err != nil {
			t.Fatal(err)
		}
	}
	frames = append(frames, tp.Snapshot(frames[0]))
	sp := start(t, "sphere-box-soft", "../validation/testdata/sphere-box-soft-218-settled.json")
	frames = append(frames, sp.Snapshot(nil))
	sqw := start(t, "sq-settling", "", "generators[0].count=30")
	frames = append(frames, sqw.Snapshot(nil))
	act := 0
	for _, f := range frames {
		for _, c := range f.Contacts {
			if !c.Suppressed {
				act++
			}
		}
	}
	if act == 0 {
		t.Fatal("no active contact in the frames: the contact check would be empty")
	}
	dir := t.TempDir()
	s, err := vtk.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k, f := range frames {
		f.Stats.Time = float64(k) * 0.25 // distinct times in one series
		if err := s.Write(f); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{vtk.BodiesPVD, vtk.ContactsPVD, vtk.WallsPVD} {
			files := pvdFiles(t, filepath.Join(dir, vtk.Subdir, name))
			if len(files) != k+1 {
				t.Fatalf("after frame %d, %s lists %d frames", k, name, len(files))
			}
			for _, f := range files {
				if _, err := os.Stat(filepath.Join(dir, vtk.Subdir, f)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	worst := vtktest.Check(t, filepath.Join(dir, vtk.Subdir), frames, true)
	t.Logf("%d frames, %d active contacts: bodies' mean points within %.3g m of the snapshots'", len(frames), act, worst)
}

// A series in a directory that held a longer one drops the old frames.
func TestSeriesReplacesOld(t *testing.T) {
	dir := t.TempDir()
	f := &snap.Snapshot{}
	for _, n := range []int{3, 1} {
		s, err := vtk.Create(dir)
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			if err := s.Write(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	old, _ := filepath.Glob(filepath.Join(dir, vtk.Subdir, "*.vtp"))
	if len(old) != 3 {
		t.Errorf("%d frame files after a 1-frame series, want 3 (one per series)", len(old))
	}
}

// BenchmarkExport300Tetrapods700Frames is the VTK export of a long
// recording: 300 tetrapods (28 vertices, 52 triangles each) with 1000
// contacts, 700 frames (the 7 s collapse at 100 frames/s), written to a
// temporary directory (docs/performance.md).
func BenchmarkExport300Tetrapods700Frames(b *testing.B) {
	p, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		b.Fatal(err)
	}
	tris := make([][3]int32, len(p.Faces))
	for i, f := range p.Faces {
		tris[i] = f.V
	}
	f := &snap.Snapshot{Meshes: []snap.Mesh{{Name: "tetrapod", Verts: p.Verts, Tris: tris}}}
	for i := range 300 {
		f.Bodies = append(f.Bodies, snap.Body{Pos: geom.V(float64(i%10), float64(i/10%10), float64(i/100)),
			Rot: geom.QAxisAngle(geom.V(1, 1, 0).Unit(), float64(i)), Vel: geom.V(1, 2, 3)})
	}
	for i := range 1000 {
		f.Contacts = append(f.Contacts, snap.Contact{A: i % 300, B: (i + 1) % 300, Point: geom.V(1, 2, 3), Normal: geom.V(0, 0, 1), Fn: 1})
	}
	for range b.N {
		dir := b.TempDir()
		s, err := vtk.Create(dir)
		if err != nil {
			b.Fatal(err)
		}
		for k := range 700 {
			f.Stats.Time = float64(k) * 0.01
			if err := s.Write(f); err != nil {
				b.Fatal(err)
			}
		}
		var size int64
		all, _ := filepath.Glob(filepath.Join(dir, vtk.Subdir, "*"))
		for _, p := range all {
			if st, err := os.Stat(p); err == nil {
				size += st.Size()
			}
		}
		b.ReportMetric(float64(size)/1e6, "MB")
		os.RemoveAll(dir)
	}
}
