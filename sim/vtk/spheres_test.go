package vtk

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// mixed is a snapshot with a polyhedron (a tetrahedron), spheres of two
// radii (one not a short decimal), a superquadric, a wall, a body without
// a mesh and a fixed sphere, of two materials, turning.
func mixed() *snap.Snapshot {
	tet := snap.Mesh{Name: "tet", Verts: []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}}, Tris: [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}}
	ball := func(r float64) snap.Mesh {
		return snap.Mesh{Name: "sphere r=" + strconv.FormatFloat(r, 'g', 4, 64),
			Verts: []geom.Vec3{{Z: r}, {X: r}, {Y: r}, {Z: -r}}, Tris: [][3]int32{{0, 1, 2}, {3, 2, 1}}}
	}
	sq := snap.Mesh{Name: "sq 1×2×3 n=4,4", Verts: []geom.Vec3{{X: 1}, {Y: 2}, {Z: 3}}, Tris: [][3]int32{{0, 1, 2}}}
	r1, r2 := 0.001, 1.0/3
	q := geom.Quat{W: 0.8, X: 0.6}
	return &snap.Snapshot{Meshes: []snap.Mesh{tet, ball(r1), sq, ball(r2)}, Bodies: []snap.Body{
		{Mesh: 1, Pos: geom.V(0.1, 0.2, 1.0/7), Rot: q, Vel: geom.V(0.1, -0.2, 1e-9), AngVel: geom.V(3, 0, -1), Radius: r1, Material: 1, ContactForce: 0.25},
		{Mesh: 0, Pos: geom.V(1, 2, 3), Rot: q, Vel: geom.V(1, 0, 0), Radius: 1},
		{Mesh: 0, Pos: geom.V(0, 0, -1), Rot: geom.Quat{W: 1}, Radius: 9, Fixed: true}, // the wall
		{Mesh: 3, Pos: geom.V(-1, math.Nextafter(0.5, 1), 2), Rot: geom.Quat{W: 0.6, Z: 0.8}, Vel: geom.V(1, 2, 3), Radius: r2, Material: 2, ContactForce: 1.0 / 3},
		{Mesh: 7, Pos: geom.V(9, 9, 9), Rot: geom.Quat{W: 1}},
		{Mesh: 2, Pos: geom.V(5, 5, 5), Rot: q, Radius: 3},
		{Mesh: 1, Pos: geom.V(2e-7, -3, 0), Rot: geom.Quat{W: 1}, Radius: r1, Fixed: true},
	}, Walls: []snap.Wall{{Name: "floor", Body: 2, Mesh: 0, Enabled: true}}}
}

// write writes the frames as a series in a temporary directory.
func write(t *testing.T, o Options, frames ...*snap.Snapshot) string {
	t.Helper()
	dir := t.TempDir()
	s, err := CreateWith(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if err := s.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, Subdir)
}

// pvdTimes is the files and times a collection lists.
func pvdTimes(t *testing.T, path string) (files []string, times []float64) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		DataSets []struct {
			File string  `xml:"file,attr"`
			Time float64 `xml:"timestep,attr"`
		} `xml:"Collection>DataSet"`
	}
	if err := xml.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, d := range c.DataSets {
		files, times = append(files, d.File), append(times, d.Time)
	}
	return files, times
}

func decode(t *testing.T, path string) *VTP {
	t.Helper()
	v, err := DecodeVTP(path)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A mixed frame splits: spheres.pvd's frame, decoded in pure Go (header,
// offsets, sizes, the end), has one point and one Verts cell per sphere
// that is not a wall, in body order, with the centre, radius, body_id,
// material and contact force bit for bit and the velocities as float32;
// bodies.pvd's has the polyhedra and the superquadric and no sphere. The
// collections list the frames with their times.
func TestSpheresSplit(t *testing.T) {
	f := mixed()
	times := []float64{0, 0.125, 1.0 / 3}
	var frames []*snap.Snapshot
	for _, tm := range times {
		g := *f
		g.Stats.Time = tm
		frames = append(frames, &g)
	}
	dir := write(t, Options{}, frames...)
	for _, name := range []string{BodiesPVD, SpheresPVD, ContactsPVD, WallsPVD} {
		files, ts := pvdTimes(t, filepath.Join(dir, name))
		if len(files) != len(times) {
			t.Fatalf("%s lists %d frames, want %d", name, len(files), len(times))
		}
		for k := range files {
			if want := frameName(name[:len(name)-4], k); files[k] != want || ts[k] != times[k] {
				t.Fatalf("%s: frame %d is %s at t = %g, want %s at %g", name, k, files[k], ts[k], want, times[k])
			}
		}
	}
	sph := []int{0, 3, 6} // the spheres that are not walls
	v := decode(t, filepath.Join(dir, "spheres_000002.vtp"))
	n := len(sph)
	if v.Points != n || v.Verts != n || v.Lines+v.Strips+v.Polys != 0 {
		t.Fatalf("spheres frame: %d points, %d verts, %d other cells; want %d, %d, 0", v.Points, v.Verts, v.Lines+v.Strips+v.Polys, n, n)
	}
	want := []string{"PointData/body_id", "PointData/radius", "PointData/velocity", "PointData/angular_velocity",
		"PointData/material", "PointData/contact_force", "Points/Points", "Verts/connectivity", "Verts/offsets"}
	if len(v.Order) != len(want) {
		t.Fatalf("arrays %v, want %v", v.Order, want)
	}
	for i := range want {
		if v.Order[i] != want[i] {
			t.Fatalf("arrays %v, want %v", v.Order, want)
		}
	}
	id, rad, vel, ang := v.Arrays["PointData/body_id"].I32(), v.Arrays["PointData/radius"].F64(), v.Arrays["PointData/velocity"].F32(), v.Arrays["PointData/angular_velocity"].F32()
	mat, cf, pts := v.Arrays["PointData/material"].I32(), v.Arrays["PointData/contact_force"].F64(), v.Arrays["Points/Points"].F64()
	conn, offs := v.Arrays["Verts/connectivity"].I32(), v.Arrays["Verts/offsets"].I32()
	if len(conn) != n {
		t.Fatalf("%d connectivity entries, want %d", len(conn), n)
	}
	f32 := func(x float64) float32 { return float32(x) }
	for k, i := range sph {
		b := &f.Bodies[i]
		if int(id[k]) != i || math.Float64bits(rad[k]) != math.Float64bits(b.Radius) || int(mat[k]) != b.Material || cf[k] != b.ContactForce {
			t.Fatalf("sphere %d: body %d r %v material %d contact force %v; want body %d r %v material %d contact force %v",
				k, id[k], rad[k], mat[k], cf[k], i, b.Radius, b.Material, b.ContactForce)
		}
		if geom.V(pts[3*k], pts[3*k+1], pts[3*k+2]) != b.Pos {
			t.Fatalf("sphere %d at %v, want %v", k, pts[3*k:3*k+3], b.Pos)
		}
		if vel[3*k] != f32(b.Vel.X) || vel[3*k+1] != f32(b.Vel.Y) || vel[3*k+2] != f32(b.Vel.Z) ||
			ang[3*k] != f32(b.AngVel.X) || ang[3*k+1] != f32(b.AngVel.Y) || ang[3*k+2] != f32(b.AngVel.Z) {
			t.Fatalf("sphere %d: velocity %v angular %v, want %v %v", k, vel[3*k:3*k+3], ang[3*k:3*k+3], b.Vel, b.AngVel)
		}
		if conn[k] != int32(k) || offs[k] != int32(k+1) {
			t.Fatalf("vertex cell %d: connectivity %d offset %d", k, conn[k], offs[k])
		}
	}
	bv := decode(t, filepath.Join(dir, "bodies_000002.vtp"))
	ids := map[int32]int{}
	for _, i := range bv.Arrays["PointData/body_id"].I32() {
		ids[i]++
	}
	if len(ids) != 2 || ids[1] != 4 || ids[5] != 3 || bv.Points != 7 || bv.Polys != 5 {
		t.Fatalf("bodies frame: points per body %v, %d points, %d polys; want the tetrahedron 1 (4) and the superquadric 5 (3)", ids, bv.Points, bv.Polys)
	}
	// the bodies' piece is today's piece of the snapshot without its spheres
	g := *f
	g.Bodies = append([]snap.Body(nil), f.Bodies...)
	for _, i := range sph {
		g.Bodies[i].Mesh = -1
	}
	g.Stats.Time = times[2]
	if got, want := fileBytes(t, filepath.Join(dir, "bodies_000002.vtp")), held(&g); !bytes.Equal(got, want) {
		t.Fatalf("bodies frame: %d bytes, not the held piece without spheres (%d bytes)", len(got), len(want))
	}
}

func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// held is the bodies' piece as written before spheres.pvd (every array
// held in memory, stream_test.go).
func held(f *snap.Snapshot) []byte {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	bodiesHeld(f).encode(w)
	w.Flush()
	return b.Bytes()
}

// Options.SphereMesh writes today's files: bodies.pvd's frame has the
// bytes of the piece held in memory before spheres.pvd existed (every
// body, spheres tessellated), contacts and walls are those of the default
// series, and there is no spheres.pvd nor any spheres frame.
func TestSphereMeshToday(t *testing.T) {
	f := mixed()
	f.Contacts = []snap.Contact{{A: 0, B: 3, Point: geom.V(1, 2, 3), Normal: geom.V(0, 0, 1), Fn: 2, Ft: geom.V(0.1, 0, 0)}}
	mesh := write(t, Options{SphereMesh: true}, f, f)
	pts := write(t, Options{}, f, f)
	for _, k := range []string{"000000", "000001"} {
		if got, want := fileBytes(t, filepath.Join(mesh, "bodies_"+k+".vtp")), held(f); !bytes.Equal(got, want) {
			t.Fatalf("bodies frame %s with SphereMesh: %d bytes, not today's %d", k, len(got), len(want))
		}
		for _, s := range []string{"contacts_", "walls_"} {
			if !bytes.Equal(fileBytes(t, filepath.Join(mesh, s+k+".vtp")), fileBytes(t, filepath.Join(pts, s+k+".vtp"))) {
				t.Fatalf("%s%s differs between the two modes", s, k)
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(mesh, "spheres*")); len(m) != 0 {
		t.Fatalf("SphereMesh wrote %v", m)
	}
	ids := map[int32]bool{}
	for _, i := range decode(t, filepath.Join(mesh, "bodies_000000.vtp")).Arrays["PointData/body_id"].I32() {
		ids[i] = true
	}
	if !ids[0] || !ids[3] || !ids[6] {
		t.Fatalf("bodies %v with SphereMesh: the spheres 0, 3, 6 are missing", ids)
	}
}

// A series without a sphere has no spheres.pvd; one whose spheres appear
// at the third frame writes spheres.pvd then, listing every frame, the
// first two empty (valid pieces without points); an empty snapshot writes
// valid empty pieces. A new series removes the old spheres frames.
func TestSpheresLater(t *testing.T) {
	f := mixed()
	none := *f
	none.Bodies = append([]snap.Body(nil), f.Bodies...)
	for i := range none.Bodies {
		if none.Bodies[i].Mesh == 1 || none.Bodies[i].Mesh == 3 {
			none.Bodies[i].Mesh = 0
		}
	}
	dir := write(t, Options{}, &none, &snap.Snapshot{})
	if m, _ := filepath.Glob(filepath.Join(dir, "spheres*")); len(m) != 0 {
		t.Fatalf("no sphere, but %v", m)
	}
	a, b, c := none, snap.Snapshot{}, *f
	a.Stats.Time, b.Stats.Time, c.Stats.Time = 1, 2, 3
	dir = write(t, Options{}, &a, &b, &c)
	files, ts := pvdTimes(t, filepath.Join(dir, SpheresPVD))
	if len(files) != 3 || ts[0] != 1 || ts[1] != 2 || ts[2] != 3 {
		t.Fatalf("spheres.pvd lists %v at %v", files, ts)
	}
	for k, n := range []int{0, 0, 3} {
		if v := decode(t, filepath.Join(dir, files[k])); v.Points != n || v.Verts != n {
			t.Fatalf("spheres frame %d: %d points, %d verts; want %d", k, v.Points, v.Verts, n)
		}
	}
	// A user's own files beside the frames stay (review r7: the old
	// pattern spheres_*.vtp took them too).
	mine := []string{"spheres_clip.vtp", "bodies_glyphs.vtp", "spheres-state.pvsm"}
	for _, name := range mine {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Create(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(&none); err != nil {
		t.Fatal(err)
	}
	m, _ := filepath.Glob(filepath.Join(dir, "spheres*"))
	if len(m) != 2 {
		t.Fatalf("a new series without spheres left %v; want only the user's two spheres files", m)
	}
	for _, name := range mine {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Fatalf("a new series removed the user's %s: %v", name, err)
		}
	}
}
