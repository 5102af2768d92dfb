package window

import (
	"math"
	"strings"
	"testing"

	"grainlab/app"
	"grainlab/sim/law"
	"grainlab/sim/world"
	"grainlab/ui"
)

var goodLaw = ui.LawParams{Kind: "barrier", Set: law.Set{Normal: law.Normal{GBar: 0.005, Eps1: 1e7, N1: 1, F: 0.5, N2: -2}, Zeta: 0.5,
	Friction: law.Friction{MuS: 0.3, MuD: 0.3, EpsT: 1e7, CT: 2e3}}}

// TestValidateLaw: the panel's validator refuses every invalid law with the
// reason, using the simulation's own rules.
func TestValidateLaw(t *testing.T) {
	if err := ValidateLaw(goodLaw); err != nil {
		t.Fatalf("valid law refused: %v", err)
	}
	for _, kind := range []string{"linear", "hertz"} {
		l := goodLaw
		l.Kind, l.Normal.N2, l.Normal.F = kind, 0, 0 // barrier-only fields do not matter (but must be finite)
		if err := ValidateLaw(l); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
	for _, c := range []struct {
		name string
		edit func(*ui.LawParams)
		why  string
	}{
		{"NaN gbar", func(l *ui.LawParams) { l.Normal.GBar = math.NaN() }, "gbar"},
		{"Inf eps1", func(l *ui.LawParams) { l.Normal.Eps1 = math.Inf(1) }, "eps1"},
		{"NaN zeta", func(l *ui.LawParams) { l.Zeta = math.NaN() }, "zeta"},
		{"NaN mu_s", func(l *ui.LawParams) { l.Friction.MuS = math.NaN() }, "mu_s"},
		{"gbar 0", func(l *ui.LawParams) { l.Normal.GBar = 0 }, "gbar"},
		{"eps1 < 0", func(l *ui.LawParams) { l.Normal.Eps1 = -1 }, "eps1"},
		{"n1 < 1", func(l *ui.LawParams) { l.Normal.N1 = 0.5 }, "n1"},
		{"n2 = 0 for a barrier", func(l *ui.LawParams) { l.Normal.N2 = 0 }, "n2"},
		{"n2 > 0 for a barrier", func(l *ui.LawParams) { l.Normal.N2 = 2 }, "n2"},
		{"f = 0", func(l *ui.LawParams) { l.Normal.F = 0 }, "f must be in (0, 1)"},
		{"f = 1", func(l *ui.LawParams) { l.Normal.F = 1 }, "f must be in (0, 1)"},
		{"f > 1", func(l *ui.LawParams) { l.Normal.F = 1.5 }, "f must be in (0, 1)"},
		{"mu_d > mu_s", func(l *ui.LawParams) { l.Friction.MuD = 0.4 }, "mu_d must be <= mu_s"},
		{"negative mu_s", func(l *ui.LawParams) { l.Friction.MuS, l.Friction.MuD = -0.1, -0.2 }, "mu_s"},
		{"negative eps_t", func(l *ui.LawParams) { l.Friction.EpsT = -1 }, "eps_t"},
		{"negative c_t", func(l *ui.LawParams) { l.Friction.CT = -1 }, "c_t"},
		{"negative zeta", func(l *ui.LawParams) { l.Zeta = -0.1 }, "zeta"},
		{"unknown kind", func(l *ui.LawParams) { l.Kind = "spring" }, "unknown law"},
		{"NaN f on a linear law", func(l *ui.LawParams) { l.Kind, l.Normal.F = "linear", math.NaN() }, "f must be finite"},
	} {
		l := goodLaw
		c.edit(&l)
		err := ValidateLaw(l)
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: got %v, want a reason containing %q", c.name, err, c.why)
		}
		if _, err := DeriveLaw(l); err == nil {
			t.Errorf("%s: DeriveLaw accepted it", c.name)
		}
	}
}

// TestLawConversions: panel ↔ world round trip, derived ε2, c2 and the plots.
func TestLawConversions(t *testing.T) {
	p, err := WorldLaw(goodLaw)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := law.NewNormal(goodLaw.Normal.GBar, goodLaw.Normal.Eps1, goodLaw.Normal.N1, goodLaw.Normal.F, goodLaw.Normal.N2)
	back := PanelLaw(p)
	want := goodLaw
	want.Eps2, want.C2 = n.Eps2(), n.C2()
	if back != want {
		t.Fatalf("round trip\n got %+v\nwant %+v", back, want)
	}
	d, err := DeriveLaw(goodLaw)
	if err != nil || d.Eps2 != n.Eps2() || d.C2 != n.C2() || !(d.Eps2 > 0) {
		t.Fatalf("DeriveLaw: %+v, %v", d, err)
	}
	if p2, _ := WorldLaw(PanelLaw(world.ContactParams{Normal: n, Friction: p.Friction, Zeta: p.Zeta})); p2 != p {
		t.Fatal("world → panel → world changed the law")
	}
	// A panel edit keeps the scene's damp_band (newmark's dashpot ramp): it
	// is one of the table's polyhedral parameters; before the table the
	// panel's law dropped it to 0 at every edit.
	pb := p
	pb.DampBand = 0.01
	if p3, err := WorldLaw(PanelLaw(pb)); err != nil || p3.DampBand != 0.01 {
		t.Errorf("world → panel → world: damp_band %g (err %v), want 0.01", p3.DampBand, err)
	}

	g, fn, dtc, err := LawCurve(313.188)(goodLaw)
	if err != nil || len(g) != LawCurvePoints || len(fn) != len(g) || len(dtc) != len(g) {
		t.Fatalf("LawCurve: %d/%d/%d points, %v", len(g), len(fn), len(dtc), err)
	}
	for i := range g {
		if !(g[i] > 0 && float64(g[i]) < goodLaw.Normal.GBar) {
			t.Fatalf("gap %d = %g outside (0, gbar)", i, g[i])
		}
		if i > 0 && !(fn[i] <= fn[i-1]) {
			t.Fatalf("f_n not decreasing with the gap at %d: %g → %g", i, fn[i-1], fn[i])
		}
		if !(dtc[i] > 0) {
			t.Fatalf("critical dt %g at g=%g", dtc[i], g[i])
		}
		// S0 §2.4.7: Δt_c = 2√(m_c/k_c), m_c = m/2
		want := 2 * math.Sqrt(313.188/2/n.Stiffness(float64(g[i])))
		if math.Abs(float64(dtc[i])-want) > 1e-6*want {
			t.Fatalf("dt_c(%g) = %g, want %g", g[i], dtc[i], want)
		}
	}
	// the barrier stiffens towards contact: the critical step shrinks
	if !(dtc[0] < dtc[len(dtc)-1]) {
		t.Fatalf("dt_c does not shrink towards g = 0: %g … %g", dtc[0], dtc[len(dtc)-1])
	}
	if _, _, _, err := LawCurve(0)(ui.LawParams{Kind: "barrier"}); err == nil {
		t.Fatal("LawCurve of an invalid law")
	}
}

// TestPanelShapesAndSmoothLaw: the panel's shape and smooth-law forms
// round-trip the world's values, and the validators refuse what the
// simulation refuses (naming the field).
func TestPanelShapesAndSmoothLaw(t *testing.T) {
	s, err := app.Load(smallSQ())
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	ms := PanelShapes(w.SmoothShapes())
	if len(ms) != 1 || ms[0].Kind != "superquadric" || ms[0].Count != 20 {
		t.Fatalf("PanelShapes: %+v", ms)
	}
	if got := ShapeOf(ms[0]); got != w.SmoothShapes()[0].Shape || ValidateShape(ms[0]) != nil {
		t.Fatalf("ShapeOf: %+v", got)
	}
	for _, bad := range []func(*ui.Material){
		func(m *ui.Material) { m.A = math.NaN() },
		func(m *ui.Material) { m.B = 0 },
		func(m *ui.Material) { m.C = -1 },
		func(m *ui.Material) { m.N1 = 1.9 },
		func(m *ui.Material) { m.N2 = math.Inf(1) },
	} {
		m := ms[0]
		bad(&m)
		if ValidateShape(m) == nil {
			t.Errorf("shape %+v accepted", m)
		}
	}

	p := *w.DefaultParams()
	l := PanelSmooth(p)
	if l.Model != "hertz-material" || l.Smooth.E != 5e6 || l.Smooth.Nu != 0.3 || l.Smooth.Restitution != 0.5 || l.Smooth.Mu != 0.5 || l.Smooth.CapQ != 10 {
		t.Fatalf("PanelSmooth: %+v", l)
	}
	p.Smooth.LimitDamping = true
	if !PanelSmooth(p).Smooth.LimitDamping {
		t.Errorf("PanelSmooth: LimitDamping not carried to the panel")
	}
	p.Smooth.LimitDamping = false
	v := ValidateSmooth(p)
	if err := v(l); err != nil {
		t.Fatalf("current law refused: %v", err)
	}
	for _, c := range []struct {
		field string
		set   func(*ui.SmoothLaw)
	}{
		{"restitution", func(l *ui.SmoothLaw) { l.Smooth.Restitution = 0 }},
		{"restitution", func(l *ui.SmoothLaw) { l.Smooth.Restitution = 1.5 }},
		{"nu", func(l *ui.SmoothLaw) { l.Smooth.Nu = 0.5 }},
		{"E", func(l *ui.SmoothLaw) { l.Smooth.E = 0 }},
		{"mu", func(l *ui.SmoothLaw) { l.Smooth.Mu = math.NaN() }},
	} {
		bad := l
		c.set(&bad)
		err := v(bad)
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: error %v, want one naming %s", bad, err, c.field)
		}
	}
	// the same key goes through world.SetParam on the running world
	if err := w.SetParam("contact.default.restitution", 0); err == nil {
		t.Error("SetParam accepted restitution 0")
	}
	if err := w.SetParam("contact.default.restitution", 0.8); err != nil || w.DefaultParams().Smooth.Restitution != 0.8 {
		t.Errorf("SetParam restitution 0.8: %v", err)
	}
	_ = law.HookeLAMMPS
	_ = world.SetField
}
