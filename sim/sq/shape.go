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
	ps.evalW(w, true, &e)
	return e.f, e.g, e.h
}

// prep is a Shape with the reciprocals and exponent flags the hot loop needs.
type prep struct {
	ia, ib, ic float64 // 1/a, 1/b, 1/c
	n1, n2, p  float64 // p = n1/n2
	i1, i2     int     // n1, n2 when they are small integers, else 0
	pk         int     // kind of ν^(p−1): 0 generic, 1 p = 1, 2 p = 2, 3 p = 1/2
}

func smallInt(n float64) int {
	if n == math.Trunc(n) && n >= 2 && n <= MaxBlockiness {
		return int(n)
	}
	return 0
}

func (s Shape) prep() prep {
	q := prep{ia: 1 / s.A, ib: 1 / s.B, ic: 1 / s.C, n1: s.N1, n2: s.N2, p: s.N1 / s.N2}
	q.i1, q.i2 = smallInt(s.N1), smallInt(s.N2)
	switch {
	case s.N1 == s.N2:
		q.pk = 1
	case s.N1 == 2*s.N2:
		q.pk = 2
	case 2*s.N1 == s.N2:
		q.pk = 3
	}
	return q
}

// powParts returns t^(n−2), t^(n−1), t^n for t ≥ 0 and n ≥ 2 (ni = n when n is
// a small integer): one multiplication chain or one math.Pow, never 0/0.
func powParts(t, n float64, ni int) (m2, m1, m0 float64) {
	if ni > 0 {
		m2 = 1
		for k := 2; k < ni; k++ {
			m2 *= t
		}
	} else {
		m2 = math.Pow(t, n-2)
	}
	m1 = m2 * t
	return m2, m1, m1 * t
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
	}
	return math.Pow(t, 1/q.n1)
}

func sgn(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// eval returns f and, on request, ∇f (S1 eq. 14) and the Hessian (S1 eq. 15–17)
// at the body-frame point x. Absolute values and signs are split so that
// non-integer powers never see a negative base, and the z-axis (ν = 0) takes the
// limits: zero gradient in x, y and the Hessian block 2/a², 2/b² when n1 = 2.
func (q *prep) eval(x geom.Vec3, wantG, wantH bool) (f float64, g geom.Vec3, h geom.Mat3) {
	X, Y, Z := math.Abs(x.X)*q.ia, math.Abs(x.Y)*q.ib, math.Abs(x.Z)*q.ic
	x2, x1, x0 := powParts(X, q.n2, q.i2)
	y2, y1, y0 := powParts(Y, q.n2, q.i2)
	z2, z1, z0 := powParts(Z, q.n1, q.i1)
	nu := x0 + y0 // S1 eq. (14)–(15): ν = |x/a|^n2 + |y/b|^n2
	var nup1 float64
	if nu > 0 {
		nup1 = q.nuPow1(nu)
	}
	f = nup1*nu + z0 - 1 // S1 eq. (1)
	if !wantG {
		return f, g, h
	}
	sx, sy, sz := sgn(x.X), sgn(x.Y), sgn(x.Z)
	n1 := q.n1
	g.Z = n1 * q.ic * z1 * sz // S1 eq. (14)
	if nu > 0 {
		g.X = n1 * q.ia * x1 * nup1 * sx // S1 eq. (14)
		g.Y = n1 * q.ib * y1 * nup1 * sy // S1 eq. (14)
	}
	if !wantH {
		return f, g, h
	}
	h[2][2] = n1 * (n1 - 1) * q.ic * q.ic * z2 // S1 eq. (15): f_zz
	if nu > 0 {
		d := n1 - q.n2
		inu := 1 / nu
		h[0][0] = n1 * q.ia * q.ia * nup1 * ((q.n2-1)*x2 + d*x1*x1*inu) // S1 eq. (15): f_xx
		h[1][1] = n1 * q.ib * q.ib * nup1 * ((q.n2-1)*y2 + d*y1*y1*inu) // S1 eq. (15): f_yy
		h[0][1] = n1 * q.ia * q.ib * d * nup1 * x1 * y1 * inu * sx * sy // S1 eq. (15): f_xy
		h[1][0] = h[0][1]
	} else if n1 == 2 {
		h[0][0], h[1][1] = 2*q.ia*q.ia, 2*q.ib*q.ib // limit along the axes
	}
	return f, g, h
}

// posed is a prepared shape placed in a (shifted, scaled) world frame.
type posed struct {
	c geom.Vec3 // centre
	r geom.Mat3 // body → world rotation A(q), S1 eq. (4)
	q prep
}

// posed places s at pose p, with world coordinates shifted by −origin and
// scaled by invL (the shape is scaled alike).
func (s Shape) posed(p Pose, origin geom.Vec3, invL float64) posed {
	return posed{c: p.X.Sub(origin).Scale(invL), r: p.Q.Mat(), q: s.Scaled(invL).prep()}
}

// evalOut holds F, ∇F and H_F at one world point.
type evalOut struct {
	f float64
	g geom.Vec3
	h geom.Mat3
}

// evalW evaluates F, ∇F and (on request) H_F at the world point w, S1 eq. (18).
func (ps *posed) evalW(w geom.Vec3, wantH bool, e *evalOut) {
	x := ps.r.TMulV(w.Sub(ps.c)) // S1 eq. (18): x = Aᵀ(X − X_C)
	f, g, h := ps.q.eval(x, true, wantH)
	e.f = f
	e.g = ps.r.MulV(g) // S1 eq. (18): ∇F = A∇f
	if wantH {
		e.h = rotSym(ps.r, h) // S1 eq. (18): H_F = A H_f Aᵀ
	}
}

// fW returns F at the world point w.
func (ps *posed) fW(w geom.Vec3) float64 {
	f, _, _ := ps.q.eval(ps.r.TMulV(w.Sub(ps.c)), false, false)
	return f
}

// rotSym returns R h Rᵀ for h with the block structure of the superquadric
// Hessian (h_xz = h_yz = 0).
func rotSym(r, h geom.Mat3) geom.Mat3 {
	var rh geom.Mat3
	for i := 0; i < 3; i++ {
		rh[i][0] = r[i][0]*h[0][0] + r[i][1]*h[1][0]
		rh[i][1] = r[i][0]*h[0][1] + r[i][1]*h[1][1]
		rh[i][2] = r[i][2] * h[2][2]
	}
	var out geom.Mat3
	for i := 0; i < 3; i++ {
		for j := i; j < 3; j++ {
			v := rh[i][0]*r[j][0] + rh[i][1]*r[j][1] + rh[i][2]*r[j][2]
			out[i][j], out[j][i] = v, v
		}
	}
	return out
}
