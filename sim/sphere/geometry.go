package sphere

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// SphereSphere returns the overlap δ = ra + rb − |xa − xb| (S2 §2.2, below
// eq. 23), the unit normal n from B to A, the contact point on the mid-plane
// of the overlap (halfway between the deepest surface points of A and B) and
// ok = δ > 0. When separated, δ < 0 is minus the gap and n, point still
// describe the closest approach. Concentric centres give n = +z. When one
// sphere nearly swallows the other (|xa − xb| < |ra − rb|) the point may lie
// outside the smaller one.
func SphereSphere(xa, xb geom.Vec3, ra, rb float64) (overlap float64, n geom.Vec3, point geom.Vec3, ok bool) {
	d := xa.Sub(xb)
	dist := d.Norm()
	if dist > 0 {
		n = d.Scale(1 / dist)
	} else {
		n = geom.Vec3{Z: 1}
	}
	overlap = ra + rb - dist
	// Deepest points: A's surface at xa − ra n, B's at xb + rb n; point is their mean.
	point = xb.AddScaled(rb-0.5*overlap, n)
	return overlap, n, point, overlap > 0
}

// SpherePlane returns the overlap δ = r − (x − p)·n̂ of a sphere (A: centre x,
// radius r) with the half-space behind the plane through p with normal
// nPlane (B; nPlane points into the free side and need not be unit), the unit
// normal n = n̂ from the plane to the sphere, the mid-plane contact point and
// ok = δ > 0. A zero or non-finite nPlane gives ok = false and δ = NaN.
func SpherePlane(x geom.Vec3, r float64, p, nPlane geom.Vec3) (overlap float64, n geom.Vec3, point geom.Vec3, ok bool) {
	l := nPlane.Norm()
	if !(l > 0) || math.IsInf(l, 0) {
		return math.NaN(), geom.Vec3{}, geom.Vec3{}, false
	}
	n = nPlane.Scale(1 / l)
	s := x.Sub(p).Dot(n) // signed distance of the centre from the plane
	overlap = r - s
	// Deepest points: the sphere's at x − r n, the plane's at x − s n.
	point = x.AddScaled(-0.5*(r+s), n)
	return overlap, n, point, overlap > 0
}

// EffectiveRadius returns R_eff = ra rb/(ra + rb); an infinite radius (a
// plane) gives the other radius.
func EffectiveRadius(ra, rb float64) float64 { return law.Reduced(ra, rb) }
