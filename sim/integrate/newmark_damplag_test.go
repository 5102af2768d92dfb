package integrate

import (
	"math"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// bounceResult is what faceBounce measured.
type bounceResult struct {
	e            float64 // rebound speed over impact speed, both at the skin's edge
	maxDt        float64 // the longest step taken while in contact
	steps, stall int64
}

// faceBounce drops a 0.1 m, 1 kg cube face down from height h onto the
// ground (S0 ex. 1 law with damping ζ, no friction) with integ and returns
// the coefficient of restitution of the first impact: the speeds at which
// the lowest face crosses the skin's edge g = ḡ, from the flight energy
// ½v² + g·z (per unit mass) before and after the impact, which free flight
// conserves.
func faceBounce(t *testing.T, integ world.Integrator, zeta, h, dtMax float64, lag, entry bool) bounceResult {
	t.Helper()
	const grav = 9.81
	p := cubeParams(zeta, 0)
	w := groundWorld(t, p)
	w.Settings.Safety = 0.05
	b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, geom.QIdent())
	lowestAt(b, h)
	w.AddBody(b)
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	w.Integrator = integ
	w.Settings.DtMax = dtMax
	w.Settings.DampLag, w.Settings.DampLagEntry = lag, entry
	zSkin := b.X.Z - h + p.Normal.GBar // the centre's height when the face is at g = ḡ
	flight := func() float64 { return 0.5*b.V.Norm2() + grav*(b.X.Z-zSkin) }
	var r bounceResult
	eIn, touched := flight(), false
	for w.Time < 2 {
		dt, err := integ.Step(w, 1)
		if err != nil {
			t.Fatal(err)
		}
		if w.Stats.Contacts > 0 {
			touched = true
			r.maxDt = math.Max(r.maxDt, dt)
			continue
		}
		if !touched {
			eIn = flight()
			continue
		}
		r.e = math.Sqrt(2*flight()) / math.Sqrt(2*eIn)
		r.steps = w.Steps
		if nm, ok := integ.(*Newmark); ok {
			r.stall = nm.Counts.Stall
		}
		return r
	}
	t.Fatal("no rebound")
	return r
}

// faceBounceRef is the coefficient of restitution of the same impact from S0
// eq. (49), (52), (53) as written: four equal contacts on the cube's mass
// (each with m_eq = m, the ground fixed) and gravity, the gap integrated with
// RK4 at 1e-7 s from g = ḡ at the impact speed of a drop from h.
func faceBounceRef(t *testing.T, zeta, h float64) float64 {
	t.Helper()
	const grav, m = 9.81, 1.0
	p := cubeParams(zeta, 0)
	l := p.Normal
	if err := l.Prepare(); err != nil {
		t.Fatal(err)
	}
	acc := func(g, gd float64) float64 {
		fd := law.Damping(zeta, l.Stiffness(g), m, math.Inf(1), gd) // S0 eq. (52)
		return 4*law.NormalTotal(l.Force(g), fd)/m - grav           // S0 eq. (53)
	}
	v0 := math.Sqrt(2 * grav * (h - l.GBar))
	e, ok := law.ReboundRK4(acc, l.GBar, v0, 1e-7, 1e7)
	if !ok {
		t.Fatal("no rebound")
	}
	return e
}

// The lagged dashpot (World.SetDampLag) is a first-order time
// discretisation of S0 eq. (52): a cube dropped face down from 2 cm (ζ = 0.3,
// S0 ex. 1 law, four contacts) rebounds with e → that of eq. (52) as Δt → 0.
// The reference e is eq. (52) integrated by RK4 (faceBounceRef); explicit
// (eq. 52 as written, Δt ≈ 1e-5 s) must agree with it within 1.5%. Newmark
// runs with the step bounded by dt_max = 62.5, 31.25, 15.6 and 7.8 µs (≈ 55
// to 450 steps in contact), with and without the lag. The plain lag's own
// error, e_lag − e_eq52 at the same Δt, must be positive (the coefficient
// trails the entering contact: less dissipation) and halve with Δt (ratio
// in [0.35, 0.65]: first order); the lag with the entry fraction must err
// less than the plain lag at every Δt (|e − e_eq52|, both newmark), and at
// the smallest step both must lie within 2% of the reference. Explicit must
// ignore Settings.DampLag (the same e to the bit).
func TestDampLagConverges(t *testing.T) {
	const zeta, h = 0.3, 0.02
	ref := faceBounceRef(t, zeta, h)
	ex := faceBounce(t, &Explicit{}, zeta, h, 1e-3, false, false)
	exLag := faceBounce(t, &Explicit{}, zeta, h, 1e-3, true, true)
	t.Logf("e: %.5f (eq. 52, RK4), %.5f (explicit, %+.2f%%)", ref, ex.e, 100*(ex.e/ref-1))
	if d := math.Abs(ex.e/ref - 1); d > 0.015 {
		t.Errorf("explicit e = %.5f is %.2f%% off the reference %.5f (tolerance 1.5%%)", ex.e, 100*d, ref)
	}
	if exLag.e != ex.e || exLag.steps != ex.steps {
		t.Errorf("explicit with Settings.DampLag: e = %v in %d steps, want %v in %d steps", exLag.e, exLag.steps, ex.e, ex.steps)
	}
	prev := 0.0
	var lag, entry bounceResult
	for i, dt := range []float64{6.25e-5, 3.125e-5, 1.5625e-5, 7.8125e-6} {
		plain := faceBounce(t, NewNewmark(), zeta, h, dt, false, false)
		lag = faceBounce(t, NewNewmark(), zeta, h, dt, true, false)
		entry = faceBounce(t, NewNewmark(), zeta, h, dt, true, true)
		d, de := lag.e-plain.e, entry.e-plain.e
		t.Logf("Δt %.3g s: e %.5f eq. 52 (%+.2f%%), %.5f lagged (%+.2f%%), %.5f with entry (%+.2f%%): errors %.5f, %.5f",
			dt, plain.e, 100*(plain.e/ref-1), lag.e, 100*(lag.e/ref-1), entry.e, 100*(entry.e/ref-1), d, de)
		if d <= 0 {
			t.Errorf("Δt %.3g s: lagged e %.5f not above eq. 52's %.5f", dt, lag.e, plain.e)
		}
		if i > 0 {
			if q := d / prev; q < 0.35 || q > 0.65 {
				t.Errorf("Δt %.3g s: the lag error fell by a factor %.3f on halving Δt, want [0.35, 0.65] (first order)", dt, q)
			}
		}
		if math.Abs(de) >= d {
			t.Errorf("Δt %.3g s: the entry fraction errs by %.5f, not less than the plain lag's %.5f", dt, de, d)
		}
		prev = d
	}
	for _, r := range []struct {
		name string
		e    float64
	}{{"lagged", lag.e}, {"lagged with entry", entry.e}} {
		if d := math.Abs(r.e/ref - 1); d > 0.02 {
			t.Errorf("at the smallest step the %s e = %.5f is %.2f%% off the reference %.5f (tolerance 2%%)", r.name, r.e, 100*d, ref)
		}
	}
}

// The lagged dashpot removes the stalls of S0 eq. (52) as written: a cube
// dropped from 5 cm (ζ = 0.5, μ = 0.3, S0 ex. 1 law) face down, vertex down
// and tilted, with newmark at dt_max = 0.02 s for 0.5 s. Without the lag,
// every drop has Newton stalls (Counts.Stall ≥ 1: the dashpot switching on
// as contacts enter the skin); with it, none does (Counts.Stall = 0), and
// with the entry fraction the stalls fall to at most a tenth. The energy
// check (Newmark.EnergyGain) is off: its cuts move the step ends of these
// big-step impacts (1–10 stalls then, with or without the lag); this test
// isolates the dashpot's time discretisation.
func TestDampLagRemovesStalls(t *testing.T) {
	diag := geom.QAxisAngle(geom.V(0, 1, 0), -math.Atan(1/math.Sqrt2)).Mul(geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4))
	cases := []struct {
		name string
		q    geom.Quat
	}{
		{"face", geom.QIdent()},
		{"vertex", diag},
		{"tilted", geom.QAxisAngle(geom.V(0, 1, 0), 10*math.Pi/180).Mul(geom.QAxisAngle(geom.V(1, 0, 0), 20*math.Pi/180))},
	}
	for _, c := range cases {
		var stall [3]int64
		for i, mode := range [][2]bool{{false, false}, {true, false}, {true, true}} {
			w := groundWorld(t, cubeParams(0.5, 0.3))
			b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, c.q)
			lowestAt(b, 0.05)
			w.AddBody(b)
			if err := Start(w); err != nil {
				t.Fatal(err)
			}
			nm := NewNewmark()
			nm.EnergyGain = 0
			w.Integrator = nm
			w.Settings.DtMax = 0.02
			w.Settings.DampLag, w.Settings.DampLagEntry = mode[0], mode[1]
			run(t, w, 0.5, nil)
			k := nm.Counts
			stall[i] = k.Stall
			t.Logf("%s, lag %v, entry %v: %d steps, %d attempts, %d stalled, %d rejected", c.name, mode[0], mode[1], k.Steps, k.Attempts, k.Stall, k.Rejected())
		}
		if stall[0] < 1 {
			t.Errorf("%s: no stall without the lag; the case does not test the lag", c.name)
		}
		if stall[1] != 0 {
			t.Errorf("%s: %d stalls with the lag, want 0", c.name, stall[1])
		}
		if 10*stall[2] > stall[0] {
			t.Errorf("%s: %d stalls with the lag and entry fraction, want ≤ %d/10", c.name, stall[2], stall[0])
		}
	}
}

// A closing contact that was in the skin at the last Commit takes the lagged
// dashpot coefficient times the fraction of the step it spends in the skin
// (World.DashpotAt with the entry fraction), so its normal force is
// continuous at g = ḡ: a cube standing on one vertex, committed at
// g_0 = 0.3ḡ, is evaluated closing at 0.5 m/s (step 1 ms) at gaps
// ḡ(1 − δ), δ = 1e-2 … 1e-6: the total normal force must be at most the
// fraction (ḡ − g)/(|ġ_n|Δt) of the jump c(g_0)·|ġ_n| plus the elastic
// force ε1(ḡ − g) (S0 eq. 49 with n1 = 1, 52), i.e. → 0 at ḡ; with the plain
// lag it stays at least half the jump, which stalled Newton on the
// tetrapod collapse (docs/performance.md, Session 8). Deep in the skin
// ((ḡ − g) ≥ |ġ_n|Δt) the force must equal the plain lag's to the bit.
func TestDampLagReentryContinuous(t *testing.T) {
	const zeta, dt, vz = 0.5, 1e-3, -0.5
	p := cubeParams(zeta, 0.3)
	gbar := p.Normal.GBar
	q := geom.QAxisAngle(geom.V(1, 0, 0), 0.3).Mul(geom.QAxisAngle(geom.V(0, 1, 0), 0.2))
	setup := func(entry bool) (*world.World, *body.Body) {
		w := groundWorld(t, p)
		b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, q)
		w.AddBody(b)
		lowestAt(b, 0.3*gbar)
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
		w.SetDampLag(true, entry)
		w.SetStickLag(true)
		b.V = geom.V(0, 0, vz)
		w.Evaluate(0, dt, world.Eval{})
		w.Commit(world.Commit{})
		return w, b
	}
	normal := func(w *world.World) (fn float64, n int, isNew bool) {
		w.EachTrialContact(func(a, b int, c *contact.Contact) {
			if c.Active() {
				fn, isNew = c.Fn, c.New
				n++
			}
		})
		return fn, n, isNew
	}
	wp, bp := setup(false) // the plain lag
	we, be := setup(true)  // with the entry fraction
	meq := law.EquivalentMass(bp.Mass(), math.Inf(1))
	pn := wp.Params(bp.Material, bp.Material).Normal                               // prepared
	jump := law.Damping(zeta, pn.Stiffness(0.3*gbar), bp.Mass(), math.Inf(1), -vz) // c(g_0)·|ġ_n|
	if !(jump > 0) || math.IsInf(meq, 0) {
		t.Fatalf("no dashpot: jump %g", jump)
	}
	for _, d := range []float64{1e-2, 1e-4, 1e-6} {
		g := gbar * (1 - d)
		lowestAt(bp, g)
		lowestAt(be, g)
		wp.Evaluate(dt, dt, world.Eval{})
		we.Evaluate(dt, dt, world.Eval{})
		fp, np, newP := normal(wp)
		fe, ne, newE := normal(we)
		if np != 1 || ne != 1 || newP || newE {
			t.Fatalf("δ %g: %d and %d active contacts (new: %v, %v), want one committed contact each", d, np, ne, newP, newE)
		}
		// The bound: the fraction (ḡ − g)/(|ġ_n|Δt) of the jump plus the
		// elastic force ε1(ḡ − g) (S0 eq. 49, n1 = 1) at the lowest vertex.
		bound := (jump*(gbar-g)/(-vz*dt) + p.Normal.Eps1*(gbar-g)) * (1 + 1e-9)
		t.Logf("g = ḡ(1 − %g): f_n %.4g N with the entry fraction (bound %.3g), %.4g N plain lag; jump c(g_0)|ġ_n| = %.4g N", d, fe, bound, fp, jump)
		if !(fe <= bound) {
			t.Errorf("δ %g: f_n = %.4g N with the entry fraction, want ≤ %.4g N (continuous at ḡ)", d, fe, bound)
		}
		if !(fp >= 0.5*jump) {
			t.Errorf("δ %g: the plain lag's f_n = %.4g N, want the jump ≈ %.4g N (the case does not test the fraction)", d, fp, jump)
		}
	}
	// Deep in the skin: ḡ − g = 0.6ḡ > |ġ_n|Δt = 0.5ḡ, the fraction is 1.
	lowestAt(be, 0.4*gbar)
	we.SetDampLag(true, false)
	we.Evaluate(dt, dt, world.Eval{})
	fp, _, _ := normal(we)
	we.SetDampLag(true, true)
	we.Evaluate(dt, dt, world.Eval{})
	fe, _, _ := normal(we)
	if fp != fe {
		t.Errorf("deep in the skin: f_n %v with the entry fraction, %v with the plain lag: want the same bits", fe, fp)
	}
}

// The attempt log (Newmark.Trace): a cube dropped face down on the ground
// with eq. (52) as written (no lag, which stalls: TestDampLagRemovesStalls)
// at dt_max = 0.02 s for 0.3 s writes one line per attempt (as many as
// Counts.Attempts), "accepted" on as many as Counts.Steps, a "stall" line
// per Counts.Stall, each with its Newton history; and logging changes
// nothing (the same final state, to the bit, as without it).
func TestNewmarkTrace(t *testing.T) {
	drop := func(log *strings.Builder) (*Newmark, body.State) {
		w := groundWorld(t, cubeParams(0.5, 0.3))
		b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, geom.QAxisAngle(geom.V(0, 1, 0), 0.1))
		lowestAt(b, 0.05)
		w.AddBody(b)
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
		nm := NewNewmark()
		nm.EnergyGain = 0
		if log != nil {
			nm.Trace = log
		}
		w.Integrator = nm
		w.Settings.DtMax = 0.02
		w.Settings.DampLag, w.Settings.DampLagEntry = false, false
		run(t, w, 0.3, nil)
		return nm, b.Save()
	}
	var log strings.Builder
	nm, s1 := drop(&log)
	_, s0 := drop(nil)
	if s1 != s0 {
		t.Errorf("the log changed the run: final state %+v, without it %+v", s1, s0)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	attempts, accepted, stalls := 0, 0, 0
	for _, l := range lines {
		if strings.Contains(l, " guard: ") {
			continue
		}
		attempts++
		if !strings.Contains(l, ": r") {
			t.Errorf("no Newton history in %q", l)
		}
		switch {
		case strings.Contains(l, " accepted: "):
			accepted++
		case strings.Contains(l, " stall: "):
			stalls++
			if !strings.Contains(l, "[+") {
				t.Errorf("a stalled attempt without its iterates' contact changes: %q", l)
			}
		}
	}
	c := nm.Counts
	t.Logf("%d attempts, %d steps, %d stalls; e.g. %q", c.Attempts, c.Steps, c.Stall, lines[len(lines)/2])
	if testing.Verbose() {
		for _, l := range lines[:12] {
			t.Log(l)
		}
	}
	if int64(attempts) != c.Attempts || int64(accepted) != c.Steps || int64(stalls) != c.Stall || c.Stall == 0 {
		t.Errorf("log: %d attempts, %d accepted, %d stalls; counts: %d, %d, %d (want equal, stalls ≥ 1)", attempts, accepted, stalls, c.Attempts, c.Steps, c.Stall)
	}
}
