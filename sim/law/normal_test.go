package law_test

import (
	"math"
	"strings"
	"testing"

	"grainlab/sim/law"
)

// barrierSet spans the shapes of S0 Fig. 10: linear, Hertz-like and steeper
// part (i), mild to strong barriers, early and late switch.
func barrierSet(t *testing.T) []law.Normal {
	t.Helper()
	var out []law.Normal
	for _, n1 := range []float64{1, 1.5, 2, 3} {
		for _, n2 := range []float64{-0.5, -1, -2, -3.7} {
			for _, f := range []float64{0.1, 0.5, 0.9} {
				l, err := law.NewNormal(1e-3, 2e6, n1, f, n2)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, l)
			}
		}
	}
	return out
}

func allLaws(t *testing.T) []law.Normal {
	out := barrierSet(t)
	for _, k := range []law.Kind{law.Linear, law.Hertz} {
		l := law.Normal{Kind: k, GBar: 1e-3, Eps1: 2e6}
		if err := l.Prepare(); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

func rel(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }

// C⁰ and C¹ matching at ḡḡ = f·ḡ (S0 eq. 50).
func TestNormalMatching(t *testing.T) {
	for _, l := range barrierSet(t) {
		gg := l.GBarBar()
		below := math.Nextafter(gg, 0) // part (ii)
		if r := rel(l.Force(below), l.Force(gg)); r > 1e-9 {
			t.Errorf("%+v: force jumps by rel %g at ḡḡ", l, r)
		}
		if r := rel(l.Stiffness(below), l.Stiffness(gg)); r > 1e-9 {
			t.Errorf("%+v: stiffness jumps by rel %g at ḡḡ", l, r)
		}
		if r := rel(l.Potential(below), l.Potential(gg)); r > 1e-9 {
			t.Errorf("%+v: potential jumps by rel %g at ḡḡ", l, r)
		}
		// The constants themselves, straight from eq. (51).
		e2 := -l.Eps1 * l.N1 * math.Pow(l.GBar-gg, l.N1-1) / (l.N2 * math.Pow(gg, l.N2-1))
		c2 := l.Eps1*math.Pow(l.GBar-gg, l.N1) - e2*math.Pow(gg, l.N2)
		if rel(l.Eps2(), e2) > 1e-14 || rel(l.C2(), c2) > 1e-12 || !(l.Eps2() > 0) {
			t.Errorf("ε2=%g c2=%g want %g %g", l.Eps2(), l.C2(), e2, c2)
		}
	}
}

// Potential' = −Force and Force' = −Stiffness, by central differences.
func TestNormalDerivatives(t *testing.T) {
	for _, l := range allLaws(t) {
		gb, gg := l.GBar, l.GBarBar()
		for i := 1; i < 200; i++ {
			g := gb * math.Pow(10, -4*float64(i)/200) // 1e-4 ḡ … ḡ, log-spaced
			if l.Kind != law.Barrier {
				g = gb * (1.5 - 2.5*float64(i)/200) // also g < 0 for penalty laws
			}
			dist := math.Min(math.Abs(g), math.Abs(gb-g))
			if l.Kind == law.Barrier {
				dist = math.Min(dist, math.Abs(g-gg))
			}
			if dist < 1e-9*gb {
				continue
			}
			h := 1e-4 * dist
			dP := (l.Potential(g+h) - l.Potential(g-h)) / (2 * h)
			dF := (l.Force(g+h) - l.Force(g-h)) / (2 * h)
			f, k := l.Force(g), l.Stiffness(g)
			if g >= gb {
				if f != 0 || k != 0 || l.Potential(g) != 0 {
					t.Fatalf("%v: nonzero outside the skin at g=%g", l.Kind, g)
				}
				continue
			}
			if rel(-dP, f) > 1e-6 {
				t.Errorf("%+v g=%g: −dP/dg=%g, F=%g (rel %g)", l, g, -dP, f, rel(-dP, f))
			}
			if rel(-dF, k) > 1e-6 {
				t.Errorf("%+v g=%g: −dF/dg=%g, k=%g (rel %g)", l, g, -dF, k, rel(-dF, k))
			}
		}
	}
}

// The log form for n2 = −1 is the continuous limit of the power form.
func TestNormalPotentialLogLimit(t *testing.T) {
	ref, _ := law.NewNormal(1e-3, 2e6, 1.5, 0.5, -1)
	for _, d := range []float64{1e-12, 1e-9, 1e-6} {
		for _, s := range []float64{-1, 1} {
			l, _ := law.NewNormal(1e-3, 2e6, 1.5, 0.5, -1+s*d)
			for _, g := range []float64{1e-4 * 1e-3, 1e-2 * 1e-3, 0.3e-3} {
				if r := rel(l.Potential(g), ref.Potential(g)); r > 20*d {
					t.Errorf("n2=-1%+g g=%g: potential off the log form by rel %g", s*d, g, r)
				}
			}
		}
	}
}

// Force is non-negative and non-increasing in g, strictly decreasing in the skin.
func TestNormalMonotone(t *testing.T) {
	for _, l := range allLaws(t) {
		lo := 1e-6 * l.GBar
		if l.Kind != law.Barrier {
			lo = -l.GBar
		}
		prev := math.Inf(1)
		const m = 20000
		for i := 0; i <= m; i++ {
			g := lo + (1.2*l.GBar-lo)*float64(i)/m
			f := l.Force(g)
			if f < 0 || math.IsNaN(f) {
				t.Fatalf("%+v: F(%g) = %g", l, g, f)
			}
			if g < l.GBar && !(f < prev) || g >= l.GBar && f != 0 {
				t.Fatalf("%+v: F not decreasing at g=%g (%g after %g)", l, g, f, prev)
			}
			prev = f
			if k := l.Stiffness(g); k < 0 {
				t.Fatalf("negative stiffness %g", k)
			}
		}
	}
}

// The barrier is an infinite wall at g ≤ 0; penalty laws keep growing.
func TestNormalAtContact(t *testing.T) {
	l, _ := law.NewNormal(1e-3, 2e6, 1, 0.5, -1)
	for _, g := range []float64{0, -1e-6} {
		if !math.IsInf(l.Force(g), 1) || !math.IsInf(l.Stiffness(g), 1) || !math.IsInf(l.Potential(g), 1) || l.CriticalDt(g, 1) != 0 {
			t.Fatalf("barrier at g=%g: F=%g k=%g P=%g", g, l.Force(g), l.Stiffness(g), l.Potential(g))
		}
	}
	lin := law.Normal{Kind: law.Linear, GBar: 1e-3, Eps1: 10}
	if f := lin.Force(-1e-3); math.Abs(f-2e-2) > 1e-18 {
		t.Fatalf("linear F(−ḡ) = %g", f)
	}
	h := law.Normal{Kind: law.Hertz, GBar: 1, Eps1: 3}
	if f := h.Force(-3); math.Abs(f-24) > 1e-12 || math.Abs(h.Potential(0)-1.2) > 1e-15 {
		t.Fatalf("hertz F(−3) = %g, P(0) = %g", f, h.Potential(0))
	}
}

// S0 Fig. 11: the critical time step of the law of Fig. 10b shrinks as the gap closes.
func TestNormalCriticalDtFig11(t *testing.T) {
	const mc = 156.594 // kg, the equivalent mass of Fig. 11
	for _, n1 := range []float64{1, 2} {
		l, err := law.NewNormal(1e-3, 1e7, n1, 0.5, -1)
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsInf(l.CriticalDt(1.01e-3, mc), 1) {
			t.Fatal("Δt_c must be +Inf outside the skin")
		}
		prev := math.Inf(1)
		for i := 0; i <= 400; i++ {
			g := 0.999e-3 * math.Pow(10, -4*float64(i)/400) // ḡ⁻ … 1e-4 ḡ
			dt := l.CriticalDt(g, mc)
			if !(dt > 0) || dt > prev*(1+1e-12) || n1 > 1 && !(dt < prev) {
				t.Fatalf("n1=%g: Δt_c(%g) = %g after %g: not decreasing as g → 0", n1, g, dt, prev)
			}
			prev = dt
		}
		// With n2 = −1, k_c = ε2/g² below ḡḡ, so Δt_c = 2g√(m_c/ε2) ∝ g.
		g1, g2 := 1e-6, 1e-7
		if r := l.CriticalDt(g1, mc) / l.CriticalDt(g2, mc); math.Abs(r-10) > 1e-9 {
			t.Fatalf("Δt_c ratio %g over a decade of g, want 10", r)
		}
		if a, b := l.CriticalDt(0.5e-3, mc), l.CriticalDt(1e-6, mc); b > 1e-2*a {
			t.Fatalf("Δt_c at 1e-3 ḡ (%g) not ≪ Δt_c at ḡḡ (%g)", b, a)
		}
		t.Logf("n1=%g: Δt_c(0.9ḡ)=%.3g s, Δt_c(ḡḡ)=%.3g s, Δt_c(1e-3ḡ)=%.3g s", n1,
			l.CriticalDt(0.9e-3, mc), l.CriticalDt(0.5e-3, mc), l.CriticalDt(1e-6, mc))
	}
}

func TestNormalValidate(t *testing.T) {
	good := law.Normal{Kind: law.Barrier, GBar: 1e-3, Eps1: 1e6, N1: 1.5, F: 0.5, N2: -1}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		mod  func(*law.Normal)
		want string
	}{
		{func(n *law.Normal) { n.GBar = nan }, "gbar must be finite"},
		{func(n *law.Normal) { n.Eps1 = inf }, "eps1 must be finite"},
		{func(n *law.Normal) { n.N1 = -inf }, "n1 must be finite"},
		{func(n *law.Normal) { n.F = nan }, "f must be finite"},
		{func(n *law.Normal) { n.N2 = nan }, "n2 must be finite"},
		{func(n *law.Normal) { n.GBar = 0 }, "gbar must be > 0 (got 0)"},
		{func(n *law.Normal) { n.GBar = -1 }, "gbar must be > 0"},
		{func(n *law.Normal) { n.Eps1 = 0 }, "eps1 must be > 0 (got 0)"},
		{func(n *law.Normal) { n.N1 = 0.9 }, "n1 must be >= 1 (got 0.9)"},
		{func(n *law.Normal) { n.F = 0 }, "f must be in (0, 1) (got 0)"},
		{func(n *law.Normal) { n.F = 1 }, "f must be in (0, 1) (got 1)"},
		{func(n *law.Normal) { n.N2 = 0.5 }, "n2 must be < 0 for a barrier (got 0.5)"},
		{func(n *law.Normal) { n.N2 = 0 }, "n2 must be < 0 for a barrier (got 0)"},
		{func(n *law.Normal) { n.Kind = 7 }, "unknown normal law kind"},
	} {
		n := good
		c.mod(&n)
		err := n.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want error containing %q, got %v", c.want, err)
		}
		if err2 := n.Prepare(); err2 == nil || err2.Error() != err.Error() || n.Eps2() != 0 {
			t.Errorf("Prepare must fail like Validate: %v", err2)
		}
	}
	// Linear and Hertz ignore n1, f and n2.
	for _, k := range []law.Kind{law.Linear, law.Hertz} {
		if err := (law.Normal{Kind: k, GBar: 1, Eps1: 1, N2: 3}).Validate(); err != nil {
			t.Errorf("%v: %v", k, err)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an unprepared barrier must panic in its barrier part")
		}
	}()
	good.Force(0.1e-3)
}

func BenchmarkNormalBarrier(b *testing.B) {
	l, _ := law.NewNormal(1e-3, 2e6, 1.5, 0.5, -1)
	g := []float64{0.9e-3, 0.6e-3, 0.3e-3, 0.1e-3}
	i := 0
	for b.Loop() {
		x := g[i&3]
		sinkF += l.Force(x) + l.Stiffness(x)
		i++
	}
}

// Normal.Eval is Force, Stiffness and Potential at one gap, to the bit
// (math.Float64bits equal), for every law shape of allLaws plus the tetrapod
// collapse's (n1 = 1, n2 = −2, f = 0.5), at gaps across both parts of a
// barrier, at its switch ḡḡ, at and beyond ḡ, at 0, below 0 and NaN; with
// energy off it returns e = 0. It fails when Eval's part (i) rounds
// differently from the three methods (e.g. k = ε1 for n1 ≠ 1, or d taken as
// ḡ·(1 − g/ḡ)).
func TestNormalEvalSameBits(t *testing.T) {
	laws := allLaws(t)
	tp, err := law.NewNormal(0.005, 1e7, 1, 0.5, -2)
	if err != nil {
		t.Fatal(err)
	}
	laws = append(laws, tp)
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for _, l := range laws {
		gs := []float64{0, -l.GBar, math.NaN(), l.GBar, math.Nextafter(l.GBar, 0), 2 * l.GBar,
			l.GBarBar(), math.Nextafter(l.GBarBar(), 0), math.Nextafter(l.GBarBar(), 1)}
		for i := 1; i < 400; i++ {
			gs = append(gs, l.GBar*float64(i)/397*(1+1e-7*float64(i%7)))
		}
		for _, g := range gs {
			f, k, e := l.Eval(g, true)
			if !same(f, l.Force(g)) || !same(k, l.Stiffness(g)) || !same(e, l.Potential(g)) {
				t.Fatalf("%+v at g = %g: Eval = (%g, %g, %g), methods (%g, %g, %g)", l, g, f, k, e, l.Force(g), l.Stiffness(g), l.Potential(g))
			}
			if f2, k2, e2 := l.Eval(g, false); !same(f2, f) || !same(k2, k) || e2 != 0 {
				t.Fatalf("%+v at g = %g: Eval without energy = (%g, %g, %g), want (%g, %g, 0)", l, g, f2, k2, e2, f, k)
			}
		}
	}
}
