package shape

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// WindingNumber returns the generalized winding number of the surface about
// x (body frame): the sum of the solid angles of the faces seen from x over
// 4π (Jacobson, Kavan & Sorkine-Hornung 2013, SIGGRAPH). It is 1 inside a
// closed mesh, 0 outside and ½ on a face.
func (p *Polyhedron) WindingNumber(x geom.Vec3) float64 {
	var sum float64
	for _, fc := range p.Faces {
		a, b, c := p.Verts[fc.V[0]].Sub(x), p.Verts[fc.V[1]].Sub(x), p.Verts[fc.V[2]].Sub(x)
		la, lb, lc := a.Norm(), b.Norm(), c.Norm()
		// tan(Ω/2) = a·(b×c) / (|a||b||c| + (a·b)|c| + (b·c)|a| + (c·a)|b|)  — Van Oosterom & Strackee 1983, IEEE TBME 30(2):125 (its single formula)
		num := a.Dot(b.Cross(c))
		den := la*lb*lc + a.Dot(b)*lc + b.Dot(c)*la + c.Dot(a)*lb
		sum += 2 * math.Atan2(num, den)
	}
	return sum / (4 * math.Pi)
}

// PointInside reports whether the body-frame point x lies inside the closed
// solid, by the generalized winding number (> ½). It shares no code with the
// contact detection, so it can audit penetrations. It costs O(faces); points
// outside the AABB and open surfaces answer false at once.
func (p *Polyhedron) PointInside(x geom.Vec3) bool {
	if !p.Closed || x.X < p.AABBMin.X || x.Y < p.AABBMin.Y || x.Z < p.AABBMin.Z ||
		x.X > p.AABBMax.X || x.Y > p.AABBMax.Y || x.Z > p.AABBMax.Z {
		return false
	}
	return p.WindingNumber(x) > 0.5
}

// SupportVertex returns the index of the vertex with the largest v·dir
// (the lowest index among ties).
func (p *Polyhedron) SupportVertex(dir geom.Vec3) int {
	best, bi := math.Inf(-1), 0
	for i, v := range p.Verts {
		if d := v.Dot(dir); d > best {
			best, bi = d, i
		}
	}
	return bi
}

// NumEdges returns how many edges are of kind k.
func (p *Polyhedron) NumEdges(k EdgeKind) int {
	n := 0
	for _, e := range p.Edges {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// Tris returns the face vertex triples (e.g. for a render mesh).
func (p *Polyhedron) Tris() [][3]int32 {
	t := make([][3]int32, len(p.Faces))
	for i, f := range p.Faces {
		t[i] = f.V
	}
	return t
}

// Scaled returns a new polyhedron with every body-frame vertex multiplied by
// s > 0, rebuilt (and re-validated) from scratch.
func (p *Polyhedron) Scaled(s float64) (*Polyhedron, error) {
	if !(s > 0) || math.IsInf(s, 0) {
		return nil, fmt.Errorf("shape %q: scale factor %g must be positive and finite", p.Name, s)
	}
	v := make([]geom.Vec3, len(p.Verts))
	for i, x := range p.Verts {
		v[i] = x.Scale(s)
	}
	return p.rebuild(v)
}

// Transformed returns a new polyhedron whose body-frame vertices are rotated
// by the unit quaternion q, rebuilt from scratch; its Offset is relative to
// p's body frame (≈ 0).
func (p *Polyhedron) Transformed(q geom.Quat) (*Polyhedron, error) {
	q = q.Normalize()
	v := make([]geom.Vec3, len(p.Verts))
	for i, x := range p.Verts {
		v[i] = q.Rotate(x)
	}
	return p.rebuild(v)
}

func (p *Polyhedron) rebuild(v []geom.Vec3) (*Polyhedron, error) {
	return build(p.Name, v, p.Tris(), p.Closed)
}
