package validation

import (
	"math"
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
)

// fixedSmoothScene: a 1 cm glass-like sphere resting on a fixed base, which
// is a sphere of the same radius (the free one exactly above it) or a fixed
// blocky superquadric slab; Hookean contacts with damping and friction.
const fixedSmoothScene = `
name: fixed-smooth
time: 0.3
gravity: [0, 0, -9.81]
integrator: {name: explicit, dt: 1.0e-5, dt_min: 1.0e-9, dt_max: 1.0e-4, safety: 0.2}
contact:
  default: {model: hooke, kn: 1.0e4, gamma_n: 200, kt: 5.0e3, gamma_t: 100, mu: 0.5}
shapes:
  ball: {type: sphere, radius: 0.01}
  slab: {type: superquadric, a: 0.03, b: 0.03, c: 0.01, n1: 8, n2: 8}
bodies:
  - {name: base, shape: BASE, fixed: true, position: [0, 0, 0]}
  - {name: top, shape: ball, density: 2500, position: [0, 0, 0.01998]}
`

// TestFixedSmoothBase: a sphere resting on a fixed sphere or on a fixed
// superquadric stays in equilibrium under every integrator: after 0.3 s
// (settled from a 0.02 mm overlap) its speed is below 1e-4 m/s, it has moved
// less than 0.1 mm, the contact force on it equals its weight (±1%), and the
// fixed body has not moved at all (state bit-identical).
func TestFixedSmoothBase(t *testing.T) {
	for _, base := range []string{"ball", "slab"} {
		for _, name := range []string{"explicit", "newmark", "variational", "cd"} {
			sets := []string{"bodies.0.shape=" + base, "integrator.name=" + name}
			s, err := scene.ParseWithOverrides([]byte(fixedSmoothScene), "fixed-smooth.yaml", sets)
			if err != nil {
				t.Fatal(err)
			}
			w, err := scene.Build(s)
			if err != nil {
				t.Fatal(err)
			}
			if x, ok := w.Integrator.(*integrate.CD); ok {
				x.Dt = 1e-3
			}
			if err := integrate.Start(w); err != nil {
				t.Fatal(err)
			}
			bi, ti := w.BodyByName("base"), w.BodyByName("top")
			b0 := *w.Bodies()[bi]
			x0 := w.Bodies()[ti].X
			advance(t, w, 0.3, nil)
			top := w.Bodies()[ti]
			W := top.Mass() * 9.81
			var f geom.Vec3
			w.EachContact(func(a, b int, c *contact.Contact) {
				if !c.Active() {
					return
				}
				fa := c.N.Scale(c.Fn).Add(c.Ft)
				switch ti {
				case a:
					f = f.Add(fa)
				case b:
					f = f.Sub(fa)
				}
			})
			bb := w.Bodies()[bi]
			t.Logf("%s on fixed %s: %d steps, |v| = %.3g m/s, moved %.3g m, contact force %.6g N (W = %.6g N)",
				name, base, w.Steps, top.V.Norm(), top.X.Dist(x0), f.Z, W)
			if top.V.Norm() > 1e-4 || top.X.Dist(x0) > 1e-4 || math.Abs(f.Z-W) > 0.01*W || math.Hypot(f.X, f.Y) > 0.01*W {
				t.Errorf("%s on fixed %s: |v| = %.3g, moved %.3g m, force %v (W = %.6g N)", name, base, top.V.Norm(), top.X.Dist(x0), f, W)
			}
			if bb.X != b0.X || bb.Q != b0.Q || bb.V != b0.V || bb.W != b0.W || !bb.Fixed {
				t.Errorf("%s on fixed %s: the fixed body moved: %v %v → %v %v", name, base, b0.X, b0.Q, bb.X, bb.Q)
			}
		}
	}
}
