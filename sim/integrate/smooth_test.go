package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
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
// analytic damped oscillator (S2 eq. 33–34; the law as written, without
// limit_damping) within 1% at Δt ≈ t_c/16.
func TestSphereHeadOnRestitution(t *testing.T) {
	const r, rho, kn = 0.01, 2500.0, 1e5
	for _, gamma := range []float64{0, 30} {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: kn, GammaN: gamma})
		w.Gravity = geom.Vec3{}
		w.Settings.Safety = 0.1 // Δt ≈ t_c/16
		a := body.NewSphere("a", r, rho, geom.V(-r-1e-4, 0, 0))
		b := body.NewSphere("b", r, rho, geom.V(r+1e-4, 0, 0))
		a.V, b.V = geom.V(0.5, 0, 0), geom.V(-0.5, 0, 0)
		w.AddBody(a)
		w.AddBody(b)
		meff := law.EquivalentMass(a.Mass(), b.Mass())
		osc := sphere.HookeOscillator(&law.Smooth{Kn: kn, GammaN: gamma}, meff)
		want := osc.Restitution() // S2 eq. (34) at t_c
		run(t, w, 3*osc.ContactTime()+4e-4, nil)
		got := (b.V.X - a.V.X) / 1.0
		if math.Abs(got-want) > 0.01*want {
			t.Errorf("γ=%g: restitution %.5f, analytic %.5f (±1%%)", gamma, got, want)
		}
		if p := a.V.Add(b.V).Norm() * a.Mass(); p > 1e-12 {
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
		mg := b.Mass() * 9.81
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
		mg := b.Mass() * 9.81
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
	if p := a.V.Scale(a.Mass()).Add(b.V.Scale(b.Mass())).Norm(); p > 1e-9 {
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
	return b.X.Cross(b.V.Scale(b.Mass())).Add(b.MulInertia(b.W))
}

// A sphere resting on a cube that rests on the ground mixes the two law sets:
// the sphere–cube contact (smooth law, the cube's top facet) carries the
// sphere's weight with the Hookean overlap m g/k_n (0.1%), the ground carries
// both weights (0.1%).
func TestSphereOnCube(t *testing.T) {
	p := cubeParams(0.5, 0.5)
	p.Smooth = law.Smooth{Model: law.HookeLAMMPS, Kn: 1e5, GammaN: 300, Kt: 1e4, GammaT: 50, Mu: 0.5}
	w := groundWorld(t, p)
	cube := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0, 0, 0.05+0.0009), geom.QIdent())
	w.AddBody(cube)
	const r = 0.02
	s := body.NewSphere("ball", r, 2500, geom.V(0.01, -0.02, 0.1009+r))
	w.AddBody(s)
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	run(t, w, 0.6, nil)
	ms := s.Mass() * 9.81
	got, n := 0.0, 0
	w.EachContact(func(a, b int, c *contact.Contact) {
		if c.Kind == snap.SQ && c.Active() {
			got, n = -c.Gn, n+1
		}
	})
	if want := ms / 1e5; n != 1 || math.Abs(got-want) > 1e-3*want {
		t.Errorf("%d sphere–cube contacts, overlap %.6g m; want 1 of m g/k_n = %.6g m (±0.1%%)", n, got, want)
	}
	if got, want := w.Walls[0].Force.Z, (cube.Mass()+s.Mass())*9.81; math.Abs(got-want) > 1e-3*want {
		t.Errorf("ground reaction %.6g N, want %.6g N (±0.1%%)", got, want)
	}
}

// A sphere in a frictionless V-shaped trough of two planes at ±θ from the
// horizontal touches each plane once, with force m g/(2 cos θ) (0.1%).
func TestSphereInTrough(t *testing.T) {
	const r, theta = 0.01, 30 * math.Pi / 180
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e5, GammaN: 300})
	for i, sgn := range []float64{1, -1} {
		n := geom.V(-sgn*math.Sin(theta), 0, math.Cos(theta))
		c := geom.V(sgn*0.05*math.Cos(theta), 0, 0.05*math.Sin(theta))
		if _, err := w.AddWall([]string{"left", "right"}[i], plane(t, "p", c, n, 0.1), 0, true); err != nil {
			t.Fatal(err)
		}
	}
	s := body.NewSphere("ball", r, 2500, geom.V(0, 0, r/math.Cos(theta)))
	w.AddBody(s)
	run(t, w, 0.5, nil)
	want := s.Mass() * 9.81 / (2 * math.Cos(theta))
	if n := w.Stats.Contacts; n != 2 {
		t.Errorf("%d contacts, want 2", n)
	}
	for _, wl := range w.Walls {
		if got := wl.Force.Norm(); math.Abs(got-want) > 1e-3*want {
			t.Errorf("wall %s pushes %.6g N, want m g/(2 cos θ) = %.6g N (±0.1%%)", wl.Name, got, want)
		}
	}
}

// A sphere rolling on a floor with rolling resistance μ_r decelerates at
// 5/7·μ_r·g (torque μ_r R F_n about the contact point, I_c = 7/5 m R²), ±2%.
func TestSphereRollingResistance(t *testing.T) {
	const r, mur = 0.01, 0.02
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e5, GammaN: 300, Kt: 3e4, GammaT: 100, Mu: 0.5, MuRoll: mur})
	if _, err := w.AddWall("floor", plane(t, "floor", geom.Vec3{}, geom.V(0, 0, 1), 4), 0, true); err != nil {
		t.Fatal(err)
	}
	s := body.NewSphere("ball", r, 2500, geom.V(0, 0, r-s0(r)))
	s.V, s.W = geom.V(1, 0, 0), geom.V(0, 1/r, 0) // rolling without slip
	w.AddBody(s)
	run(t, w, 0.05, nil)
	v0, t0 := s.V.X, w.Time
	run(t, w, 0.5, nil)
	a := (s.V.X - v0) / (w.Time - t0)
	if want := -5.0 / 7.0 * mur * 9.81; math.Abs(a-want) > 0.02*math.Abs(want) {
		t.Errorf("deceleration %.5f m/s², want 5/7 μ_r g = %.5f (±2%%)", a, want)
	}
}

// s0 is the static Hookean overlap of a 2500 kg/m³ sphere of radius r (k_n = 1e5).
func s0(r float64) float64 { return 2500 * 4 / 3 * math.Pi * r * r * r * 9.81 / 1e5 }

// Walls are one-sided. A sphere or superquadric released just under a
// finite plate (centre 0.5 mm behind its plane, inside its extent) falls
// freely away from it; a sphere driven through a soft floor from the front
// (its centre passes behind the plane) is pushed back out and rebounds.
func TestSmoothWallOneSided(t *testing.T) {
	for _, kind := range []string{"sphere", "superquadric"} {
		w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e4, Mu: 0.5, Kt: 1e4})
		if _, err := w.AddWall("plate", plane(t, "plate", geom.V(0, 0, 0.01), geom.V(0, 0, 1), 0.02), 0, true); err != nil {
			t.Fatal(err)
		}
		x0 := geom.V(0.001, 0, 0.0095)
		b := body.NewSphere("s", 0.002, 2500, x0)
		if kind == "superquadric" {
			b = body.NewSuperquadric("q", sq.Shape{A: 0.002, B: 0.002, C: 0.001, N1: 4, N2: 4}, 2500, x0, geom.QIdent())
		}
		w.AddBody(b)
		touched := 0
		run(t, w, 0.02, func() { touched = max(touched, w.Stats.Contacts) })
		want := x0.Z - 0.5*9.81*0.02*0.02
		if touched != 0 || math.Abs(b.X.Z-want) > 1e-9 {
			t.Errorf("%s under the plate: %d contacts, z = %.9g, want free fall to %.9g", kind, touched, b.X.Z, want)
		}
	}
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e3})
	if _, err := w.AddWall("ground", plane(t, "ground", geom.Vec3{}, geom.V(0, 0, 1), 1), 0, true); err != nil {
		t.Fatal(err)
	}
	const r = 0.01
	b := body.NewSphere("s", r, 2500, geom.V(0, 0, r))
	b.V = geom.V(0, 0, -5) // peak overlap v√(m/k) ≈ 1.6 r: the centre goes behind the plane
	w.AddBody(b)
	lowest := b.X.Z
	run(t, w, 0.05, func() { lowest = min(lowest, b.X.Z) })
	if !(lowest < 0) || !(b.V.Z > 4) || !(b.X.Z > r) {
		t.Errorf("driven through the floor: lowest centre %.4g m (want < 0), then z = %.4g m, v_z = %.3g m/s (want a rebound above r at ~5 m/s)", lowest, b.X.Z, b.V.Z)
	}
}
