package render

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// CubeMesh returns a closed cube of edge length side centred at the origin.
func CubeMesh(name string, side float64) snap.Mesh {
	h := side / 2
	var v []geom.Vec3
	for i := 0; i < 8; i++ {
		v = append(v, geom.Vec3{X: sign(i&1 != 0) * h, Y: sign(i&2 != 0) * h, Z: sign(i&4 != 0) * h})
	}
	t := [][3]int32{
		{0, 2, 3}, {0, 3, 1}, // -z
		{4, 5, 7}, {4, 7, 6}, // +z
		{0, 1, 5}, {0, 5, 4}, // -y
		{2, 6, 7}, {2, 7, 3}, // +y
		{0, 4, 6}, {0, 6, 2}, // -x
		{1, 3, 7}, {1, 7, 5}, // +x
	}
	return snap.Mesh{Name: name, Verts: v, Tris: t}
}

func sign(b bool) float64 {
	if b {
		return 1
	}
	return -1
}

// TetrapodMesh returns a closed, concave four-legged mesh: each face of a
// regular tetrahedron (circumradius core) is extruded along its normal into a
// tapered leg of length leg; the leg roots form concave edges.
func TetrapodMesh(name string, core, leg float64) snap.Mesh {
	tv := []geom.Vec3{{X: 1, Y: 1, Z: 1}, {X: 1, Y: -1, Z: -1}, {X: -1, Y: 1, Z: -1}, {X: -1, Y: -1, Z: 1}}
	for i := range tv {
		tv[i] = tv[i].Unit().Scale(core)
	}
	faces := [][3]int32{{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}} // outward CCW
	m := snap.Mesh{Name: name, Verts: append([]geom.Vec3(nil), tv...)}
	for _, f := range faces {
		a, b, c := tv[f[0]], tv[f[1]], tv[f[2]]
		ctr := a.Add(b).Add(c).Scale(1.0 / 3)
		n := b.Sub(a).Cross(c.Sub(a)).Unit()
		base := int32(len(m.Verts))
		for _, p := range []geom.Vec3{a, b, c} {
			m.Verts = append(m.Verts, ctr.Add(p.Sub(ctr).Scale(0.45)).AddScaled(leg, n))
		}
		ring := [3]int32{base, base + 1, base + 2}
		for k := 0; k < 3; k++ {
			i0, i1 := f[k], f[(k+1)%3]
			r0, r1 := ring[k], ring[(k+1)%3]
			m.Tris = append(m.Tris, [3]int32{i0, i1, r1}, [3]int32{i0, r1, r0})
		}
		m.Tris = append(m.Tris, ring)
	}
	return m
}

// PlaneMesh returns a two-triangle rectangle in the body XY plane facing +Z.
func PlaneMesh(name string, sx, sy float64) snap.Mesh {
	x, y := sx/2, sy/2
	return snap.Mesh{Name: name,
		Verts: []geom.Vec3{{X: -x, Y: -y}, {X: x, Y: -y}, {X: x, Y: y}, {X: -x, Y: y}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}}}
}

// DemoSnapshot returns a small hand-made scene for trying the view without a
// simulation: two cubes and a tetrapod on a 100 m ground, a disabled side
// wall, and one contact of every kind (plus a suppressed one) with forces.
func DemoSnapshot() *snap.Snapshot {
	s := &snap.Snapshot{Scene: "demo", SkinGap: 0.01}
	s.Meshes = []snap.Mesh{
		CubeMesh("cube", 0.2),
		TetrapodMesh("tetrapod", 0.09, 0.13),
		PlaneMesh("ground", 100, 100),
		PlaneMesh("side", 0.8, 0.4),
	}
	rz := func(deg float64) geom.Quat { return geom.QAxisAngle(geom.Vec3{Z: 1}, deg*math.Pi/180) }
	s.Bodies = []snap.Body{
		{Mesh: 0, Pos: geom.Vec3{Z: 0.1}, Rot: rz(10), Radius: 0.1 * math.Sqrt(3), Name: "cubeA",
			Vel: geom.Vec3{X: 0.02}, ContactForce: 12},
		{Mesh: 0, Pos: geom.Vec3{X: 0.32, Z: 0.1}, Rot: rz(45), Radius: 0.1 * math.Sqrt(3), Name: "cubeB",
			Vel: geom.Vec3{X: 0.3, Z: -0.1}, ContactForce: 7},
		{Mesh: 1, Pos: geom.Vec3{X: 0.1, Y: -0.02, Z: 0.36}, Rot: geom.QAxisAngle(geom.Vec3{X: 1, Y: 0.4, Z: 0.2}, 0.7),
			Name: "tetrapod", Vel: geom.Vec3{Z: -0.5}, AngVel: geom.Vec3{X: 1}, ContactForce: 4},
		{Mesh: 2, Rot: geom.QIdent(), Fixed: true, Name: "ground"},
		{Mesh: 3, Pos: geom.Vec3{X: 0.16, Y: 0.25, Z: 0.2}, Rot: geom.QAxisAngle(geom.Vec3{X: 1}, math.Pi/2), Fixed: true, Name: "side"},
	}
	s.Walls = []snap.Wall{
		{Name: "ground", Body: 3, Enabled: true, Mesh: 2, Force: geom.Vec3{Z: -20}},
		{Name: "side", Body: 4, Enabled: false, Mesh: 3},
	}
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if b.Radius == 0 && !b.Fixed {
			b.Radius = bodyRadius(s, b)
		}
	}
	cornerA := func(x, y float64) geom.Vec3 {
		return s.Bodies[0].Pos.Add(s.Bodies[0].Rot.Rotate(geom.Vec3{X: x, Y: y, Z: -0.1}))
	}
	up := geom.Vec3{Z: 1}
	s.Contacts = []snap.Contact{
		// cube A on the ground: force on the cube (A) points up, into it
		{A: 0, B: 3, Kind: snap.VF, Point: cornerA(-0.1, -0.1), Normal: up, Fn: 3, Ft: geom.Vec3{X: 0.8}},
		{A: 0, B: 3, Kind: snap.VF, Point: cornerA(0.1, -0.1), Normal: up, Fn: 3, Ft: geom.Vec3{X: 0.8}},
		// the ground as A: the arrow shows the force on the cube (B), up
		{A: 3, B: 0, Kind: snap.VF, Point: cornerA(0.1, 0.1), Normal: up.Neg(), Fn: 3, Ft: geom.Vec3{X: -0.8}},
		{A: 3, B: 0, Kind: snap.VF, Point: cornerA(-0.1, 0.1), Normal: up.Neg(), Fn: 3},
		// cube B edge against cube A's +x face
		{A: 1, B: 0, Kind: snap.EE, Point: geom.Vec3{X: 0.16, Y: -0.02, Z: 0.14}, Normal: geom.Vec3{X: 1}, Fn: 4,
			Ft: geom.Vec3{Y: -1.5, Z: 1.5}, Sliding: true, Gap: 1e-4, FeatA: 3, FeatB: 7},
		// tetrapod legs on the cubes
		{A: 2, B: 0, Kind: snap.VE, Point: geom.Vec3{X: 0.02, Y: -0.1, Z: 0.2}, Normal: up, Fn: 2, Ft: geom.Vec3{Y: -0.6}, Gap: 2e-4, FeatA: 4, FeatB: 11},
		{A: 2, B: 1, Kind: snap.VV, Point: geom.Vec3{X: 0.25, Y: -0.07, Z: 0.2}, Normal: up, Fn: 1.5, Ft: geom.Vec3{X: 0.5}, Gap: 5e-5, FeatA: 8, FeatB: 6},
		{A: 2, B: 1, Kind: snap.SQ, Point: geom.Vec3{X: 0.32, Y: -0.02, Z: 0.2}, Normal: up, Fn: 1, Gap: 3e-4},
		{A: 2, B: 0, Kind: snap.EE, Point: geom.Vec3{X: -0.07, Y: -0.085, Z: 0.2}, Normal: up, Fn: 0.5, Suppressed: true, SuppressedBy: "VF dominates EE"},
	}
	s.Stats = snap.Stats{Step: 1234, Time: 0.1234, Dt: 1e-4, Kinetic: 0.05, Contacts: len(s.Contacts) - 1, Suppressed: 1,
		StepsPerSecond: 5000, Integrator: "demo"}
	for _, c := range s.Contacts {
		if !c.Suppressed {
			s.Stats.ByKind[c.Kind]++
		}
	}
	return s
}
