package sq

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// Separated reports whether shape a at pose pa and shape b at pose pb are
// certainly apart, by a separating plane. With hint (a previous midway point
// of the pair, ContactResult.Point, as a world point) the plane is normal to
// the contact normal at the hint (the averaged unit gradients of S1 §2.3):
// each particle lies in its bounding box (S1 §2.2) and, f being convex for
// n1 ≥ n2, behind the linearisation of its shape function at the hint,
// f(y) ≥ f(X) + ∇f(X)·(y − X), whose support on the box is bounded in closed
// form (linear-programming duality); for n1 < n2 the exact support functions
// of S1 eq. (30)–(33) are used instead. This separates a pair that has moved
// little since the hint was found. Then (and without hint) the line of
// centres and the six body axes are tried with upper bounds of the support
// functions (the bounding box; for n1 = n2 = n the particle is the unit ball
// of the scaled ℓ_n norm, whose support function is the dual ℓ_q norm,
// q = n/(n − 1), at most 3^(1/q − 1/2) times the ℓ_2 norm). It costs a
// fraction of Contact and never reports true for touching or overlapping
// shapes.
func Separated(a Shape, pa Pose, b Shape, pb Pose, hint *geom.Vec3) bool {
	return separated(a, nil, pa, b, nil, pb, hint)
}

// SeparatedPrepared is Separated for prepared shapes (Shape.Prepare): the
// same answer, without recomputing the shapes' constants.
func SeparatedPrepared(a *Prepared, pa Pose, b *Prepared, pb Pose, hint *geom.Vec3) bool {
	return separated(a.S, a, pa, b.S, b, pb, hint)
}

// SeparatedOrdered is SeparatedPrepared with the axes (line of centres and
// body axes) tried before the plane at the hint when axesFirst is set. The
// answer is the same in either order (each test is exact on its own, the
// answer is their disjunction); byAxes reports that the axes found the
// plane, for the caller to pass as axesFirst at the pair's next query (a
// pair that stays apart is usually separated by the same test again).
func SeparatedOrdered(a *Prepared, pa Pose, b *Prepared, pb Pose, hint *geom.Vec3, axesFirst bool) (sep, byAxes bool) {
	if !axesFirst {
		return separatedFrom(a.S, a, pa, b.S, b, pb, hint)
	}
	r := pa.Q.Conj().Mul(pb.Q).Mat()
	c := pa.Q.InvRotate(pb.X.Sub(pa.X))
	if sepAxes(a.S, b.S, &r, c) {
		return true, true
	}
	return hint != nil && hint.IsFinite() && sepHint(a.S, &a.unit, b.S, &b.unit, &r, c, pa.Q.InvRotate(hint.Sub(pa.X))), false
}

// SeparatedPlaced is SeparatedOrdered for shapes placed at their bodies'
// poses (Prepared.Place), B shifted by shift, with the hint (when not nil)
// in A's body frame relative to A's centre (ContactResult.Local). The same
// tests; the answers differ from SeparatedOrdered's by rounding only.
func SeparatedPlaced(a, b *Prepared, shift geom.Vec3, hint *geom.Vec3, axesFirst bool) (sep, byAxes bool) {
	return SeparationPlaced(a, b, shift, hint, axesFirst, nil)
}

// SeparationPlaced is SeparatedPlaced (the same tests in the same order, the
// same answer) that also fills cert, when not nil and the shapes are apart,
// with the plane it found: its margin and the relative pose it holds at
// (SepCert.Holds).
func SeparationPlaced(a, b *Prepared, shift geom.Vec3, hint *geom.Vec3, axesFirst bool, cert *SepCert) (sep, byAxes bool) {
	var r geom.Mat3
	qr := relPoseInto(&r, a.q, b.q) // q_A* q_B and its matrix, no calls
	c := tmulV(&a.r, b.x.Add(shift).Sub(a.x))
	hintOK := hint != nil && hint.IsFinite()
	m := 0.0
	if !axesFirst && hintOK {
		m = sepHintMargin(a.S, &a.unit, b.S, &b.unit, &r, c, *hint)
	}
	if !(m > 0) {
		if m = sepAxesMarginK(a.S, b.S, a.sk, b.sk, &r, c); m > 0 {
			byAxes = true
		} else if axesFirst && hintOK {
			m = sepHintMargin(a.S, &a.unit, b.S, &b.unit, &r, c, *hint)
		}
	}
	if !(m > 0) {
		return false, false
	}
	if cert != nil {
		*cert = newSepCert(m, b.S.boundR(), c, qr)
	}
	return true, byAxes
}

// SepCert certifies that two placed shapes stay apart while they keep
// almost the relative pose at which a separating plane was found
// (SeparationPlaced). In A's body frame the plane {u·y = const} has A on
// one side and B on the other with a gap m (the test's margin); A does
// not move in its own frame, and a point z of B (|z| ≤ r_B, B's bounding
// radius) moves from R₀z + c₀ to R₁z + c₁, by at most
// |c₁ − c₀| + ‖R₁ − R₀‖·r_B with ‖R₁ − R₀‖ = ‖R₁R₀ᵀ − I‖ = 2 sin(θ/2) =
// 2|vec(q₁q₀*)| (θ the angle of the relative rotation's change, q the
// relative orientation q_A* q_B of S1 eq. 4's quaternions). While that is
// below m, every point of B is still on its side: the pair is apart, with
// no test. The zero SepCert holds for no pose.
type SepCert struct {
	m, rb float64
	c     geom.Vec3
	q     geom.Quat
	tol   float64 // Holds's rounding allowance 1e-9·(|c| + r_B), kept with it
}

// newSepCert is the certificate of margin m for B of radius rb at the
// relative centre c and orientation q.
func newSepCert(m, rb float64, c geom.Vec3, q geom.Quat) SepCert {
	return SepCert{m: m, rb: rb, c: c, q: q, tol: 1e-9 * (c.Norm() + rb)}
}

// Holds reports whether the certificate proves a and b (placed, B shifted
// by shift) still apart: the bound of B's motion in A's frame since the
// certificate, with a rounding allowance of 1e-9 of |c₀| + r_B, stays
// below the margin.
func (k *SepCert) Holds(a, b *Prepared, shift geom.Vec3) bool {
	if !(k.m > 0) {
		return false
	}
	// B's centre in A's frame, c = A_Aᵀ(x_B + shift − x_A): tmulV's
	// operations written out (the same bits, no call)
	d, r := b.x.Add(shift).Sub(a.x), &a.r
	c := geom.Vec3{
		X: r[0][0]*d.X + r[1][0]*d.Y + r[2][0]*d.Z,
		Y: r[0][1]*d.X + r[1][1]*d.Y + r[2][1]*d.Z,
		Z: r[0][2]*d.X + r[1][2]*d.Y + r[2][2]*d.Z,
	}
	// move = t + 2 sin(θ/2) r_B ≥ t exactly (a term ≥ 0 added, rounding
	// monotone), so move + tol ≥ t + tol: when the translation alone
	// reaches the margin, the answer below is false too (the same answer,
	// without the rotation's products).
	t := c.Sub(k.c).Norm()
	if !(t+k.tol < k.m) {
		return false
	}
	// dq = (q_A* q_B) k.q*, the operations of geom.Quat.Mul written out
	// (the same bits, no calls), of the second product its vector only
	qw, qx, qy, qz := a.q.W, -a.q.X, -a.q.Y, -a.q.Z
	p := &b.q
	pw := qw*p.W - qx*p.X - qy*p.Y - qz*p.Z
	px := qw*p.X + qx*p.W + qy*p.Z - qz*p.Y
	py := qw*p.Y - qx*p.Z + qy*p.W + qz*p.X
	pz := qw*p.Z + qx*p.Y - qy*p.X + qz*p.W
	rw, rx, ry, rz := k.q.W, -k.q.X, -k.q.Y, -k.q.Z
	dx := pw*rx + px*rw + py*rz - pz*ry
	dy := pw*ry - px*rz + py*rw + pz*rx
	dz := pw*rz + px*ry - py*rx + pz*rw
	sinHalf := math.Sqrt(dx*dx + dy*dy + dz*dz)
	move := t + 2*sinHalf*k.rb
	return move+k.tol < k.m
}

// State returns the certificate's numbers (margin, B's radius, relative
// centre, relative orientation) for a state file; ok is false for the zero
// certificate.
func (k *SepCert) State() (s [9]float64, ok bool) {
	if !(k.m > 0) {
		return s, false
	}
	return [9]float64{k.m, k.rb, k.c.X, k.c.Y, k.c.Z, k.q.W, k.q.X, k.q.Y, k.q.Z}, true
}

// SepCertOf is the certificate whose State is s, for a pair whose body B
// has shape b. err: s is no certificate (a margin not finite and > 0, a
// number not finite, a relative orientation not of unit length). ok is
// false when s was taken with another shape of B (its radius differs): the
// certificate is dropped and the next step tests the pair afresh.
func SepCertOf(s [9]float64, b Shape) (k SepCert, ok bool, err error) {
	for i, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return k, false, fmt.Errorf("number %d is %g", i, v)
		}
	}
	k = newSepCert(s[0], s[1], geom.Vec3{X: s[2], Y: s[3], Z: s[4]}, geom.Quat{W: s[5], X: s[6], Y: s[7], Z: s[8]})
	if !(k.m > 0) || k.rb < 0 {
		return SepCert{}, false, fmt.Errorf("margin %g, radius %g: want a margin > 0 and a radius ≥ 0", k.m, k.rb)
	}
	if n := k.q.W*k.q.W + k.q.X*k.q.X + k.q.Y*k.q.Y + k.q.Z*k.q.Z; math.Abs(n-1) > 1e-9 {
		return SepCert{}, false, fmt.Errorf("relative orientation of squared length %g: want 1", n)
	}
	if k.rb != b.boundR() {
		return SepCert{}, false, nil
	}
	return k, true, nil
}

// boundR returns √(A² + B² + C²), the radius of the bounding box's
// circumscribed sphere, which holds the particle (S1 §2.2).
func (s Shape) boundR() float64 { return math.Sqrt(s.A*s.A + s.B*s.B + s.C*s.C) }

// separated is Separated; pra and prb, when not nil, are a and b prepared.
func separated(a Shape, pra *Prepared, pa Pose, b Shape, prb *Prepared, pb Pose, hint *geom.Vec3) bool {
	sep, _ := separatedFrom(a, pra, pa, b, prb, pb, hint)
	return sep
}

// separatedFrom is separated, also reporting whether the axes found the plane.
func separatedFrom(a Shape, pra *Prepared, pa Pose, b Shape, prb *Prepared, pb Pose, hint *geom.Vec3) (sep, byAxes bool) {
	// work in A's body frame: B's axes (the columns of r) and centre c
	r := pa.Q.Conj().Mul(pb.Q).Mat()
	c := pa.Q.InvRotate(pb.X.Sub(pa.X))
	var qa, qb *prep
	if pra != nil {
		qa = &pra.unit
	}
	if prb != nil {
		qb = &prb.unit
	}
	if hint != nil && hint.IsFinite() && sepHint(a, qa, b, qb, &r, c, pa.Q.InvRotate(hint.Sub(pa.X))) {
		return true, false
	}
	sep = sepAxes(a, b, &r, c)
	return sep, sep
}

// sepHint tests the plane normal to the contact normal at x (A's frame);
// qa and qb, when not nil, are a and b's preps at unit scale.
func sepHint(a Shape, qa *prep, b Shape, qb *prep, r *geom.Mat3, c, x geom.Vec3) bool {
	return sepHintMargin(a, qa, b, qb, r, c, x) > 0
}

// sepHintMargin is sepHint's gap between the two sides of its plane,
// beyond the rounding allowance: > 0 exactly when sepHint is true.
func sepHintMargin(a Shape, qa *prep, b Shape, qb *prep, r *geom.Mat3, c, x geom.Vec3) float64 {
	if qa == nil {
		qa = new(prep)
		a.prepInto(qa, 1)
	}
	if qb == nil {
		qb = new(prep)
		b.prepInto(qb, 1)
	}
	var ea, eb evalOut
	qa.evalFG(x, &ea)
	xb := tmulV(r, x.Sub(c))
	qb.evalFG(xb, &eb)
	ga, gb := ea.g, mulV(r, eb.g)
	na, nb := ga.Norm(), gb.Norm()
	if !(na > 0 && nb > 0) {
		return 0
	}
	u := ga.Scale(1 / na).Sub(gb.Scale(1 / nb)).Unit() // from A to B
	if u == (geom.Vec3{}) {
		return 0
	}
	var hA, hB float64 // max over A of u·y, max over B of −u·y
	if a.N1 >= a.N2 {
		// max u·y over {ga·y ≤ ga·x − f_A(x)} ∩ box ≤ λβ + h_box(u − λga) for any λ ≥ 0
		lam := max(0, u.Dot(ga)/(na*na))
		v := u.Sub(ga.Scale(lam))
		hA = lam*(ga.Dot(x)-ea.f) + a.A*math.Abs(v.X) + a.B*math.Abs(v.Y) + a.C*math.Abs(v.Z)
	} else {
		hA = u.Dot(a.Support(u)) // S1 eq. (30)–(33)
	}
	if b.N1 >= b.N2 {
		// the same in B's body frame: −u·y = −u·c − ub·z, z in B's frame
		ub := tmulV(r, u)
		lam := max(0, -ub.Dot(eb.g)/(nb*nb))
		v := ub.Neg().Sub(eb.g.Scale(lam))
		hB = -u.Dot(c) + lam*(eb.g.Dot(xb)-eb.f) + b.A*math.Abs(v.X) + b.B*math.Abs(v.Y) + b.C*math.Abs(v.Z)
	} else {
		ub := tmulV(r, u).Neg()
		hB = -u.Dot(c) + ub.Dot(b.Support(ub))
	}
	// apart when max_A u·y < min_B u·y = −hB, with a relative margin for
	// rounding: −(hA + hB) − m₀ > 0 exactly when hA + hB < −m₀
	return -(hA + hB) - 1e-9*(math.Abs(hA)+math.Abs(hB)+c.Norm())
}

// sepAxes is the first stage of Separated: B's rotation r and centre c in A's frame.
func sepAxes(a, b Shape, r *geom.Mat3, c geom.Vec3) bool { return sepAxesMargin(a, b, r, c) > 0 }

// sepAxesMargin is sepAxes's gap along the first axis that separates (the
// line of centres, A's axes, B's axes, in that order), beyond the rounding
// allowance (apartBy); 0 when none does.
func sepAxesMargin(a, b Shape, r *geom.Mat3, c geom.Vec3) float64 {
	return sepAxesMarginK(a, b, supportK(a), supportK(b), r, c)
}

// sepAxesMarginK is sepAxesMargin with a and b's supportK given (kept per
// prepared shape: Prepared.sk).
func sepAxesMarginK(a, b Shape, ka, kb float64, r *geom.Mat3, c geom.Vec3) float64 {
	d := c.Norm()
	// the line of centres
	if d > 0 {
		u := c.Scale(1 / d)
		if m := apartBy(d, supportBound(a, ka, u)+supportBound(b, kb, tmulV(r, u))); m > 0 {
			return m
		}
	}
	// A's axes: |c_i| > h_A(e_i) + h_B(e_i), h_A(e_i) the half-length
	if m := apartBy(math.Abs(c.X), a.A+supportBound(b, kb, geom.Vec3{X: r[0][0], Y: r[0][1], Z: r[0][2]})); m > 0 {
		return m
	}
	if m := apartBy(math.Abs(c.Y), a.B+supportBound(b, kb, geom.Vec3{X: r[1][0], Y: r[1][1], Z: r[1][2]})); m > 0 {
		return m
	}
	if m := apartBy(math.Abs(c.Z), a.C+supportBound(b, kb, geom.Vec3{X: r[2][0], Y: r[2][1], Z: r[2][2]})); m > 0 {
		return m
	}
	// B's axes
	cb := tmulV(r, c)
	if m := apartBy(math.Abs(cb.X), b.A+supportBound(a, ka, r.Col(0))); m > 0 {
		return m
	}
	if m := apartBy(math.Abs(cb.Y), b.B+supportBound(a, ka, r.Col(1))); m > 0 {
		return m
	}
	return max(0, apartBy(math.Abs(cb.Z), b.C+supportBound(a, ka, r.Col(2))))
}

// apartBy returns d − h·(1 + 1e-9): > 0 exactly when the distance d of the
// projected centres exceeds the sum h of the support bounds by more than a
// relative 1e-9 (rounding).
func apartBy(d, h float64) float64 { return d - h*(1+1e-9) }

// supportK returns 3^(1/q − 1/2) = 3^(1/2 − 1/n) for n1 = n2 = n (the bound of
// the ℓ_q norm by the ℓ_2 norm in three dimensions), or 0 when n1 ≠ n2.
func supportK(s Shape) float64 {
	if s.N1 != s.N2 {
		return 0
	}
	if i := smallInt(s.N1); i > 0 {
		return supportKTab[i]
	}
	return math.Pow(3, 0.5-1/s.N1)
}

var supportKTab = func() (t [MaxBlockiness + 1]float64) {
	for i := 2; i <= MaxBlockiness; i++ {
		t[i] = math.Pow(3, 0.5-1/float64(i))
	}
	return t
}()

// supportBound returns an upper bound of the support function h(u) =
// max over the body of u·x for a body-frame unit vector u: the bounding box's
// ℓ_1 form |a u_x| + |b u_y| + |c u_z| and, when k > 0 (n1 = n2), k times the
// ℓ_2 form, which is exact for an ellipsoid.
func supportBound(s Shape, k float64, u geom.Vec3) float64 {
	x, y, z := s.A*u.X, s.B*u.Y, s.C*u.Z
	h := math.Abs(x) + math.Abs(y) + math.Abs(z)
	if k > 0 {
		h = min(h, k*math.Sqrt(x*x+y*y+z*z))
	}
	return h
}
