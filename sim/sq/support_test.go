package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// surfaceSamples returns m×m parametric plus m² radially projected surface points.
func surfaceSamples(s Shape, m int) []geom.Vec3 {
	out := make([]geom.Vec3, 0, 2*m*m)
	for i := 0; i <= m; i++ {
		eta := -math.Pi/2 + math.Pi*float64(i)/float64(m)
		for j := 0; j < m; j++ {
			out = append(out, paramPoint(s, eta, 2*math.Pi*float64(j)/float64(m)))
		}
	}
	for _, d := range fibSphere(m * m) {
		out = append(out, s.Project(d))
	}
	return out
}

// The analytic extreme point (S1 eq. 33) against brute-force sampling: it lies
// on the surface (|f| ≤ 1e-12), its normal is d (angle ≤ 1e-6), and d·x is
// never below the sampled maximum and at most 1e-6·max(a, b, c) above it (the
// samples are refined by a shrinking grid search).
func TestSupportBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	worst := 0.0
	for k := 0; k < 40; k++ {
		s := randShape(rng, 20)
		pts := surfaceSamples(s, 120)
		size := math.Max(s.A, math.Max(s.B, s.C))
		for q := 0; q < 20; q++ {
			d := randDir(rng)
			switch q % 5 {
			case 1:
				d.X = 0
			case 2:
				d.Y, d.Z = 0, 0
			case 3:
				d.Y = 1e-9
			}
			x := s.Support(d)
			if f := s.F(x); math.Abs(f) > 1e-12 {
				t.Fatalf("%+v d %v: f(support) = %g", s, d, f)
			}
			if c := s.Normal(x).Dot(d.Unit()); c < 1-1e-12 {
				t.Fatalf("%+v d %v: normal %v at support %v, cos %g", s, d, s.Normal(x), x, c)
			}
			bf, bp := math.Inf(-1), geom.Vec3{}
			for _, p := range pts {
				if v := p.Dot(d); v > bf {
					bf, bp = v, p
				}
			}
			// refine by a shrinking grid over radially projected directions
			_, bf = zoomMax(func(u geom.Vec3) float64 { return s.Project(u).Dot(d) }, bp.Unit(), bf, 0.05)
			h := x.Dot(d)
			worst = math.Max(worst, (h-bf)/size)
			if h < bf-1e-12 || h-bf > 1e-6*size {
				t.Errorf("%+v d %v: support %g, sampled %g", s, d, h, bf)
			}
		}
	}
	t.Logf("worst (analytic − sampled)/size = %.2g (tolerance 1e-6)", worst)
	if x := (Shape{1, 2, 3, 4, 5}).Support(geom.Vec3{}); x != (geom.Vec3{Z: 3}) {
		t.Errorf("zero direction: %v", x)
	}
}

// Plane contact: a sphere is exact (1e-12); a posed superquadric matches the
// brute-force deepest sample (refined) to 1e-7·size.
func TestPlaneContact(t *testing.T) {
	w, n := geom.V(0, 0, 1), geom.V(0, 0, 2) // n need not be unit
	r := PlaneContact(Sphere(0.5), Pose{X: geom.V(3, 4, 1.4), Q: randQuat(rand.New(rand.NewSource(1)))}, w, n)
	if !r.InContact || math.Abs(r.Overlap-0.1) > 1e-12 || r.PA.Sub(geom.V(3, 4, 0.9)).Norm() > 1e-12 ||
		r.PB.Sub(geom.V(3, 4, 1)).Norm() > 1e-12 || r.Normal != geom.V(0, 0, 1) {
		t.Fatalf("sphere on plane: %+v", r)
	}
	if r := PlaneContact(Sphere(0.5), Pose{X: geom.V(0, 0, 1.6), Q: geom.QIdent()}, w, n); r.InContact || math.Abs(r.Gap-0.1) > 1e-12 {
		t.Fatalf("separated sphere: %+v", r)
	}
	rng := rand.New(rand.NewSource(12))
	for k := 0; k < 40; k++ {
		s := randShape(rng, 10)
		p := Pose{X: randDir(rng), Q: randQuat(rng)}
		nw := randDir(rng)
		wp := p.X.AddScaled(-s.BoundingRadius()*(0.8+0.3*rng.Float64()), nw)
		r := PlaneContact(s, p, wp, nw)
		bf, bx := math.Inf(1), geom.Vec3{}
		for _, x := range surfaceSamples(s, 100) {
			if v := p.ToWorld(x).Sub(wp).Dot(nw); v < bf {
				bf, bx = v, x
			}
		}
		_, nbf := zoomMax(func(u geom.Vec3) float64 { return -p.ToWorld(s.Project(u)).Sub(wp).Dot(nw) }, bx.Unit(), -bf, 0.05)
		bf = -nbf
		size := math.Max(s.A, math.Max(s.B, s.C))
		if r.Gap > bf+1e-12 || bf-r.Gap > 1e-7*size || r.InContact != (r.Gap < 0) || math.Abs(r.PB.Sub(wp).Dot(nw)) > 1e-12 {
			t.Errorf("%+v: gap %g, sampled %g, %+v", s, r.Gap, bf, r)
		}
	}
}
