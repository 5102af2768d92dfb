package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// TestLineExitAccuracy: the contact-line intersection of S1 eq. (37)
// (posed.lineExit, whose stopping rule is lineTol and lineErr) finds the
// exit point to 1e-9 of the particle size, the accuracy the world's
// contacts are checked to (TestSmoothPlacedShapes: gap and points to 1e-9
// of the size). Each case knows its answer: P on the surface by the radial
// projection (F(P) = 0 to rounding), d a direction within 60° of the
// outward normal there, so that the line through P along d leaves the
// convex body at P, and X₀ = P − t·d with |t| ≤ 0.1 sizes (inside and
// outside): lineExit(X₀, d) must return t. 4 000 random placed shapes,
// n ≤ 10. Fails with lineTol = 1e-4 (75 cases, errors up to 1e-8 of the
// size).
func TestLineExitAccuracy(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(37)))
	n := 4000
	if testing.Short() {
		n = 800
	}
	worst := 0.0
	for k := 0; k < n; k++ {
		s := randShape(rng, 10)
		ps, p, ep := placedSurfacePoint(rng, s, 1) // the working frame's units: the size is 1
		nrm := ep.g.Unit()
		d := nrm
		for {
			d = nrm.AddScaled(0.6*rng.Float64(), randDir(rng)).Unit()
			if d.Dot(nrm) > 0.5 {
				break
			}
		}
		tt := 0.1 * (2*rng.Float64() - 1)
		x0 := p.AddScaled(-tt, d)
		var e0 evalOut
		ps.evalW(x0, &e0)
		got := ps.lineExit(x0, d, &e0)
		err := math.Abs(got - tt)
		worst = max(worst, err)
		if err > 1e-9 {
			t.Errorf("case %d %+v: exit at s = %.15g, want %.15g (error %.3g of the size, F(P) = %.2g)", k, s, got, tt, err, ep.f)
		}
	}
	t.Logf("%d lines: worst exit error %.2g of the size", n, worst)
}

// placedSurfacePoint prepares s at scale/size (size = its largest
// semi-axis), places it at a random centre and rotation, and returns the
// placed shape, a surface point p (by the radial projection of a random
// direction in the body frame, then placed) and the evaluation there.
func placedSurfacePoint(rng *rand.Rand, s Shape, scale float64) (posed, geom.Vec3, evalOut) {
	size := max(s.A, s.B, s.C)
	q := new(prep)
	s.prepInto(q, scale/size)
	rot := randQuat(rng).Mat()
	ps := posed{c: geom.V(rng.Float64(), -rng.Float64(), 0.5*rng.Float64()), r: &rot, q: q}
	xl := randDir(rng)
	g := q.root1(q.phi(xl))
	p := mulV(&rot, xl.Scale(1/g)).Add(ps.c)
	var ep evalOut
	ps.evalW(p, &ep)
	return ps, p, ep
}
