package sphere

import (
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// S2 §3 parameters in reduced units: d = m = g = 1 with k d/(m g) = 195 000
// (S2 §3); S2 does not give v, take v = 1 per particle.
const (
	s2D = 1.0
	s2M = 1.0
	s2K = 195000 * s2M * 1.0 / s2D
	s2V = 1.0
)

// impactRun integrates the relative coordinate r = |x_A − x_B| of S2 §3.1
// (positions ±d, velocities ∓v, Δy = 0) with velocity Verlet as LAMMPS does
// (the force after the drift sees the half-step velocity) and returns the
// largest |KE − KE_exact|/KE0 of one particle and the final v_n/V.
func impactRun(t *testing.T, force func(delta, vn float64) float64, o Oscillator, clamped bool) (maxErr, ratio float64) {
	t.Helper()
	meff := s2M / 2
	V := 2 * s2V // approach speed
	tEnd := o.ContactTime()
	eEnd := o.Restitution()
	if clamped {
		tEnd, eEnd = o.ClampedContactTime(), o.ClampedRestitution()
	}
	h := o.ContactTime() / 160 // S2 §3.1: h ≈ t_c/160
	r, vn := 2*s2D, -V
	tA := (r - s2D) / V // S2 §3.1: t_A = d/(2v)
	ke := func(vrel float64) float64 { return 0.5 * s2M * (vrel / 2) * (vrel / 2) }
	ke0 := ke(V)
	a := force(s2D-r, vn) / meff
	nSteps := int(math.Ceil((tA + tEnd + 0.25*o.ContactTime()) / h))
	for i := 1; i <= nSteps; i++ {
		vh := vn + 0.5*h*a
		r += h * vh
		a = force(s2D-r, vh) / meff
		vn = vh + 0.5*h*a
		tau := float64(i)*h - tA
		vx := eEnd * V // free flight after separation
		if tau < tEnd {
			_, vx = o.State(V, tau) // S2 eq. (34)
		}
		if e := math.Abs(ke(vn)-ke(vx)) / ke0; e > maxErr {
			maxErr = e
		}
	}
	if s2D-r >= 0 {
		t.Fatalf("still in contact at the end: δ = %g", s2D-r)
	}
	return maxErr, vn / V
}

// TestImpactS2 checks S2 §3.1 (Fig. 8): the kinetic energy history against
// S2 eq. (33)–(34) within 1% of KE0 and the restitution within 1e-3, for the
// Hooke law as written (the linear, tension-allowing oscillator) and with
// LimitDamping (clamped). γ_n = 30/s is S2's case read as a LAMMPS rate;
// γ_n = 60/s reads S2's γ = 30 as a dashpot coefficient with m = 1 (decay
// e^{−γt/m}, S2 eq. 33).
func TestImpactS2(t *testing.T) {
	meff := s2M / 2
	for _, gn := range []float64{0, 30, 60} {
		hooke := law.Smooth{Model: law.HookeLAMMPS, Kn: s2K, GammaN: gn}
		if err := hooke.Validate(); err != nil {
			t.Fatal(err)
		}
		o := HookeOscillator(&hooke, meff)
		lim := hooke
		lim.LimitDamping = true
		clamped := func(delta, vn float64) float64 { return lim.Normal(delta, vn, meff, 0).Fn }
		linear := func(delta, vn float64) float64 { return hooke.Normal(delta, vn, meff, 0).Fn } // S2 eq. (20) as written
		for _, c := range []struct {
			name    string
			f       func(delta, vn float64) float64
			clamped bool
			e       float64
		}{{"clamped", clamped, true, o.ClampedRestitution()}, {"linear", linear, false, o.Restitution()}} {
			maxErr, ratio := impactRun(t, c.f, o, c.clamped)
			t.Logf("γn=%g %s: ζ=%.4f t_c=%.5g e=%.6f sim=%.6f |Δe|=%.2e max|ΔKE|/KE0=%.2e",
				gn, c.name, o.Zeta(), o.ContactTime(), c.e, ratio, math.Abs(ratio-c.e), maxErr)
			if maxErr > 0.01 {
				t.Errorf("γn=%g %s: kinetic energy off by %.3g of KE0 (> 1%%)", gn, c.name, maxErr)
			}
			if math.Abs(ratio-c.e) > 1e-3 {
				t.Errorf("γn=%g %s: restitution %.6f, analytic %.6f (> 1e-3)", gn, c.name, ratio, c.e)
			}
		}
	}
}

// TestOscillatorClosedForms checks t_c, e and the clamp time against S2 §3.1
// and the definition of t*: the force k δ + m γ δ̇ vanishes there.
func TestOscillatorClosedForms(t *testing.T) {
	meff := s2M / 2
	o := HookeOscillator(&law.Smooth{Kn: s2K}, meff)
	if tc, want := o.ContactTime(), math.Pi*math.Sqrt(s2M/(2*s2K)); math.Abs(tc-want) > 1e-15*want {
		t.Errorf("γ=0: t_c = %g, S2 t_C = π√(m/2k) = %g", tc, want)
	}
	if o.Restitution() != 1 || math.Abs(o.ClampedRestitution()-1) > 1e-12 {
		t.Errorf("γ=0: e = %g, clamped %g, want 1", o.Restitution(), o.ClampedRestitution())
	}
	for _, g := range []float64{30, 300, 800, 1200} { // ζ from 0.024 to 0.96
		o := HookeOscillator(&law.Smooth{Kn: s2K, GammaN: g}, meff)
		z := o.Zeta()
		if e, want := o.Restitution(), math.Exp(-math.Pi*z/math.Sqrt(1-z*z)); math.Abs(e-want) > 1e-12 {
			t.Errorf("γ=%g: e = %g, want exp(−πζ/√(1−ζ²)) = %g", g, e, want)
		}
		ts := o.ClampedContactTime()
		d, vn := o.State(2, ts)
		if f := o.Omega0*o.Omega0*d - o.Gamma*vn; math.Abs(f) > 1e-9*o.Omega0*2 {
			t.Errorf("γ=%g: force at t* = %g, want 0", g, f)
		}
		if !(ts > 0 && ts <= o.ContactTime()) || o.ClampedRestitution() < o.Restitution() {
			t.Errorf("γ=%g: t* = %g vs t_c = %g, e* = %g vs e = %g", g, ts, o.ContactTime(), o.ClampedRestitution(), o.Restitution())
		}
	}
	over := HookeOscillator(&law.Smooth{Kn: 1, GammaN: 3}, 1)
	if !math.IsInf(over.ContactTime(), 1) || over.Restitution() != 0 || !math.IsNaN(over.ClampedRestitution()) {
		t.Errorf("overdamped: t_c=%g e=%g e*=%g", over.ContactTime(), over.Restitution(), over.ClampedRestitution())
	}
}

// TestBetweenWallsS2 is S2 §3.2: an undamped sphere between two walls 1.01 d
// apart, 250 collisions with velocity Verlet at h ≈ t_c/160 (t_c with
// m_eff = m); the total energy stays within 1e-3 of its start and the speed
// after the last collision within 1e-3 of v.
func TestBetweenWallsS2(t *testing.T) {
	hooke := law.Smooth{Model: law.HookeLAMMPS, Kn: s2K}
	r := s2D / 2
	pLo, nLo := geom.V(0, 0, 0), geom.V(0, 0, 1)
	pHi, nHi := geom.V(0, 0, 1.01*s2D), geom.V(0, 0, -2) // non-unit on purpose
	h := HookeOscillator(&hooke, s2M).ContactTime() / 160
	x, v := geom.V(0, 0, 0.505*s2D), geom.V(0, 0, s2V)
	force := func(x, v geom.Vec3) (geom.Vec3, float64) {
		var f geom.Vec3
		var pot float64
		for _, w := range [2][2]geom.Vec3{{pLo, nLo}, {pHi, nHi}} {
			delta, n, _, ok := SpherePlane(x, r, w[0], w[1])
			if ok {
				nf := hooke.Normal(delta, v.Dot(n), s2M, r) // v_n = v·n: the wall is at rest
				f = f.AddScaled(nf.Fn, n)
				pot += nf.Epot
			}
		}
		return f, pot
	}
	f, _ := force(x, v)
	e0 := 0.5 * s2M * v.Norm2()
	maxDev, hits, inContact := 0.0, 0, false
	for hits < 250 {
		vh := v.AddScaled(0.5*h/s2M, f)
		x = x.AddScaled(h, vh)
		var pot float64
		f, pot = force(x, vh)
		v = vh.AddScaled(0.5*h/s2M, f)
		if dev := math.Abs(0.5*s2M*v.Norm2()+pot-e0) / e0; dev > maxDev {
			maxDev = dev
		}
		if c := pot > 0; c != inContact {
			if !c {
				hits++
			}
			inContact = c
		}
	}
	t.Logf("250 wall collisions: max |E−E0|/E0 = %.2e, final |v|/v0 = %.8f", maxDev, v.Norm()/s2V)
	if maxDev > 1e-3 || math.Abs(v.Norm()/s2V-1) > 1e-3 {
		t.Errorf("energy deviation %.3g, final speed ratio %.6f", maxDev, v.Norm()/s2V)
	}
}
