package sq

import (
	"math"

	"grainlab/sim/geom"
)

// Separated reports whether shape a at pose pa and shape b at pose pb are
// certainly apart, by a separating axis: first the line of centres and the
// six body axes with upper bounds of the support functions (S1 §2.2: the
// particle lies in its bounding box (a, b, c); for n1 = n2 = n it is the unit
// ball of the scaled ℓ_n norm, whose support function is the dual ℓ_q norm,
// q = n/(n − 1), at most 3^(1/q − 1/2) times the ℓ_2 norm); then, when hint
// is not nil, the contact normal at the world point *hint (a previous
// midway point of a separated pair, ContactResult.Point) with the exact
// support functions (S1 eq. 30–33), which separates a pair that has moved
// little since. It costs a fraction of Contact and never reports true for
// touching or overlapping shapes.
func Separated(a Shape, pa Pose, b Shape, pb Pose, hint *geom.Vec3) bool {
	// work in A's body frame: B's axes (the columns of r) and centre c
	r := pa.Q.Conj().Mul(pb.Q).Mat()
	c := pa.Q.InvRotate(pb.X.Sub(pa.X))
	if sepAxes(a, b, &r, c) {
		return true
	}
	if hint == nil || !hint.IsFinite() {
		return false
	}
	// the normal at the hint from the two gradients (as in finish), pointing from A to B
	x := pa.Q.InvRotate(hint.Sub(pa.X))
	qa, qb := a.prep(), b.prep()
	_, ga, _ := qa.eval(x, true, false)
	_, gb, _ := qb.eval(tmulV(&r, x.Sub(c)), true, false)
	gb = mulV(&r, gb)
	u := ga.Unit().Sub(gb.Unit()).Unit()
	if u == (geom.Vec3{}) {
		return false
	}
	ha := u.Dot(a.Support(u))   // S1 eq. (30)–(33): h_A(u)
	ub := tmulV(&r, u).Neg()    // −u in B's frame
	hb := ub.Dot(b.Support(ub)) // h_B(−u)
	return apart(c.Dot(u), ha+hb)
}

// sepAxes is the first stage of Separated: B's rotation r and centre c in A's frame.
func sepAxes(a, b Shape, r *geom.Mat3, c geom.Vec3) bool {
	d := c.Norm()
	ka, kb := supportK(a), supportK(b)
	// the line of centres
	if d > 0 {
		u := c.Scale(1 / d)
		if apart(d, supportBound(a, ka, u)+supportBound(b, kb, tmulV(r, u))) {
			return true
		}
	}
	// A's axes: |c_i| > h_A(e_i) + h_B(e_i), h_A(e_i) the half-length
	if apart(math.Abs(c.X), a.A+supportBound(b, kb, geom.Vec3{X: r[0][0], Y: r[0][1], Z: r[0][2]})) ||
		apart(math.Abs(c.Y), a.B+supportBound(b, kb, geom.Vec3{X: r[1][0], Y: r[1][1], Z: r[1][2]})) ||
		apart(math.Abs(c.Z), a.C+supportBound(b, kb, geom.Vec3{X: r[2][0], Y: r[2][1], Z: r[2][2]})) {
		return true
	}
	// B's axes
	cb := tmulV(r, c)
	return apart(math.Abs(cb.X), b.A+supportBound(a, ka, r.Col(0))) ||
		apart(math.Abs(cb.Y), b.B+supportBound(a, ka, r.Col(1))) ||
		apart(math.Abs(cb.Z), b.C+supportBound(a, ka, r.Col(2)))
}

// apart reports whether the distance d of the projected centres exceeds the
// sum h of the support bounds by more than a relative 1e-9 (rounding).
func apart(d, h float64) bool { return d > h*(1+1e-9) }

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
