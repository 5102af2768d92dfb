package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// BenchmarkVariational times one step of the second-order variational
// integrator on small scenes: 27 damped, frictional spheres settling in an
// open box (a 3×3×3 lattice dropped on the ground), and the tilted cube of
// S0 example 1 in contact with the ground.
func BenchmarkVariational(b *testing.B) {
	for _, integ := range []string{"variational", "verlet"} {
		b.Run("spheres27/"+integ, func(b *testing.B) {
			w, h := sphereBox(b)
			if integ == "verlet" {
				// Reference: velocity Verlet at the same fixed step.
				w.Integrator = &Explicit{}
			} else {
				w.Integrator = NewVariational(0.5)
			}
			if err := Start(w); err != nil {
				b.Fatal(err)
			}
			fixedStep(w, h)
			w.Settings.DtMin = h
			stepN(b, w, 5000, nil) // 0.18 s: the lattice has landed and collides
			b.ResetTimer()
			newton, linear := 0, 0
			for i := 0; i < b.N; i++ {
				if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
					b.Fatal(err)
				}
				newton += w.Stats.NewtonIters
				linear += w.Stats.LinearIters
			}
			b.ReportMetric(float64(w.Stats.Contacts), "contacts")
			if vi, ok := w.Integrator.(*Variational); ok {
				b.ReportMetric(float64(newton)/float64(b.N), "newton/step")
				b.ReportMetric(float64(linear)/float64(b.N), "linear/step")
				b.ReportMetric(float64(vi.Fallbacks), "bicgstab")
			}
		})
	}
	b.Run("cube", func(b *testing.B) {
		w := groundWorld(b, cubeParams(1, 0.5))
		q := geom.QAxisAngle(geom.V(0, 1, 0), 10*math.Pi/180).Mul(geom.QAxisAngle(geom.V(1, 0, 0), 20*math.Pi/180))
		c := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, q)
		lowestAt(c, 0.5e-3)
		w.AddBody(c)
		w.Integrator = NewVariational(0.5)
		if err := Start(w); err != nil {
			b.Fatal(err)
		}
		fixedStep(w, 1e-5)
		b.ResetTimer()
		newton, linear := 0, 0
		for i := 0; i < b.N; i++ {
			if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
				b.Fatal(err)
			}
			newton += w.Stats.NewtonIters
			linear += w.Stats.LinearIters
		}
		b.ReportMetric(float64(newton)/float64(b.N), "newton/step")
		b.ReportMetric(float64(linear)/float64(b.N), "linear/step")
	})
}

// sphereBox returns 27 spheres (r = 5 mm, damped Hookean contacts with
// friction) in a 3×3×3 lattice above the floor of an open 4 cm box, and a
// step of t_c/50.
func sphereBox(b *testing.B) (*world.World, float64) {
	const r, rho = 0.005, 2500.0
	w := world.New("bench")
	w.Settings.Workers = 1
	p := world.ContactParams{Smooth: law.Smooth{Model: law.HookeLAMMPS, Kn: 2000, GammaN: 100, Kt: 2000 * 2 / 7, GammaT: 50, Mu: 0.5}}
	if err := w.SetParams(0, 0, p); err != nil {
		b.Fatal(err)
	}
	L := 0.04
	for i, n := range []geom.Vec3{geom.V(0, 0, 1), geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0)} {
		c := n.Scale(-L / 2)
		if i == 0 {
			c = geom.Vec3{}
		} else {
			c.Z = L / 2
		}
		if _, err := w.AddWall(string(rune('a'+i)), plane(b, "w", c, n, L), 0, true); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 27; i++ {
		x := geom.V(float64(i%3-1)*2.2*r, float64(i/3%3-1)*2.2*r, r*(1.05+2.2*float64(i/9)))
		w.AddBody(body.NewSphere("s", r, rho, x.Add(geom.V(1e-4*float64(i%2), 0, 0))))
	}
	m := w.Bodies()[len(w.Bodies())-1].Mass()
	return w, math.Pi * math.Sqrt(m/2/2000) / 50
}
