package app

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/audit"
	"grainlab/sim/integrate"
	"grainlab/sim/shape"
)

// tetrapodSTL is the shipped tetrapod mesh (about 0.85 m bounding radius).
const tetrapodSTL = "../assets/meshes/tetrapod.stl"

// writeFile writes data to a file named name in a temporary directory.
func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// An invalid mesh is refused with shape.LoadSTL's own message (the one a
// scene's stl shape gives) and the world keeps its bodies.
func TestAddMeshBad(t *testing.T) {
	s, err := Load(smallScene("5"))
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	n := len(w.Bodies())
	open := writeFile(t, "open.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n")
	garbage := writeFile(t, "garbage.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 zero\n")
	for _, path := range []string{open, garbage} {
		_, want := shape.LoadSTL(path, 0)
		if want == nil {
			t.Fatalf("%s: shape.LoadSTL accepted it", path)
		}
		idx, err := AddMeshBodies(w, path, 1)
		if err == nil || err.Error() != want.Error() {
			t.Errorf("%s: got %v (%v), want shape.LoadSTL's %q", path, idx, err, want)
		}
		if len(w.Bodies()) != n {
			t.Errorf("%s: %d bodies after a refused mesh, want %d", path, len(w.Bodies()), n)
		}
	}
	for _, c := range []struct {
		path  string
		count int
		msg   string
	}{
		{filepath.Join(t.TempDir(), "missing.stl"), 1, "no such file"},
		{writeFile(t, "scene.txt", "x"), 1, "not an STL mesh"},
		{tetrapodSTL, 0, "count must be 1"},
	} {
		if _, err := AddMeshBodies(w, c.path, c.count); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s ×%d: error %v, want %q", c.path, c.count, err, c.msg)
		}
		if len(w.Bodies()) != n {
			t.Errorf("%s: %d bodies after a refusal, want %d", c.path, len(w.Bodies()), n)
		}
	}
}

// Two tetrapods dropped on the packed box of 300 land above the highest
// body, inside the side walls, with no penetration (sim/audit: exact
// triangle tests and point-in-mesh), and the integrator starts from them.
func TestAddMeshAboveThePile(t *testing.T) {
	s, err := Load(Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	n := len(w.Bodies())
	top := math.Inf(-1)
	for _, b := range w.Bodies() {
		if !b.Fixed {
			top = math.Max(top, b.X.Z+b.Poly().Radius)
		}
	}
	idx, err := AddMeshBodies(w, tetrapodSTL, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != 2 || len(w.Bodies()) != n+2 {
		t.Fatalf("indices %v, %d bodies, want 2 more than %d", idx, len(w.Bodies()), n)
	}
	for _, i := range idx {
		b := w.Bodies()[i]
		if low := b.X.Z - b.Poly().Radius; !(low > top) {
			t.Errorf("%s: lowest point of its bounding sphere at z = %g, not above the pile's top %g", b.Name, low, top)
		}
		if math.Abs(b.X.X) > 3.5-b.Poly().Radius || math.Abs(b.X.Y) > 3.5-b.Poly().Radius {
			t.Errorf("%s at %v: not inside the 7 m box", b.Name, b.X)
		}
		if b.Mass() <= 0 || b.Fixed {
			t.Errorf("%s: mass %g, fixed %v", b.Name, b.Mass(), b.Fixed)
		}
	}
	solids, walls := audit.WorldMeshes(w)
	if v := audit.Check(solids, walls, 0); len(v) > 0 {
		t.Fatalf("%d penetrations after adding, first %+v", len(v), v[0])
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
}

// Through the SimLoop: a good mesh adds bodies between steps and the run
// goes on; a bad one leaves the snapshot's bodies as they were and says why.
func TestSimLoopAddMesh(t *testing.T) {
	l := startLoop(t, smallScene("5"))
	n := len(sync1(t, l).Snap.Bodies)
	bad := writeFile(t, "open.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n")
	l.AddMesh(bad, 1)
	st := sync1(t, l)
	if !st.StatusErr || !strings.Contains(st.Status, "open.stl") || len(st.Snap.Bodies) != n || st.Added != 0 {
		t.Fatalf("bad mesh: status %q (error %v), %d bodies (want %d), added %d", st.Status, st.StatusErr, len(st.Snap.Bodies), n, st.Added)
	}
	l.AddMesh(tetrapodSTL, 3)
	st = sync1(t, l)
	if st.StatusErr || len(st.Snap.Bodies) != n+3 || st.Added != 3 {
		t.Fatalf("good mesh: status %q, %d bodies (want %d), added %d", st.Status, len(st.Snap.Bodies), n+3, st.Added)
	}
	t0 := st.Snap.Stats.Time
	for range 5 {
		l.Step()
	}
	st = sync1(t, l)
	if st.StatusErr || !(st.Snap.Stats.Time > t0) {
		t.Fatalf("after adding: status %q, t %g → %g", st.Status, t0, st.Snap.Stats.Time)
	}
}

// The first view's hint and the status line come from the scene's event:
// before it "the side walls go at t = 6 s", when it fires the status line
// says what it did; after it there is no next event.
func TestSimLoopEventStatus(t *testing.T) {
	l := startLoop(t, Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked, Workers: 2})
	st := sync1(t, l)
	if st.NextEvent != "the side walls go at t = 6 s" {
		t.Errorf("next event %q", st.NextEvent)
	}
	l.Step()
	st = sync1(t, l)
	if st.Status != "t = 6.000 s: side walls removed" || st.StatusErr {
		t.Errorf("status after the event %q (error %v)", st.Status, st.StatusErr)
	}
	if st.NextEvent != "" {
		t.Errorf("next event after the only one fired: %q", st.NextEvent)
	}
}

// Which --set overrides keep the packed start: the contact law and friction,
// the integrator, gravity and the end time, not anything that changes the
// bodies.
func TestPackedSetAllowed(t *testing.T) {
	for set, want := range map[string]bool{
		"contact.default.mu_s=0.5":       true,
		"contact.default.eps1 = 2e7":     true,
		"contact.default.law=penalty":    true,
		"time=20":                        true,
		"generators.fill.count=100":      false,
		"shapes.tetrapod.leg_length=0.5": false,
		"walls.box.max=[3.5,3.5,40]":     false,
		"gravity=[0,0,-1]":               true,
		"integrator.name=cd":             true,
		"integrator.dt=1e-4":             true,
		"dt=1e-4":                        false,
		"contactx.default.mu_s=0.5":      false,
		"generators.fill.seed=2":         false,
		"events[0].at=3":                 false,
	} {
		if got := PackedSetAllowed(set); got != want {
			t.Errorf("PackedSetAllowed(%q) = %v, want %v", set, got, want)
		}
	}
}
