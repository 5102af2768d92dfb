package sq

import (
	"math"

	"grainlab/sim/geom"
)

// SurfaceContact is one contact of a superquadric with a feature of a Surface.
type SurfaceContact struct {
	Feature int32     // stable id: facet i, then NumFacets()+edge j, then NumFacets()+NumEdges()+corner k
	Kind    uint8     // KindFacet, KindEdge or KindVertex
	PA      geom.Vec3 // deepest point on the particle (world)
	PB      geom.Vec3 // point on the surface (world)
	Normal  geom.Vec3 // unit, from the surface to the particle (world)
	Gap     float64   // (PA − PB)·Normal; < 0: overlap
}

// SurfaceContacts appends to out the contacts of the shape at pose ps with the
// surface at pose pw whose Gap is below reach, at most one per feature.
//
// Each feature owns the contact only inside its Voronoi region, judged at the
// minimiser of the particle gauge g (homogeneous of degree one, 1 on the
// surface) over the feature: a facet when the minimiser of g over its plane —
// the point where the ray from the centre through the support point meets the
// plane — lies in the facet polygon (or beyond a concave edge of it); an edge
// when the minimiser of g along its line lies inside the segment and the
// normal there lies in the edge's normal cone; a corner when the normal −∇g at
// the vertex lies in the corner's normal cone. By convexity of g these tests
// partition space consistently, so a particle on a facet split into many
// triangles gets one contact, one over a convex edge one edge contact, and one
// in a concave corner one contact per wall. The tests are widened by 1e-9 so
// that neighbouring regions overlap rather than leave a gap; on a boundary the
// duplicate of the adjacent lower-dimensional feature is dropped. Facets are
// one-sided: a particle whose centre is behind a facet's plane gets no contact
// from it. Spheres (A = B = C, N1 = N2 = 2) take a closed-form path.
//
// Facet contacts use the extreme point of the particle against the facet
// normal (S1 eq. 30–34, exact); edge and corner contacts measure the overlap
// along the line through the feature point x* in the normal direction (the
// contact line of S1 eq. 36); they agree with the minimum translation
// distance to first order in the overlap δ (normals within about δ/ρ, ρ the
// particle's local radius of curvature). The particle must be convex
// (2 ≤ N1, N2); the shape is assumed valid (Shape.Validate).
func (s Shape) SurfaceContacts(ps Pose, surf *Surface, pw Pose, reach float64, out []SurfaceContact) []SurfaceContact {
	sphere := s.A == s.B && s.B == s.C && s.N1 == 2 && s.N2 == 2
	return s.surfaceContacts(ps, surf, pw, reach, out, sphere)
}

// surfaceContacts is SurfaceContacts with the sphere fast path selectable.
func (s Shape) surfaceContacts(ps Pose, surf *Surface, pw Pose, reach float64, out []SurfaceContact, sphere bool) []SurfaceContact {
	if surf == nil || !(reach > math.Inf(-1)) {
		return out
	}
	// the particle in the surface frame
	c := pw.ToLocal(ps.X)
	q := pw.Q.Conj().Mul(ps.Q)
	k := surfCtx{s: s, c: c, m: q.Mat(), pw: pw, reach: reach, sphere: sphere}
	if !sphere {
		k.pr = s.prep()
	}
	// culling box: the axis-aligned box of the rotated OBB (S1 §2.2), within
	// the sphere of radius |(a, b, c)| ≥ the bounding radius
	k.rmax = math.Sqrt(s.A*s.A + s.B*s.B + s.C*s.C)
	var ext geom.Vec3
	if sphere {
		ext = geom.V(s.A, s.A, s.A)
	} else {
		m := &k.m
		ext = geom.V(
			min(k.rmax, math.Abs(m[0][0])*s.A+math.Abs(m[0][1])*s.B+math.Abs(m[0][2])*s.C),
			min(k.rmax, math.Abs(m[1][0])*s.A+math.Abs(m[1][1])*s.B+math.Abs(m[1][2])*s.C),
			min(k.rmax, math.Abs(m[2][0])*s.A+math.Abs(m[2][1])*s.B+math.Abs(m[2][2])*s.C))
	}
	lo, hi := c.Sub(ext), c.Add(ext)
	if reach > 0 {
		r := geom.V(reach, reach, reach)
		lo, hi = lo.Sub(r), hi.Add(r)
	}
	if !boxOverlap(lo, hi, surf.lo, surf.hi) {
		return out
	}
	nf, ne := int32(len(surf.facets)), int32(len(surf.edges))
	n0 := len(out)
	for i := range surf.facets {
		f := &surf.facets[i]
		if boxOverlap(lo, hi, f.lo, f.hi) {
			if sc, ok := k.facet(f, surf.scale); ok {
				sc.Feature = int32(i)
				out = append(out, k.world(sc))
			}
		}
	}
	for i := range surf.edges {
		e := &surf.edges[i]
		if boxOverlap(lo, hi, e.lo, e.hi) {
			if sc, ok := k.edge(e); ok {
				sc.Feature = nf + int32(i)
				out = append(out, k.world(sc))
			}
		}
	}
	for i := range surf.corners {
		cr := &surf.corners[i]
		if boxOverlap(lo, hi, cr.v, cr.v) {
			if sc, ok := k.corner(cr); ok {
				sc.Feature = nf + ne + int32(i)
				out = append(out, k.world(sc))
			}
		}
	}
	return surf.dedupe(out, n0)
}

// dedupe drops, from out[n0:], an edge or corner contact whose normal equals
// (within 1.4e-6 rad) that of a contact of an adjacent higher-dimensional
// feature (a facet of the edge; a facet or edge at the corner): within coneTol
// of a region boundary both owners report the same contact, and it must not
// count twice.
func (s *Surface) dedupe(out []SurfaceContact, n0 int) []SurfaceContact {
	if len(out)-n0 < 2 {
		return out
	}
	nf, ne := int32(len(s.facets)), int32(len(s.edges))
	same := func(c SurfaceContact, id int32) bool {
		for _, o := range out[n0:] {
			if o.Feature == id && o.Normal.Dot(c.Normal) > 1-1e-12 {
				return true
			}
		}
		return false
	}
	var drop uint64 // first pass: decide on the original list (≤ 64 contacts)
	for i, c := range out[n0:] {
		if i >= 64 {
			break
		}
		d := false
		switch c.Kind {
		case KindEdge:
			e := &s.edges[c.Feature-nf]
			d = same(c, e.f1) || e.f2 >= 0 && same(c, e.f2)
		case KindVertex:
			cr := &s.corners[c.Feature-nf-ne]
			for _, f := range cr.fs {
				d = d || same(c, f)
			}
			for _, e := range cr.es {
				d = d || same(c, nf+e)
			}
		}
		if d {
			drop |= 1 << uint(i)
		}
	}
	keep := out[:n0]
	for i, c := range out[n0:] {
		if i >= 64 || drop&(1<<uint(i)) == 0 {
			keep = append(keep, c)
		}
	}
	return keep
}

func boxOverlap(alo, ahi, blo, bhi geom.Vec3) bool {
	return alo.X <= bhi.X && blo.X <= ahi.X && alo.Y <= bhi.Y && blo.Y <= ahi.Y && alo.Z <= bhi.Z && blo.Z <= ahi.Z
}

// surfCtx is one particle placed in the surface frame.
type surfCtx struct {
	s      Shape
	pr     prep
	c      geom.Vec3 // centre, surface frame
	m      geom.Mat3 // body → surface-frame rotation
	pw     Pose
	reach  float64
	rmax   float64 // bound on the distance of surface points from the centre
	sphere bool
}

// world converts a surface-frame contact to the world frame.
func (k *surfCtx) world(sc SurfaceContact) SurfaceContact {
	sc.PA, sc.PB = k.pw.ToWorld(sc.PA), k.pw.ToWorld(sc.PB)
	sc.Normal = k.pw.Q.Rotate(sc.Normal)
	return sc
}

// facet returns the facet contact when the particle is in the facet's region.
func (k *surfCtx) facet(f *facet, scale float64) (SurfaceContact, bool) {
	D := k.c.Sub(f.p).Dot(f.n) // height of the centre above the plane
	if !(D > 0) {
		return SurfaceContact{}, false // one-sided: the centre is behind the wall
	}
	var pa geom.Vec3
	var h float64 // depth of the support point below the centre along n
	if k.sphere {
		pa, h = k.c.AddScaled(-k.s.A, f.n), k.s.A
	} else {
		pa = k.c.Add(k.m.MulV(k.s.Support(k.m.TMulV(f.n.Neg())))) // S1 eq. (30)–(33): extreme point towards the wall
		h = k.c.Sub(pa).Dot(f.n)
	}
	gap := D - h // S1 eq. (34): signed distance of the extreme point from the plane
	if !(gap < k.reach) {
		return SurfaceContact{}, false
	}
	// minimiser of the gauge over the plane: the ray centre → support point
	xp := k.c.AddScaled(D/h, pa.Sub(k.c))
	d := xp.Sub(f.p)
	if !f.contains([2]float64{d.Dot(f.u), d.Dot(f.v)}, coneTol*scale) {
		return SurfaceContact{}, false
	}
	return SurfaceContact{Kind: KindFacet, PA: pa, PB: pa.AddScaled(-gap, f.n), Normal: f.n, Gap: gap}, true // S1 eq. (34): x* = x + ((x_w − x)·n)n
}

// edge returns the edge contact when the particle is in the edge's region.
func (k *surfCtx) edge(e *fedge) (SurfaceContact, bool) {
	var xs, n geom.Vec3
	var gap float64
	if k.sphere {
		t := k.c.Sub(e.a).Dot(e.e) // closest point of the line to the centre
		if !(t > -coneTol*e.l && t < (1+coneTol)*e.l) {
			return SurfaceContact{}, false // beyond an endpoint: a corner's region
		}
		t = max(0, min(e.l, t))
		xs = e.a.AddScaled(t, e.e)
		d := k.c.Sub(xs)
		dist := d.Norm()
		if dist == 0 {
			return SurfaceContact{}, false
		}
		n = d.Scale(1 / dist)
		gap = dist - k.s.A
		if !(gap < k.reach) || !e.inCone(n) {
			return SurfaceContact{}, false
		}
		return SurfaceContact{Kind: KindEdge, PA: k.c.AddScaled(-k.s.A, n), PB: xs, Normal: n, Gap: gap}, true
	}
	// cheap reject: the line is farther from the centre than any surface point
	ac := k.c.Sub(e.a)
	if d := ac.AddScaled(-ac.Dot(e.e), e.e).Norm(); d-k.rmax >= k.reach {
		return SurfaceContact{}, false
	}
	// body-frame line a + t e, t ∈ [0, l]
	a := k.m.TMulV(e.a.Sub(k.c))
	eb := k.m.TMulV(e.e)
	t, ok := k.pr.lineMin(a, eb, e.l)
	if !ok {
		return SurfaceContact{}, false
	}
	xb := a.AddScaled(t, eb)
	g, dg, _ := k.pr.gaugeEval(xb, false)
	if !(g > 0) {
		return SurfaceContact{}, false
	}
	// normal: −∇g perpendicular to the edge (it is already, at an interior minimum)
	gw := k.m.MulV(dg)
	gw = gw.AddScaled(-gw.Dot(e.e), e.e)
	if gw.Norm() == 0 {
		return SurfaceContact{}, false
	}
	n = gw.Scale(-1 / gw.Norm())
	if !e.inCone(n) {
		return SurfaceContact{}, false
	}
	xs = e.a.AddScaled(t, e.e)
	gap, pa := k.alongNormal(xb, g, n)
	if !(gap < k.reach) {
		return SurfaceContact{}, false
	}
	return SurfaceContact{Kind: KindEdge, PA: pa, PB: xs, Normal: n, Gap: gap}, true
}

// inCone reports whether the unit normal n (perpendicular to the edge) lies in
// the edge's normal cone: between the two facet normals on a convex edge,
// between the facet normal and the outward in-plane direction on a boundary.
func (e *fedge) inCone(n geom.Vec3) bool {
	if e.boundary {
		return n.Dot(e.n1) >= -coneTol && n.Dot(e.m1) >= -coneTol
	}
	return n.Dot(e.m1) >= -coneTol && n.Dot(e.m2) >= -coneTol
}

// coneTol widens every region test by 1e-9 (radians, or relative lengths) so
// that neighbouring regions overlap by rounding instead of leaving a gap: at
// a region boundary a particle may get both contacts (nearly equal), never none.
const coneTol = 1e-9

// corner returns the vertex contact when the particle is in the corner's region.
func (k *surfCtx) corner(cr *corner) (SurfaceContact, bool) {
	var n geom.Vec3
	var gap float64
	var pa geom.Vec3
	if k.sphere {
		d := k.c.Sub(cr.v)
		dist := d.Norm()
		if dist == 0 {
			return SurfaceContact{}, false
		}
		n = d.Scale(1 / dist)
		gap = dist - k.s.A
		pa = k.c.AddScaled(-k.s.A, n)
	} else {
		xb := k.m.TMulV(cr.v.Sub(k.c))
		g, dg, _ := k.pr.gaugeEval(xb, false)
		if !(g > 0) || dg.Norm() == 0 {
			return SurfaceContact{}, false
		}
		n = k.m.MulV(dg).Unit().Neg()
		if !cr.inCone(n) {
			return SurfaceContact{}, false
		}
		gap, pa = k.alongNormal(xb, g, n)
	}
	if !(gap < k.reach) || !cr.inCone(n) {
		return SurfaceContact{}, false
	}
	return SurfaceContact{Kind: KindVertex, PA: pa, PB: cr.v, Normal: n, Gap: gap}, true
}

func (cr *corner) inCone(n geom.Vec3) bool {
	for _, d := range cr.dirs {
		if n.Dot(d) > coneTol {
			return false
		}
	}
	for _, m := range cr.ns {
		if n.Dot(m) < -coneTol {
			return false
		}
	}
	return true
}

// alongNormal returns the gap along the contact line through the body-frame
// feature point xb (gauge g there) in the surface-frame direction n (S1 eq.
// 36: the nearest intersection of the line with the particle surface on the
// wall side) and that surface point PA in the surface frame.
func (k *surfCtx) alongNormal(xb geom.Vec3, g float64, n geom.Vec3) (float64, geom.Vec3) {
	nb := k.m.TMulV(n)
	t, ok := k.pr.nearRoot(xb, nb, g)
	if !ok {
		// the line misses the particle (separated): report the convexity bound
		// on the distance along n and the radial projection of x*
		_, dg, _ := k.pr.gaugeEval(xb, false)
		return (g - 1) / math.Abs(dg.Dot(nb)), k.c.Add(k.m.MulV(xb.Scale(1 / g)))
	}
	return t, k.c.Add(k.m.MulV(xb.AddScaled(t, nb)))
}

// gaugeEval returns the gauge g = (1 + f)^(1/n1), its gradient
// ∇g = g/(n1(1+f))·∇f and on request its Hessian
// g/(n1(1+f))·[H_f + (1/n1 − 1)/(1+f)·∇f∇fᵀ] at the body-frame point x
// (S1 eq. 1, 14–17 composed with the power).
func (q *prep) gaugeEval(x geom.Vec3, wantH bool) (float64, geom.Vec3, geom.Mat3) {
	f, gf, hf := q.eval(x, true, wantH)
	phi := f + 1
	if !(phi > 0) {
		return 0, geom.Vec3{}, geom.Mat3{}
	}
	g := q.root1(phi)
	s := g / (q.n1 * phi)
	var h geom.Mat3
	if wantH {
		h = hf.Add(geom.Outer(gf, gf).Scale((1/q.n1 - 1) / phi)).Scale(s)
	}
	return g, gf.Scale(s), h
}

// lineMin returns the minimiser t of the convex gauge φ(t) = g(a + t·e) over
// [0, l] (e unit) when it lies strictly inside, by Newton's method on φ′ with
// bisection safeguard; ok is false when the minimum is at an endpoint. With
// Φ = 1 + f, φ′ = s·∇f·e and φ″ = s·[eᵀH_f e + (1/n1 − 1)(∇f·e)²/Φ] share the
// positive factor s = g/(n1Φ), which therefore cancels from the signs and the
// Newton step (no root is taken).
func (q *prep) lineMin(a, e geom.Vec3, l float64) (float64, bool) {
	dphi := func(t float64, wantH bool) (float64, float64) {
		f, g, h := q.eval(a.AddScaled(t, e), true, wantH)
		d := g.Dot(e)
		if !wantH {
			return d, g.Norm()
		}
		return d, e.Dot(h.MulV(e)) + (1/q.n1-1)*d*d/(f+1)
	}
	// endpoint tests widened by coneTol (relative to |∇f|), matching the corners'
	d0, n0 := dphi(0, false)
	d1, n1 := dphi(l, false)
	if !(d0 < coneTol*n0) || !(d1 > -coneTol*n1) {
		return 0, false
	}
	if d0 >= 0 {
		return 0, true
	}
	if d1 <= 0 {
		return l, true
	}
	lo, hi := 0.0, l
	t := max(0, min(l, -a.Dot(e))) // closest point to the centre
	if t <= 0 || t >= l {
		t = l / 2
	}
	tol := 1e-12 / min(q.ia, min(q.ib, q.ic)) // 1e-12 of the particle size
	dprev := math.Inf(1)
	for it := 0; it < 200; it++ {
		d, dd := dphi(t, true)
		if d == 0 {
			return t, true
		}
		if d < 0 {
			lo = t
		} else {
			hi = t
		}
		tn := t - d/dd
		if dd > 0 && math.Abs(tn-t) <= tol {
			return tn, true
		}
		// bisect when Newton leaves the bracket or stalls (|φ′| not halved:
		// it can cycle across the sharp bend of a blocky surface)
		if !(dd > 0) || !(tn > lo && tn < hi) || math.Abs(d) > 0.5*dprev {
			tn = (lo + hi) / 2
		}
		dprev = math.Abs(d)
		if hi-lo <= tol {
			return tn, true
		}
		t = tn
	}
	return t, true
}

// nearRoot returns the nearer root t of g(x + t·d) = 1 on the side the gauge
// decreases away from (g′(0) < 0, g = g(x)), by Newton's iteration on the convex
// function — monotone after at most one step (S1 eq. 37 on the gauge). ok is
// false when the line misses the body.
func (q *prep) nearRoot(x, d geom.Vec3, g float64) (float64, bool) {
	_, dg, _ := q.gaugeEval(x, false)
	slope := dg.Dot(d)
	size := 1 / min(q.ia, min(q.ib, q.ic))
	t := 0.0
	for it := 0; it < 100; it++ {
		if !(slope < 0) {
			return t, false
		}
		dt := -(g - 1) / slope // S1 eq. (37)
		t += dt
		var grad geom.Vec3
		g, grad, _ = q.gaugeEval(x.AddScaled(t, d), false)
		slope = grad.Dot(d)
		if math.Abs(dt) <= 1e-14*(size+math.Abs(t)) || g == 1 {
			return t, true
		}
	}
	return t, math.Abs(g-1) < 1e-9
}
