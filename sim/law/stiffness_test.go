package law

import (
	"math"
	"testing"
)

// Smooth.Stiffness against Smooth.Normal for every model: the normal
// stiffness against the central difference of the elastic force (1e-6
// relative), the dashpot coefficient against the force difference between
// unit approach speed and rest, and the tangential stiffness against
// Normal's Kt (1e-12 relative).
func TestSmoothStiffness(t *testing.T) {
	laws := []Smooth{
		{Model: HookeLAMMPS, Kn: 2e5, GammaN: 50, Kt: 1e5, GammaT: 20},
		{Model: HertzLAMMPS, Kn: 2e7, GammaN: 80, Kt: 1e7, GammaT: 30},
		{Model: HertzMaterial, E: 5e6, Nu: 0.3, Restitution: 0.5},
		{Model: HertzMaterial, E: 7e10, Nu: 0.25, Restitution: 0.9},
	}
	for _, l := range laws {
		if err := l.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, delta := range []float64{1e-7, 1e-5, 3e-4} {
			for _, c := range []struct{ meff, reff float64 }{{3e-4, 1.5e-3}, {2, 0.05}} {
				k, cn, kt := l.Stiffness(delta, c.meff, c.reff)
				h := 1e-4 * delta
				fd := (l.Normal(delta+h, 0, c.meff, c.reff).Fn - l.Normal(delta-h, 0, c.meff, c.reff).Fn) / (2 * h)
				f0, f1 := l.Normal(delta, 0, c.meff, c.reff), l.Normal(delta, -1, c.meff, c.reff) // v_n = −1: closing
				if math.Abs(k-fd) > 1e-6*fd || math.Abs(k-f0.K) > 1e-12*k {
					t.Errorf("%v δ=%g: k %g, finite difference %g, Normal's K %g", l.Model, delta, k, fd, f0.K)
				}
				if want := f1.Fn - f0.Fn; math.Abs(cn-want) > 1e-12*math.Max(want, f1.Fn) || !(cn > 0) {
					t.Errorf("%v δ=%g: dashpot %g, want %g", l.Model, delta, cn, want)
				}
				if math.Abs(kt-f0.Kt) > 1e-12*kt {
					t.Errorf("%v δ=%g: kt %g, want %g", l.Model, delta, kt, f0.Kt)
				}
			}
		}
	}
}
