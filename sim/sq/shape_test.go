package sq

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"grainlab/sim/geom"
)

func TestValidate(t *testing.T) {
	if err := (Shape{1, 2, 3, 2, 10}).Validate(); err != nil {
		t.Fatalf("valid shape rejected: %v", err)
	}
	bad := []struct {
		s     Shape
		field string
	}{
		{Shape{0, 1, 1, 2, 2}, "A"},
		{Shape{1, -1, 1, 2, 2}, "B"},
		{Shape{1, 1, math.Inf(1), 2, 2}, "C"},
		{Shape{1, 1, 1, 1.9, 2}, "N1"},
		{Shape{1, 1, 1, 2, math.NaN()}, "N2"},
		{Shape{1, 1, 1, 2, 21}, "N2"},
	}
	for _, c := range bad {
		err := c.s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.field+" =") {
			t.Errorf("%+v: error %v does not name %s", c.s, err, c.field)
		}
	}
}

// fdGrad returns the central-difference gradient of fn.
func fdGrad(fn func(geom.Vec3) float64, x geom.Vec3, h float64) geom.Vec3 {
	var g [3]float64
	for i := 0; i < 3; i++ {
		e := axis(i).Scale(h)
		g[i] = (fn(x.Add(e)) - fn(x.Sub(e))) / (2 * h)
	}
	return geom.Vec3{X: g[0], Y: g[1], Z: g[2]}
}

func axis(i int) geom.Vec3 {
	var e [3]float64
	e[i] = 1
	return geom.Vec3{X: e[0], Y: e[1], Z: e[2]}
}

func maxAbs(v geom.Vec3) float64 {
	return math.Max(math.Abs(v.X), math.Max(math.Abs(v.Y), math.Abs(v.Z)))
}

func matMaxAbs(m geom.Mat3) float64 { return m.MaxAbsDiff(geom.Mat3{}) }

// Gradient and Hessian against central differences (of f and of the analytic
// gradient) at random points, near and far, and near the coordinate planes:
// max-norm relative error ≤ 1e-6.
func TestGradHessFD(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	worstG, worstH := 0.0, 0.0
	for k := 0; k < 400; k++ {
		s := randShape(rng, 10)
		// gauge in [0.6, 1.6]: inside, on and outside the surface
		x := randDir(rng)
		switch k % 4 {
		case 1: // near a coordinate plane
			switch rng.Intn(3) {
			case 0:
				x.X = 1e-3 * (2*rng.Float64() - 1)
			case 1:
				x.Y = 1e-3 * (2*rng.Float64() - 1)
			default:
				x.Z = 1e-3 * (2*rng.Float64() - 1)
			}
		}
		x = s.Project(x).Scale(0.6 + rng.Float64())
		if k%4 == 2 { // far outside
			x = x.Scale(3)
		}
		f, g, h := s.Eval(x)
		if math.IsNaN(f) || !g.IsFinite() {
			t.Fatalf("%+v at %v: non-finite f or gradient", s, x)
		}
		// per-coordinate steps that stay on one side of the coordinate planes
		var steps [3]float64
		for i := range steps {
			steps[i] = math.Min(1e-5*math.Max(1, x.Norm()), 1e-3*math.Abs(x.Idx(i)))
		}
		var gfd geom.Vec3
		for i := 0; i < 3; i++ {
			e := axis(i).Scale(steps[i])
			d := (s.F(x.Add(e)) - s.F(x.Sub(e))) / (2 * steps[i])
			gfd = gfd.Add(axis(i).Scale(d))
		}
		eg := maxAbs(gfd.Sub(g)) / maxAbs(g)
		var hfd geom.Mat3
		for i := 0; i < 3; i++ {
			step := steps[i]
			e := axis(i).Scale(step)
			col := s.Grad(x.Add(e)).Sub(s.Grad(x.Sub(e))).Scale(1 / (2 * step))
			hfd[0][i], hfd[1][i], hfd[2][i] = col.X, col.Y, col.Z
		}
		eh := hfd.MaxAbsDiff(h) / matMaxAbs(h)
		worstG, worstH = math.Max(worstG, eg), math.Max(worstH, eh)
		if eg > 1e-6 || eh > 1e-6 {
			t.Errorf("%+v at %v: gradient rel err %.2g, Hessian rel err %.2g", s, x, eg, eh)
		}
	}
	t.Logf("worst relative error: gradient %.2g, Hessian %.2g (tolerance 1e-6)", worstG, worstH)
}

// On the coordinate planes, axes and at the centre every quantity is finite,
// and the gradient vanishes in the zeroed coordinates.
func TestEvalOnPlanes(t *testing.T) {
	for _, s := range []Shape{{1, 2, 3, 2, 2}, {1, 2, 3, 2.5, 7.3}, {1, 1, 1, 10, 2}, {2, 1, 1, 3, 2.2}, {1, 1, 2, 2, 8}} {
		for _, x := range []geom.Vec3{{}, {X: 0.5}, {Y: -0.5}, {Z: 0.7}, {X: 0.3, Y: -0.2}, {Y: 0.4, Z: -0.9}, {X: -0.1, Z: 0.2}} {
			f, g, h := s.Eval(x)
			ok := !math.IsNaN(f) && g.IsFinite()
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					ok = ok && !math.IsNaN(h[i][j]) && !math.IsInf(h[i][j], 0)
				}
				if x.Idx(i) == 0 && g.Idx(i) != 0 {
					t.Errorf("%+v at %v: gradient component %d = %g, want 0", s, x, i, g.Idx(i))
				}
			}
			if !ok {
				t.Errorf("%+v at %v: non-finite f %g, ∇f %v, H %v", s, x, f, g, h)
			}
		}
	}
	// the sphere has f = |x|² − 1, ∇f = 2x, H = 2I exactly everywhere, also at 0
	for _, x := range []geom.Vec3{{}, {X: 1}, {X: 0.3, Y: 0.4}} {
		f, g, h := Sphere(1).Eval(x)
		if math.Abs(f-(x.Norm2()-1)) > 1e-15 || g.Sub(x.Scale(2)).Norm() > 1e-15 || h.MaxAbsDiff(geom.Identity().Scale(2)) > 1e-15 {
			t.Errorf("sphere at %v: f %g ∇f %v H %v", x, f, g, h)
		}
	}
}

// World evaluation follows S1 eq. (18): F(X) = f(Aᵀ(X − X_C)), ∇F = A∇f, H = A H Aᵀ.
func TestWorldTransforms(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for k := 0; k < 50; k++ {
		s := randShape(rng, 8)
		p := Pose{X: randDir(rng).Scale(3), Q: randQuat(rng)}
		w := p.ToWorld(s.Project(randDir(rng)).Scale(0.6 + rng.Float64()))
		if d := p.ToWorld(p.ToLocal(w)).Sub(w).Norm(); d > 1e-14 {
			t.Fatalf("ToWorld∘ToLocal off by %g", d)
		}
		F, G, H := s.EvalWorld(p, w)
		fd := fdGrad(func(x geom.Vec3) float64 { return s.FWorld(p, x) }, w, 1e-6)
		if math.Abs(F-s.FWorld(p, w)) > 1e-14*(1+math.Abs(F)) || maxAbs(fd.Sub(G)) > 1e-6*maxAbs(G) {
			t.Fatalf("world gradient %v vs finite differences %v", G, fd)
		}
		var hfd geom.Mat3
		for i := 0; i < 3; i++ {
			e := axis(i).Scale(1e-6)
			_, gp, _ := s.EvalWorld(p, w.Add(e))
			_, gm, _ := s.EvalWorld(p, w.Sub(e))
			col := gp.Sub(gm).Scale(1 / 2e-6)
			hfd[0][i], hfd[1][i], hfd[2][i] = col.X, col.Y, col.Z
		}
		if hfd.MaxAbsDiff(H) > 1e-6*matMaxAbs(H) {
			t.Fatalf("world Hessian %v vs finite differences %v", H, hfd)
		}
	}
}

// Project lands on the surface: |f| ≤ 1e-12.
func TestProject(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for k := 0; k < 200; k++ {
		s := randShape(rng, 20)
		x := s.Project(randDir(rng).Scale(0.1 + 3*rng.Float64()))
		if f := s.F(x); math.Abs(f) > 1e-12 {
			t.Fatalf("%+v: f(Project) = %g", s, f)
		}
	}
}
