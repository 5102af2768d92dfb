package sphere

import (
	"math"
	"strings"
	"testing"
)

// TestHertzPowerLaw checks F ∝ δ^{3/2} at v_n = 0 (log–log slope 1.5 ± 1e-9)
// and that the dashpot term scales as √δ.
func TestHertzPowerLaw(t *testing.T) {
	h := Hertz{Kn: 3e9, GammaN: 2e5}
	const meff, reff = 0.7, 0.01
	for _, d := range []float64{1e-7, 1e-5, 1e-3} {
		d2 := 1.7 * d
		slope := math.Log(h.Force(d2, 0, meff, reff)/h.Force(d, 0, meff, reff)) / math.Log(d2/d)
		if math.Abs(slope-1.5) > 1e-9 {
			t.Errorf("δ=%g: elastic slope %.12f, want 1.5", d, slope)
		}
		damp := func(d float64) float64 { return h.Force(d, -1, meff, reff) - h.Force(d, 0, meff, reff) }
		if s := math.Log(damp(d2)/damp(d)) / math.Log(d2/d); math.Abs(s-0.5) > 1e-9 {
			t.Errorf("δ=%g: dashpot slope %.12f, want 0.5", d, s)
		}
	}
}

// TestPotentialDerivative checks dV/dr = −F (r = R − δ the centre distance)
// and dF/dδ = Stiffness by central differences, relative tolerance 1e-6.
func TestPotentialDerivative(t *testing.T) {
	const meff, reff = 0.3, 0.05
	for _, l := range []Law{Hooke{Kn: 2e5, GammaN: 10}, Hertz{Kn: 4e8, GammaN: 10}} {
		for _, d := range []float64{1e-5, 3e-4, 2e-3} {
			e := 1e-4 * d
			dVdr := -(l.Potential(d+e, reff) - l.Potential(d-e, reff)) / (2 * e) // dr = −dδ
			f := l.Force(d, 0, meff, reff)
			if math.Abs(dVdr+f) > 1e-6*f {
				t.Errorf("%T δ=%g: dV/dr = %.10g, −F = %.10g", l, d, dVdr, -f)
			}
			k := (l.Force(d+e, 0, meff, reff) - l.Force(d-e, 0, meff, reff)) / (2 * e)
			if s := l.Stiffness(d, reff); math.Abs(k-s) > 1e-6*s {
				t.Errorf("%T δ=%g: dF/dδ = %.10g, Stiffness = %.10g", l, d, k, s)
			}
		}
	}
}

// TestNoTension checks F = 0 without overlap; separating fast, F < 0 (the
// dashpot pulls, S2 eq. 20 as written) and F = 0 with LimitDamping (the
// clamp); the Hooke value k δ − m γ v_n otherwise.
func TestNoTension(t *testing.T) {
	for _, l := range []Law{Hooke{Kn: 1e4, GammaN: 50}, Hertz{Kn: 1e6, GammaN: 500}} {
		if f := l.Force(1e-4, 1e3, 1, 0.01); !(f < 0) {
			t.Errorf("%T: separating fast gives %g, want < 0 (no clamp)", l, f)
		}
	}
	for _, l := range []Law{Hooke{Kn: 1e4, GammaN: 50, LimitDamping: true}, Hertz{Kn: 1e6, GammaN: 500, LimitDamping: true}} {
		for _, d := range []float64{0, -1e-3, math.Inf(-1), math.NaN()} {
			if f := l.Force(d, -5, 1, 0.01); f != 0 {
				t.Errorf("%T δ=%g: F = %g, want 0", l, d, f)
			}
			if l.Potential(d, 0.01) != 0 || l.Stiffness(d, 0.01) != 0 {
				t.Errorf("%T δ=%g: V or k nonzero", l, d)
			}
		}
		if f := l.Force(1e-4, 1e3, 1, 0.01); f != 0 {
			t.Errorf("%T: separating fast gives %g, want 0 (clamp)", l, f)
		}
	}
	if f, want := (Hooke{Kn: 1e4, GammaN: 50}).Force(1e-3, -0.2, 0.5, 0), 1e4*1e-3+0.5*50*0.2; math.Abs(f-want) > 1e-12 {
		t.Errorf("Hooke: F = %g, want %g", f, want)
	}
}

// TestValidate checks that every field is validated and named.
func TestValidate(t *testing.T) {
	if err := (Hooke{Kn: 1}).Validate(); err != nil {
		t.Errorf("valid Hooke: %v", err)
	}
	if err := (Hertz{Kn: 1, GammaN: 1, Kt: 1, GammaT: 0.5, Mu: 0.3}).Validate(); err != nil {
		t.Errorf("valid Hertz: %v", err)
	}
	bad := []struct {
		l    Law
		want string
	}{
		{Hooke{}, "Hooke.Kn must be > 0"},
		{Hooke{Kn: -1}, "Hooke.Kn must be >= 0"},
		{Hooke{Kn: math.Inf(1)}, "Hooke.Kn must be finite"},
		{Hooke{Kn: 1, GammaN: -1}, "Hooke.GammaN"},
		{Hooke{Kn: 1, Kt: math.NaN()}, "Hooke.Kt must be finite"},
		{Hooke{Kn: 1, GammaT: -2}, "Hooke.GammaT"},
		{Hooke{Kn: 1, Mu: -0.1}, "Hooke.Mu"},
		{Hertz{}, "Hertz.Kn must be > 0"},
		{Hertz{Kn: 1, GammaN: math.NaN()}, "Hertz.GammaN must be finite"},
		{Hertz{Kn: 1, Mu: math.Inf(1)}, "Hertz.Mu"},
	}
	for _, b := range bad {
		err := b.l.Validate()
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%+v: error %v, want it to contain %q", b.l, err, b.want)
		}
	}
}
