package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// TestCDFrictionIncline runs CD with friction on a ground plane under gravity
// tilted by θ (an incline), each body starting at rest on it, for 0.2 s after
// a 0.05 s start, and compares the mean acceleration down the slope with
// Coulomb's (±1e-3 g):
//   - a cube (polyhedron, μ_s = μ_d = μ): sticks for tan θ < μ, else slides
//     at g(sin θ − μ cos θ);
//   - a sphere: rolls without slipping at (5/7) g sin θ for tan θ ≤ (7/2)μ,
//     else slides at g(sin θ − μ cos θ);
//   - a superquadric of sphere shape (n1 = n2 = 2, through the superquadric
//     contact path) rolls as the sphere. (A blocky one rocks on its single
//     contact point, as a rigid body should, so it has no simple law.)
//
// No body leaves the plane (normal speed < 1e-6 m/s).
func TestCDFrictionIncline(t *testing.T) {
	const g = 9.81
	for _, c := range []struct {
		kind   string
		deg    float64
		mu     float64
		expect func(th, mu float64) float64
	}{
		{"cube", 20, 0.5, nil},
		{"cube", 30, 0.5, slide},
		{"sphere", 20, 0.5, func(th, _ float64) float64 { return 5.0 / 7 * g * math.Sin(th) }},
		{"sphere", 20, 0.05, slide},
		{"superquadric", 20, 0.5, func(th, _ float64) float64 { return 5.0 / 7 * g * math.Sin(th) }},
	} {
		th := c.deg * math.Pi / 180
		var w *world.World
		var b *body.Body
		if c.kind == "cube" {
			w = groundWorld(t, cubeParams(0, c.mu))
			b = body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0, 0, 0.05+0.1e-3), geom.QIdent())
		} else {
			w = smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e4, Kt: 1e4, Mu: c.mu})
			if _, err := w.AddWall("ground", plane(t, "ground", geom.Vec3{}, geom.V(0, 0, 1), 2), 0, true); err != nil {
				t.Fatal(err)
			}
			if c.kind == "sphere" {
				b = body.NewSphere("s", 0.01, 2500, geom.V(0, 0, 0.01-1e-8))
			} else {
				s := sq.Shape{A: 0.01, B: 0.01, C: 0.01, N1: 2, N2: 2}
				b = body.NewSuperquadric("q", s, 2500, geom.V(0, 0, s.C-1e-8), geom.QIdent())
			}
		}
		w.AddBody(b)
		w.Gravity = geom.V(g*math.Sin(th), 0, -g*math.Cos(th))
		x := NewCD()
		x.Dt, x.Tol = 1e-3, 1e-10
		w.Integrator = x
		if _, err := Advance(w, 0.05, nil); err != nil {
			t.Fatal(err)
		}
		v0, t0 := b.V.X, w.Time
		if _, err := Advance(w, 0.25, nil); err != nil {
			t.Fatal(err)
		}
		a := (b.V.X - v0) / (w.Time - t0)
		want := 0.0
		if c.expect != nil {
			want = c.expect(th, c.mu)
		}
		t.Logf("%s, θ = %g°, μ = %g: a = %.6g m/s², want %.6g; v_z = %.2g m/s, ω_y = %.4g rad/s",
			c.kind, c.deg, c.mu, a, want, b.V.Z, b.W.Y)
		if math.Abs(a-want) > 1e-3*g || math.Abs(b.V.Z) > 1e-6 {
			t.Errorf("%s, θ = %g°, μ = %g: a = %.6g m/s², want %.6g (±1e-3 g); v_z = %g", c.kind, c.deg, c.mu, a, want, b.V.Z)
		}
	}
}

// slide is the acceleration of a body sliding down an incline: g(sin θ − μ cos θ).
func slide(th, mu float64) float64 { return 9.81 * (math.Sin(th) - mu*math.Cos(th)) }
