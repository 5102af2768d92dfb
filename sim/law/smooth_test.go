package law

import (
	"math"
	"testing"
)

// Every smooth model is S2 eq. 20 as written unless LimitDamping: a
// contact separating faster than the spring's k δ/(m γ) pulls (F_n < 0),
// and with LimitDamping gets exactly 0; a closing contact gets the same
// force either way, and the elastic parts (K, Epot) never change.
func TestSmoothLimitDamping(t *testing.T) {
	const meff, reff, delta = 1e-5, 1e-3, 1e-6
	for _, s := range []Smooth{
		{Model: HookeLAMMPS, Kn: 1e4, GammaN: 2e5},
		{Model: HertzLAMMPS, Kn: 1e8, GammaN: 1e8},
		{Model: HertzMaterial, E: 1e7, Nu: 0.3, Restitution: 0.5},
	} {
		lim := s
		lim.LimitDamping = true
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		if err := lim.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, vn := range []float64{-0.5, 0, 1e-4, 0.5} { // v_n = ġ_n: > 0 separating
			a, b := s.Normal(delta, vn, meff, reff), lim.Normal(delta, vn, meff, reff)
			if a.K != b.K || a.Epot != b.Epot || a.Kt != b.Kt || a.Ct != b.Ct {
				t.Errorf("%v v_n=%g: elastic parts differ: %+v / %+v", s.Model, vn, a, b)
			}
			switch {
			case a.Fn >= 0 && a.Fn != b.Fn:
				t.Errorf("%v v_n=%g: compressive %g, with limit_damping %g", s.Model, vn, a.Fn, b.Fn)
			case a.Fn < 0 && b.Fn != 0:
				t.Errorf("%v v_n=%g: tensile %g, with limit_damping %g (want 0)", s.Model, vn, a.Fn, b.Fn)
			}
		}
		if f := s.Normal(delta, 0.5, meff, reff).Fn; !(f < 0) {
			t.Errorf("%v: separating fast gives F_n = %g, want < 0 (S2 eq. 20 as written)", s.Model, f)
		}
	}
}

// hertz-material's damping coefficient from the restitution e (LIGGGHTS
// hertz/history): the impact of the law as written rebounds at e (the
// √(S_n m) dashpot makes the Hertzian oscillator's restitution
// independent of the speed), within 0.5% for e = 0.3 … 0.9 and impact
// speeds 0.01 … 1 m/s; with LimitDamping the rebound is faster (the force
// vanishes before the overlap closes), so `restitution` means what it says
// only for the law as written.
func TestHertzMaterialRestitution(t *testing.T) {
	const meff, reff = 1e-5, 1e-3
	for _, e := range []float64{0.3, 0.6, 0.9} {
		for _, v0 := range []float64{0.01, 1} {
			var got [2]float64
			for i, limit := range []bool{false, true} {
				s := Smooth{Model: HertzMaterial, E: 1e7, Nu: 0.3, Restitution: e, LimitDamping: limit}
				if err := s.Validate(); err != nil {
					t.Fatal(err)
				}
				acc := func(g, gd float64) float64 { return s.Normal(-g, gd, meff, reff).Fn / meff }
				// Steps: 1/2000 of the Hertz contact time ≈ 3.2 (m²/(E*² R v0))^{1/5}.
				tc := 3.2 * math.Pow(meff*meff/(s.E*s.E*reff*v0), 0.2)
				r, ok := ReboundRK4(acc, 0, v0, tc/2000, 100000)
				if !ok {
					t.Fatalf("e=%g v0=%g limit=%v: no rebound", e, v0, limit)
				}
				got[i] = r
			}
			t.Logf("e=%g v0=%g: restitution %.7f as written (%+.2g rel.), %.5f with limit_damping", e, v0, got[0], got[0]/e-1, got[1])
			if math.Abs(got[0]/e-1) > 0.005 || !(got[1] > got[0]) {
				t.Errorf("e=%g v0=%g: restitution %.5f (±0.5%%), with limit_damping %.5f (want more)", e, v0, got[0], got[1])
			}
		}
	}
}

// The Hertzian models (moved here from package sphere's Hertz law, now
// law.Smooth's): F ∝ δ^{3/2} at v_n = 0 (log–log slope 1.5 ± 1e-9) and the
// dashpot term ∝ √δ for gran/hertz (slope 0.5 ± 1e-9; hertz-material's
// √(S_n m) dashpot gives δ^{1/4}, slope 0.25 ± 1e-9).
func TestSmoothHertzPowerLaw(t *testing.T) {
	const meff, reff = 0.7, 0.01
	for _, c := range []struct {
		s     Smooth
		slope float64
	}{
		{Smooth{Model: HertzLAMMPS, Kn: 3e9, GammaN: 2e5}, 0.5},
		{Smooth{Model: HertzMaterial, E: 7e10, Nu: 0.25, Restitution: 0.6}, 0.25},
	} {
		if err := c.s.Validate(); err != nil {
			t.Fatal(err)
		}
		f := func(d, vn float64) float64 { return c.s.Normal(d, vn, meff, reff).Fn }
		for _, d := range []float64{1e-7, 1e-5, 1e-3} {
			d2 := 1.7 * d
			if s := math.Log(f(d2, 0)/f(d, 0)) / math.Log(d2/d); math.Abs(s-1.5) > 1e-9 {
				t.Errorf("%v δ=%g: elastic slope %.12f, want 1.5", c.s.Model, d, s)
			}
			damp := func(d float64) float64 { return f(d, -1) - f(d, 0) } // v_n = −1: closing
			if s := math.Log(damp(d2)/damp(d)) / math.Log(d2/d); math.Abs(s-c.slope) > 1e-9 {
				t.Errorf("%v δ=%g: dashpot slope %.12f, want %g", c.s.Model, d, s, c.slope)
			}
		}
	}
}

// Normal's Epot is the potential of its elastic force, dV/dr = −F at v_n = 0
// (r = R − δ the centre distance; S2 eq. 27 for Hooke), by central
// differences within 1e-6 relative, for every model; without overlap (δ ≤ 0,
// −Inf, NaN) force, tangents and energy are all 0; and Hooke gives
// k δ − m_eff γ v_n exactly (S2 eq. 20: the dashpot resists closing, v_n < 0).
func TestSmoothPotentialAndSign(t *testing.T) {
	const meff, reff = 0.3, 0.05
	for _, s := range []Smooth{
		{Model: HookeLAMMPS, Kn: 2e5, GammaN: 10},
		{Model: HertzLAMMPS, Kn: 4e8, GammaN: 10},
		{Model: HertzMaterial, E: 5e6, Nu: 0.3, Restitution: 0.5},
	} {
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, d := range []float64{1e-5, 3e-4, 2e-3} {
			e := 1e-4 * d
			dVdr := -(s.Normal(d+e, 0, meff, reff).Epot - s.Normal(d-e, 0, meff, reff).Epot) / (2 * e) // dr = −dδ
			if f := s.Normal(d, 0, meff, reff).Fn; math.Abs(dVdr+f) > 1e-6*f {
				t.Errorf("%v δ=%g: dV/dr = %.10g, −F = %.10g", s.Model, d, dVdr, -f)
			}
		}
		for _, d := range []float64{0, -1e-3, math.Inf(-1), math.NaN()} {
			if r := s.Normal(d, -5, meff, reff); r != (SmoothForce{}) {
				t.Errorf("%v δ=%g: %+v, want all 0", s.Model, d, r)
			}
		}
	}
	h := Smooth{Model: HookeLAMMPS, Kn: 1e4, GammaN: 50}
	if f, want := h.Normal(1e-3, -0.2, 0.5, 0).Fn, 1e4*1e-3+0.5*50*0.2; math.Abs(f-want) > 1e-12 {
		t.Errorf("Hooke closing at 0.2 m/s: F = %g, want %g", f, want)
	}
}
