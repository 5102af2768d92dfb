package integrate

import (
	"math"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// freeWorld returns a world without walls or gravity.
func freeWorld(t testing.TB) *world.World {
	w := world.New("free")
	if err := w.SetParams(0, 0, cubeParams(0, 0)); err != nil {
		t.Fatal(err)
	}
	w.Gravity = geom.Vec3{}
	w.Settings.Workers = 1
	return w
}

// fixedStep makes w take steps of exactly h (a variational integrator
// already set on w without the contact laws' step bound: FixedStep).
func fixedStep(w *world.World, h float64) {
	if v, ok := w.Integrator.(*Variational); ok {
		v.FixedStep = true // S2's fixed step, not the contact laws' bound
	}
	w.Settings.Dt, w.Settings.DtMax, w.Dt = h, h, h
	w.Settings.DtMin = math.Min(w.Settings.DtMin, h/64)
}

func stepN(t testing.TB, w *world.World, n int, each func()) {
	t.Helper()
	for i := 0; i < n; i++ {
		if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each()
		}
	}
}

// spinner is an asymmetric box (principal moments I1 < I2 < I3) spinning
// about its intermediate axis (body y) with a small perturbation.
func spinner(w *world.World) *body.Body {
	b := body.New("box", shape.Box(0.1, 0.2, 0.3), 1000, geom.Vec3{}, geom.QAxisAngle(geom.V(1, 2, 3), 0.4))
	b.W = b.Q.Rotate(geom.V(0.05, 10, 0.05))
	w.AddBody(b)
	return b
}

// The LGVI kinetic map: closed form against the matrix definition
// (F J_d − J_d Fᵀ)^∨ with F from the quaternion, its Jacobian against
// central differences, and its inverse (Newton, or the closed form for an
// isotropic sphere inertia), for small and large rotations.
func TestLGVIKineticMap(t *testing.T) {
	for _, J := range []geom.Mat3{{{2, 0.3, -0.1}, {0.3, 3, 0.2}, {-0.1, 0.2, 5}}, geom.Diag(0.4, 0.4, 0.4)} {
		lgviCheck(t, J)
	}
}

func lgviCheck(t *testing.T, J geom.Mat3) {
	Jd := geom.Identity().Scale(0.5 * J.Trace()).Sub(J)
	for _, th := range []geom.Vec3{geom.V(1e-9, -2e-9, 3e-9), geom.V(3e-3, 1e-3, -2e-3), geom.V(0.3, -0.7, 0.2), geom.V(0.9, 0.4, -1), geom.V(1.5, 0.4, -1)} {
		F := geom.QFromRotVec(th).Mat()
		A := F.Mul(Jd).Sub(Jd.Mul(F.T()))
		want := geom.V(A[2][1], A[0][2], A[1][0])
		got := lgviMomentum(J, th)
		if d := got.Sub(want).Norm(); d > 1e-14*J.Trace() {
			t.Errorf("θ=%v: closed form %v, matrix form %v (|Δ| %.3g)", th, got, want, d)
		}
		D := lgviJacobian(J, th)
		const e = 1e-6
		for j := 0; j < 3; j++ {
			var d geom.Vec3
			switch j {
			case 0:
				d.X = e
			case 1:
				d.Y = e
			default:
				d.Z = e
			}
			fd := lgviMomentum(J, th.Add(d)).Sub(lgviMomentum(J, th.Sub(d))).Scale(1 / (2 * e))
			if diff := fd.Sub(D.Col(j)).Norm(); diff > 1e-8*J.Trace() {
				t.Errorf("θ=%v: Jacobian column %d %v, central difference %v", th, j, D.Col(j), fd)
			}
		}
		if th.Norm() >= math.Pi/2 {
			continue // beyond a quarter turn per step the map is not one-to-one (sin φ)
		}
		back, ok := solveLGVI(J, mustInv(t, J), got)
		if !ok || back.Sub(th).Norm() > 1e-12*(1+th.Norm()) {
			t.Errorf("θ=%v: solveLGVI returned %v (ok %v)", th, back, ok)
		}
	}
}

func mustInv(t *testing.T, m geom.Mat3) geom.Mat3 {
	inv, ok := m.Inv()
	if !ok {
		t.Fatal("singular")
	}
	return inv
}

// Torque-free rotation of an asymmetric box near its unstable intermediate
// axis (the tennis-racket flip): the Lie-group update conserves the spatial
// angular momentum to roundoff (1e-12 relative) and keeps the kinetic energy
// within 1e-4 of its initial value (LGVI energy error is bounded, O(h²ω²)),
// for α = 0 and α = ½ alike; the body must actually flip (ω about body y
// changes sign), or the test would not exercise the rotation.
func TestVariationalTorqueFree(t *testing.T) {
	for _, al := range []float64{0, 0.5} {
		w := freeWorld(t)
		b := spinner(w)
		w.Integrator = NewVariational(al)
		fixedStep(w, 1e-3)
		L0 := b.MulInertia(b.W)
		E0 := b.KineticEnergy()
		var dL, dE float64
		flipped := false
		stepN(t, w, 3000, func() {
			dL = math.Max(dL, b.MulInertia(b.W).Sub(L0).Norm()/L0.Norm())
			dE = math.Max(dE, math.Abs(b.KineticEnergy()-E0)/E0)
			if b.Q.InvRotate(b.W).Y < 0 {
				flipped = true
			}
		})
		t.Logf("α=%g: max |ΔL|/|L| = %.3g, max |ΔE|/E = %.3g", al, dL, dE)
		if !flipped {
			t.Errorf("α=%g: no flip about the intermediate axis in 3 s", al)
		}
		if dL > 1e-11 {
			t.Errorf("α=%g: angular momentum drifts by %.3g (relative), want ≤ 1e-11", al, dL)
		}
		if dE > 1e-9 {
			t.Errorf("α=%g: kinetic energy drifts by %.3g (relative), want ≤ 1e-9", al, dE)
		}
	}
}

// The SO(3) update is second order: the orientation after 1 s from steps h,
// h/2, h/4 differs by errors whose ratio is 4 (2 ± 0.3 in log2).
func TestVariationalRotationOrder(t *testing.T) {
	final := func(h float64) geom.Quat {
		w := freeWorld(t)
		b := spinner(w)
		w.Integrator = NewVariational(0.5)
		fixedStep(w, h)
		stepN(t, w, int(math.Round(1/h)), nil)
		return b.Q
	}
	q1, q2, q3 := final(4e-3), final(2e-3), final(1e-3)
	e1, e2 := q1.AngleTo(q2), q2.AngleTo(q3)
	order := math.Log2(e1 / e2)
	t.Logf("orientation differences %.3g, %.3g rad: order %.3f", e1, e2, order)
	if math.Abs(order-2) > 0.3 {
		t.Errorf("observed order %.3f, want 2 ± 0.3", order)
	}
}

// Switching live: a spinning box in free flight under gravity is advanced
// alternately by velocity Verlet and the variational integrator (α = ½) with
// a second body added half way. Both integrators are exact for the
// parabola of the centre of mass (1e-12 m) and conserve the angular momentum
// (1e-12 relative), so any loss of state at a switch would show.
func TestVariationalSwitching(t *testing.T) {
	w := freeWorld(t)
	w.Gravity = geom.V(0, 0, -9.81)
	b := spinner(w)
	b.V = geom.V(1, 0, 3)
	x0, v0 := b.X, b.V
	L0 := b.MulInertia(b.W)
	h := 1e-3
	fixedStep(w, h)
	w.Settings.DtMin = h
	w.Settings.Safety = 1
	ex, vi := &Explicit{}, NewVariational(0.5)
	w.Integrator = ex
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	w.Dt = h
	var c *body.Body
	for round := 0; round < 8; round++ {
		if round%2 == 0 {
			w.Integrator = vi
		} else {
			w.Integrator = ex
		}
		if round == 4 {
			c = body.New("late", shape.Box(0.1, 0.1, 0.2), 500, geom.V(5, 5, 5), geom.QIdent())
			c.V = geom.V(0, 1, 0)
			w.AddBody(c)
		}
		stepN(t, w, 50, nil)
		tt := w.Time
		want := x0.AddScaled(tt, v0).AddScaled(0.5*tt*tt, w.Gravity)
		if d := b.X.Sub(want).Norm(); d > 1e-12 {
			t.Errorf("round %d (%s): centre of mass %.3g m off the parabola", round, w.Integrator.Name(), d)
		}
		if d := b.MulInertia(b.W).Sub(L0).Norm() / L0.Norm(); d > 1e-12 {
			t.Errorf("round %d (%s): angular momentum changed by %.3g (relative)", round, w.Integrator.Name(), d)
		}
	}
	if c == nil || c.X.Y < 5+0.1 {
		t.Errorf("the body added mid-run did not move")
	}
}

// Bad settings return an error naming the field, never a panic.
func TestVariationalBadInput(t *testing.T) {
	w := freeWorld(t)
	spinner(w)
	for _, c := range []struct {
		v    *Variational
		want string
	}{
		{NewVariational(-1), "variational.alpha"},
		{NewVariational(math.NaN()), "variational.alpha"},
		{&Variational{Alpha: 0.5, Tol: 2}, "variational.tol"},
		{&Variational{Alpha: 0.5, MaxNewton: -1}, "variational.max_newton"},
	} {
		w.Integrator = c.v
		_, err := c.v.Step(w, 1e-3)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got error %v, want one naming %s", err, c.want)
		}
	}
}

// S0 example 1 with the variational integrator (α = ½, fixed step 5 µs): a
// cube dropped 5 cm on its face and with a generic tilt, without damping or
// friction. The midpoint rule's energy error is transient, O(h²), during an
// impact (the barrier stiffens): it stays within 1% of m·g·h during the
// first two impacts, as velocity Verlet does (energy_test.go), and in flight
// after them the energy is back within 0.02% of m·g·h.
func TestVariationalCubeDropEnergy(t *testing.T) {
	const drop, m, grav = 0.05, 1.0, 9.81
	cases := []struct {
		name string
		q    geom.Quat
	}{
		{"c-face", geom.QIdent()},
		{"d-tilted", geom.QAxisAngle(geom.V(0, 1, 0), 10*math.Pi/180).Mul(geom.QAxisAngle(geom.V(1, 0, 0), 20*math.Pi/180))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := groundWorld(t, cubeParams(0, 0))
			b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, c.q)
			lowestAt(b, drop)
			w.AddBody(b)
			w.Integrator = NewVariational(0.5)
			if err := Start(w); err != nil {
				t.Fatal(err)
			}
			fixedStep(w, 5e-6)
			e0 := w.Stats.Total()
			impacts, inContact := 0, false
			var maxDrift, flightDrift, maxW float64
			for impacts < 2 && w.Time < 1 {
				stepN(t, w, 1, nil)
				d := math.Abs(w.Stats.Total() - e0)
				maxDrift = math.Max(maxDrift, d)
				maxW = math.Max(maxW, b.W.Norm())
				touching := w.Stats.Contacts > 0
				if inContact && !touching {
					impacts++
				}
				if impacts > 0 && !touching {
					flightDrift = math.Max(flightDrift, d)
				}
				inContact = touching
			}
			ref := m * grav * drop
			t.Logf("%s: max |ΔE| = %.3g%% of m·g·h during impacts, %.3g%% in flight after them; %d impacts, max |ω| %.3g rad/s, %d steps, %d rejected",
				c.name, 100*maxDrift/ref, 100*flightDrift/ref, impacts, maxW, w.Steps, w.Stats.Rejected)
			if impacts < 2 {
				t.Fatalf("only %d impacts in 1 s", impacts)
			}
			if maxDrift > 0.01*ref {
				t.Errorf("energy drift %.3g J exceeds 1%% of m·g·h = %.3g J", maxDrift, ref)
			}
			if flightDrift > 2e-4*ref {
				t.Errorf("energy in flight after impacts off by %.3g J, more than 0.02%% of m·g·h = %.3g J", flightDrift, ref)
			}
			if c.name == "d-tilted" && maxW < 0.1 {
				t.Errorf("|ω| only %.3g rad/s; the tilted cube should spin up at impact", maxW)
			}
		})
	}
}

// Switching with contact history: a cube settled on the ground by velocity
// Verlet (damping ζ = 1, friction μ = 0.5) is handed to the variational
// integrator, which must build up static friction against a sideways push
// of 0.3·W ramped on over 10 ms at the bottom face, then back to Verlet. The
// cube keeps carrying its weight (ground reaction W ± 1%), friction holds
// the push (R_x = −P ± 1% of P: stick, as S0 ex. 3), it does not slide (the
// tangential springs stretch < 0.1 mm) and comes to rest again (kinetic
// energy < 1e-6·W·a).
func TestVariationalRestingSwitch(t *testing.T) {
	for _, al := range []float64{0, 0.5} {
		w := groundWorld(t, cubeParams(1.0, 0.5))
		b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, geom.QAxisAngle(geom.V(0, 0, 1), 0.3))
		lowestAt(b, 0.9e-3)
		ib := w.AddBody(b)
		run(t, w, 0.3, nil)
		x0 := b.X
		W := b.Mass() * 9.81
		P := 0.3 * W
		w.Loads = append(w.Loads, body.Load{Body: ib, Point: geom.V(0, 0, -0.045),
			Force: body.Ramp{To: geom.V(P, 0, 0), T0: w.Time, T1: w.Time + 0.01}})
		vi := NewVariational(al)
		w.Integrator = vi
		w.Settings.Dt = 1e-4
		newton, linear := 0, 0
		stepN(t, w, 500, func() { newton += w.Stats.NewtonIters; linear += w.Stats.LinearIters })
		if w.Stats.Integrator != vi.Name() || w.Stats.Dt != 1e-4 {
			t.Errorf("α=%g: stats report integrator %q, dt %g; want %s, 1e-4", al, w.Stats.Integrator, w.Stats.Dt, vi.Name())
		}
		check := func(stage string) {
			f := w.Walls[0].Force
			d := b.X.Sub(x0).Norm()
			t.Logf("α=%g %s: ground reaction %.6g N (W %.6g N), friction %.6g N (P %.4g N), drift %.3g m, kinetic %.3g J; %d Newton, %d linear iterations in 500 steps, residual %.3g",
				al, stage, f.Z, W, f.X, P, d, w.Stats.Kinetic, newton, linear, w.Stats.Residual)
			if math.Abs(f.Z-W) > 0.01*W {
				t.Errorf("α=%g %s: ground reaction %.6g N, want %.6g N ± 1%%", al, stage, f.Z, W)
			}
			if math.Abs(f.X+P) > 0.01*P {
				t.Errorf("α=%g %s: friction %.6g N, want %.6g N ± 1%%", al, stage, f.X, -P)
			}
			if d > 1e-4 {
				t.Errorf("α=%g %s: the cube moved %.3g m under a push below μ·W", al, stage, d)
			}
			if w.Stats.Kinetic > 1e-6*W*0.1 {
				t.Errorf("α=%g %s: kinetic energy %.3g J, want rest", al, stage, w.Stats.Kinetic)
			}
		}
		check("variational")
		t.Logf("α=%g: %d of %d linear solves fell back from CG to BiCGStab", al, vi.Fallbacks, newton)
		w.Integrator = &Explicit{}
		run(t, w, w.Time+0.05, nil)
		check("back to explicit")
	}
}

// A step far too large for the contact (h = 2 ms, the cube falls 2 mm per
// step through a 1 mm barrier skin) penetrates: the step is rejected and
// retried with h/4 (Stats.Rejected), and then the fixed step regrows. The
// cube never passes the ground (its lowest point stays above z = 0) and
// rebounds.
func TestVariationalRejectsPenetration(t *testing.T) {
	w, b := cubeOverGround(t, cubeParams(0, 0), NewVariational(0.5))
	fixedStep(w, 2e-3)
	minGap, minDt, rebound := math.Inf(1), math.Inf(1), false
	for w.Time < 0.15 {
		stepN(t, w, 1, nil)
		minGap = math.Min(minGap, b.X.Z-0.05)
		minDt = math.Min(minDt, w.Stats.Dt)
		if w.Stats.Contacts == 0 && b.V.Z > 0 {
			rebound = true
		}
	}
	t.Logf("rejected %d steps, smallest step %.3g s, smallest gap %.3g m, final step %.3g s", w.Stats.Rejected, minDt, minGap, w.Stats.Dt)
	if w.Stats.Rejected == 0 || minDt >= 2e-3 {
		t.Errorf("no step was rejected (smallest %.3g s): the penetrating step was accepted", minDt)
	}
	if minGap <= 0 {
		t.Errorf("the cube reached %.3g m below the ground", -minGap)
	}
	if !rebound {
		t.Errorf("the cube did not rebound")
	}
	if w.Stats.Dt != 2e-3 {
		t.Errorf("the step did not regrow to the fixed 2 ms (last %.3g s)", w.Stats.Dt)
	}
}
