package geom

import "math"

// The Rodrigues rotation vector α = 2 tan(θ/2)·e of S0 §2.1. It is the
// parameterisation the implicit integrator uses for incremental rotations.

// RodriguesMat returns Q(α) = I + 4/(4+α²)·(A + A²/2), A = skew(α). // S0 eq. (6)
func RodriguesMat(alpha Vec3) Mat3 {
	A := Skew(alpha)
	c := 4 / (4 + alpha.Norm2())
	return Identity().Add(A.Add(A.Mul(A).Scale(0.5)).Scale(c))
}

// RodriguesCompose returns α^{i+1} from α^Δ applied after α^i. // S0 eq. (7)
func RodriguesCompose(dAlpha, alpha Vec3) Vec3 {
	c := 4 / (4 - dAlpha.Dot(alpha))
	return dAlpha.Add(alpha).Add(dAlpha.Cross(alpha).Scale(0.5)).Scale(c)
}

// RodriguesXi returns Ξ(α^Δ) with ω = Ξ·α̇. // S0 eq. (9)
func RodriguesXi(dAlpha Vec3) Mat3 {
	c := 4 / (4 + dAlpha.Norm2())
	return Identity().Add(Skew(dAlpha).Scale(0.5)).Scale(c)
}

// RodriguesFromRotVec returns α = 2 tan(θ/2)·e for the rotation vector θ·e.
func RodriguesFromRotVec(theta Vec3) Vec3 {
	t := theta.Norm()
	if t < 1e-12 {
		return theta
	}
	return theta.Scale(2 * math.Tan(t/2) / t)
}

// RotVecFromRodrigues returns θ·e for the Rodrigues vector α = 2 tan(θ/2)·e.
func RotVecFromRodrigues(alpha Vec3) Vec3 {
	a := alpha.Norm()
	if a < 1e-12 {
		return alpha
	}
	return alpha.Scale(2 * math.Atan(a/2) / a)
}

// QFromRodrigues returns the unit quaternion of the Rodrigues vector α.
func QFromRodrigues(alpha Vec3) Quat {
	// tan(θ/2) = |α|/2 ⇒ q = (1, α/2)/√(1+|α|²/4).
	q := Quat{1, alpha.X / 2, alpha.Y / 2, alpha.Z / 2}
	return q.Normalize()
}

// Rodrigues returns the Rodrigues vector of a unit quaternion (W > 0 branch).
func (q Quat) Rodrigues() Vec3 {
	if q.W < 0 {
		q = Quat{-q.W, -q.X, -q.Y, -q.Z}
	}
	if q.W < 1e-15 {
		return Vec3{math.Inf(1), math.Inf(1), math.Inf(1)} // θ = π: α is unbounded
	}
	return Vec3{q.X, q.Y, q.Z}.Scale(2 / q.W)
}
