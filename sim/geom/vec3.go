// Package geom holds the small value types every other sim package speaks:
// 3-vectors, 3×3 matrices, unit quaternions and the Rodrigues rotation vector
// of Gay Neto & Wriggers (S0 §2.1). Everything is a plain value; nothing allocates.
package geom

import "math"

// Vec3 is a point or a direction in 3-space.
type Vec3 struct{ X, Y, Z float64 }

// V returns the vector (x, y, z).
func V(x, y, z float64) Vec3 { return Vec3{x, y, z} }

// Add returns a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub returns a − b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Scale returns s·a.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a.X, s * a.Y, s * a.Z} }

// AddScaled returns a + s·b.
func (a Vec3) AddScaled(s float64, b Vec3) Vec3 {
	return Vec3{a.X + s*b.X, a.Y + s*b.Y, a.Z + s*b.Z}
}

// Neg returns −a.
func (a Vec3) Neg() Vec3 { return Vec3{-a.X, -a.Y, -a.Z} }

// Dot returns a·b.
func (a Vec3) Dot(b Vec3) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

// Cross returns a×b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Norm returns |a|.
func (a Vec3) Norm() float64 { return math.Sqrt(a.X*a.X + a.Y*a.Y + a.Z*a.Z) }

// Norm2 returns |a|².
func (a Vec3) Norm2() float64 { return a.X*a.X + a.Y*a.Y + a.Z*a.Z }

// Basis returns e_j, the j-th unit vector of the frame (j = 0, 1, 2: x, y, z).
func Basis(j int) Vec3 {
	var e Vec3
	switch j {
	case 0:
		e.X = 1
	case 1:
		e.Y = 1
	default:
		e.Z = 1
	}
	return e
}

// Unit returns a/|a|, or the zero vector when a is zero.
func (a Vec3) Unit() Vec3 {
	n := a.Norm()
	if n == 0 {
		return Vec3{}
	}
	return a.Scale(1 / n)
}

// Mul returns the component-wise product of a and b.
func (a Vec3) Mul(b Vec3) Vec3 { return Vec3{a.X * b.X, a.Y * b.Y, a.Z * b.Z} }

// Min returns the component-wise minimum of a and b (plain comparisons, for
// speed: NaN and signed zeros are not treated specially).
func (a Vec3) Min(b Vec3) Vec3 { return Vec3{fmin(a.X, b.X), fmin(a.Y, b.Y), fmin(a.Z, b.Z)} }

// Max returns the component-wise maximum of a and b (plain comparisons).
func (a Vec3) Max(b Vec3) Vec3 { return Vec3{fmax(a.X, b.X), fmax(a.Y, b.Y), fmax(a.Z, b.Z)} }

func fmin(a, b float64) float64 {
	if b < a {
		return b
	}
	return a
}

func fmax(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}

// Dist returns |a − b|.
func (a Vec3) Dist(b Vec3) float64 { return a.Sub(b).Norm() }

// Idx returns component i (0 = X, 1 = Y, 2 = Z).
func (a Vec3) Idx(i int) float64 {
	switch i {
	case 0:
		return a.X
	case 1:
		return a.Y
	}
	return a.Z
}

// IsFinite reports whether every component is neither NaN nor ±Inf.
func (a Vec3) IsFinite() bool {
	return !math.IsNaN(a.X+a.Y+a.Z) && !math.IsInf(a.X+a.Y+a.Z, 0)
}

// Lerp returns a + t·(b − a).
func Lerp(a, b Vec3, t float64) Vec3 { return a.AddScaled(t, b.Sub(a)) }

// AnyPerp returns a unit vector perpendicular to a (a need not be unit).
func (a Vec3) AnyPerp() Vec3 {
	ax, ay, az := math.Abs(a.X), math.Abs(a.Y), math.Abs(a.Z)
	var b Vec3
	switch {
	case ax <= ay && ax <= az:
		b = Vec3{1, 0, 0}
	case ay <= az:
		b = Vec3{0, 1, 0}
	default:
		b = Vec3{0, 0, 1}
	}
	return a.Cross(b).Unit()
}
