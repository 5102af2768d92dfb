package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
	"grainlab/sim/world"
)

// S2 §3 in reduced units: diameter d = 1, mass m = 1, k·d/(m·g) = 195 000
// with g = 1, so k_n = 195 000; S2 does not give the speed, take v = 1.
// Frictionless (S2 §3: μ = 0) with γ_t = γ_n/2; γ is read as the LAMMPS
// damping rate γ_n (dashpot m_eff·γ_n·v_n), as in sim/sphere.
const (
	s2d  = 1.0
	s2m  = 1.0
	s2kn = 195000.0
	s2v  = 1.0
)

// s2World returns a world without gravity whose contacts follow the Hookean
// law of S2 eq. (20)–(21).
func s2World(t testing.TB, gammaN float64) *world.World {
	w := world.New("s2")
	w.Gravity = geom.Vec3{}
	w.Settings.Workers = 1
	p := world.ContactParams{Smooth: law.Smooth{Model: law.HookeLAMMPS, Kn: s2kn, GammaN: gammaN, GammaT: gammaN / 2}}
	if err := w.SetParams(0, 0, p); err != nil {
		t.Fatal(err)
	}
	return w
}

// s2Sphere adds a sphere of diameter d and mass m at x moving with v.
func s2Sphere(w *world.World, name string, x, v geom.Vec3) *body.Body {
	b := body.NewSphere(name, s2d/2, s2m/(math.Pi/6*s2d*s2d*s2d), x)
	b.V = v
	w.AddBody(b)
	return b
}

// s2Start evaluates the initial state and pins the step to h.
func s2Start(t testing.TB, w *world.World, integ world.Integrator, h float64) {
	t.Helper()
	w.Integrator = integ
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	fixedStep(w, h)
}

// s2Oscillator is the head-on impact of two S2 spheres: m_eff = m/2.
func s2Oscillator(gammaN float64) sphere.Oscillator {
	return sphere.Oscillator{Omega0: math.Sqrt(s2kn / (s2m / 2)), Gamma: gammaN}
}

// S2 §3.1, Fig. 8: two spheres meet head on (Δy = 0) at relative speed 2v
// after a gap of 0.02 d. At h = t_c/160 the second-order integrator follows
// the kinetic energy of one particle from the analytic damped oscillator
// (S2 eq. 33–34: the law as written, the dashpot free to pull until the
// overlap closes at t_c) within 1% of its initial value throughout, for
// γ = 0 and γ = 30/s; after the impact both orders give the kinetic energy
// within 1% of the analytic ½m(e·v)², e the oscillator's restitution.
func TestS2HeadOnImpact(t *testing.T) {
	for _, gn := range []float64{0, 30} {
		o := s2Oscillator(gn)
		tc := o.ContactTime()
		// S2 eq. (33)–(34) hold until the overlap closes at t_c.
		tStar, e := o.ContactTime(), o.Restitution()
		h := tc / 160 // S2 §3.1
		for _, al := range []float64{0, 0.5} {
			w := s2World(t, gn)
			gap := 0.02 * s2d
			a := s2Sphere(w, "left", geom.V(-(s2d+gap)/2, 0, 0), geom.V(s2v, 0, 0))
			b := s2Sphere(w, "right", geom.V((s2d+gap)/2, 0, 0), geom.V(-s2v, 0, 0))
			s2Start(t, w, NewVariational(al), h)
			tA := gap / (2 * s2v) // S2 §3.1: t_A = gap / approach speed
			ke0 := 0.5 * s2m * s2v * s2v
			var worst float64
			for w.Time < tA+tStar+0.2*tc {
				stepN(t, w, 1, nil)
				tau := w.Time - tA
				vx := e * 2 * s2v // separating speed after the impact
				if tau < tStar {
					_, vx = o.State(2*s2v, tau) // S2 eq. (34)
				}
				want := 0.5 * s2m * vx * vx / 4 // one particle moves at half the relative speed
				worst = math.Max(worst, math.Abs(b.KineticEnergy()-want)/ke0)
			}
			keEnd, want := b.KineticEnergy(), 0.5*s2m*e*e*s2v*s2v
			t.Logf("γ=%g α=%g: h = t_c/160 = %.4g s, max |KE − KE_exact| = %.3g%% of KE0, KE after impact %.6g (analytic %.6g, %+.3g%%), momentum %.3g",
				gn, al, h, 100*worst, keEnd, want, 100*(keEnd/want-1), a.V.Add(b.V).Norm())
			if math.Abs(keEnd/want-1) > 0.01 {
				t.Errorf("γ=%g α=%g: kinetic energy after impact %.6g, analytic %.6g: off by more than 1%%", gn, al, keEnd, want)
			}
			if al == 0.5 && worst > 0.01 {
				t.Errorf("γ=%g α=%g: kinetic energy history off the analytic solution by %.3g%% of KE0 (> 1%%)", gn, al, 100*worst)
			}
			if p := a.V.Add(b.V).Norm(); p > 1e-9 {
				t.Errorf("γ=%g α=%g: total momentum %.3g, want 0 (internal forces)", gn, al, p)
			}
		}
	}
}

// S2 §2.1: α = 0 is first-order and α = ½ second-order accurate. Two
// spheres start touching at relative speed 2v and are integrated to the
// middle of the contact, t_c/2, with h = t_c/40 … t_c/320; the error of the
// overlap and the normal velocity against the analytic oscillator (S2 eq.
// 33–34) falls with the fitted order 1 ± 0.2 (α = 0) and 2 ± 0.2 (α = ½),
// for γ = 0 and γ = 30/s.
func TestS2OrderOfAccuracy(t *testing.T) {
	for _, gn := range []float64{0, 30} {
		o := s2Oscillator(gn)
		tc := o.ContactTime()
		V := 2 * s2v
		wd := o.OmegaD()
		dExact, vExact := o.State(V, tc/2)
		for _, al := range []float64{0, 0.5} {
			var lh, le []float64
			for _, n := range []int{20, 40, 80, 160} {
				w := s2World(t, gn)
				a := s2Sphere(w, "left", geom.V(-s2d/2, 0, 0), geom.V(s2v, 0, 0))
				b := s2Sphere(w, "right", geom.V(s2d/2, 0, 0), geom.V(-s2v, 0, 0))
				h := tc / float64(2*n)
				s2Start(t, w, NewVariational(al), h)
				stepN(t, w, n, nil)
				delta := s2d - (b.X.X - a.X.X)
				vn := b.V.X - a.V.X // separating velocity
				err := math.Hypot(vn-vExact, wd*(delta-dExact)) / V
				lh, le = append(lh, math.Log(h)), append(le, math.Log(err))
			}
			order := slope(lh, le)
			t.Logf("γ=%g α=%g: errors %.3g … %.3g, fitted order %.3f", gn, al, math.Exp(le[0]), math.Exp(le[len(le)-1]), order)
			want := 1.0
			if al == 0.5 {
				want = 2
			}
			if math.Abs(order-want) > 0.2 {
				t.Errorf("γ=%g α=%g: fitted order %.3f, want %g ± 0.2", gn, al, order, want)
			}
		}
	}
}

// slope returns the least-squares slope of y over x.
func slope(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(x))
	var sxy, sxx float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
	}
	return sxy / sxx
}

// bounce runs S2 §3.2: a sphere between two parallel walls 1.01 d apart,
// moving at v normal to them, undamped, for the given number of collisions.
// It returns the relative energy change at the end (in flight, the energy is
// kinetic) and the largest relative deviation seen in flight.
func bounce(t *testing.T, integ world.Integrator, h float64, collisions int) (final, worst float64) {
	t.Helper()
	w := s2World(t, 0)
	gap := 1.01 * s2d
	for _, s := range []float64{-1, 1} {
		name := "left"
		if s > 0 {
			name = "right"
		}
		if _, err := w.AddWall(name, plane(t, name, geom.V(s*gap/2, 0, 0), geom.V(-s, 0, 0), 4), 0, true); err != nil {
			t.Fatal(err)
		}
	}
	b := s2Sphere(w, "ball", geom.Vec3{}, geom.V(s2v, 0, 0))
	s2Start(t, w, integ, h)
	if _, ok := integ.(*Explicit); ok {
		// Velocity Verlet at a fixed Δt: dt_min = dt_max = h (S2 compares LAMMPS).
		w.Settings.DtMin, w.Settings.Safety = h, 1
	}
	e0 := b.KineticEnergy()
	n, touching := 0, false
	for n < collisions {
		stepN(t, w, 1, nil)
		now := w.Stats.Contacts > 0
		if touching && !now {
			n++
		}
		touching = now
		if !now {
			final = b.KineticEnergy()/e0 - 1
			worst = math.Max(worst, math.Abs(final))
		}
		if w.Time > 10 {
			t.Fatalf("only %d collisions in %g s", n, w.Time)
		}
	}
	return final, worst
}

// S2 §3.2, Fig. 9: undamped bouncing between walls 1.01 d apart for 250
// collisions. The second-order variational integrator loses at most 0.2% of
// the energy at h ≈ t_c/32 and at most 0.02% at h ≈ t_c/160 (S2: ~0.1% and
// similar to LAMMPS' fluctuations); velocity Verlet at a fixed step stays
// bounded: its in-flight energy never strays by more than 0.5% (t_c/32) and
// 0.01% (t_c/160), with no systematic loss.
func TestS2WallBounce(t *testing.T) {
	tc := math.Pi * math.Sqrt(s2m/s2kn) // sphere–wall: m_eff = m
	const n = 250
	for _, c := range []struct {
		div, tol float64
	}{{32, 0.002}, {160, 0.0002}} {
		final, worst := bounce(t, NewVariational(0.5), tc/c.div, n)
		t.Logf("variational α=½, h = t_c/%g: energy change after %d collisions %+.3g%%, worst in flight %.3g%%", c.div, n, 100*final, 100*worst)
		if -final > c.tol || worst > c.tol {
			t.Errorf("h = t_c/%g: energy change %.3g%% (worst %.3g%%), want a loss ≤ %.3g%%", c.div, 100*final, 100*worst, 100*c.tol)
		}
	}
	for _, c := range []struct {
		div, tol float64
	}{{32, 0.005}, {160, 0.0001}} {
		final, worst := bounce(t, &Explicit{}, tc/c.div, n)
		t.Logf("velocity Verlet, h = t_c/%g: energy change after %d collisions %+.3g%%, worst in flight %.3g%%", c.div, n, 100*final, 100*worst)
		if worst > c.tol {
			t.Errorf("velocity Verlet, h = t_c/%g: in-flight energy strays by %.3g%% (> %.3g%%)", c.div, 100*worst, 100*c.tol)
		}
	}
}

// S2 §3.3, Fig. 10: a bonded pair (A–B, touching, bond stiffness k_B =
// k_n/10, a slower time scale) moving at +v is hit head on by a third sphere
// C moving at −v. The histories of the A–C contact force and of the bond
// force are recorded. The bond holds the pair together (|stretch| < 2% of d
// throughout); momentum is conserved (1e-9); the undamped system keeps its
// energy (kinetic + contact + bond, 0.1%); the recorded A–C contact force
// is one pulse whose impulse equals C's change of momentum (1%); the bond
// force then oscillates (changes sign at least twice).
func TestS2BondedPairImpact(t *testing.T) {
	w := s2World(t, 0)
	gap := 0.02 * s2d
	A := s2Sphere(w, "A", geom.Vec3{}, geom.V(s2v, 0, 0))
	B := s2Sphere(w, "B", geom.V(-s2d, 0, 0), geom.V(s2v, 0, 0))
	C := s2Sphere(w, "C", geom.V(s2d+gap, 0, 0), geom.V(-s2v, 0, 0))
	kB := s2kn / 10
	w.AddBond(0, 1, kB, 0, 0)
	tc := s2Oscillator(0).ContactTime()
	h := tc / 100 // the fastest time scale sets the step (S2 §3.3)
	s2Start(t, w, NewVariational(0.5), h)
	e0 := w.Stats.Total()
	p0 := A.V.Add(B.V).Add(C.V).Scale(s2m)
	vC0 := C.V.X
	var impulse, prevF, maxStretch, maxE, peak float64
	var pulses, signChanges int
	prevBond := 0.0
	inPulse := false
	var times, fAC, fBond []float64
	for w.Time < 20*tc {
		stepN(t, w, 1, nil)
		f := 0.0
		w.EachContact(func(a, b int, c *contact.Contact) {
			if c.Active() && ((a == 0 && b == 2) || (a == 2 && b == 0)) {
				f += c.Fn
			}
		})
		impulse += 0.5 * (f + prevF) * h // trapezoidal rule over the recorded history
		prevF = f
		peak = math.Max(peak, f)
		if f > 0 && !inPulse {
			pulses++
		}
		inPulse = f > 0
		bf := w.Bonds[0].Force
		if f == 0 && pulses > 0 && bf*prevBond < 0 {
			signChanges++
		}
		if bf != 0 {
			prevBond = bf
		}
		maxStretch = math.Max(maxStretch, math.Abs(w.Bonds[0].Stretch))
		maxE = math.Max(maxE, math.Abs(w.Stats.Total()-e0)/e0)
		times, fAC, fBond = append(times, w.Time), append(fAC, f), append(fBond, bf)
	}
	dpC := s2m * (C.V.X - vC0)
	p := A.V.Add(B.V).Add(C.V).Scale(s2m)
	t.Logf("%d samples over %.3g s: A–C peak %.4g N in %d pulse(s), impulse %.6g vs Δp_C %.6g; bond: max |stretch| %.3g d, %d sign changes; max |ΔE|/E %.3g; pair velocity %.4g, C velocity %.4g",
		len(times), w.Time, peak, pulses, impulse, dpC, maxStretch/s2d, signChanges, maxE, 0.5*(A.V.X+B.V.X), C.V.X)
	if maxStretch > 0.02*s2d {
		t.Errorf("bond stretched by %.3g d (> 2%%): the pair did not hold", maxStretch/s2d)
	}
	if d := p.Sub(p0).Norm(); d > 1e-9 {
		t.Errorf("momentum changed by %.3g", d)
	}
	if maxE > 1e-3 {
		t.Errorf("energy drifted by %.3g (relative) without damping, want ≤ 0.1%%", maxE)
	}
	if pulses != 1 || math.Abs(impulse-dpC) > 0.01*math.Abs(dpC) {
		t.Errorf("A–C contact: %d pulse(s), impulse %.6g, C's change of momentum %.6g (want one pulse, equal within 1%%)", pulses, impulse, dpC)
	}
	if signChanges < 2 {
		t.Errorf("bond force changed sign %d times after the impact; want an oscillation", signChanges)
	}
	if C.V.X <= 0.5*(A.V.X+B.V.X) {
		t.Errorf("C (v = %.3g) did not separate from the pair (v = %.3g)", C.V.X, 0.5*(A.V.X+B.V.X))
	}
}

// Switching in the middle of a contact: the S2 §3.1 impact (γ = 30/s,
// Δy = 0.1 d so that the tangential dashpot spins the spheres up) at
// h = t_c/160 with the integrator swapped between velocity Verlet and the
// variational one (α = ½) every 7 steps ends, after separation, with the
// same velocities and spins as a run with the variational integrator
// alone, within 0.2% of the approach speed, and conserves momentum and
// angular momentum about the origin (1e-9).
func TestS2SwitchDuringImpact(t *testing.T) {
	gn := 30.0
	o := s2Oscillator(gn)
	h := o.ContactTime() / 160
	run := func(swap bool) (a, b *body.Body, L geom.Vec3) {
		w := s2World(t, gn)
		p := w.Params(0, 0)
		p.Smooth.Kt, p.Smooth.Mu = s2kn*2/7, 0.5 // S2 §3.1 offset impact, with friction
		if err := w.SetParams(0, 0, *p); err != nil {
			t.Fatal(err)
		}
		gap, dy := 0.02*s2d, 0.1*s2d
		a = s2Sphere(w, "left", geom.V(-(s2d+gap)/2, -dy/2, 0), geom.V(s2v, 0, 0))
		b = s2Sphere(w, "right", geom.V((s2d+gap)/2, dy/2, 0), geom.V(-s2v, 0, 0))
		vi, ex := NewVariational(0.5), &Explicit{}
		s2Start(t, w, vi, h)
		w.Settings.DtMin = h
		for i := 0; w.Time < gap/(2*s2v)+2*o.ContactTime(); i++ {
			if swap && (i/7)%2 == 1 {
				w.Integrator = ex
			} else {
				w.Integrator = vi
			}
			stepN(t, w, 1, nil)
		}
		for _, c := range []*body.Body{a, b} {
			L = L.Add(c.X.Cross(c.V).Scale(c.Mass())).Add(c.MulInertia(c.W))
		}
		return a, b, L
	}
	a1, b1, L1 := run(false)
	a2, b2, L2 := run(true)
	r := s2d / 2
	d := math.Max(b1.V.Sub(b2.V).Norm(), a1.V.Sub(a2.V).Norm())
	dw := math.Max(b1.W.Sub(b2.W).Norm(), a1.W.Sub(a2.W).Norm()) * r
	t.Logf("variational alone: v_right %v, ω_right %v; switched: v_right %v, ω_right %v; |Δv| %.3g, r|Δω| %.3g; |L| %.3g vs %.3g",
		b1.V, b1.W, b2.V, b2.W, d, dw, L1.Norm(), L2.Norm())
	if b1.W.Norm()*r < 1e-3*s2v {
		t.Fatalf("the offset impact did not spin the spheres (ω = %v)", b1.W)
	}
	if d > 2e-3*2*s2v || dw > 2e-3*2*s2v {
		t.Errorf("switching changed the outcome: |Δv| %.3g, r|Δω| %.3g (> 0.2%% of the approach speed)", d, dw)
	}
	if p := a2.V.Add(b2.V).Norm(); p > 1e-9 {
		t.Errorf("momentum %.3g after switching, want 0", p)
	}
	if dl := L2.Sub(L1).Norm(); dl > 1e-9 {
		t.Errorf("angular momentum differs by %.3g between the runs", dl)
	}
}
