package sq

import (
	"math"

	"grainlab/sim/geom"
)

// beta returns the beta function B(x, y) = Γ(x)Γ(y)/Γ(x+y).
func beta(x, y float64) float64 {
	lx, _ := math.Lgamma(x)
	ly, _ := math.Lgamma(y)
	lxy, _ := math.Lgamma(x + y)
	return math.Exp(lx + ly - lxy)
}

// betaInt returns ∫₀¹ t^k (1 − t^n)^m dt = B((k+1)/n, m+1)/n.
func betaInt(k, n, m float64) float64 { return beta((k+1)/n, m+1) / n }

// Volume returns the volume 2abc·(4/n2)B(1/n2, 1/n2+1)·(1/n1)B(1/n1, 2/n1+1)
// (S1 §2.1 refers to Jaklič et al. [25, 26]; derived by slicing along z).
func (s Shape) Volume() float64 {
	area := 4 * betaInt(0, s.N2, 1/s.N2)                         // unit superellipse |X|^n2+|Y|^n2 ≤ 1, Jaklič [25]
	return 2 * s.A * s.B * s.C * area * betaInt(0, s.N1, 2/s.N1) // slices ρ² area, ρ = (1−|Z|^n1)^(1/n1)
}

// VolumeRadius returns the radius of the volume-equivalent sphere.
func (s Shape) VolumeRadius() float64 { return math.Cbrt(3 * s.Volume() / (4 * math.Pi)) }

// SecondMoments returns (∫x², ∫y², ∫z²) dV over the body (S1 §2.1, Jaklič [25, 26]).
func (s Shape) SecondMoments() geom.Vec3 {
	area := 4 * betaInt(0, s.N2, 1/s.N2) // ∫∫ dX dY over the unit superellipse
	jxx := 4 * betaInt(2, s.N2, 1/s.N2)  // ∫∫ X² dX dY over the unit superellipse
	ixy := 2 * jxx * betaInt(0, s.N1, 4/s.N1)
	izz := 2 * area * betaInt(2, s.N1, 2/s.N1)
	abc := s.A * s.B * s.C
	return geom.Vec3{X: abc * s.A * s.A * ixy, Y: abc * s.B * s.B * ixy, Z: abc * s.C * s.C * izz}
}

// Inertia returns the principal moments (Ixx, Iyy, Izz) about the centre for
// the given mass, I_xx = m/V·(∫y² + ∫z²) and so on.
func (s Shape) Inertia(mass float64) geom.Vec3 {
	m := s.SecondMoments().Scale(mass / s.Volume())
	return geom.Vec3{X: m.Y + m.Z, Y: m.X + m.Z, Z: m.X + m.Y}
}

// OBB returns the half-extents of the minimum oriented bounding box in the body
// frame (S1 §2.2): the half-lengths (a, b, c).
func (s Shape) OBB() geom.Vec3 { return geom.Vec3{X: s.A, Y: s.B, Z: s.C} }

// maxRadius2D returns the largest distance from the centre of the superellipse
// |x/a|^n + |y/b|^n = 1 (the planar case of S1 eq. 12).
func maxRadius2D(a, b, n float64) float64 {
	if b > a {
		a, b = b, a
	}
	if n <= 2 {
		return a
	}
	// S1 eq. (12) in two dimensions: y/b = α x/a with α = (b/a)^(2/(n−2)) ≤ 1.
	al := math.Pow(b/a, 2/(n-2))
	t := math.Pow(1+math.Pow(al, n), -1/n)
	return t * math.Hypot(a, al*b)
}

// BoundingRadius returns the radius of the minimum bounding sphere centred at
// the body centre, S1 eq. (12): the largest of the interior stationary point of
// |x|² on the surface (n1, n2 > 2) and those in the coordinate planes, which
// cover the ellipsoid (max(a, b, c)) and cylinder-like (α = 0) special cases.
func (s Shape) BoundingRadius() float64 {
	r := max(maxRadius2D(s.A, s.B, s.N2), maxRadius2D(s.A, s.C, s.N1)) // planes z = 0, y = 0
	r = max(r, maxRadius2D(s.B, s.C, s.N1))                            // plane x = 0
	if s.N1 > 2 && s.N2 > 2 {
		a, b := s.A, s.B
		if b > a { // the xy part is symmetric in (a, x) ↔ (b, y): keep α ≤ 1
			a, b = b, a
		}
		n1, n2, c := s.N1, s.N2, s.C
		// Logarithms keep β finite when c ≫ a or n1 → 2.
		la := 2 / (n2 - 2) * math.Log(b/a)                              // S1 eq. (12): α = (b/a)^(2/(n2−2))
		l1 := math.Log1p(math.Exp(n2 * la))                             // log(1 + α^n2)
		lg := (n1/n2 - 1) * l1                                          // S1 eq. (12): γ = (1+α^n2)^(n1/n2−1)
		lb := (lg + 2*math.Log(c/a)) / (n1 - 2)                         // S1 eq. (12): β = (γc²/a²)^(1/(n1−2))
		lx := -logAddExp(n1/n2*l1, n1*lb) / n1                          // S1 eq. (12): x̃ = ((1+α^n2)^(n1/n2) + β^n1)^(−1/n1)
		x, y, z := a*math.Exp(lx), b*math.Exp(la+lx), c*math.Exp(lb+lx) // S1 eq. (12)
		if ri := math.Sqrt(x*x + y*y + z*z); ri > r && !math.IsNaN(ri) && !math.IsInf(ri, 0) {
			r = ri
		}
	}
	return r
}

// logAddExp returns log(eᵘ + eᵛ) without overflow.
func logAddExp(u, v float64) float64 {
	if u < v {
		u, v = v, u
	}
	return u + math.Log1p(math.Exp(v-u))
}
