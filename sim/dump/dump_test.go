package dump

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

func write(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Scaled coordinates in a triclinic box (LAMMPS Howto triclinic: the
// dump's bounds are the bounding box; x = xlo + xs·lx + ys·xy + zs·xz,
// y = ylo + ys·ly + zs·yz, z = zlo + zs·lz), rows out of id order,
// diameters, and no ITEM: TIME (times from the step size): every atom
// lands where the formula puts it to 1e-15 m, bodies sorted by id.
func TestScaledTriclinic(t *testing.T) {
	// Box: lo (0, 0, 0), lx = 2, ly = 3, lz = 4, xy = 0.5, xz = −0.25, yz = 1.
	// Bounds: xlo_b = 0 + min(0, .5, −.25, .25) = −0.25, xhi_b = 2 + max(0, .5, −.25, .25) = 2.5;
	// ylo_b = 0, yhi_b = 3 + 1 = 4.
	text := `ITEM: TIMESTEP
100
ITEM: NUMBER OF ATOMS
2
ITEM: BOX BOUNDS xy xz yz pp pp pp
-0.25 2.5 0.5
0 4 -0.25
0 4 1
ITEM: ATOMS id type xs ys zs diameter fx
7 2 0.5 0.5 0.5 0.2 9
3 1 0 1 0.25 0.1 9
`
	r, err := OpenWith(write(t, "d", text), Options{Dt: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Len() != 1 || math.Abs(r.Time(0)-0.1) > 1e-15 || r.Note() != "" {
		t.Fatalf("len %d, time %g, note %q", r.Len(), r.Time(0), r.Note())
	}
	f, err := r.Frame(0)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		pos geom.Vec3
		r   float64
		mat int
	}{
		{geom.V(0+0*2+1*0.5+0.25*-0.25, 1*3+0.25*1, 0.25*4), 0.05, 0}, // id 3
		{geom.V(1+0.25-0.125, 1.5+0.5, 2), 0.1, 1},                    // id 7
	}
	for k, w := range want {
		b := f.Bodies[k]
		if b.Pos.Sub(w.pos).Norm() > 1e-15 || math.Abs(b.Radius-w.r) > 1e-15 || b.Material != w.mat {
			t.Errorf("body %d: at %v r %g material %d, want %v r %g material %d", k, b.Pos, b.Radius, b.Material, w.pos, w.r, w.mat)
		}
	}
	if len(f.Meshes) != 2 {
		t.Errorf("%d meshes for two radii", len(f.Meshes))
	}
}

// Superquadrics (LIGGGHTS columns shapex… blockiness1/2 quat1…4, scalar
// first): each body's mesh is the shape's, rotated by its quaternion, and
// equal shapes share one mesh across frames; frames are decoded on demand
// in any order; ITEM: TIME and ITEM: UNITS before the timestep.
func TestSuperquadricFrames(t *testing.T) {
	var b strings.Builder
	c := math.Cos(math.Pi / 4)
	for k := range 3 {
		b.WriteString("ITEM: UNITS\nsi\nITEM: TIME\n" + []string{"0", "0.5", "1"}[k] + "\nITEM: TIMESTEP\n" + []string{"0", "5", "10"}[k] + "\n")
		b.WriteString("ITEM: NUMBER OF ATOMS\n2\nITEM: BOX BOUNDS ff ff ff\n-1 1\n-1 1\n-1 1\n")
		b.WriteString("ITEM: ATOMS id type x y z vx vy vz omegax omegay omegaz shapex shapey shapez blockiness1 blockiness2 quat1 quat2 quat3 quat4\n")
		b.WriteString("1 1 0.1 0.2 0.3 1 2 3 4 5 6 0.02 0.01 0.03 4 6 " + ftoa(c) + " 0 0 " + ftoa(c) + "\n")
		b.WriteString("2 1 0.4 0.5 0.6 0 0 0 0 0 0 0.02 0.01 0.03 4 6 1 0 0 0\n")
	}
	r, err := Open(write(t, "sq", b.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Len() != 3 || r.Time(2) != 1 || r.Step(1) != 5 {
		t.Fatalf("len %d, time %g, step %d", r.Len(), r.Time(2), r.Step(1))
	}
	f2, err := r.Frame(2)
	if err != nil {
		t.Fatal(err)
	}
	f0, err := r.Frame(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(f0.Meshes) != 1 || &f0.Meshes[0].Verts[0] != &f2.Meshes[0].Verts[0] {
		t.Fatalf("%d meshes; shared across frames: %v", len(f0.Meshes), &f0.Meshes[0].Verts[0] == &f2.Meshes[0].Verts[0])
	}
	shp := sq.Shape{A: 0.02, B: 0.01, C: 0.03, N1: 4, N2: 6}
	b0 := f0.Bodies[0]
	if math.Abs(b0.Radius-shp.BoundingRadius()) > 1e-15 {
		t.Errorf("radius %g, want the bounding radius %g", b0.Radius, shp.BoundingRadius())
	}
	// A quarter turn about z takes the body's x half-length onto world y.
	if got := b0.Rot.Rotate(geom.V(shp.A, 0, 0)); got.Sub(geom.V(0, shp.A, 0)).Norm() > 1e-15 {
		t.Errorf("rotated x axis at %v", got)
	}
	if b0.Vel != geom.V(1, 2, 3) || b0.AngVel != geom.V(4, 5, 6) || b0.Pos != geom.V(0.1, 0.2, 0.3) {
		t.Errorf("body 0: %+v", b0)
	}
	// Every mesh vertex lies on the shape's surface (S1 eq. 1: f = 0).
	for _, v := range f0.Meshes[0].Verts {
		if f := sqF(shp, v); math.Abs(f) > 1e-9 {
			t.Fatalf("vertex %v: f = %g", v, f)
		}
	}
}

// sqF is S1 eq. (1) at x.
func sqF(s sq.Shape, x geom.Vec3) float64 {
	xy := math.Pow(math.Pow(math.Abs(x.X/s.A), s.N2)+math.Pow(math.Abs(x.Y/s.B), s.N2), s.N1/s.N2)
	return xy + math.Pow(math.Abs(x.Z/s.C), s.N1) - 1
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// A dump whose last frame was cut while being written opens with the
// complete frames and a note naming where it stopped; a first frame cut
// short is an error.
func TestTruncated(t *testing.T) {
	frame := "ITEM: TIMESTEP\n%d\nITEM: NUMBER OF ATOMS\n3\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\nITEM: ATOMS id x y z radius\n1 0.1 0.1 0.1 0.05\n2 0.5 0.5 0.5 0.05\n3 0.9 0.9 0.9 0.05\n"
	full := strings.ReplaceAll(frame, "%d", "0") + strings.ReplaceAll(frame, "%d", "10") + strings.ReplaceAll(frame, "%d", "20")
	for _, cut := range []int{len(full) - 1, len(full) - 10, len(full) - len(frame) + 20} {
		r, err := Open(write(t, "cut", full[:cut]))
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		if r.Len() != 2 || !strings.Contains(r.Note(), "timestep 20") || !strings.Contains(r.Note(), "up to timestep 10") {
			t.Errorf("cut at %d: %d frames, note %q", cut, r.Len(), r.Note())
		}
		if _, err := r.Frame(1); err != nil {
			t.Error(err)
		}
		r.Close()
	}
	if r, err := Open(write(t, "whole", full)); err != nil || r.Len() != 3 {
		t.Fatalf("whole file: %v", err)
	} else {
		r.Close()
	}
	if _, err := Open(write(t, "first", full[:40])); err == nil || !strings.Contains(err.Error(), "first frame is incomplete") {
		t.Errorf("a first frame cut short: %v", err)
	}
}

// Bad columns and values: an error naming the file, the line and the column.
func TestBadColumns(t *testing.T) {
	head := "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\n"
	for _, c := range []struct{ atoms, row, want string }{
		{"x y z radius", "0 0 0 1", ":9: column id missing"},
		{"id x y radius", "1 0 0 1", ":9: column z missing (the dump has x y)"},
		{"id x y z", "1 0 0 0", ":9: column radius missing"},
		{"id x y z xs ys zs radius", "1 0 0 0 0 0 0 1", ":9: column x: two sets of positions"},
		{"id x y z vx vz radius", "1 0 0 0 0 0 1", ":9: column vy missing"},
		{"id x y z radius radius", "1 0 0 0 1 1", ":9: column radius appears twice"},
		{"id x y z shapex shapey shapez blockiness1", "1 0 0 0 1 1 1 2", ":9: column blockiness2 missing"},
		{"id x y z quat1 quat2 quat3", "1 0 0 0 1 0 0", ":9: column quat4 missing"},
		{"id x y z radius", "1 0 zero 0 1", ":10: column y: \"zero\" is not a finite number"},
		{"id x y z radius", "1 0 0 0", ":10: 4 values, the header names 5 columns"},
		{"id x y z radius", "1 0 0 0 -1", ":10: atom 1: "},
	} {
		p := write(t, "bad", head+"ITEM: ATOMS "+c.atoms+"\n"+c.row+"\n")
		r, err := Open(p)
		if err == nil {
			_, err = r.Frame(0)
			r.Close()
		}
		if err == nil || !strings.Contains(err.Error(), p+c.want) {
			t.Errorf("ATOMS %s / %s: %v, want %q", c.atoms, c.row, err, c.want)
		}
	}
	if _, err := Open(write(t, "csv", "t,x\n0,1\n")); err == nil || !strings.Contains(err.Error(), ":1: not a LAMMPS dump") {
		t.Errorf("not a dump: %v", err)
	}
}

// Contacts from a `dump local` by each documented convention: a sphere
// pair pressed together, force F on atom 1 from atom 2: the contact's
// normal is from 2 to 1, its point midway in the overlap, Fn = F·n and Ft
// the rest (exact here), and the force network's |F| on both bodies.
func TestLocalContacts(t *testing.T) {
	atoms := "ITEM: TIMESTEP\n%d\nITEM: NUMBER OF ATOMS\n3\nITEM: BOX BOUNDS ff ff ff\n-1 1\n-1 1\n-1 1\nITEM: ATOMS id x y z radius\n" +
		"1 0 0 0.19 0.1\n2 0 0 0 0.1\n3 0.5 0.5 0.5 0.1\n"
	d := write(t, "atoms", strings.ReplaceAll(atoms, "%d", "0")+strings.ReplaceAll(atoms, "%d", "1"))
	lhead := "ITEM: TIMESTEP\n1\nITEM: NUMBER OF ENTRIES\n1\nITEM: BOX BOUNDS ff ff ff\n-1 1\n-1 1\n-1 1\n"
	for _, c := range []struct{ name, cols, row string }{
		{"names", "fx fy fz patom2 patom1", "0.5 0 3 2 1"},
		{"lammps", "c_1[1] c_1[2] c_2[1] c_2[2] c_2[3]", "1 2 0.5 0 3"},
		{"liggghts", "c_1[1] c_1[2] c_1[3] c_1[4] c_1[5] c_1[6] c_1[7] c_1[8] c_1[9] c_1[10] c_1[11] c_1[12]", "0 0 0.19 0 0 0 1 2 0 0.5 0 3"},
	} {
		r, err := OpenWith(d, Options{Contacts: write(t, "local", lhead+"ITEM: ENTRIES "+c.cols+"\n"+c.row+"\n")})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		f0, err0 := r.Frame(0)
		f1, err1 := r.Frame(1)
		r.Close()
		if err0 != nil || err1 != nil {
			t.Fatalf("%s: %v %v", c.name, err0, err1)
		}
		if len(f0.Contacts) != 0 || len(f1.Contacts) != 1 {
			t.Fatalf("%s: %d and %d contacts", c.name, len(f0.Contacts), len(f1.Contacts))
		}
		k := f1.Contacts[0]
		want := snap.Contact{A: 0, B: 1, FeatA: -1, FeatB: -1, Kind: snap.SQ, Point: geom.V(0, 0, 0.095), Normal: geom.V(0, 0, 1),
			Gap: 0.19 - 0.2, Fn: 3, Ft: geom.V(0.5, 0, 0)}
		if k.Point.Sub(want.Point).Norm() > 1e-15 || math.Abs(k.Gap-want.Gap) > 1e-15 {
			t.Errorf("%s: point %v gap %g", c.name, k.Point, k.Gap)
		}
		k.Point, k.Gap = want.Point, want.Gap
		if k != want {
			t.Errorf("%s: %+v, want %+v", c.name, k, want)
		}
		if f := math.Hypot(0.5, 3); math.Abs(f1.Bodies[0].ContactForce-f) > 1e-15 || math.Abs(f1.Bodies[1].ContactForce-f) > 1e-15 {
			t.Errorf("%s: contact forces %g %g", c.name, f1.Bodies[0].ContactForce, f1.Bodies[1].ContactForce)
		}
	}
	bad := write(t, "local", lhead+"ITEM: ENTRIES id1 id2 fx fy fz\n1 9 0 0 1\n")
	r, err := OpenWith(d, Options{Contacts: bad})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Frame(1); err == nil || !strings.Contains(err.Error(), bad+":10: column id2: atom 9 is not in the dump's frame") {
		t.Errorf("unknown atom: %v", err)
	}
}

// Writer → Open round trip: every non-wall body's centre, velocity,
// radius and material come back exactly (shortest round-trip formatting).
func TestWriteRoundTrip(t *testing.T) {
	s := &snap.Snapshot{
		Bodies: []snap.Body{
			{Pos: geom.V(0.1, 1.0/3, -2e-7), Vel: geom.V(1, -2, math.Pi), Radius: 0.05, Material: 2},
			{Pos: geom.V(9, 9, 9), Radius: 1}, // a wall
			{Pos: geom.V(math.Nextafter(1, 2), 0, 0), Radius: 0.025},
		},
		Walls: []snap.Wall{{Body: 1}},
		Stats: snap.Stats{Step: 42, Time: 0.125},
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for range 2 {
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(write(t, "out.dump", buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := r.Frame(1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 2 || r.Time(1) != 0.125 || len(f.Bodies) != 2 {
		t.Fatalf("%d frames, time %g, %d bodies", r.Len(), r.Time(1), len(f.Bodies))
	}
	for k, i := range []int{0, 2} {
		a, b := s.Bodies[i], f.Bodies[k]
		if a.Pos != b.Pos || a.Vel != b.Vel || a.Radius != b.Radius || a.Material != b.Material {
			t.Errorf("body %d: wrote %+v, read %+v", i, a, b)
		}
	}
}

// Open keeps per frame only its index entry, not its rows: a dump of 400
// frames × 2000 atoms (78 MB) opens with the heap grown by less than
// 1 MB (the rows alone would take more than 78), and its last frame decodes.
func TestOpenStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 78 MB dump")
	}
	p := filepath.Join(t.TempDir(), "big.dump")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(f)
	s := &snap.Snapshot{}
	for i := range 2000 {
		s.Bodies = append(s.Bodies, snap.Body{Pos: geom.V(float64(i)/3, 1.0/7, float64(i)/11), Vel: geom.V(1.0/3, 0.1, 0.2), Radius: 0.0123456789})
	}
	const frames = 400
	for k := range frames {
		s.Stats.Step, s.Stats.Time = int64(k), float64(k)/9
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d frames, %.1f MB file: the heap grew by %.3f MB at Open", r.Len(), float64(st.Size())/1e6, float64(grown)/1e6)
	if r.Len() != frames || grown > 1<<20 {
		t.Fatalf("%d frames; heap grown by %d bytes (≤ 1 MB)", r.Len(), grown)
	}
	last, err := r.Frame(frames - 1)
	if err != nil {
		t.Fatal(err)
	}
	if last.Bodies[1999].Pos != s.Bodies[1999].Pos || r.Time(frames-1) != s.Stats.Time {
		t.Fatalf("last frame: %v at %g", last.Bodies[1999].Pos, r.Time(frames-1))
	}
}
