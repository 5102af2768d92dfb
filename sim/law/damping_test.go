package law_test

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/law"
)

// bounce drops a mass m at speed v0 onto a fixed wall through the Linear law
// with damping ratio zeta (S0 eq. 52), integrating the gap with RK4, and
// returns the rebound speed over v0. With clamp the total force is
// NormalTotal (S0 eq. 53); without it the raw spring-dashpot f_n − f_d.
func bounce(t *testing.T, zeta float64, clamp bool) float64 {
	t.Helper()
	const m, v0 = 2.0, 0.5
	l := law.Normal{Kind: law.Linear, GBar: 1e-2, Eps1: 8e4}
	if err := l.Prepare(); err != nil {
		t.Fatal(err)
	}
	acc := func(g, gd float64) float64 {
		fn := l.Force(g)
		fd := law.Damping(zeta, l.Stiffness(g), m, math.Inf(1), gd)
		tot := fn - fd
		if clamp {
			tot = law.NormalTotal(fn, fd)
			if tot < 0 {
				t.Fatalf("tensile total %g", tot)
			}
		}
		return tot / m // the force on A (the mass) is tot·n, n from the wall to the mass
	}
	period := 2 * math.Pi * math.Sqrt(m/l.Eps1)
	dt := period / 40000
	g, gd := l.GBar, -v0
	for i := 0; ; i++ {
		k1g, k1v := gd, acc(g, gd)
		k2g, k2v := gd+dt/2*k1v, acc(g+dt/2*k1g, gd+dt/2*k1v)
		k3g, k3v := gd+dt/2*k2v, acc(g+dt/2*k2g, gd+dt/2*k2v)
		k4g, k4v := gd+dt*k3v, acc(g+dt*k3g, gd+dt*k3v)
		g += dt / 6 * (k1g + 2*k2g + 2*k3g + k4g)
		gd += dt / 6 * (k1v + 2*k2v + 2*k3v + k4v)
		if i > 10 && g >= l.GBar {
			return gd / v0
		}
		if i > 1e6 {
			t.Fatal("no rebound")
		}
	}
}

// The equivalent linear oscillator restores e = exp(−ζπ/√(1−ζ²)) (no clamp).
func TestDampingRestitution(t *testing.T) {
	for _, zeta := range []float64{0.1, 0.3} {
		e := bounce(t, zeta, false)
		want := math.Exp(-zeta * math.Pi / math.Sqrt(1-zeta*zeta))
		if rel(e, want) > 0.02 {
			t.Errorf("ζ=%g: e=%.6f, analytic %.6f", zeta, e, want)
		}
		t.Logf("ζ=%g: e=%.6f analytic %.6f (rel %.1e)", zeta, e, want, rel(e, want))
	}
}

// With the no-tension clamp of S0 eq. (53) the mass leaves when the total
// force vanishes, i.e. at the extremum of the rebound speed: with
// β = ζ/√(1−ζ²), e = exp(−β(π − 2 atan β)), larger than the unclamped value.
func TestDampingRestitutionClamped(t *testing.T) {
	for _, zeta := range []float64{0.1, 0.3, 0.6} {
		e := bounce(t, zeta, true)
		b := zeta / math.Sqrt(1-zeta*zeta)
		want := math.Exp(-b * (math.Pi - 2*math.Atan(b)))
		if rel(e, want) > 1e-3 {
			t.Errorf("ζ=%g: clamped e=%.6f, closed form %.6f", zeta, e, want)
		}
		t.Logf("ζ=%g: clamped e=%.6f closed form %.6f (rel %.1e)", zeta, e, want, rel(e, want))
	}
}

func TestNormalTotalNeverTensile(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	for i := 0; i < 100000; i++ {
		fn := math.Abs(r.NormFloat64()) * math.Pow(10, 4*r.Float64()-2)
		fd := r.NormFloat64() * math.Pow(10, 4*r.Float64()-2)
		tot := law.NormalTotal(fn, fd)
		if tot < 0 || math.IsNaN(tot) {
			t.Fatalf("NormalTotal(%g, %g) = %g", fn, fd, tot)
		}
		if fd <= fn && tot != fn-fd || fd > fn && tot != 0 {
			t.Fatalf("NormalTotal(%g, %g) = %g: not S0 eq. (53)", fn, fd, tot)
		}
	}
	if !math.IsInf(law.NormalTotal(math.Inf(1), math.Inf(1)), 1) {
		t.Fatal("infinite barrier force must stay infinite")
	}
}

func TestDampingMass(t *testing.T) {
	inf := math.Inf(1)
	if m := law.EquivalentMass(2, inf); m != 2 {
		t.Fatalf("fixed B: m_eq = %g", m)
	}
	if m := law.EquivalentMass(inf, 3); m != 3 {
		t.Fatalf("fixed A: m_eq = %g", m)
	}
	if m := law.EquivalentMass(2, 6); m != 1.5 {
		t.Fatalf("m_eq = %g", m)
	}
	if !math.IsInf(law.EquivalentMass(inf, inf), 1) {
		t.Fatal("two fixed bodies")
	}
	// f_d = 2ζ√(k m_eq) ġ_n with the sign of ġ_n (positive = separating).
	if fd := law.Damping(0.25, 16, 2, 6, -3); math.Abs(fd-(-2*0.25*math.Sqrt(16*1.5)*3)) > 1e-14 {
		t.Fatalf("f_d = %g", fd)
	}
	if law.Damping(0.3, inf, 1, 1, 0) != 0 || law.Damping(0, inf, 1, 1, 1) != 0 {
		t.Fatal("zero ġ_n or ζ must give exactly zero damping")
	}
}
