package sq

import (
	"math"

	"grainlab/sim/geom"
)

// RadiusMethod selects the particle radius used in the equivalent radius.
type RadiusMethod int

// Radius methods of S1 §2.5.
const (
	RadiusMean   RadiusMethod = iota // 1/K_mean, S1 eq. (39)
	RadiusGauss                      // 1/√(κ₁κ₂), S1 eq. (40)
	RadiusVolume                     // radius of the volume-equivalent sphere
)

// DefaultCurvatureCap is S1's limiting coefficient q: R ≤ q·R_vol.
const DefaultCurvatureCap = 10

// MeanCurvature returns (κ₁ + κ₂)/2 at the body-frame surface point x, S1 eq.
// (39) negated: as printed it gives −1/R on a sphere; here convex is positive.
func (s Shape) MeanCurvature(x geom.Vec3) float64 {
	var q prep
	s.prepInto(&q, 1)
	return q.meanCurvature(x)
}

// meanCurvature is MeanCurvature with the shape's prep at unit scale.
func (q *prep) meanCurvature(x geom.Vec3) float64 {
	g, h := q.gradHess(x)
	g2 := g.Norm2()
	if g2 == 0 {
		return 0
	}
	ghg := h.xx*g.X*g.X + 2*h.xy*g.X*g.Y + h.yy*g.Y*g.Y + h.zz*g.Z*g.Z // ∇fᵀH∇f (f_xz = f_yz = 0)
	return (g2*(h.xx+h.yy+h.zz) - ghg) / (2 * g2 * math.Sqrt(g2))      // S1 eq. (39), negated
}

// gradHess returns ∇f and the Hessian at the body-frame point x.
func (q *prep) gradHess(x geom.Vec3) (geom.Vec3, hbody) {
	var e evalOut
	q.evalFG(x, &e)
	return e.g, q.hess(&e)
}

// GaussianCurvature returns κ₁κ₂ at the body-frame surface point x, the ratio
// (AB − C²)/D of S1 eq. (40) in the equivalent form ∇fᵀ adj(H) ∇f / |∇f|⁴,
// which has no 1/f_z² singularity on the equator. (S1 prints √(AB − C²)/D for
// √(κ₁κ₂); only √((AB − C²)/D) gives 1/R on a sphere.)
func (s Shape) GaussianCurvature(x geom.Vec3) float64 {
	var q prep
	s.prepInto(&q, 1)
	return q.gaussianCurvature(x)
}

// gaussianCurvature is GaussianCurvature with the shape's prep at unit scale.
func (q *prep) gaussianCurvature(x geom.Vec3) float64 {
	g, h := q.gradHess(x)
	g2 := g.Norm2()
	if g2 == 0 {
		return 0
	}
	// ∇fᵀ adj(H) ∇f for f_xz = f_yz = 0: adj(H) has the block f_zz·[[f_yy, −f_xy], [−f_xy, f_xx]]
	// and f_xx f_yy − f_xy² in the corner
	gag := h.zz*(h.yy*g.X*g.X-2*h.xy*g.X*g.Y+h.xx*g.Y*g.Y) + (h.xx*h.yy-h.xy*h.xy)*g.Z*g.Z
	return gag / (g2 * g2) // S1 eq. (40)
}

// CurvatureRadius returns the particle radius at the body-frame surface point
// x by method m, capped at q·R_vol (S1 §2.5; q ≤ 0 means DefaultCurvatureCap).
func (s Shape) CurvatureRadius(m RadiusMethod, x geom.Vec3, q float64) float64 {
	return s.CurvatureRadiusRV(m, x, q, s.VolumeRadius())
}

// CurvatureRadiusRV is CurvatureRadius with the volume-equivalent radius rv
// given (callers that cache it save the beta functions).
func (s Shape) CurvatureRadiusRV(m RadiusMethod, x geom.Vec3, q, rv float64) float64 {
	if m == RadiusVolume {
		return rv
	}
	var p prep
	s.prepInto(&p, 1)
	return p.curvatureRadius(m, x, q, rv)
}

// CurvatureRadius is Shape.CurvatureRadiusRV of the prepared shape (the same
// result, without recomputing the shape's constants).
func (p *Prepared) CurvatureRadius(m RadiusMethod, x geom.Vec3, q, rv float64) float64 {
	return p.unit.curvatureRadius(m, x, q, rv)
}

// RadiusAt is CurvatureRadius at the world surface point w of the placed
// shape (Prepared.Place): the body-frame point Aᵀ(w − X_C) of S1 eq. (18)
// with the matrix formed at Place (Prepared.ToLocal), then the radius by
// method m (S1 eq. 39–40) capped at q·R_vol, in one call: the same
// operations as CurvatureRadius(m, p.ToLocal(w), q, rv), the same bits.
// The mean curvature of an n1 = n2 = 10 shape runs in one SSE2 kernel
// (meanCurv10SSE2, evalw_amd64.s), the same bits as meanCurvAt.
func (p *Prepared) RadiusAt(m RadiusMethod, w geom.Vec3, q, rv float64) float64 {
	if m == RadiusVolume {
		return rv
	}
	u := &p.unit
	if m != RadiusGauss {
		if evalWAsm && u.same == 10 {
			return radiusCapped(meanCurv10SSE2(u, &p.r, &p.x, &w), q, rv)
		}
		return radiusCapped(u.meanCurvAt(&p.r, &p.x, w), q, rv)
	}
	var e evalOut
	u.evalAt(&p.r, &p.x, w, &e)
	h := u.hess(&e)
	g := e.g
	var k float64
	if g2 := g.Norm2(); g2 != 0 { // gaussianCurvature's expression
		gag := h.zz*(h.yy*g.X*g.X-2*h.xy*g.X*g.Y+h.xx*g.Y*g.Y) + (h.xx*h.yy-h.xy*h.xy)*g.Z*g.Z
		k = gag / (g2 * g2)
	}
	k = math.Sqrt(max(0, k)) // S1 eq. (40): K = √(κ₁κ₂)
	return radiusCapped(k, q, rv)
}

// evalAt sets e to evalFG at the body-frame point x = rᵀ(w − c) (S1 eq.
// 18: tmulV(r, w.Sub(c)), written out), evalFG's SSE2 twin for
// n1 = n2 = 10: the same bits.
func (u *prep) evalAt(r *geom.Mat3, c *geom.Vec3, w geom.Vec3, e *evalOut) {
	dx, dy, dz := w.X-c.X, w.Y-c.Y, w.Z-c.Z
	x := geom.Vec3{
		X: r[0][0]*dx + r[1][0]*dy + r[2][0]*dz,
		Y: r[0][1]*dx + r[1][1]*dy + r[2][1]*dz,
		Z: r[0][2]*dx + r[1][2]*dy + r[2][2]*dz,
	}
	if evalWAsm && u.same == 10 {
		evalFG10SSE2(u, &x, e) // evalFG's SSE2 twin (evalw_amd64.s): the same bits
	} else {
		u.evalFG(x, e)
	}
}

// meanCurvAt returns the mean curvature (S1 eq. 39, meanCurvature's
// expression) at the body-frame point x = rᵀ(w − c); 0 where ∇f = 0.
func (u *prep) meanCurvAt(r *geom.Mat3, c *geom.Vec3, w geom.Vec3) float64 {
	var e evalOut
	u.evalAt(r, c, w, &e)
	h := u.hess(&e)
	g := e.g
	g2 := g.Norm2()
	if g2 == 0 {
		return 0
	}
	ghg := h.xx*g.X*g.X + 2*h.xy*g.X*g.Y + h.yy*g.Y*g.Y + h.zz*g.Z*g.Z
	return (g2*(h.xx+h.yy+h.zz) - ghg) / (2 * g2 * math.Sqrt(g2)) // S1 eq. (39)
}

// curvatureRadius is CurvatureRadiusRV with the shape's prep at unit scale.
func (p *prep) curvatureRadius(m RadiusMethod, x geom.Vec3, q, rv float64) float64 {
	var k float64
	switch m {
	case RadiusVolume:
		return rv
	case RadiusGauss:
		k = math.Sqrt(max(0, p.gaussianCurvature(x))) // S1 eq. (40): K = √(κ₁κ₂)
	default:
		k = p.meanCurvature(x) // S1 eq. (39)
	}
	return radiusCapped(k, q, rv)
}

// radiusCapped returns the particle radius for curvature k, capped at q·R_vol
// (S1 §2.5; q ≤ 0 means DefaultCurvatureCap).
func radiusCapped(k, q, rv float64) float64 {
	if q <= 0 {
		q = DefaultCurvatureCap
	}
	rmax := q * rv
	if !(k > 1/rmax) { // S1 §2.5: R = min(1/K, q·R_vol)
		return rmax
	}
	return 1 / k
}

// EquivalentRadius returns R_eq = R_A R_B/(R_A + R_B) (S1 eq. 38) with the
// radii of the two particles at their world surface points PA and PB by method
// m, each capped at q·R_vol.
func EquivalentRadius(m RadiusMethod, a Shape, pa Pose, PA geom.Vec3, b Shape, pb Pose, PB geom.Vec3, q float64) float64 {
	ra := a.CurvatureRadius(m, pa.ToLocal(PA), q)
	rb := b.CurvatureRadius(m, pb.ToLocal(PB), q)
	return ra * rb / (ra + rb) // S1 eq. (38)
}
