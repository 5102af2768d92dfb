package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// smoothWorld returns a world (no gravity unless set) with the given smooth law.
func smoothWorld(t testing.TB, s law.Smooth) *world.World {
	w := world.New("smooth")
	if err := w.SetParams(0, 0, world.ContactParams{Smooth: s}); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	return w
}

// Two spheres meet head-on with velocity-Verlet: the rebound speed matches the
// analytic damped oscillator with the no-tension clamp (S2 eq. 33–34) within 1%.
func TestSphereHeadOnRestitution(t *testing.T) {
	const r, rho, kn = 0.01, 2500.0, 1e5
	for _, gamma := range []float64{0, 30} {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: kn, GammaN: gamma})
		w.Gravity = geom.Vec3{}
		a := body.NewSphere("a", r, rho, geom.V(-r-1e-4, 0, 0))
		b := body.NewSphere("b", r, rho, geom.V(r+1e-4, 0, 0))
		a.V, b.V = geom.V(0.5, 0, 0), geom.V(-0.5, 0, 0)
		w.AddBody(a)
		w.AddBody(b)
		meff := law.EquivalentMass(a.Mass, b.Mass)
		osc := sphere.Hooke{Kn: kn, GammaN: gamma}.Oscillator(meff)
		want := osc.ClampedRestitution()
		run(t, w, 3*osc.ContactTime()+4e-4, nil)
		got := (b.V.X - a.V.X) / 1.0
		if math.Abs(got-want) > 0.01*want {
			t.Errorf("γ=%g: restitution %.5f, analytic %.5f (±1%%)", gamma, got, want)
		}
		if p := a.V.Add(b.V).Norm() * a.Mass; p > 1e-12 {
			t.Errorf("γ=%g: momentum not conserved: |p| = %g", gamma, p)
		}
	}
}

// A sphere resting on a plane wall under gravity: Hookean overlap m g/k_n and
// Hertzian overlap (m g/(k_n √R))^(2/3) (LAMMPS gran/hertz) within 0.1%.
func TestSphereRestsOnPlane(t *testing.T) {
	const r, rho = 0.01, 2500.0
	for _, s := range []law.Smooth{
		{Model: law.HookeLAMMPS, Kn: 1e4, GammaN: 200},
		{Model: law.HertzLAMMPS, Kn: 1e7, GammaN: 1e6},
	} {
		w := smoothWorld(t, s)
		if _, err := w.AddWall("ground", plane(t, "ground", geom.Vec3{}, geom.V(0, 0, 1), 1), 0, true); err != nil {
			t.Fatal(err)
		}
		b := body.NewSphere("s", r, rho, geom.V(0, 0, r))
		w.AddBody(b)
		run(t, w, 0.5, nil)
		mg := b.Mass * 9.81
		want := mg / s.Kn
		if s.Model == law.HertzLAMMPS {
			want = math.Pow(mg/(s.Kn*math.Sqrt(r)), 2.0/3.0)
		}
		got := r - b.X.Z
		if math.Abs(got-want) > 1e-3*want {
			t.Errorf("%v: overlap %.6g, want %.6g (±0.1%%)", s.Model, got, want)
		}
	}
}

// A sphere on an incline with enough friction rolls without slipping with
// a = 5/7 g sin θ; with too little it slides with a = g (sin θ − μ cos θ).
func TestSphereRollsDownIncline(t *testing.T) {
	const r, rho, theta = 0.01, 2500.0, 20 * math.Pi / 180
	for _, c := range []struct {
		mu   float64
		want float64
	}{
		{0.5, 5.0 / 7.0 * 9.81 * math.Sin(theta)},               // tan θ = 0.36 < 3.5 μ: rolling
		{0.05, 9.81 * (math.Sin(theta) - 0.05*math.Cos(theta))}, // tan θ > 3.5 μ: sliding
	} {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e5, GammaN: 300, Kt: 2e4, GammaT: 100, Mu: c.mu})
		n := geom.V(-math.Sin(theta), 0, math.Cos(theta))
		if _, err := w.AddWall("slope", plane(t, "slope", geom.Vec3{}, n, 3), 0, true); err != nil {
			t.Fatal(err)
		}
		b := body.NewSphere("s", r, rho, n.Scale(r-b0(r, rho, theta)))
		w.AddBody(b)
		run(t, w, 0.05, nil) // settle the normal spring
		v0, t0 := b.V, w.Time
		run(t, w, 0.25, nil)
		dir := geom.V(math.Cos(theta), 0, math.Sin(theta)) // down-slope is −dir
		a := -b.V.Sub(v0).Dot(dir) / (w.Time - t0)
		if math.Abs(a-c.want) > 0.01*c.want {
			t.Errorf("μ=%g: acceleration %.4f m/s², want %.4f (±1%%)", c.mu, a, c.want)
		}
	}
}

// b0 is the static overlap of the sphere on the incline (normal load only).
func b0(r, rho, theta float64) float64 {
	m := rho * 4 / 3 * math.Pi * r * r * r
	return m * 9.81 * math.Cos(theta) / 1e5
}

// Periodic x: a sphere crossing the seam hits one at the other end of the box
// through the seam; equal masses and no damping exchange their velocities.
func TestPeriodicSeamCollision(t *testing.T) {
	const r, rho = 0.01, 2500.0
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e5})
	w.Gravity = geom.Vec3{}
	w.Settings.Safety = 0.05 // ≈ 30 steps per contact: Verlet's restitution error ≪ 1e-5
	w.Periodic = world.Periodic{X: true, Lo: geom.V(0, -1, -1), Hi: geom.V(0.2, 1, 1)}
	a := body.NewSphere("a", r, rho, geom.V(0.2-r-0.002, 0, 0)) // near the +x face
	b := body.NewSphere("b", r, rho, geom.V(r+0.002, 0, 0))     // near the −x face
	a.V = geom.V(0.4, 0, 0)
	w.AddBody(a)
	w.AddBody(b)
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	run(t, w, 0.05, nil)
	if math.Abs(a.V.X) > 1e-3*0.4 || math.Abs(b.V.X-0.4) > 1e-3*0.4 {
		t.Errorf("after the seam collision v_a = %.3g, v_b = %.6g; want 0 and 0.4", a.V.X, b.V.X)
	}
	if a.X.X < 0 || a.X.X >= 0.2 || b.X.X < 0 || b.X.X >= 0.2 {
		t.Errorf("bodies left the periodic box: x_a = %g, x_b = %g", a.X.X, b.X.X)
	}
}

// A superquadric resting on a plane: with the Hertz law and R_eff from the
// curvature at the contact point (S1 eq. 39), the static overlap satisfies
// k_n √(R δ) δ = m g within 0.2%; an ellipsoid lying on its long side and one
// standing upright have different R_eff, hence different overlaps.
func TestSuperquadricRestsOnPlane(t *testing.T) {
	const rho = 2500.0
	for _, s := range []sq.Shape{{A: 0.02, B: 0.01, C: 0.01, N1: 2, N2: 2}, {A: 0.01, B: 0.01, C: 0.02, N1: 2, N2: 2}, {A: 0.01, B: 0.01, C: 0.01, N1: 2, N2: 4}} {
		law0 := law.Smooth{Model: law.HertzLAMMPS, Kn: 1e7, GammaN: 1e6, Radius: "mean"}
		w := smoothWorld(t, law0)
		if _, err := w.AddWall("ground", plane(t, "ground", geom.Vec3{}, geom.V(0, 0, 1), 1), 0, true); err != nil {
			t.Fatal(err)
		}
		b := body.NewSuperquadric("q", s, rho, geom.V(0, 0, s.C), geom.QIdent())
		w.AddBody(b)
		run(t, w, 0.5, nil)
		R := s.CurvatureRadius(sq.RadiusMean, geom.V(0, 0, -s.C), 10)
		mg := b.Mass * 9.81
		want := math.Pow(mg/(law0.Kn*math.Sqrt(R)), 2.0/3.0)
		got := s.C - b.X.Z
		if math.Abs(got-want) > 2e-3*want {
			t.Errorf("%+v: overlap %.6g, want %.6g (R_eff = %.4g, ±0.2%%)", s, got, want, R)
		}
		if w.Stats.SQFailures != 0 {
			t.Errorf("%d superquadric solves failed", w.Stats.SQFailures)
		}
	}
}

// Two superquadrics collide head-on along x in free space: momentum and
// angular momentum are conserved (1e-6) and, without damping, kinetic energy
// to the integrator's accuracy (0.5%).
func TestSuperquadricPairConserves(t *testing.T) {
	s := sq.Shape{A: 0.01, B: 0.007, C: 0.005, N1: 4, N2: 6}
	w := smoothWorld(t, law.Smooth{Model: law.HertzLAMMPS, Kn: 1e8, Radius: "volume"})
	w.Gravity = geom.Vec3{}
	w.Settings.Safety = 0.02
	a := body.NewSuperquadric("a", s, 2500, geom.V(-0.012, 0.002, 0), geom.QAxisAngle(geom.V(0, 0, 1), 0.3))
	b := body.NewSuperquadric("b", s, 2500, geom.V(0.012, -0.002, 0.001), geom.QAxisAngle(geom.V(1, 1, 0).Unit(), 0.5))
	a.V, b.V = geom.V(0.5, 0, 0), geom.V(-0.5, 0, 0)
	w.AddBody(a)
	w.AddBody(b)
	e0 := a.KineticEnergy() + b.KineticEnergy()
	l0 := angMom(a).Add(angMom(b))
	contacts := 0
	run(t, w, 0.06, func() { contacts = max(contacts, w.Stats.Contacts) })
	if contacts == 0 {
		t.Fatal("the superquadrics never touched")
	}
	e1 := a.KineticEnergy() + b.KineticEnergy()
	if math.Abs(e1-e0) > 5e-3*e0 { // velocity Verlet at s = 0.02 (~60 steps per impact)
		t.Errorf("kinetic energy %.6g → %.6g (±0.5%%)", e0, e1)
	}
	if p := a.V.Scale(a.Mass).Add(b.V.Scale(b.Mass)).Norm(); p > 1e-9 {
		t.Errorf("momentum |p| = %g", p)
	}
	if d := angMom(a).Add(angMom(b)).Sub(l0).Norm(); d > 1e-6*l0.Norm() {
		t.Errorf("angular momentum changed by %g (of %g)", d, l0.Norm())
	}
	if w.Stats.SQFailures != 0 {
		t.Errorf("%d superquadric solves failed", w.Stats.SQFailures)
	}
}

// angMom returns the angular momentum of b about the origin.
func angMom(b *body.Body) geom.Vec3 {
	return b.X.Cross(b.V.Scale(b.Mass)).Add(b.MulInertia(b.W))
}
