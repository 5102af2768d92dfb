// Package sq holds the geometric and contact core of superquadric particles
// after Podlozhnyuk, Pirker & Kloss (S1): the shape function with its gradient
// and Hessian, closed-form mass properties and bounding volumes, the midway
// contact point between two particles with the overlap along the contact line,
// local curvature radii, plane contact and a render tessellation.
//
// Conventions: the shape function is S1 eq. (1),
// f(x) = (|x/a|^n2 + |y/b|^n2)^(n1/n2) + |z/c|^n1 − 1,
// so n2 shapes the xy cross-section and n1 the profile along z (n1 = n2 = 2 is
// an ellipsoid, n2 = 2 with a = b and large n1 a cylinder along z). Poses rotate
// body to world; the contact normal points from B to A, and the force on A is
// +Fn·N.
package sq

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// MaxBlockiness is the largest blockiness exponent Validate accepts.
const MaxBlockiness = 20

// Shape is a superquadric in its body frame: half-lengths A, B, C along x, y, z
// and blockiness N1 (profile along z) and N2 (xy cross-section), S1 eq. (1).
type Shape struct{ A, B, C, N1, N2 float64 }

// Sphere returns the sphere of radius r as a Shape.
func Sphere(r float64) Shape { return Shape{r, r, r, 2, 2} }

// Validate reports a non-finite or non-positive half-length or a blockiness
// outside [2, MaxBlockiness], naming the field.
func (s Shape) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"A", s.A}, {"B", s.B}, {"C", s.C}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v <= 0 {
			return fmt.Errorf("sq: half-length %s = %g must be positive and finite", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"N1", s.N1}, {"N2", s.N2}} {
		if math.IsNaN(f.v) || f.v < 2 || f.v > MaxBlockiness {
			return fmt.Errorf("sq: blockiness %s = %g must lie in [2, %d]", f.name, f.v, MaxBlockiness)
		}
	}
	return nil
}

// Scaled returns the shape with every half-length multiplied by k.
func (s Shape) Scaled(k float64) Shape { return Shape{s.A * k, s.B * k, s.C * k, s.N1, s.N2} }

// F returns the shape function f(x) at the body-frame point x, S1 eq. (1):
// negative inside, zero on the surface, positive outside.
func (s Shape) F(x geom.Vec3) float64 {
	p := s.prep()
	f, _, _ := p.eval(x, false, false)
	return f
}

// Grad returns ∇f at the body-frame point x, S1 eq. (14).
func (s Shape) Grad(x geom.Vec3) geom.Vec3 {
	p := s.prep()
	_, g, _ := p.eval(x, true, false)
	return g
}

// Hessian returns the Hessian of f at the body-frame point x, S1 eq. (15)–(17).
func (s Shape) Hessian(x geom.Vec3) geom.Mat3 {
	p := s.prep()
	_, _, h := p.eval(x, true, true)
	return h
}

// Eval returns f, ∇f and the Hessian at the body-frame point x in one pass.
func (s Shape) Eval(x geom.Vec3) (float64, geom.Vec3, geom.Mat3) {
	p := s.prep()
	return p.eval(x, true, true)
}

// Normal returns the outward unit normal ∇f/|∇f| at the body-frame point x.
func (s Shape) Normal(x geom.Vec3) geom.Vec3 { return s.Grad(x).Unit() }

// Gauge returns (1 + f(x))^(1/n1): 1 on the surface and homogeneous of degree
// one in x (f + 1 is homogeneous of degree n1), so x/Gauge(x) lies on the surface.
func (s Shape) Gauge(x geom.Vec3) float64 {
	p := s.prep()
	return p.root1(p.phi(x))
}

// phi returns f(x) + 1 = ν^(n1/n2) + |z/c|^n1 without the cancellation of
// forming f first (S1 eq. 1).
func (q *prep) phi(x geom.Vec3) float64 {
	X, Y, Z := math.Abs(x.X)*q.ia, math.Abs(x.Y)*q.ib, math.Abs(x.Z)*q.ic
	_, _, x0 := powParts(X, q.n2, q.i2)
	_, _, y0 := powParts(Y, q.n2, q.i2)
	_, _, z0 := powParts(Z, q.n1, q.i1)
	nu := x0 + y0
	if nu > 0 {
		nu *= q.nuPow1(nu)
	}
	return nu + z0 // S1 eq. (1) plus one
}

// Project returns the radial projection c·x/Gauge(x) of x onto the surface
// (the body centre maps to itself).
func (s Shape) Project(x geom.Vec3) geom.Vec3 {
	g := s.Gauge(x)
	if !(g > 0) {
		return x
	}
	return x.Scale(1 / g)
}

// Pose places a body: X is the world position of the centre and Q rotates
// body-frame vectors into the world frame.
type Pose struct {
	X geom.Vec3
	Q geom.Quat
}

// ToLocal returns the body-frame coordinates of the world point w, x = Aᵀ(X − X_C), S1 eq. (18).
func (p Pose) ToLocal(w geom.Vec3) geom.Vec3 { return p.Q.InvRotate(w.Sub(p.X)) }

// ToWorld returns the world point of the body-frame point x, X = X_C + A x.
func (p Pose) ToWorld(x geom.Vec3) geom.Vec3 { return p.X.Add(p.Q.Rotate(x)) }

// FWorld returns F(X) = f(Aᵀ(X − X_C)) at the world point w, S1 eq. (13).
func (s Shape) FWorld(p Pose, w geom.Vec3) float64 { return s.F(p.ToLocal(w)) }

// EvalWorld returns F, ∇F = A∇f and H_F = A H_f Aᵀ at the world point w, S1 eq. (18).
func (s Shape) EvalWorld(p Pose, w geom.Vec3) (float64, geom.Vec3, geom.Mat3) {
	ps := s.posed(p, geom.Vec3{}, 1)
	var e evalOut
	ps.evalW(w, &e)
	return e.f, e.g, ps.hessW(&e).mat()
}

// Prepared is a shape with the constants of its contact queries computed
// once (per body, not per pair and call): the prep at unit scale (curvature
// radius, separating plane) and at the scale of its own largest half-length
// (the midway-point frame of a pair whose smaller particle it is). The
// results of the queries are the same bits as with the bare Shape.
type Prepared struct {
	S    Shape
	unit prep    // s.prepInto(·, 1)
	own  prep    // s.prepInto(·, 1/ownL)
	ownL float64 // max(A, B, C)
	sk   float64 // supportK(S), for the separation test's axes

	// The pose the body was last placed at (Place) with its rotation
	// matrix A(q) of S1 eq. (4), formed once per body and step instead of
	// once per pair query (ContactPlaced, SeparatedPlaced, ToLocal).
	x      geom.Vec3
	q      geom.Quat
	r      geom.Mat3
	placed bool
}

// Place records the body's pose (centre x, orientation q) and its rotation
// matrix for the placed queries.
func (p *Prepared) Place(x geom.Vec3, q geom.Quat) { p.PlaceHalfWidths(x, q) }

// HalfWidths returns the half-widths of the world-axis box around the
// placed shape's oriented bounding box (S1 §2.2: half-lengths a, b, c):
// Σ_j |A_ij|·ext_j with A = A(q) of S1 eq. (4) as Place formed it.
func (p *Prepared) HalfWidths() geom.Vec3 {
	r, a, b, c := &p.r, p.S.A, p.S.B, p.S.C
	return geom.Vec3{
		X: math.Abs(r[0][0])*a + math.Abs(r[0][1])*b + math.Abs(r[0][2])*c,
		Y: math.Abs(r[1][0])*a + math.Abs(r[1][1])*b + math.Abs(r[1][2])*c,
		Z: math.Abs(r[2][0])*a + math.Abs(r[2][1])*b + math.Abs(r[2][2])*c,
	}
}

// PlaceHalfWidths is Place(x, q) then HalfWidths() in one call: the same
// operations in the same order (the same bits), with the rotation's
// entries weighed while they are in registers instead of read back from p.
func (p *Prepared) PlaceHalfWidths(x geom.Vec3, q geom.Quat) geom.Vec3 {
	p.x, p.q, p.placed = x, q, true
	// geom.Quat.Mat's entries, written in place (the same operations, the
	// same bits; no 3×3 temporary copied per body and step).
	w, qx, qy, qz := q.W, q.X, q.Y, q.Z
	r00, r01, r02 := 1-2*(qy*qy+qz*qz), 2*(qx*qy-w*qz), 2*(qx*qz+w*qy)
	r10, r11, r12 := 2*(qx*qy+w*qz), 1-2*(qx*qx+qz*qz), 2*(qy*qz-w*qx)
	r20, r21, r22 := 2*(qx*qz-w*qy), 2*(qy*qz+w*qx), 1-2*(qx*qx+qy*qy)
	r := &p.r
	r[0][0], r[0][1], r[0][2] = r00, r01, r02
	r[1][0], r[1][1], r[1][2] = r10, r11, r12
	r[2][0], r[2][1], r[2][2] = r20, r21, r22
	a, b, c := p.S.A, p.S.B, p.S.C
	return geom.Vec3{
		X: math.Abs(r00)*a + math.Abs(r01)*b + math.Abs(r02)*c,
		Y: math.Abs(r10)*a + math.Abs(r11)*b + math.Abs(r12)*c,
		Z: math.Abs(r20)*a + math.Abs(r21)*b + math.Abs(r22)*c,
	}
}

// At reports whether p was placed at the pose (x, q) (Place).
func (p *Prepared) At(x geom.Vec3, q geom.Quat) bool {
	return p.placed && p.x == x && p.q == q
}

// ToLocal returns the body-frame coordinates Aᵀ(w − X_C) of the world point
// w at the placed pose (S1 eq. 18), with the matrix formed at Place.
func (p *Prepared) ToLocal(w geom.Vec3) geom.Vec3 { return tmulV(&p.r, w.Sub(p.x)) }

// Prepare returns s with its query constants.
func (s Shape) Prepare() Prepared {
	p := Prepared{S: s, ownL: max(s.A, s.B, s.C), sk: supportK(s)}
	s.prepInto(&p.unit, 1)
	s.prepInto(&p.own, 1/p.ownL)
	return p
}

// For reports whether p was prepared from s (false for the zero Prepared).
func (p *Prepared) For(s Shape) bool {
	q := &p.S // field by field: the struct comparison is a call
	return q.A == s.A && q.B == s.B && q.C == s.C && q.N1 == s.N1 && q.N2 == s.N2 && p.ownL > 0
}

// prep is a Shape with the reciprocals, exponent flags and coefficients the
// hot loop needs (computed once per shape and contact query).
type prep struct {
	ia, ib, ic float64 // 1/a, 1/b, 1/c
	n1, n2, p  float64 // p = n1/n2
	i1, i2     int     // n1, n2 when they are small integers, else 0
	pk         int     // kind of ν^(p−1): 0 generic, 1 p = 1, 2 p = 2, 3 p = 1/2
	same       int     // n1 = n2 = same, a small integer (the fast path of evalFG), else 0
	gx, gy, gz float64 // n1/a, n1/b, n1/c: the gradient factors of S1 eq. (14)
	hz         float64 // n1(n1 − 1)/c²: f_zz factor, S1 eq. (15)
	l1, l2     float64 // series coefficients of the gauge step (lineExit)
	diag       float64 // |(a, b, c)|, the half-diagonal of the bounding box
}

func smallInt(n float64) int {
	if n >= 2 && n <= MaxBlockiness {
		if i := int(n); float64(i) == n {
			return i
		}
	}
	return 0
}

func (s Shape) prep() prep {
	var q prep
	s.prepInto(&q, 1)
	return q
}

// prepInto sets q to the prep of s scaled by k (s.Scaled(k).prep()).
func (s Shape) prepInto(q *prep, k float64) {
	a, b, c := s.A*k, s.B*k, s.C*k
	q.ia, q.ib, q.ic = 1/a, 1/b, 1/c
	q.n1, q.n2 = s.N1, s.N2
	q.diag = math.Sqrt(a*a + b*b + c*c)
	q.i1, q.i2 = smallInt(s.N1), smallInt(s.N2)
	q.pk, q.same = 0, 0
	switch {
	case s.N1 == s.N2:
		q.pk = 1
		q.same = q.i1
	case s.N1 == 2*s.N2:
		q.pk = 2
	case 2*s.N1 == s.N2:
		q.pk = 3
	}
	q.p = 1 // n1/n2, used by nuPow1 in the generic case only
	if q.pk != 1 {
		q.p = s.N1 / s.N2
	}
	q.gx, q.gy, q.gz = s.N1*q.ia, s.N1*q.ib, s.N1*q.ic
	q.hz = s.N1 * (s.N1 - 1) * q.ic * q.ic
	r := 0.0 // 1/n1: (1 + u)^r = 1 + r·u + r(r − 1)/2·u² + r(r − 1)(r − 2)/6·u³ + …
	if q.i1 > 0 {
		r = invInt[q.i1]
	} else {
		r = 1 / s.N1
	}
	q.l1, q.l2 = (r-1)/2, (r-1)*(r-2)/6
}

// invInt holds 1/i for the integer blockiness exponents.
var invInt = func() (t [MaxBlockiness + 1]float64) {
	for i := 1; i <= MaxBlockiness; i++ {
		t[i] = 1 / float64(i)
	}
	return t
}()

// powParts returns t^(n−2), t^(n−1), t^n for t ≥ 0 and n ≥ 2 (ni = n when n is
// a small integer): a few multiplications by repeated squaring for an integer
// n, one math.Pow otherwise; never 0/0.
func powParts(t, n float64, ni int) (m2, m1, m0 float64) {
	switch ni {
	case 0:
		m2 = math.Pow(t, n-2)
	case 2:
		m2 = 1
	case 3:
		m2 = t
	case 4:
		m2 = t * t
	case 6:
		t2 := t * t
		m2 = t2 * t2
	case 8:
		t2 := t * t
		m2 = t2 * t2 * t2
	case 10:
		t2 := t * t
		t4 := t2 * t2
		m2 = t4 * t4
	default:
		m2 = ipow(t, ni-2)
	}
	m1 = m2 * t
	return m2, m1, m1 * t
}

// ipow returns t^k for k ≥ 0 by repeated squaring.
func ipow(t float64, k int) float64 {
	r := 1.0
	for k > 0 {
		if k&1 != 0 {
			r *= t
		}
		t *= t
		k >>= 1
	}
	return r
}

// nuPow1 returns ν^(p−1) for ν > 0.
func (q *prep) nuPow1(nu float64) float64 {
	switch q.pk {
	case 1:
		return 1
	case 2:
		return nu
	case 3:
		return 1 / math.Sqrt(nu)
	}
	return math.Pow(nu, q.p-1)
}

// root1 returns t^(1/n1) for t ≥ 0.
func (q *prep) root1(t float64) float64 {
	if t <= 0 {
		return 0
	}
	switch q.i1 {
	case 2:
		return math.Sqrt(t)
	case 4:
		return math.Sqrt(math.Sqrt(t))
	case 8:
		return math.Sqrt(math.Sqrt(math.Sqrt(t)))
	}
	return math.Pow(t, 1/q.n1)
}

func sgn(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// evalOut holds F and ∇F at one point, with the powers of the body-frame
// coordinates that the Hessian needs, so that it can be formed later (hess)
// without evaluating the powers again.
type evalOut struct {
	f float64
	g geom.Vec3

	x2, x1, y2, y1, z2 float64 // |x/a|^(n2−2), |x/a|^(n2−1), likewise y; |z/c|^(n1−2)
	nu, nup1           float64 // ν of S1 eq. (14) and ν^(n1/n2 − 1) (0 on the z-axis)
	sxy                float64 // sign(x)·sign(y)
}

// evalFG sets e.f and e.g to f and ∇f at the body-frame point x (S1 eq. 1,
// 14) and keeps the powers for hess. Absolute values and signs are split so
// that non-integer powers never see a negative base. n1 = n2 = an integer
// (the common blockiness) takes products only.
func (q *prep) evalFG(x geom.Vec3, e *evalOut) {
	X, Y, Z := math.Abs(x.X)*q.ia, math.Abs(x.Y)*q.ib, math.Abs(x.Z)*q.ic
	var x2, y2, z2 float64
	// n1 = n2 = 2, 3, 4, 6, 8, 10: |t|^(n−2) by repeated squaring for all
	// three coordinates at once, without a call (so that this common path
	// needs no stack frame); every other shape takes evalFGPow.
	switch q.same {
	case 10:
		x2, y2, z2 = X*X, Y*Y, Z*Z
		x2, y2, z2 = x2*x2, y2*y2, z2*z2
		x2, y2, z2 = x2*x2, y2*y2, z2*z2
	case 4:
		x2, y2, z2 = X*X, Y*Y, Z*Z
	case 2:
		x2, y2, z2 = 1, 1, 1
	case 6:
		x2, y2, z2 = X*X, Y*Y, Z*Z
		x2, y2, z2 = x2*x2, y2*y2, z2*z2
	case 8:
		x2, y2, z2 = X*X, Y*Y, Z*Z
		x2, y2, z2 = x2*x2*x2, y2*y2*y2, z2*z2*z2
	case 3:
		x2, y2, z2 = X, Y, Z
	default:
		q.evalFGPow(x, X, Y, Z, e)
		return
	}
	x1, y1, z1 := x2*X, y2*Y, z2*Z
	x0, y0, z0 := x1*X, y1*Y, z1*Z
	nu := x0 + y0 // S1 eq. (14)–(15): ν = |x/a|^n2 + |y/b|^n2
	nup1 := 1.0   // ν^(n1/n2 − 1) with n1/n2 = 1
	if !(nu > 0) {
		nup1 = 0
	}
	// the tail of evalFGPow, written out (no call on this path)
	e.f = nup1*nu + z0 - 1            // S1 eq. (1)
	e.g.X = signOf(q.gx*x1*nup1, x.X) // S1 eq. (14): f_x
	e.g.Y = signOf(q.gy*y1*nup1, x.Y) // S1 eq. (14): f_y
	e.g.Z = signOf(q.gz*z1, x.Z)      // S1 eq. (14): f_z
	e.x2, e.x1, e.y2, e.y1, e.z2, e.nu, e.nup1 = x2, x1, y2, y1, z2, nu, nup1
	// sign(x)·sign(y) = Copysign(1, x)·Copysign(1, y): ±1 with the sign bits xor'ed
	e.sxy = math.Float64frombits(0x3ff0000000000000 | (math.Float64bits(x.X)^math.Float64bits(x.Y))&(1<<63))
}

// evalFGPow is evalFG for the shapes without its fast path: powParts per
// coordinate (repeated squaring for an integer exponent, math.Pow else)
// and ν^(n1/n2 − 1) by nuPow1. X, Y, Z are |x/a|, |y/b|, |z/c|.
func (q *prep) evalFGPow(x geom.Vec3, X, Y, Z float64, e *evalOut) {
	x2, x1, x0 := powParts(X, q.n2, q.i2)
	y2, y1, y0 := powParts(Y, q.n2, q.i2)
	z2, z1, z0 := powParts(Z, q.n1, q.i1)
	nu := x0 + y0 // S1 eq. (14)–(15): ν = |x/a|^n2 + |y/b|^n2
	nup1 := 0.0
	if nu > 0 {
		nup1 = q.nuPow1(nu)
	}
	// f and ∇f (S1 eq. 1, 14), and the powers that hess needs
	e.f = nup1*nu + z0 - 1            // S1 eq. (1)
	e.g.X = signOf(q.gx*x1*nup1, x.X) // S1 eq. (14): f_x
	e.g.Y = signOf(q.gy*y1*nup1, x.Y) // S1 eq. (14): f_y
	e.g.Z = signOf(q.gz*z1, x.Z)      // S1 eq. (14): f_z
	e.x2, e.x1, e.y2, e.y1, e.z2, e.nu, e.nup1 = x2, x1, y2, y1, z2, nu, nup1
	// sign(x)·sign(y) = Copysign(1, x)·Copysign(1, y): ±1 with the sign bits xor'ed
	e.sxy = math.Float64frombits(0x3ff0000000000000 | (math.Float64bits(x.X)^math.Float64bits(x.Y))&(1<<63))
}

// signOf returns math.Copysign(v, s) for v whose sign bit is clear (a
// product of non-negative factors, as every magnitude of evalFG): the sign
// bit of s or'ed in, one operation less than Copysign (the same bits).
// Only then: a v with its sign bit set comes out negative whatever s is —
// a NaN from ∞·0 (an infinite coordinate times a zero power; amd64's
// default NaN has the sign bit set) is −NaN here where Copysign gave the
// NaN the sign of s (review r3). Both are NaN; only that bit differs.
func signOf(v, s float64) float64 {
	return math.Float64frombits(math.Float64bits(v) | math.Float64bits(s)&(1<<63))
}

// hbody is the body-frame Hessian of f: symmetric with f_xz = f_yz = 0 (S1
// eq. 15–17), so four entries.
type hbody struct{ xx, xy, yy, zz float64 }

// sym3 is a symmetric 3×3 matrix by its upper triangle.
type sym3 struct{ xx, xy, xz, yy, yz, zz float64 }

// mat returns h as a Mat3.
func (h sym3) mat() geom.Mat3 {
	return geom.Mat3{{h.xx, h.xy, h.xz}, {h.xy, h.yy, h.yz}, {h.xz, h.yz, h.zz}}
}

// hess returns the body-frame Hessian of f (S1 eq. 15–17) from the powers
// kept by evalFG. On the z-axis (ν = 0) it takes the limit: the block
// 2/a², 2/b² when n1 = 2 (zero otherwise).
func (q *prep) hess(e *evalOut) hbody {
	var h hbody
	h.zz = q.hz * e.z2 // S1 eq. (15): f_zz
	if e.nu > 0 && q.pk == 1 {
		// n1 = n2: the terms with n1 − n2 vanish (they added +0, and gave
		// f_xy the sign of sign(x)·sign(y): 0·sxy is the same ±0). Where
		// 1/ν overflows (ν subnormal, ≈ 1e-320: x, y ≈ 1e-80 for n = 4)
		// the general form below gave NaN (0·∞); this branch gives the
		// finite f_xx, f_yy and a zero f_xy — better, not the old bits.
		c := q.n1 * e.nup1
		h.xx = c * q.ia * q.ia * ((q.n2 - 1) * e.x2) // S1 eq. (15): f_xx
		h.yy = c * q.ib * q.ib * ((q.n2 - 1) * e.y2) // S1 eq. (15): f_yy
		h.xy = 0 * e.sxy                             // S1 eq. (15): f_xy
	} else if e.nu > 0 {
		n1 := q.n1
		d := n1 - q.n2
		inu := 1 / e.nu
		c := n1 * e.nup1
		h.xx = c * q.ia * q.ia * ((q.n2-1)*e.x2 + d*e.x1*e.x1*inu) // S1 eq. (15): f_xx
		h.yy = c * q.ib * q.ib * ((q.n2-1)*e.y2 + d*e.y1*e.y1*inu) // S1 eq. (15): f_yy
		h.xy = c * q.ia * q.ib * d * e.x1 * e.y1 * inu * e.sxy     // S1 eq. (15): f_xy
	} else if q.n1 == 2 {
		h.xx, h.yy = 2*q.ia*q.ia, 2*q.ib*q.ib // limit along the axes
	}
	return h
}

// eval returns f and, on request, ∇f (S1 eq. 14) and the Hessian (S1 eq. 15–17)
// at the body-frame point x.
func (q *prep) eval(x geom.Vec3, wantG, wantH bool) (f float64, g geom.Vec3, h geom.Mat3) {
	var e evalOut
	q.evalFG(x, &e)
	if wantG {
		g = e.g
	}
	if wantH {
		hb := q.hess(&e)
		h = geom.Mat3{{hb.xx, hb.xy, 0}, {hb.xy, hb.yy, 0}, {0, 0, hb.zz}}
	}
	return e.f, g, h
}

// posed is a prepared shape placed in a (shifted, scaled) frame; ident marks
// a shape at the origin of that frame with no rotation (the frame is its own
// body frame), which skips the rotations. The rotation and the prep are
// pointed to, not held: a contact query places both shapes per call, and
// their preps are usually the per-body ones (Prepared), used as they are.
type posed struct {
	c     geom.Vec3  // centre
	r     *geom.Mat3 // body → frame rotation A(q), S1 eq. (4) (identM when ident)
	ident bool       // c = 0, r = I
	q     *prep
}

// identM is the identity rotation of a posed shape with ident set.
var identM = geom.Identity()

// posed places s at pose p, with world coordinates shifted by −origin and
// scaled by invL (the shape is scaled alike).
func (s Shape) posed(p Pose, origin geom.Vec3, invL float64) posed {
	r := p.Q.Mat()
	ps := posed{c: p.X.Sub(origin).Scale(invL), r: &r, q: new(prep)}
	s.prepInto(ps.q, invL)
	return ps
}

// evalW sets F and ∇F at the frame point w, S1 eq. (18): evalWGo, or for a
// shape with n1 = n2 = 10 (the blockiest of the settling benchmarks) its
// SSE2 twin evalW1SSE2 (rotated or ident): the same bits, on amd64 below
// GOAMD64=v3.
func (ps *posed) evalW(w geom.Vec3, e *evalOut) {
	if evalWAsm && ps.q.same == 10 {
		evalW1SSE2(ps, &w, e)
		return
	}
	ps.evalWGo(w, e)
}

// evalWGo is evalW in Go.
func (ps *posed) evalWGo(w geom.Vec3, e *evalOut) {
	if ps.ident {
		ps.q.evalFG(w, e)
		return
	}
	r := ps.r
	dx, dy, dz := w.X-ps.c.X, w.Y-ps.c.Y, w.Z-ps.c.Z
	ps.q.evalFG(geom.Vec3{ // S1 eq. (18): x = Aᵀ(X − X_C)
		X: r[0][0]*dx + r[1][0]*dy + r[2][0]*dz,
		Y: r[0][1]*dx + r[1][1]*dy + r[2][1]*dz,
		Z: r[0][2]*dx + r[1][2]*dy + r[2][2]*dz,
	}, e)
	g := e.g
	e.g = geom.Vec3{ // S1 eq. (18): ∇F = A∇f
		X: r[0][0]*g.X + r[0][1]*g.Y + r[0][2]*g.Z,
		Y: r[1][0]*g.X + r[1][1]*g.Y + r[1][2]*g.Z,
		Z: r[2][0]*g.X + r[2][1]*g.Y + r[2][2]*g.Z,
	}
}

// hessW returns H_F from the powers of the last evalW into e, S1 eq. (18).
func (ps *posed) hessW(e *evalOut) sym3 {
	h := ps.q.hess(e)
	if ps.ident {
		return sym3{xx: h.xx, xy: h.xy, yy: h.yy, zz: h.zz}
	}
	return rotSym(ps.r, h) // S1 eq. (18): H_F = A H_f Aᵀ
}

// mulV returns m·v.
func mulV(m *geom.Mat3, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		Y: m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		Z: m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// tmulV returns mᵀ·v.
func tmulV(m *geom.Mat3, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: m[0][0]*v.X + m[1][0]*v.Y + m[2][0]*v.Z,
		Y: m[0][1]*v.X + m[1][1]*v.Y + m[2][1]*v.Z,
		Z: m[0][2]*v.X + m[1][2]*v.Y + m[2][2]*v.Z,
	}
}

// rotSym returns R h Rᵀ for a body-frame Hessian h.
func rotSym(r *geom.Mat3, h hbody) sym3 {
	// rows of R·h
	a0, a1, a2 := r[0][0]*h.xx+r[0][1]*h.xy, r[0][0]*h.xy+r[0][1]*h.yy, r[0][2]*h.zz
	b0, b1, b2 := r[1][0]*h.xx+r[1][1]*h.xy, r[1][0]*h.xy+r[1][1]*h.yy, r[1][2]*h.zz
	c0, c1, c2 := r[2][0]*h.xx+r[2][1]*h.xy, r[2][0]*h.xy+r[2][1]*h.yy, r[2][2]*h.zz
	return sym3{
		xx: a0*r[0][0] + a1*r[0][1] + a2*r[0][2],
		xy: a0*r[1][0] + a1*r[1][1] + a2*r[1][2],
		xz: a0*r[2][0] + a1*r[2][1] + a2*r[2][2],
		yy: b0*r[1][0] + b1*r[1][1] + b2*r[1][2],
		yz: b0*r[2][0] + b1*r[2][1] + b2*r[2][2],
		zz: c0*r[2][0] + c1*r[2][1] + c2*r[2][2],
	}
}
