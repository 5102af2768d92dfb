package geom

import "math"

// Quat is a quaternion W + X i + Y j + Z k; orientations are unit quaternions
// that rotate body-frame vectors into the world frame.
type Quat struct{ W, X, Y, Z float64 }

// QIdent returns the identity rotation.
func QIdent() Quat { return Quat{W: 1} }

// QAxisAngle returns the rotation by angle (rad) about axis (need not be unit).
func QAxisAngle(axis Vec3, angle float64) Quat {
	u := axis.Unit()
	s, c := math.Sincos(angle / 2)
	return Quat{c, s * u.X, s * u.Y, s * u.Z}
}

// QFromRotVec returns the rotation exp(θ): angle |θ| about θ/|θ|.
func QFromRotVec(theta Vec3) Quat {
	a := theta.Norm()
	if a < 1e-12 { // second-order series, still unit after Normalize
		return Quat{1, theta.X / 2, theta.Y / 2, theta.Z / 2}.Normalize()
	}
	return QAxisAngle(theta, a)
}

// RotVec returns the rotation vector θ = angle·axis of q, with angle in [0, π].
func (q Quat) RotVec() Vec3 {
	if q.W < 0 {
		q = Quat{-q.W, -q.X, -q.Y, -q.Z}
	}
	v := Vec3{q.X, q.Y, q.Z}
	s := v.Norm()
	if s < 1e-12 {
		return v.Scale(2)
	}
	return v.Scale(2 * math.Atan2(s, q.W) / s)
}

// Mul returns the product q·p (apply p first, then q).
func (q Quat) Mul(p Quat) Quat {
	return Quat{
		q.W*p.W - q.X*p.X - q.Y*p.Y - q.Z*p.Z,
		q.W*p.X + q.X*p.W + q.Y*p.Z - q.Z*p.Y,
		q.W*p.Y - q.X*p.Z + q.Y*p.W + q.Z*p.X,
		q.W*p.Z + q.X*p.Y - q.Y*p.X + q.Z*p.W,
	}
}

// Conj returns the conjugate (the inverse of a unit quaternion).
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Norm returns |q|.
func (q Quat) Norm() float64 { return math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z) }

// Normalize returns q/|q|, or the identity when q is zero.
func (q Quat) Normalize() Quat {
	n := q.Norm()
	if n == 0 {
		return QIdent()
	}
	return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}
}

// Rotate returns q v q* for a unit q.
func (q Quat) Rotate(v Vec3) Vec3 {
	u := Vec3{q.X, q.Y, q.Z}
	t := u.Cross(v).Scale(2)
	return v.AddScaled(q.W, t).Add(u.Cross(t))
}

// InvRotate returns q* v q for a unit q (world to body frame).
func (q Quat) InvRotate(v Vec3) Vec3 { return q.Conj().Rotate(v) }

// Mat returns the rotation matrix Q of the unit quaternion q.
func (q Quat) Mat() Mat3 {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	return Mat3{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// QFromMat returns the unit quaternion of the rotation matrix m (Shepperd's method).
func QFromMat(m Mat3) Quat {
	tr := m.Trace()
	var q Quat
	switch {
	case tr > m[0][0] && tr > m[1][1] && tr > m[2][2]:
		s := 2 * math.Sqrt(1+tr)
		q = Quat{s / 4, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s}
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := 2 * math.Sqrt(1+m[0][0]-m[1][1]-m[2][2])
		q = Quat{(m[2][1] - m[1][2]) / s, s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s}
	case m[1][1] > m[2][2]:
		s := 2 * math.Sqrt(1+m[1][1]-m[0][0]-m[2][2])
		q = Quat{(m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s}
	default:
		s := 2 * math.Sqrt(1+m[2][2]-m[0][0]-m[1][1])
		q = Quat{(m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4}
	}
	if q.W < 0 {
		q = Quat{-q.W, -q.X, -q.Y, -q.Z}
	}
	return q.Normalize()
}

// Integrate returns the orientation after rotating q by the world-frame
// angular velocity w for time dt: exp(w·dt)·q.
func (q Quat) Integrate(w Vec3, dt float64) Quat {
	return QFromRotVec(w.Scale(dt)).Mul(q).Normalize()
}

// AngleTo returns the rotation angle (rad, in [0, π]) that takes q to p.
func (q Quat) AngleTo(p Quat) float64 { return p.Mul(q.Conj()).RotVec().Norm() }

// IsFinite reports whether every component is finite.
func (q Quat) IsFinite() bool {
	s := q.W + q.X + q.Y + q.Z
	return !math.IsNaN(s) && !math.IsInf(s, 0)
}
