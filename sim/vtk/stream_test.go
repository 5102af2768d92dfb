package vtk

import (
	"bufio"
	"bytes"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// bodiesHeld is bodies as it was before the arrays were made as they are
// written: every array held in memory (the reference of TestBodiesStreamed).
func bodiesHeld(f *snap.Snapshot) *polyData {
	p := newPolyData()
	wall := isWall(f)
	id := &array{name: "body_id", typ: "Int32", comps: 1}
	vel := &array{name: "velocity", typ: "Float32", comps: 3}
	ang := &array{name: "angular_velocity", typ: "Float32", comps: 3}
	mat := &array{name: "material", typ: "Int32", comps: 1}
	for i := range f.Bodies {
		b := &f.Bodies[i]
		if wall[i] || b.Mesh < 0 || b.Mesh >= len(f.Meshes) {
			continue
		}
		m := &f.Meshes[b.Mesh]
		base := int32(p.npts)
		R := b.Rot.Mat()
		for _, v := range m.Verts {
			x := R.MulV(v).Add(b.Pos)
			p.points.f64(x.X, x.Y, x.Z)
			id.i32(int32(i))
			vel.f32(b.Vel.X, b.Vel.Y, b.Vel.Z)
			ang.f32(b.AngVel.X, b.AngVel.Y, b.AngVel.Z)
			mat.i32(int32(b.Material))
		}
		p.npts += len(m.Verts)
		for _, t := range m.Tris {
			p.polys.add(base+t[0], base+t[1], base+t[2])
		}
	}
	p.pointData = []*array{id, vel, ang, mat}
	return p
}

// The bodies' piece made as it is written (gen: no copy of a frame in
// memory, 2.3 GB at 10⁵ spheres) has the bytes of the piece held in
// memory: two meshes, a wall, a body without a mesh, turning bodies of two
// materials; and an empty snapshot.
func TestBodiesStreamed(t *testing.T) {
	tet := snap.Mesh{Verts: []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}}, Tris: [][3]int32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}}
	tri := snap.Mesh{Verts: []geom.Vec3{{X: -1}, {X: 1}, {Y: 2}}, Tris: [][3]int32{{0, 1, 2}}}
	q := geom.Quat{W: 0.8, X: 0.6}
	f := &snap.Snapshot{Meshes: []snap.Mesh{tet, tri}, Bodies: []snap.Body{
		{Mesh: 0, Pos: geom.V(1, 2, 3), Rot: q, Vel: geom.V(0.1, -0.2, 1e-9), AngVel: geom.V(3, 0, -1), Material: 1},
		{Mesh: 1, Pos: geom.V(0, 0, 0), Rot: geom.Quat{W: 1}},
		{Mesh: 5, Pos: geom.V(9, 9, 9), Rot: geom.Quat{W: 1}},
		{Mesh: 0, Pos: geom.V(-1, 0.5, 2), Rot: geom.Quat{W: 0.6, Z: 0.8}, Vel: geom.V(1, 2, 3), Material: 2},
	}, Walls: []snap.Wall{{Name: "floor", Body: 1, Mesh: 1, Enabled: true}}}
	for _, s := range []*snap.Snapshot{f, {}} {
		var a, b bytes.Buffer
		wa, wb := bufio.NewWriter(&a), bufio.NewWriter(&b)
		bodies(s, nil).encode(wa)
		bodiesHeld(s).encode(wb)
		wa.Flush()
		wb.Flush()
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%d bodies: the streamed piece (%d bytes) is not the held one (%d bytes)", len(s.Bodies), a.Len(), b.Len())
		}
		if len(s.Bodies) > 0 && a.Len() < 1000 {
			t.Fatalf("%d bytes: the bodies are missing", a.Len())
		}
	}
}
