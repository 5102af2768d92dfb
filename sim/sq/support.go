package sq

import (
	"math"

	"grainlab/sim/geom"
)

// Support returns the body-frame surface point that maximises d·x, the extreme
// point of S1 eq. (30)–(33). d need not be unit; the zero vector gives (0, 0, c).
func (s Shape) Support(d geom.Vec3) geom.Vec3 {
	// S1 eq. (33) is written with ratios to n_x; here it is evaluated in
	// homogeneous, logarithmic form (no division by n_x, no overflow for n → 2).
	ex, ey, ez := math.Abs(s.A*d.X), math.Abs(s.B*d.Y), math.Abs(s.C*d.Z)
	if ex == 0 && ey == 0 {
		return geom.Vec3{Z: s.C * sgn(d.Z)}
	}
	n1, n2 := s.N1, s.N2
	p := n1 / n2
	lu := math.Log(ex) / (n2 - 1)              // S1 eq. (33): α = (|b n_y|/|a n_x|)^(1/(n2−1)) = v/u
	lv := math.Log(ey) / (n2 - 1)              // (u, v) ∝ (ex, ey)^(1/(n2−1))
	ls := logAddExp(n2*lu, n2*lv)              // log S, S = u^n2 + v^n2 (1 + α^n2 scaled)
	lw := ((p-1)*ls + math.Log(ez)) / (n1 - 1) // S1 eq. (33): β = (γ|n_z c|/|n_x a|)^(1/(n1−1)), γ = S^(n1/n2−1)
	lt := -logAddExp(p*ls, n1*lw) / n1         // S1 eq. (33): x̃ = ((1+α^n2)^(n1/n2) + β^n1)^(−1/n1)
	return geom.Vec3{
		X: s.A * math.Exp(lt+lu) * sgn(d.X), // S1 eq. (33): x
		Y: s.B * math.Exp(lt+lv) * sgn(d.Y), // S1 eq. (33): y
		Z: s.C * math.Exp(lt+lw) * sgn(d.Z), // S1 eq. (33): z
	}
}

// SupportWorld returns the world surface point of the posed shape that
// maximises d·X, and the support value h(d) = d·X.
func (s Shape) SupportWorld(p Pose, d geom.Vec3) (geom.Vec3, float64) {
	x := p.ToWorld(s.Support(p.Q.InvRotate(d)))
	return x, d.Dot(x)
}

// AABB returns the exact world axis-aligned bounding box of the posed shape,
// from the support points along ±x, ±y, ±z.
func (s Shape) AABB(p Pose) (lo, hi geom.Vec3) {
	var h [3]float64
	for i, e := range [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
		x := p.Q.Rotate(s.Support(p.Q.InvRotate(e)))
		h[i] = x.Dot(e)
	}
	ext := geom.Vec3{X: h[0], Y: h[1], Z: h[2]}
	return p.X.Sub(ext), p.X.Add(ext)
}

// PlaneResult is the contact of a superquadric A with a plane wall B.
type PlaneResult struct {
	InContact bool
	PA        geom.Vec3 // deepest point of the particle towards the wall
	PB        geom.Vec3 // its projection onto the plane, S1 eq. (34)
	Normal    geom.Vec3 // the wall normal, from the wall (B) to the particle (A)
	Overlap   float64   // max(0, −Gap)
	Gap       float64   // signed distance of PA from the plane along Normal
}

// PlaneContact returns the contact of the posed shape with the plane through
// point w whose normal n points into the free half-space (towards the particle).
func PlaneContact(s Shape, p Pose, w, n geom.Vec3) PlaneResult {
	n = n.Unit()
	pa, _ := s.SupportWorld(p, n.Neg()) // S1 eq. (30): extreme point towards the wall
	g := pa.Sub(w).Dot(n)
	r := PlaneResult{PA: pa, PB: pa.AddScaled(-g, n), Normal: n, Gap: g} // S1 eq. (34): x* = ((x_w − x)·n)n + x
	if g < 0 {
		r.InContact, r.Overlap = true, -g // S1 eq. (34): δ = x* − x
	}
	return r
}
