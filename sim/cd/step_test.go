package cd

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
)

func sphereBody(m, r float64, x, v geom.Vec3, g float64) Body {
	return Body{Mass: m, Inertia: geom.Identity().Scale(0.4 * m * r * r), X: x, V: v, F: geom.V(0, 0, -m*g)}
}

// groundContact is the contact of a sphere (body a) with the plane z = 0.
func groundContact(b Body, a int, r float64) Contact {
	return Contact{A: a, B: -1, P: geom.V(b.X.X, b.X.Y, 0), N: geom.V(0, 0, 1), Gap: b.X.Z - r}
}

// TestFreeFall checks the semi-implicit Euler update (S3 eq. 13) without contacts.
func TestFreeFall(t *testing.T) {
	b := sphereBody(2, 0.1, geom.V(0, 0, 1), geom.V(1, 0, 0), 9.81)
	b.W = geom.V(0, 0, 3)
	s, _ := NewSystem([]Body{b}, nil)
	res, err := s.Step(StepOptions{Dt: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	wantV := geom.V(1, 0, -0.0981)
	if res.V[0].Dist(wantV) > 1e-15 || res.X[0].Dist(geom.V(0.01, 0, 1-0.000981)) > 1e-15 {
		t.Errorf("v⁺ = %v, x⁺ = %v", res.V[0], res.X[0])
	}
	if a := geom.QIdent().AngleTo(res.Q[0]); math.Abs(a-0.03) > 1e-14 {
		t.Errorf("rotation angle %g, want 0.03", a)
	}
}

// TestSphereOnGround: a sphere resting on the ground carries N = mg with
// both solvers, and stays at rest.
func TestSphereOnGround(t *testing.T) {
	const m, r, g = 0.7, 0.05, 9.81
	b := sphereBody(m, r, geom.V(0.3, -0.2, r), geom.Vec3{}, g)
	s, _ := NewSystem([]Body{b}, []Contact{groundContact(b, 0, r)})
	for _, meth := range []Method{PGS, APGD} {
		res, err := s.Step(StepOptions{Dt: 1e-3, Method: meth, Tol: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.F[0]-m*g) > 1e-12*m*g || res.V[0].Norm() > 1e-14 || !res.Converged {
			t.Errorf("%v: N = %.15g (mg = %.15g), v⁺ = %v, converged %v", meth, res.F[0], m*g, res.V[0], res.Converged)
		}
	}
}

// TestRestitutionBounce: a ball hitting the ground (formed contact, S3 §4.3:
// Φ/Δt replaced by e_n B v^t) leaves with −e times its impact velocity,
// whatever the gravity impulse during the step; a separating ball is not
// pulled back.
func TestRestitutionBounce(t *testing.T) {
	const m, r, g, dt = 0.2, 0.01, 9.81, 1e-3
	for _, e := range []float64{0, 0.3, 0.8, 1} {
		for _, meth := range []Method{PGS, APGD} {
			b := sphereBody(m, r, geom.V(0, 0, r), geom.V(0.1, 0, -2.5), g)
			s, _ := NewSystem([]Body{b}, []Contact{groundContact(b, 0, r)})
			res, err := s.Step(StepOptions{Dt: dt, Method: meth, Restitution: e, Tol: 1e-14})
			if err != nil {
				t.Fatal(err)
			}
			ratio := -res.V[0].Z / b.V.Z
			if math.Abs(ratio-e) > 1e-9 || math.Abs(res.V[0].X-0.1) > 1e-15 {
				t.Errorf("e = %g, %v: post/pre velocity ratio %.12f, v⁺ = %v", e, meth, ratio, res.V[0])
			}
		}
	}
	// Separating at contact: no force, free flight.
	b := sphereBody(m, r, geom.V(0, 0, r), geom.V(0, 0, 1), g)
	s, _ := NewSystem([]Body{b}, []Contact{groundContact(b, 0, r)})
	res, _ := s.Step(StepOptions{Dt: dt, Restitution: 0.5})
	if res.F[0] != 0 || math.Abs(res.V[0].Z-(1-g*dt)) > 1e-15 {
		t.Errorf("separating ball: f = %g, v⁺ = %v", res.F[0], res.V[0])
	}
	// A contact not yet formed closes its gap exactly (S3 eq. 16), then bounces.
	b = sphereBody(m, r, geom.V(0, 0, r+1e-3), geom.V(0, 0, -3), g)
	s, _ = NewSystem([]Body{b}, []Contact{groundContact(b, 0, r)})
	res, _ = s.Step(StepOptions{Dt: dt, Restitution: 0.5, Touch: 1e-12})
	if math.Abs(res.X[0].Z-r) > 1e-15 {
		t.Errorf("landing: z⁺ − r = %g, want 0", res.X[0].Z-r)
	}
}

// TestPGSAPGDAgree: on a problem with a unique solution (N positive
// definite: four spheres in a tetrahedron on the ground, random velocities)
// both solvers find the same forces.
func TestPGSAPGDAgree(t *testing.T) {
	const r, m, g = 0.05, 0.3, 9.81
	d := 2 * r
	base := []geom.Vec3{{X: 0, Y: 0, Z: r}, {X: d, Y: 0, Z: r}, {X: d / 2, Y: d * math.Sqrt(3) / 2, Z: r}}
	top := geom.V(d/2, d*math.Sqrt(3)/6, r+d*math.Sqrt(2.0/3))
	rnd := rand.New(rand.NewPCG(5, 6))
	var bodies []Body
	for _, x := range append(base, top) {
		v := geom.V(rnd.NormFloat64(), rnd.NormFloat64(), rnd.NormFloat64()).Scale(0.05)
		bodies = append(bodies, sphereBody(m, r, x, v, g))
	}
	var cs []Contact
	for i := range 3 {
		cs = append(cs, groundContact(bodies[i], i, r))
	}
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			n := bodies[j].X.Sub(bodies[i].X).Unit()
			cs = append(cs, Contact{A: j, B: i, P: bodies[i].X.AddScaled(r, n), N: n})
		}
	}
	s, err := NewSystem(bodies, cs)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := s.Step(StepOptions{Dt: 1e-3, Method: PGS, Tol: 1e-12, MaxIter: 100000})
	b, _ := s.Step(StepOptions{Dt: 1e-3, Method: APGD, Tol: 1e-12, MaxIter: 100000})
	if !a.Converged || !b.Converged {
		t.Fatalf("PGS %d it res %g, APGD %d it res %g", a.Iter, a.Residual, b.Iter, b.Residual)
	}
	var fmax, diff float64
	nz := 0
	for i := range a.F {
		fmax = math.Max(fmax, a.F[i])
		diff = math.Max(diff, math.Abs(a.F[i]-b.F[i]))
		if a.F[i] > 0 {
			nz++
		}
	}
	t.Logf("forces %v; PGS %d sweeps, APGD %d iterations; %d of %d contacts active", a.F, a.Iter, b.Iter, nz, len(a.F))
	if diff > 1e-8*fmax {
		t.Errorf("PGS and APGD differ by %g (max force %g)", diff, fmax)
	}
}

// TestRestitutionPushesOutOverlap: with restitution, a formed contact that
// penetrates (Φ < 0) is pushed out at −Φ/Δt when that beats e_n times the
// approach speed, and bounces at e_n v otherwise (exact to 1e-12 m/s).
func TestRestitutionPushesOutOverlap(t *testing.T) {
	const m, r, dt, pen = 0.2, 0.01, 1e-3, 1e-4
	for _, c := range []struct{ v, want float64 }{{0, pen / dt}, {-0.01, pen / dt}, {-2, 1}} {
		b := sphereBody(m, r, geom.V(0, 0, r-pen), geom.V(0, 0, c.v), 0)
		s, _ := NewSystem([]Body{b}, []Contact{groundContact(b, 0, r)})
		res, err := s.Step(StepOptions{Dt: dt, Restitution: 0.5, Tol: 1e-14})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.V[0].Z-c.want) > 1e-12 {
			t.Errorf("v = %g: v⁺ = %.15g, want %g", c.v, res.V[0].Z, c.want)
		}
	}
}
