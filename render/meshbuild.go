package render

import (
	"math"
	"strings"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// vertex layout of the flat-shaded triangle soup uploaded per mesh
const (
	meshVertFloats = 12 // pos 3, face normal 3, skin dir 3, edge bary 3
	featureCos     = 0.9990
)

// meshCPU is the GPU-ready form of a snap.Mesh, built without GL.
type meshCPU struct {
	tri       []float32 // meshVertFloats per vertex, 3 vertices per triangle
	lineVerts []float32 // original vertices, xyz
	lineIdx   []uint32  // feature-edge vertex pairs
	closed    bool      // every edge shared by exactly two triangles
	flipped   bool      // winding reversed so closed meshes face outward
	center    geom.Vec3 // local AABB centre
	radius    float64   // max |v|
	smooth    bool      // shaded with per-vertex normals (SmoothMesh)
}

// SmoothMesh reports whether a mesh is the tessellation of a smooth surface
// (the snapshot names spheres "sphere r=…" and superquadrics "sq …"): such
// meshes are shaded with interpolated vertex normals and have no feature
// edges; polyhedra keep flat faces and dark feature edges.
func SmoothMesh(name string) bool {
	return strings.HasPrefix(name, "sq ") || strings.HasPrefix(name, "sphere ")
}

// areaNormals returns the area-weighted vertex normals of a triangle mesh:
// the unit sum of the (un-normalised) face normals around each vertex.
func areaNormals(verts []geom.Vec3, tris [][3]int32) []geom.Vec3 {
	vn := make([]geom.Vec3, len(verts))
	for _, t := range tris {
		a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
		n := b.Sub(a).Cross(c.Sub(a)) // |n| = twice the area
		for k := 0; k < 3; k++ {
			vn[t[k]] = vn[t[k]].Add(n)
		}
	}
	for i := range vn {
		if l := vn[i].Norm(); l > 0 {
			vn[i] = vn[i].Scale(1 / l)
		}
	}
	return vn
}

type edgeInfo struct {
	f0, f1 int32
	n      int32
}

func edgeKey(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(uint32(a))<<32 | uint64(uint32(b))
}

// buildMesh converts m into flat-shaded triangles with feature-edge markers,
// outward winding for closed meshes, and per-vertex skin offset directions.
func buildMesh(m *snap.Mesh) meshCPU {
	var out meshCPU
	out.smooth = SmoothMesh(m.Name)
	nv := int32(len(m.Verts))
	tris := make([][3]int32, 0, len(m.Tris))
	for _, t := range m.Tris {
		if t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] >= nv || t[1] >= nv || t[2] >= nv {
			continue
		}
		tris = append(tris, t)
	}
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	for _, v := range m.Verts {
		lo, hi = lo.Min(v), hi.Max(v)
		out.radius = math.Max(out.radius, v.Norm())
	}
	if len(m.Verts) > 0 {
		out.center = lo.Add(hi).Scale(0.5)
	}

	// edges, closedness, signed volume
	edges := make(map[uint64]*edgeInfo, len(tris)*3/2+1)
	var vol float64
	for fi, t := range tris {
		a, b, c := m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]]
		vol += a.Dot(b.Cross(c))
		for k := 0; k < 3; k++ {
			key := edgeKey(t[k], t[(k+1)%3])
			e := edges[key]
			if e == nil {
				e = &edgeInfo{f0: int32(fi), f1: -1}
				edges[key] = e
			} else if e.n == 1 {
				e.f1 = int32(fi)
			}
			e.n++
		}
	}
	out.closed = len(tris) > 0
	for _, e := range edges {
		if e.n != 2 {
			out.closed = false
			break
		}
	}
	if out.closed && vol < 0 {
		out.flipped = true
		for i := range tris {
			tris[i][1], tris[i][2] = tris[i][2], tris[i][1]
		}
	}

	fn := make([]geom.Vec3, len(tris))
	for fi, t := range tris {
		a, b, c := m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if l := n.Norm(); l > 0 {
			fn[fi] = n.Scale(1 / l)
		}
	}
	feature := func(a, b int32) bool {
		e := edges[edgeKey(a, b)]
		if e == nil || e.n != 2 || e.f1 < 0 {
			return true
		}
		return fn[e.f0].Dot(fn[e.f1]) < featureCos
	}

	// angle-weighted vertex normals and mitred skin offsets
	vn := make([]geom.Vec3, nv)
	for fi, t := range tris {
		if fn[fi].Norm2() == 0 {
			continue
		}
		for k := 0; k < 3; k++ {
			p := m.Verts[t[k]]
			u := m.Verts[t[(k+1)%3]].Sub(p).Unit()
			w := m.Verts[t[(k+2)%3]].Sub(p).Unit()
			ang := math.Acos(math.Max(-1, math.Min(1, u.Dot(w))))
			vn[t[k]] = vn[t[k]].AddScaled(ang, fn[fi])
		}
	}
	minDot := make([]float64, nv)
	for i := range vn {
		vn[i] = vn[i].Unit()
		minDot[i] = 1
	}
	for fi, t := range tris {
		if fn[fi].Norm2() == 0 {
			continue
		}
		for k := 0; k < 3; k++ {
			minDot[t[k]] = math.Min(minDot[t[k]], vn[t[k]].Dot(fn[fi]))
		}
	}
	skin := make([]geom.Vec3, nv)
	for i := range vn {
		skin[i] = vn[i].Scale(1 / math.Max(minDot[i], 0.5))
	}

	var smoothN []geom.Vec3
	if out.smooth {
		smoothN = areaNormals(m.Verts, tris)
	}
	out.tri = make([]float32, 0, len(tris)*3*meshVertFloats)
	for fi, t := range tris {
		var nonFeat [3]bool // edge opposite corner k
		for k := 0; k < 3; k++ {
			nonFeat[k] = out.smooth || !feature(t[(k+1)%3], t[(k+2)%3])
		}
		n := fn[fi]
		for k := 0; k < 3; k++ {
			p, s := m.Verts[t[k]], skin[t[k]]
			if out.smooth {
				n = smoothN[t[k]]
			}
			var bary [3]float32
			bary[k] = 1
			for j := 0; j < 3; j++ {
				if nonFeat[j] {
					bary[j] = 1
				}
			}
			out.tri = append(out.tri,
				float32(p.X), float32(p.Y), float32(p.Z),
				float32(n.X), float32(n.Y), float32(n.Z),
				float32(s.X), float32(s.Y), float32(s.Z),
				bary[0], bary[1], bary[2])
		}
	}

	out.lineVerts = make([]float32, 0, 3*len(m.Verts))
	for _, v := range m.Verts {
		out.lineVerts = append(out.lineVerts, float32(v.X), float32(v.Y), float32(v.Z))
	}
	for key, e := range edges {
		if out.smooth {
			break // no feature edges on a smooth surface
		}
		a, b := int32(key>>32), int32(uint32(key))
		if e.n != 2 || e.f1 < 0 || fn[e.f0].Dot(fn[e.f1]) < featureCos {
			out.lineIdx = append(out.lineIdx, uint32(a), uint32(b))
		}
	}
	return out
}
