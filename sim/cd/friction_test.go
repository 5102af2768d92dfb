package cd

import (
	"math"
	"testing"

	"grainlab/sim/geom"
)

// blockOnPlane returns a cube of mass m and half-edge h resting on the fixed
// plane z = 0 through its four bottom corners, loaded by gravity g (world
// vector) and the force F at its centre, with friction μ_s, μ_d.
func blockOnPlane(m, h float64, g, F geom.Vec3, muS, muD float64, slid bool) *System {
	b := boxBody(m, geom.V(h, h, h), geom.V(0, 0, h), geom.QIdent())
	b.F = g.Scale(m).Add(F)
	var cs []Contact
	for _, c := range [][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		cs = append(cs, Contact{A: 0, B: -1, P: geom.V(c[0]*h, c[1]*h, 0), N: geom.V(0, 0, 1),
			MuS: muS, MuD: muD, Slid: slid})
	}
	s, err := NewSystem([]Body{b}, cs)
	if err != nil {
		panic(err)
	}
	return s
}

// TestProjectCone checks the projection onto ‖γ_t‖ ≤ μγ_n: idempotent, inside
// the cone, and the residual γ − Π(γ) in the polar cone (orthogonal to Π(γ)).
func TestProjectCone(t *testing.T) {
	for _, mu := range []float64{0, 0.3, 1, 2} {
		for _, g := range [][3]float64{{1, 0.1, 0.2}, {1, 3, -1}, {-1, 0.2, 0}, {-1, 4, 3}, {0, 1, 0}} {
			n, a, b := projectCone(mu, g[0], g[1], g[2])
			if math.Hypot(a, b) > mu*n*(1+1e-12)+1e-15 || n < 0 {
				t.Errorf("μ = %g, γ = %v: projection (%g, %g, %g) outside the cone", mu, g, n, a, b)
			}
			n2, a2, b2 := projectCone(mu, n, a, b)
			if math.Abs(n2-n)+math.Abs(a2-a)+math.Abs(b2-b) > 1e-14 {
				t.Errorf("μ = %g, γ = %v: not idempotent", mu, g)
			}
			if d := (g[0]-n)*n + (g[1]-a)*a + (g[2]-b)*b; math.Abs(d) > 1e-12 {
				t.Errorf("μ = %g, γ = %v: (γ − Πγ)·Πγ = %g, want 0", mu, g, d)
			}
		}
	}
}

// TestBlockCoulombLimits: a 1 kg cube on a plane pushed sideways by F sticks
// (v⁺ = 0, friction −F) while F < μ_s·W, breaks loose at F > μ_s·W and then
// slides at friction μ_d·W: v⁺_x = (F − μ_d W)Δt/m, without lifting off
// (v⁺_z = 0: no CCP dilatancy). A contact that slid before starts at μ_d.
func TestBlockCoulombLimits(t *testing.T) {
	const m, h, g, dt, muS, muD = 1.0, 0.05, 9.81, 1e-3, 0.8, 0.6
	W := m * g
	for _, c := range []struct {
		F          float64
		slid, want bool // slid before; slides now
	}{{0.5 * muS * W, false, false}, {0.99 * muS * W, false, false}, {1.01 * muS * W, false, true},
		{1.5 * muS * W, false, true}, {0.9 * muS * W, true, true}, {0.5 * muD * W, true, false}} {
		s := blockOnPlane(m, h, geom.V(0, 0, -g), geom.V(c.F, 0, 0), muS, muD, c.slid)
		res, err := s.Step(StepOptions{Dt: dt, Method: APGD, Tol: 1e-10})
		if err != nil {
			t.Fatal(err)
		}
		var ft geom.Vec3
		var fn float64
		slides := false
		for i := range res.F {
			fn += res.F[i]
			ft = ft.Add(res.Ft[i])
			slides = slides || res.Slide[i]
		}
		wantV, wantFt := 0.0, -c.F
		if c.want {
			wantV, wantFt = (c.F-muD*W)*dt/m, -muD*W
		}
		t.Logf("F = %.3f μsW, slid %v: N = %.6g, Ft = %.6g, v = %v, slides %v, %d iterations, residual %.2g",
			c.F/(muS*W), c.slid, fn, ft.X, res.V[0], slides, res.Iter, res.Residual)
		if slides != c.want {
			t.Errorf("F = %.3f μsW: slides %v, want %v", c.F/(muS*W), slides, c.want)
		}
		if math.Abs(fn-W) > 1e-6*W || math.Abs(ft.X-wantFt) > 1e-6*W || math.Abs(ft.Y) > 1e-6*W {
			t.Errorf("F = %.3f μsW: N = %.8g (W = %.8g), Ft = %v, want (%.8g, 0)", c.F/(muS*W), fn, W, ft, wantFt)
		}
		if math.Abs(res.V[0].X-wantV) > 1e-6*g*dt || math.Abs(res.V[0].Z) > 1e-6*g*dt {
			t.Errorf("F = %.3f μsW: v⁺ = %v, want (%.6g, 0, 0)", c.F/(muS*W), res.V[0], wantV)
		}
	}
}

// TestBlockOnIncline: on a plane tilted by θ (gravity rotated) the block
// sticks for tan θ < μ and otherwise accelerates at g(sin θ − μ cos θ)
// (±1e-6 g) over 200 steps, staying on the plane (|z − h| < 1e-9 m).
func TestBlockOnIncline(t *testing.T) {
	const m, h, g, dt, mu = 2.0, 0.05, 9.81, 1e-3, 0.5
	for _, deg := range []float64{10, 25, 26.0, 27.0, 40} {
		th := deg * math.Pi / 180
		grav := geom.V(g*math.Sin(th), 0, -g*math.Cos(th))
		want := math.Max(0, g*(math.Sin(th)-mu*math.Cos(th)))
		s := blockOnPlane(m, h, grav, geom.Vec3{}, mu, mu, false)
		b := s.Bodies[0]
		slid := false
		for range 200 {
			cs := append([]Contact(nil), s.Contacts...)
			for i := range cs {
				cs[i].Gap = b.X.Z - h
				cs[i].P = geom.V(b.X.X+cs[i].P.X-s.Bodies[0].X.X, b.X.Y+cs[i].P.Y-s.Bodies[0].X.Y, 0)
				cs[i].Slid = slid
			}
			ns, err := NewSystem([]Body{b}, cs)
			if err != nil {
				t.Fatal(err)
			}
			res, err := ns.Step(StepOptions{Dt: dt, Tol: 1e-10})
			if err != nil {
				t.Fatal(err)
			}
			b.X, b.V, b.W, b.Q = res.X[0], res.V[0], res.W[0], res.Q[0]
			slid = res.Slide[0]
			s = ns
		}
		a := b.V.X / (200 * dt)
		t.Logf("θ = %g° (atan μ = %.3f°): a = %.9g m/s², want %.9g; z − h = %.3g m", deg, math.Atan(mu)*180/math.Pi, a, want, b.X.Z-h)
		if math.Abs(a-want) > 1e-6*g || math.Abs(b.X.Z-h) > 1e-9 || b.W.Norm() > 1e-6 {
			t.Errorf("θ = %g°: a = %.9g, want %.9g; z − h = %.3g, ω = %v", deg, a, want, b.X.Z-h, b.W)
		}
	}
}
