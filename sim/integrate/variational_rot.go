package integrate

import (
	"math"

	"grainlab/sim/geom"
)

// The rotational kinetic map of the Lie-group variational integrator (LGVI,
// Lee–Leok–McClamroch; Moser–Veselov discrete rigid body). With the relative
// rotation F = exp(θ^) of one step (body frame) and the nonstandard inertia
// J_d = ½tr(J)·I − J, the discrete Legendre transform of the discrete
// kinetic Lagrangian (1/h)·tr[(I − F)J_d] reads h·Π = (F J_d − J_d Fᵀ)^∨.
// By Rodrigues' formula F = I + s1·θ^ + s2·(θ^)², which gives the closed
// form (F J_d − J_d Fᵀ)^∨ = s1·Jθ + s2·θ×(Jθ) with s1 = sin φ/φ,
// s2 = (1 − cos φ)/φ², φ = |θ| — for a sphere (isotropic J) just I·sin φ·θ/φ.

// rotCoeffs returns s1, s2 and their derivatives divided by φ: s1'/φ, s2'/φ.
func rotCoeffs(phi float64) (s1, s2, d1, d2 float64) {
	if phi < 1e-2 { // Taylor series, error below 1e-16
		p2 := phi * phi
		s1 = 1 - p2/6*(1-p2/20)
		s2 = 0.5 - p2/24*(1-p2/30)
		d1 = -1.0/3 + p2/30*(1-p2/28)
		d2 = -1.0/12 + p2/180*(1-3*p2/112)
		return
	}
	s, c := math.Sincos(phi)
	p2 := phi * phi
	s1 = s / phi
	s2 = (1 - c) / p2
	d1 = (phi*c - s) / (p2 * phi)
	d2 = (phi*s - 2*(1-c)) / (p2 * p2)
	return
}

// lgviMomentum returns (F J_d − J_d Fᵀ)^∨ for F = exp(θ^) (LGVI, see above):
// h times the body-frame angular momentum at the start of the step.
func lgviMomentum(J geom.Mat3, th geom.Vec3) geom.Vec3 {
	s1, s2, _, _ := rotCoeffs(th.Norm())
	jt := J.MulV(th)
	return jt.Scale(s1).AddScaled(s2, th.Cross(jt))
}

// lgviJacobian returns ∂/∂θ of lgviMomentum.
func lgviJacobian(J geom.Mat3, th geom.Vec3) geom.Mat3 {
	s1, s2, d1, d2 := rotCoeffs(th.Norm())
	jt := J.MulV(th)
	m := J.Scale(s1)
	m = m.Add(geom.Skew(th).Mul(J).Sub(geom.Skew(jt)).Scale(s2)) // d(θ×Jθ) = θ^J dθ − (Jθ)^ dθ
	m = m.Add(geom.Outer(jt, th).Scale(d1))                      // Jθ ⊗ ∇s1
	m = m.Add(geom.Outer(th.Cross(jt), th).Scale(d2))            // (θ×Jθ) ⊗ ∇s2
	return m
}

// solveLGVI returns θ with lgviMomentum(J, θ) = hPi (body frame) by Newton's
// method from θ = J⁻¹·hPi; ok is false when it did not converge (|hΠ| too
// large for one step: a sphere needs h|Π|/I < 1).
func solveLGVI(J, Jinv geom.Mat3, hPi geom.Vec3) (th geom.Vec3, ok bool) {
	th = Jinv.MulV(hPi)
	if i, iso := isotropic(J); iso {
		// Sphere: I·sin|θ|·θ/|θ| = hΠ, so θ = asin(s)·hΠ/|hΠ| with s = |hΠ|/I.
		s := hPi.Norm() / i
		if s >= 1 {
			return th, false
		}
		if s < 1e-300 {
			return geom.Vec3{}, true
		}
		return hPi.Scale(math.Asin(s) / (s * i)), true
	}
	for it := 0; it < 30; it++ {
		r := lgviMomentum(J, th).Sub(hPi)
		inv, good := lgviJacobian(J, th).Inv()
		if !good {
			return th, false
		}
		d := inv.MulV(r)
		th = th.Sub(d)
		if d.Norm() <= 1e-15*(1e-300+th.Norm()) || d.Norm() == 0 {
			return th, th.Norm() < math.Pi
		}
	}
	return th, false
}

// isotropic reports whether J = I·1 (a sphere, or any body with three equal
// principal moments) and returns I.
func isotropic(J geom.Mat3) (float64, bool) {
	i := J[0][0]
	return i, i > 0 && J[1][1] == i && J[2][2] == i && J[0][1] == 0 && J[0][2] == 0 && J[1][2] == 0 && J[1][0] == 0 && J[2][0] == 0 && J[2][1] == 0
}
