package contact

import (
	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// This file holds the closed-form solutions of the four degenerated local
// contact problems of S0 §2.4.2 (S0 Appendix). Everything is in world
// coordinates, allocation-free, and independent of the rest of the package.

// ParamTol is the half-width of the band |N_k| ≤ ParamTol (barycentric units,
// S0 eq. 27) inside which a vertex–face projection is taken to lie on the edge
// opposite vertex k; the tie rule of VertexFace then decides validity. A
// constant: vfInside's early accept in VertexFace needs it ≥ 0 (review r2).
const ParamTol = 1e-12

// degenParallelTol: |u×v|² ≤ degenParallelTol·|u|²|v|² means u ∥ v (angle ≲ 1e-6 rad).
const degenParallelTol = 1e-12

// degenTieDirs are fixed, generic, orthonormal directions: a point on an edge
// shared by two coplanar triangles belongs to the triangle that the first of
// them (or, if it is parallel to the edge, the next) points into.
var degenTieDirs = func() [3]geom.Vec3 {
	d1 := geom.V(0.3761, 0.6502, 0.6601).Unit()
	d2 := d1.Cross(geom.V(0, 0, 1)).Unit()
	return [3]geom.Vec3{d1, d2, d1.Cross(d2)}
}()

// VertexFace projects the vertex x orthogonally onto the plane of the
// triangle (f1, f2, f3), parameterised as Γ = ζ t1 + θ t2 + b (S0 Appendix
// eq. 64–66). It returns the parameters, the projected point p and whether p
// lies in the valid parametric space (S0 Fig. 1: N1, N2, N3 ≥ 0).
//
// Validity and ties: with N1 = −(ζ+θ)/2, N2 = (1+ζ)/2, N3 = (1+θ)/2, a value
// N_k > ParamTol passes and N_k < −ParamTol fails. A value in the band
// |N_k| ≤ ParamTol means p is on the edge opposite vertex k; it passes iff the
// triangle "owns" that edge: iff a fixed generic direction d (degenTieDirs)
// points into the triangle across that edge, d·(c×e) > 0 with c the
// triangle normal and e the edge. Two coplanar triangles sharing an edge see
// opposite inward normals, so a point on the shared edge is valid in exactly
// one of them, whatever their vertex order or orientation. This is the
// half-open rule "p belongs to T iff p + εd ∈ T for infinitesimal ε > 0",
// which also gives a shared vertex of a coplanar fan to exactly one triangle.
// The face's orientation (which side x is on) is not checked.
//
// A degenerate (sliver) triangle, |t1×t2|² ≤ 1e-12·|t1|²|t2|², gives ok = false.
func VertexFace(x, f1, f2, f3 geom.Vec3) (zeta, theta float64, p geom.Vec3, ok bool) {
	t1 := f2.Sub(f1).Scale(0.5) // S0 eq. (65)
	t2 := f3.Sub(f1).Scale(0.5) // S0 eq. (65)
	b := f2.Add(f3).Scale(0.5)  // S0 eq. (65)
	c := t1.Cross(t2)
	a11, a12, a22 := t1.Dot(t1), t1.Dot(t2), t2.Dot(t2)
	det := c.Norm2() // = a11 a22 − a12², determinant of the system (66)
	if !(det > degenParallelTol*a11*a22) {
		return 0, 0, b, false
	}
	r := x.Sub(b)
	r1, r2 := r.Dot(t1), r.Dot(t2)
	zeta = (a22*r1 - a12*r2) / det                 // S0 eq. (66), Cramer's rule
	theta = (a11*r2 - a12*r1) / det                // S0 eq. (66), Cramer's rule
	p = b.AddScaled(zeta, t1).AddScaled(theta, t2) // S0 eq. (64)
	// S0 Fig. 1 valid space; inside every edge's band, degenInTriangle's
	// call (which copies the corners) is not needed.
	if vfInside(zeta, theta) {
		return zeta, theta, p, true
	}
	ok = degenInTriangle(zeta, theta, c, f1, f2, f3)
	return zeta, theta, p, ok
}

// vfInside reports whether the projection (zeta, theta) lies inside the
// triangle off every edge's ParamTol band: each barycentric coordinate n_k
// of S0 eq. (27), computed as degenInTriangle computes it, above ParamTol.
// Sound as VertexFace's early accept: there degenInTriangle passes its
// first test (no n_k below −ParamTol) and skips each tie test (n_k ≤
// ParamTol false), so it returns true; a NaN fails every comparison here
// and goes to degenInTriangle (TestVFInsideImpliesInTriangle).
func vfInside(zeta, theta float64) bool {
	t := ParamTol
	return -0.5*(zeta+theta) > t && 0.5*(1+zeta) > t && 0.5*(1+theta) > t
}

// degenInTriangle applies the band/tie rule documented on VertexFace.
func degenInTriangle(zeta, theta float64, c, f1, f2, f3 geom.Vec3) bool {
	n1 := -0.5 * (zeta + theta) // S0 eq. (27)
	n2 := 0.5 * (1 + zeta)      // S0 eq. (27)
	n3 := 0.5 * (1 + theta)     // S0 eq. (27)
	if n1 < -ParamTol || n2 < -ParamTol || n3 < -ParamTol {
		return false
	}
	// Edge opposite vertex k, traversed cyclically: f2→f3, f3→f1, f1→f2.
	if n1 <= ParamTol && !degenOwnsEdge(c.Cross(f3.Sub(f2))) {
		return false
	}
	if n2 <= ParamTol && !degenOwnsEdge(c.Cross(f1.Sub(f3))) {
		return false
	}
	if n3 <= ParamTol && !degenOwnsEdge(c.Cross(f2.Sub(f1))) {
		return false
	}
	return true
}

// degenOwnsEdge reports whether the tie direction points along m, the
// in-plane inward normal of a triangle edge.
func degenOwnsEdge(m geom.Vec3) bool {
	mn := m.Norm()
	for _, d := range degenTieDirs {
		if s := d.Dot(m); s > 1e-9*mn || s < -1e-9*mn {
			return s > 0
		}
	}
	return false // m = 0: degenerate edge
}

// EdgeEdge solves the edge–edge LCP (S0 Appendix eq. 67–69): the closest
// points pa = γ_A(za) on edge (a1, a2) and pb = γ_B(zb) on edge (b1, b2) of the
// two supporting lines. ok iff both parameters are strictly inside (−1, 1)
// and the edges are not (nearly) parallel: |ta×tb|² ≤ 1e-12·|ta|²|tb|² gives
// ok = false with za = zb = 0 (parallel edges are vertex–edge pairs).
func EdgeEdge(a1, a2, b1, b2 geom.Vec3) (za, zb float64, pa, pb geom.Vec3, ok bool) {
	ta := a2.Sub(a1).Scale(0.5) // S0 eq. (68)
	ca := a1.Add(a2).Scale(0.5) // S0 eq. (68), b_A
	tb := b2.Sub(b1).Scale(0.5) // S0 eq. (68)
	cb := b1.Add(b2).Scale(0.5) // S0 eq. (68), b_B
	aa, ab, bb := ta.Dot(ta), ta.Dot(tb), tb.Dot(tb)
	det := ta.Cross(tb).Norm2() // = aa bb − ab², determinant of the system (69)
	if !(det > degenParallelTol*aa*bb) {
		return 0, 0, ca, cb, false
	}
	d := ca.Sub(cb)
	e, f := d.Dot(ta), d.Dot(tb)
	za = (ab*f - bb*e) / det  // S0 eq. (69), Cramer's rule
	zb = (aa*f - ab*e) / det  // S0 eq. (69), Cramer's rule
	pa = ca.AddScaled(za, ta) // S0 eq. (67)
	pb = cb.AddScaled(zb, tb) // S0 eq. (67)
	ok = za > -1 && za < 1 && zb > -1 && zb < 1
	return za, zb, pa, pb, ok
}

// VertexEdge projects the vertex x orthogonally onto the line of the edge
// (b1, b2), γ = z t + b (S0 Appendix eq. 67, 70). ok iff z is strictly inside
// (−1, 1); a zero-length edge gives ok = false with z = 0.
func VertexEdge(x, b1, b2 geom.Vec3) (z float64, p geom.Vec3, ok bool) {
	t := b2.Sub(b1).Scale(0.5) // S0 eq. (68)
	c := b1.Add(b2).Scale(0.5) // S0 eq. (68)
	tt := t.Dot(t)
	if !(tt > 0) {
		return 0, c, false
	}
	z = x.Sub(c).Dot(t) / tt // S0 eq. (70): (x − γ)·t = 0
	p = c.AddScaled(z, t)    // S0 eq. (67)
	return z, p, z > -1 && z < 1
}

// VertexVertexGap returns the gap vector g = a − b of two vertices (S0 eq. 29;
// no LCP to solve, S0 §2.4.2). It is not named VertexVertex because that name
// is the contact-hierarchy Rule of this package.
func VertexVertexGap(a, b geom.Vec3) geom.Vec3 { return a.Sub(b) }

// Local is the solution of one degenerated LCP between a sub-region of body A
// and one of body B, with the gap quantities of S0 eq. (29) and (31).
type Local struct {
	Kind       snap.ContactKind
	PA, PB     geom.Vec3  // contact points Γ_A on A and Γ_B on B
	G          geom.Vec3  // gap vector g = PA − PB, S0 eq. (29)
	Gn         float64    // g_n = |g|
	N          geom.Vec3  // n = g/|g| from B towards A, S0 eq. (31); zero when Gn = 0
	ParA, ParB [2]float64 // (ζ, θ) of each side; a vertex is (−1, −1), an edge (ζ, −1)
}

// setGap fills G, Gn and N from PA and PB.
func (l *Local) setGap() {
	l.G = l.PA.Sub(l.PB) // S0 eq. (29)
	l.Gn = l.G.Norm()
	l.N = geom.Vec3{}
	if l.Gn > 0 {
		l.N = l.G.Scale(1 / l.Gn) // S0 eq. (31)
	}
}

// degenVertexPar is the parameter pair of a vertex renumbered as x1 (S0 §2.4.2).
var degenVertexPar = [2]float64{-1, -1}

// LocalVF solves vertex xA of body A against face (f1, f2, f3) of body B.
func LocalVF(xA, f1, f2, f3 geom.Vec3) (Local, bool) {
	z, t, p, ok := VertexFace(xA, f1, f2, f3)
	l := Local{Kind: snap.VF, PA: xA, PB: p, ParA: degenVertexPar, ParB: [2]float64{z, t}}
	l.setGap()
	return l, ok
}

// LocalFV solves face (f1, f2, f3) of body A against vertex xB of body B.
func LocalFV(f1, f2, f3, xB geom.Vec3) (Local, bool) {
	z, t, p, ok := VertexFace(xB, f1, f2, f3)
	l := Local{Kind: snap.VF, PA: p, PB: xB, ParA: [2]float64{z, t}, ParB: degenVertexPar}
	l.setGap()
	return l, ok
}

// LocalEE solves edge (a1, a2) of body A against edge (b1, b2) of body B.
func LocalEE(a1, a2, b1, b2 geom.Vec3) (Local, bool) {
	za, zb, pa, pb, ok := EdgeEdge(a1, a2, b1, b2)
	l := Local{Kind: snap.EE, PA: pa, PB: pb, ParA: [2]float64{za, -1}, ParB: [2]float64{zb, -1}}
	l.setGap()
	return l, ok
}

// LocalVE solves vertex xA of body A against edge (b1, b2) of body B.
func LocalVE(xA, b1, b2 geom.Vec3) (Local, bool) {
	z, p, ok := VertexEdge(xA, b1, b2)
	l := Local{Kind: snap.VE, PA: xA, PB: p, ParA: degenVertexPar, ParB: [2]float64{z, -1}}
	l.setGap()
	return l, ok
}

// LocalEV solves edge (a1, a2) of body A against vertex xB of body B.
func LocalEV(a1, a2, xB geom.Vec3) (Local, bool) {
	z, p, ok := VertexEdge(xB, a1, a2)
	l := Local{Kind: snap.VE, PA: p, PB: xB, ParA: [2]float64{z, -1}, ParB: degenVertexPar}
	l.setGap()
	return l, ok
}

// LocalVV is the vertex–vertex pair xA of body A, xB of body B (always valid).
func LocalVV(xA, xB geom.Vec3) Local {
	l := Local{Kind: snap.VV, PA: xA, PB: xB, ParA: degenVertexPar, ParB: degenVertexPar}
	l.setGap()
	return l
}
