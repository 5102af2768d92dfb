package contact

import (
	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// AABB is an axis-aligned box.
type AABB struct{ Min, Max geom.Vec3 }

// Inflate returns the box grown by r on every side.
func (a AABB) Inflate(r float64) AABB {
	d := geom.V(r, r, r)
	return AABB{a.Min.Sub(d), a.Max.Add(d)}
}

// Overlaps reports whether a and b intersect.
func (a AABB) Overlaps(b AABB) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X &&
		a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y &&
		a.Min.Z <= b.Max.Z && b.Min.Z <= a.Max.Z
}

// Contains reports whether p lies in a.
func (a AABB) Contains(p geom.Vec3) bool {
	return p.X >= a.Min.X && p.X <= a.Max.X && p.Y >= a.Min.Y && p.Y <= a.Max.Y &&
		p.Z >= a.Min.Z && p.Z <= a.Max.Z
}

func segBox(p, q geom.Vec3) AABB { return AABB{p.Min(q), p.Max(q)} }

func triBox(a, b, c geom.Vec3) AABB { return AABB{a.Min(b).Min(c), a.Max(b).Max(c)} }

// Posed is a polyhedron placed in the world for one step: world-frame vertices
// and face normals are computed once per step and shared by every pair test.
type Posed struct {
	Poly  *shape.Polyhedron
	X     geom.Vec3
	Q     geom.Quat
	V     []geom.Vec3 // world vertices
	FN    []geom.Vec3 // world unit face normals
	Box   AABB        // world AABB of V
	EBox  []AABB      // world AABB of each edge (empty box for Flat edges)
	FBox  []AABB      // world AABB of each face
	Fixed bool
}

// Update places p's polyhedron at (x, q), refreshing world vertices and normals.
func (p *Posed) Update(poly *shape.Polyhedron, x geom.Vec3, q geom.Quat, fixed bool) {
	p.Poly, p.X, p.Q, p.Fixed = poly, x, q, fixed
	if cap(p.V) < len(poly.Verts) {
		p.V = make([]geom.Vec3, len(poly.Verts))
	}
	p.V = p.V[:len(poly.Verts)]
	if cap(p.FN) < len(poly.Faces) {
		p.FN = make([]geom.Vec3, len(poly.Faces))
	}
	p.FN = p.FN[:len(poly.Faces)]
	R := q.Mat()
	mn := geom.V(1e300, 1e300, 1e300)
	mx := mn.Neg()
	for i, v := range poly.Verts {
		w := x.Add(R.MulV(v))
		p.V[i] = w
		mn, mx = mn.Min(w), mx.Max(w)
	}
	for i := range poly.Faces {
		p.FN[i] = R.MulV(poly.Faces[i].N)
	}
	p.Box = AABB{mn, mx}
}

// UpdateBoxes computes the world boxes of every edge and face for the
// current pose (needed only when a pair's feature cache is rebuilt).
func (p *Posed) UpdateBoxes() {
	poly := p.Poly
	p.EBox = resize(p.EBox, len(poly.Edges))
	empty := AABB{Min: geom.V(1e300, 1e300, 1e300), Max: geom.V(-1e300, -1e300, -1e300)}
	for i := range poly.Edges {
		e := &poly.Edges[i]
		if e.Kind == shape.Flat {
			p.EBox[i] = empty
			continue
		}
		p.EBox[i] = segBox(p.V[e.V[0]], p.V[e.V[1]])
	}
	p.FBox = resize(p.FBox, len(poly.Faces))
	for i := range poly.Faces {
		f := &poly.Faces[i]
		p.FBox[i] = triBox(p.V[f.V[0]], p.V[f.V[1]], p.V[f.V[2]])
	}
}

func resize(b []AABB, n int) []AABB {
	if cap(b) < n {
		return make([]AABB, n)
	}
	return b[:n]
}

// near collects the features of p whose bounds meet box (edges of kind Flat are skipped).
func (p *Posed) near(box AABB, verts, edges, faces []int32) ([]int32, []int32, []int32) {
	verts, edges, faces = verts[:0], edges[:0], faces[:0]
	for i, v := range p.V {
		if box.Contains(v) {
			verts = append(verts, int32(i))
		}
	}
	for i := range p.EBox {
		if p.EBox[i].Overlaps(box) { // Flat edges have an empty box
			edges = append(edges, int32(i))
		}
	}
	for i := range p.FBox {
		if p.FBox[i].Overlaps(box) {
			faces = append(faces, int32(i))
		}
	}
	return verts, edges, faces
}
