package vtk

import (
	"bufio"
	"encoding/binary"
	"math"
	"strings"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// SphereMeshPrefix starts the name of a sphere's mesh in a snapshot
// (sim/world/snapshot.go smoothMesh, sim/dump's reader; the renderer draws
// such meshes as impostors by the same test).
const SphereMeshPrefix = "sphere r="

// sphereMeshes marks the snapshot's meshes that are spheres'; nil when
// none is.
func sphereMeshes(f *snap.Snapshot) []bool {
	var m []bool
	for i := range f.Meshes {
		if strings.HasPrefix(f.Meshes[i].Name, SphereMeshPrefix) {
			if m == nil {
				m = make([]bool, len(f.Meshes))
			}
			m[i] = true
		}
	}
	return m
}

// spheres is every body that is not a wall and whose mesh m has sphere[m]
// as one point at its centre (a Verts cell each), with point arrays
// body_id (index in the snapshot's bodies), radius (the body's radius,
// m, Float64: its bits), velocity, angular_velocity (Float32, as
// bodies.pvd), material and contact_force (the sum of the contact forces'
// magnitudes on the body, N). ParaView draws it with the Point Gaussian
// representation (Gaussian Radius 1, Use Scale Array on, Gaussian Scale
// Array radius, Use Scale Transfer Function off: docs/outputs.md) or a
// Glyph filter (sphere, Scale Array radius, Scale Factor 2). Every array is made as it
// is written (gen): 80 bytes a sphere (24 the point, 48 the arrays, 8
// the vertex cell), no copy of the frame in memory.
func spheres(f *snap.Snapshot, sphere []bool) *polyData {
	p := newPolyData()
	var wall []bool
	if sphere != nil {
		wall = isWall(f)
	}
	is := func(i int) bool {
		b := &f.Bodies[i]
		return sphere != nil && !wall[i] && b.Mesh >= 0 && b.Mesh < len(sphere) && sphere[b.Mesh]
	}
	if sphere != nil {
		for i := range f.Bodies {
			if is(i) {
				p.npts++
			}
		}
	}
	// without a sphere: the same arrays, empty (every piece of spheres.pvd
	// has the same arrays; VTK's reader finds radius in each)
	le := binary.LittleEndian
	var sc [24]byte
	// each is an array of n bytes a sphere, put writing them.
	each := func(name, typ string, comps, n int, put func(d []byte, b *snap.Body, i int) []byte) *array {
		return &array{name: name, typ: typ, comps: comps, n: p.npts * n, gen: func(w *bufio.Writer) {
			for i := range f.Bodies {
				if is(i) {
					w.Write(put(sc[:0], &f.Bodies[i], i))
				}
			}
		}}
	}
	f64 := func(d []byte, v geom.Vec3) []byte {
		d = le.AppendUint64(d, math.Float64bits(v.X))
		d = le.AppendUint64(d, math.Float64bits(v.Y))
		return le.AppendUint64(d, math.Float64bits(v.Z))
	}
	f32 := func(d []byte, v geom.Vec3) []byte {
		d = le.AppendUint32(d, math.Float32bits(float32(v.X)))
		d = le.AppendUint32(d, math.Float32bits(float32(v.Y)))
		return le.AppendUint32(d, math.Float32bits(float32(v.Z)))
	}
	p.points = *each("Points", "Float64", 3, 24, func(d []byte, b *snap.Body, _ int) []byte { return f64(d, b.Pos) })
	p.pointData = []*array{
		each("body_id", "Int32", 1, 4, func(d []byte, _ *snap.Body, i int) []byte { return le.AppendUint32(d, uint32(int32(i))) }),
		each("radius", "Float64", 1, 8, func(d []byte, b *snap.Body, _ int) []byte { return le.AppendUint64(d, math.Float64bits(b.Radius)) }),
		each("velocity", "Float32", 3, 12, func(d []byte, b *snap.Body, _ int) []byte { return f32(d, b.Vel) }),
		each("angular_velocity", "Float32", 3, 12, func(d []byte, b *snap.Body, _ int) []byte { return f32(d, b.AngVel) }),
		each("material", "Int32", 1, 4, func(d []byte, b *snap.Body, _ int) []byte { return le.AppendUint32(d, uint32(int32(b.Material))) }),
		each("contact_force", "Float64", 1, 8, func(d []byte, b *snap.Body, _ int) []byte {
			return le.AppendUint64(d, math.Float64bits(b.ContactForce))
		}),
	}
	n := p.npts
	p.nverts = n
	p.verts.conn.n, p.verts.conn.gen = 4*n, func(w *bufio.Writer) {
		for k := range n {
			w.Write(le.AppendUint32(sc[:0], uint32(int32(k))))
		}
	}
	p.verts.offs.n, p.verts.offs.gen = 4*n, func(w *bufio.Writer) {
		for k := range n {
			w.Write(le.AppendUint32(sc[:0], uint32(int32(k+1))))
		}
	}
	return p
}
