package contact

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// Continuous (swept) crossing test of the second-level lists, for
// integrators that take steps longer than the skin (newmark): a vertex or an
// edge that crosses a face or an edge of the other body within one step
// meets no contact force at the end of the step and goes undetected there (a
// vertex behind a face is a contact only when it was one before, S0 §2.4.5).

// Reach returns the distance within which c lists every feature pair of a
// and b at their current poses: the listing distance ḡ + margin of the build
// less the relative motion since the build (the bound of Stale). It is 0 for
// a cache that was never built or is stale.
func (c *Cache) Reach(a, b *Posed) float64 {
	if !c.built {
		return 0
	}
	th := angleBound(c.refQ, a.Q.Conj().Mul(b.Q))
	dB := a.Q.InvRotate(b.X.Sub(a.X)).Sub(c.refT).Norm() + th*b.Poly.Radius
	dA := b.Q.InvRotate(a.X.Sub(b.X)).Sub(c.refS).Norm() + th*a.Poly.Radius
	r := c.gbar + c.margin - min(dA, dB)
	return max(r, 0)
}

// Crossed reports whether a listed vertex–face or edge–edge pair crosses
// during a step in which the vertices of A move on straight lines from a0
// to a1 relative to B (B's vertices held at b0), and those of B from b0 to
// b1 relative to A (A's at a0): a vertex passing through the interior of a
// face triangle, or an edge through the interior of an edge. The caller
// guarantees that every feature pair that comes within the crossing distance
// during the step is listed (the relative motion is below Reach).
func (c *Cache) Crossed(pa, pb *shape.Polyhedron, a0, a1, b0, b1 []geom.Vec3) bool {
	for _, p := range c.vf {
		f := &pb.Faces[p[1]]
		if vertexCrossesTri(a0[p[0]], a1[p[0]], b0[f.V[0]], b0[f.V[1]], b0[f.V[2]]) {
			return true
		}
	}
	for _, p := range c.fv {
		f := &pa.Faces[p[0]]
		if vertexCrossesTri(b0[p[1]], b1[p[1]], a0[f.V[0]], a0[f.V[1]], a0[f.V[2]]) {
			return true
		}
	}
	for _, p := range c.ee {
		ea, eb := &pa.Edges[p[0]], &pb.Edges[p[1]]
		if edgeCrossesEdge(a0[ea.V[0]], a0[ea.V[1]], a1[ea.V[0]], a1[ea.V[1]], b0[eb.V[0]], b0[eb.V[1]]) {
			return true
		}
	}
	return false
}

// vertexCrossesTri reports whether the point moving from p0 to p1 passes
// through the triangle (t0, t1, t2): the signed distance to its plane
// changes sign and the crossing point lies inside the triangle.
func vertexCrossesTri(p0, p1, t0, t1, t2 geom.Vec3) bool {
	n := t1.Sub(t0).Cross(t2.Sub(t0))
	d0, d1 := p0.Sub(t0).Dot(n), p1.Sub(t0).Dot(n)
	if (d0 > 0) == (d1 > 0) && (d0 < 0) == (d1 < 0) {
		return false // same side (or both exactly on the plane)
	}
	s := d0 / (d0 - d1)
	x := p0.AddScaled(s, p1.Sub(p0))
	return inTriangle(x, t0, t1, t2, n)
}

// inTriangle reports whether x (in the plane of the triangle with normal n)
// lies inside it, boundary included.
func inTriangle(x, t0, t1, t2, n geom.Vec3) bool {
	return t1.Sub(t0).Cross(x.Sub(t0)).Dot(n) >= 0 &&
		t2.Sub(t1).Cross(x.Sub(t1)).Dot(n) >= 0 &&
		t0.Sub(t2).Cross(x.Sub(t2)).Dot(n) >= 0
}

// edgeCrossesEdge reports whether the segment moving linearly from [p1, p2]
// to [r1, r2] passes through the fixed segment [q1, q2]: at a root s in
// [0, 1] of the coplanarity condition det[p1(s) − q1, p2(s) − q1, q2 − q1] = 0
// (a quadratic in s) the two segments intersect.
func edgeCrossesEdge(p1, p2, r1, r2, q1, q2 geom.Vec3) bool {
	e := q2.Sub(q1)
	u0, w0 := p1.Sub(q1), p2.Sub(q1)
	d1, d2 := r1.Sub(p1), r2.Sub(p2)
	c0 := u0.Cross(w0).Dot(e)
	c1 := u0.Cross(d2).Add(d1.Cross(w0)).Dot(e)
	c2 := d1.Cross(d2).Dot(e)
	var roots [2]float64
	k := 0
	if math.Abs(c2) <= 1e-12*(math.Abs(c1)+math.Abs(c0)) {
		if c1 != 0 {
			roots[0], k = -c0/c1, 1
		}
	} else {
		disc := c1*c1 - 4*c2*c0
		if disc < 0 {
			return false
		}
		sq := math.Sqrt(disc)
		q := -0.5 * (c1 + math.Copysign(sq, c1)) // stable quadratic roots
		roots[0], k = q/c2, 1
		if q != 0 {
			roots[1], k = c0/q, 2
		}
	}
	for _, s := range roots[:k] {
		if !(s >= 0 && s <= 1) {
			continue
		}
		a := p1.AddScaled(s, d1)
		b := p2.AddScaled(s, d2)
		if segmentsMeet(a, b, q1, q2) {
			return true
		}
	}
	return false
}

// segmentsMeet reports whether the coplanar segments [a, b] and [c, d]
// intersect in their interiors (parallel segments are left to the
// vertex–face tests).
func segmentsMeet(a, b, c, d geom.Vec3) bool {
	u, v, w := b.Sub(a), d.Sub(c), a.Sub(c)
	uu, uv, vv := u.Dot(u), u.Dot(v), v.Dot(v)
	uw, vw := u.Dot(w), v.Dot(w)
	den := uu*vv - uv*uv
	if !(den > 1e-12*uu*vv) {
		return false
	}
	s := (uv*vw - vv*uw) / den // along [a, b]
	t := (uu*vw - uv*uw) / den // along [c, d]
	if s < 0 || s > 1 || t < 0 || t > 1 {
		return false
	}
	// Coplanar up to round-off: the closest points coincide.
	gap := a.AddScaled(s, u).Sub(c.AddScaled(t, v)).Norm()
	return gap <= 1e-6*math.Sqrt(max(uu, vv))
}
