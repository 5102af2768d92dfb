package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// Spheres and ellipsoid vertices against the analytic curvatures (1e-12), the
// adjugate form against S1 eq. (40) as printed (with √ over the whole ratio)
// at random surface points (1e-9 relative), and the q·R_vol cap on a flat face.
func TestCurvature(t *testing.T) {
	s := Sphere(0.7)
	for _, x := range []geom.Vec3{{X: 0.7}, {Z: -0.7}, geom.V(1, 2, 3).Unit().Scale(0.7)} {
		if km, kg := s.MeanCurvature(x), s.GaussianCurvature(x); math.Abs(km-1/0.7) > 1e-12 || math.Abs(kg-1/0.49) > 1e-12 {
			t.Errorf("sphere at %v: K_mean %g, κ₁κ₂ %g", x, km, kg)
		}
	}
	e := Shape{2, 1, 0.5, 2, 2}
	// at (a, 0, 0): κ = a/b², a/c²
	k1, k2 := 2.0/1, 2/0.25
	if km, kg := e.MeanCurvature(geom.V(2, 0, 0)), e.GaussianCurvature(geom.V(2, 0, 0)); math.Abs(km-(k1+k2)/2) > 1e-12 || math.Abs(kg-k1*k2) > 1e-12 {
		t.Errorf("ellipsoid vertex: K_mean %g, κ₁κ₂ %g, want %g, %g", km, kg, (k1+k2)/2, k1*k2)
	}
	rng := rand.New(rand.NewSource(31))
	for k := 0; k < 200; k++ {
		s := randShape(rng, 10)
		x := s.Project(randDir(rng))
		_, g, h := s.Eval(x)
		if math.Abs(g.Z) < 1e-3*g.Norm() {
			continue
		}
		// S1 eq. (40), A, B, C, D as printed
		A := g.Z*(h[0][0]*g.Z-2*g.X*h[0][2]) + g.X*g.X*h[2][2]
		B := g.Z*(h[1][1]*g.Z-2*g.Y*h[1][2]) + g.Y*g.Y*h[2][2]
		C := g.Z*(h[0][1]*g.Z-h[0][2]*g.Y-g.X*h[1][2]) + g.X*g.Y*h[2][2]
		D := g.Z * g.Z * sq(g.Norm2())
		want := (A*B - C*C) / D
		if got := s.GaussianCurvature(x); math.Abs(got-want) > 1e-9*math.Max(math.Abs(want), 1e-3) {
			t.Errorf("%+v at %v: κ₁κ₂ %g, S1 eq. (40) %g", s, x, got, want)
		}
	}
	cube := Shape{1, 1, 1, 10, 10}
	rv := cube.VolumeRadius()
	for _, m := range []RadiusMethod{RadiusMean, RadiusGauss} {
		if r := cube.CurvatureRadius(m, geom.V(1, 0, 0), 0); r != 10*rv {
			t.Errorf("method %d: flat face radius %g, want cap %g", m, r, 10*rv)
		}
		if r := cube.CurvatureRadius(m, geom.V(1, 0, 0), 3); r != 3*rv {
			t.Errorf("method %d: flat face radius %g, want cap %g", m, r, 3*rv)
		}
	}
	if r := cube.CurvatureRadius(RadiusVolume, geom.V(1, 0, 0), 0); r != rv {
		t.Errorf("volume radius %g, want %g", r, rv)
	}
	pa, pb := Pose{X: geom.V(0, 0, 1), Q: geom.QIdent()}, Pose{Q: randQuat(rng)}
	for _, m := range []RadiusMethod{RadiusMean, RadiusGauss, RadiusVolume} {
		req := EquivalentRadius(m, Sphere(0.5), pa, geom.V(0, 0, 0.5), Sphere(0.3), pb, pb.ToWorld(geom.V(0, 0.3, 0)), 0)
		if math.Abs(req-0.5*0.3/0.8) > 1e-12 {
			t.Errorf("method %d: sphere R_eq %g, want %g", m, req, 0.15/0.8)
		}
	}
}
