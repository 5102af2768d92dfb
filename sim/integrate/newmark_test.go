package integrate

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// A cube inside the contact skin, pushed down by 1 kN into the barrier part
// of the normal law (S0 eq. 49), tries one Newmark step of 5 ms (the
// crossing guard may cut it; it must stay ≥ 10× the explicit StableDt): Newton–Raphson must converge to the tolerance
// within 8 iterations, and its last reductions must be superlinear — each
// ratio r_{k+1}/r_k smaller than the one before, the last one below 1e-2 —
// with the finite-difference products and with the assembled tangent (the
// default). A last residual below 1e-12 is round-off (the assembled tangent
// converges quadratically and reaches it): its ratio is not the method's,
// and the two ratios before it are judged instead.
func TestNewmarkNewtonConvergence(t *testing.T) {
	for _, fd := range []bool{true, false} {
		w, _ := pushedCube(t)
		nm := NewNewmark()
		nm.FDProducts = fd
		w.Integrator = nm
		w.Settings.DtMax = 1
		sdt := w.StableDt()
		w.Dt = 5e-3
		dt, err := nm.Step(w, 1)
		if err != nil {
			t.Fatal(err)
		}
		h := nm.History
		t.Logf("FDProducts %v: Δt %.3g s (explicit StableDt %.3g s), residual history %.3g, %d linear iterations",
			fd, dt, sdt, h, w.Stats.LinearIters)
		if dt < 10*sdt {
			t.Fatalf("step %.3g s is less than 10× the explicit StableDt %.3g s", dt, sdt)
		}
		n := len(h) - 1
		if n < 3 || n > 8 {
			t.Fatalf("%d Newton iterations, want 3–8 on this nonlinear contact problem", n)
		}
		if h[n] > nm.Tol {
			t.Errorf("final residual %.3g above tolerance %.3g", h[n], nm.Tol)
		}
		m := n
		if h[n] < 1e-12 && n >= 4 { // round-off: judge the ratios before it
			m = n - 1
		}
		r1, r2 := h[m-1]/h[m-2], h[m]/h[m-1]
		if !(r2 < r1) || r2 > 1e-2 {
			t.Errorf("FDProducts %v: last reduction ratios %.3g then %.3g: not superlinear", fd, r1, r2)
		}
		if w.Stats.NewtonIters != n || w.Stats.Integrator != "newmark" || w.Stats.Dt != dt {
			t.Errorf("stats %+v do not describe the step", w.Stats)
		}
	}
}

// Two cubes joined by a linear bond (no gravity, no contact) form a linear
// oscillator of ω² = 2K/m. Newmark with γ = ½ advances it exactly by the
// recurrence x_{n+1} + x_{n−1} = 2 cos θ · x_n with cos θ = 1 − Ω²/(2(1+βΩ²)),
// Ω = ωΔt (S0 eq. 20–21 applied to m ẍ + k x = 0): no numerical damping and a
// longer period. At Ω = 1.5 the least-squares cos θ of 200 steps of the
// stretch must match to 1e-5, and the amplitude invariant must hold to 1e-6.
func TestNewmarkLinearOscillator(t *testing.T) {
	w := world.New("bond")
	w.Gravity = geom.Vec3{}
	if err := w.SetParams(0, 0, cubeParams(0, 0)); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	a := body.New("a", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0, 0, 1), geom.QIdent())
	b := body.New("b", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(1, 0, 1), geom.QIdent())
	ia, ib := w.AddBody(a), w.AddBody(b)
	const k = 1000.0
	w.AddBond(ia, ib, k, 0, 0)
	a.V, b.V = geom.V(-0.01, 0, 0), geom.V(0.01, 0, 0)
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	omega := math.Sqrt(2 * k / a.Mass())
	const Om = 1.5
	dt := Om / omega
	nm := NewNewmark()
	w.Integrator = nm
	w.Settings.DtMin, w.Settings.DtMax, w.Dt = dt, dt, dt
	var x []float64
	for i := 0; i < 200; i++ {
		if _, err := nm.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		x = append(x, w.Bonds[0].Stretch)
	}
	var num, den float64
	for i := 1; i+1 < len(x); i++ {
		num += x[i] * (x[i+1] + x[i-1])
		den += 2 * x[i] * x[i]
	}
	got := num / den
	want := 1 - Om*Om/(2*(1+nm.Beta*Om*Om))
	// The recurrence conserves I = x_n² + x_{n+1}² − 2 cos θ x_n x_{n+1}
	// (amplitude² times sin² θ): no numerical damping, no growth.
	inv := func(i int) float64 { return x[i]*x[i] + x[i+1]*x[i+1] - 2*want*x[i]*x[i+1] }
	i0, i1 := inv(0), inv(len(x)-2)
	t.Logf("Ω = %.2f: cos θ = %.8f (Newmark %.8f, exact %.8f), invariant %.6g → %.6g", Om, got, want, math.Cos(Om), i0, i1)
	if math.Abs(got-want) > 1e-5 {
		t.Errorf("cos θ = %.8f, want %.8f (Newmark γ=½, β=%g)", got, want, nm.Beta)
	}
	if math.Abs(i1-i0) > 1e-6*i0 {
		t.Errorf("invariant changed from %.8g to %.8g: Newmark with γ = ½ has no numerical damping", i0, i1)
	}
}

// Switching integrators mid-run: a cube settles with explicit, continues
// with newmark, then explicit again, and a second world of a different size
// reuses the same Newmark value. Each switch starts from the state left
// behind (no restart): at the end the ground carries the weight (±1%).
func TestNewmarkSwitching(t *testing.T) {
	w := groundWorld(t, cubeParams(1.0, 0.5))
	b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, geom.QAxisAngle(geom.V(1, 0, 0), 0.1))
	lowestAt(b, 0.01)
	w.AddBody(b)
	run(t, w, 0.1, nil)
	nm := NewNewmark()
	w.Integrator = nm
	run(t, w, 0.3, nil)
	if w.Stats.Integrator != "newmark" {
		t.Errorf("stats name %q after newmark steps", w.Stats.Integrator)
	}
	w2 := groundWorld(t, cubeParams(1.0, 0.5))
	for i := 0; i < 3; i++ {
		c := body.New("c", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0.3*float64(i), 0, 0), geom.QIdent())
		lowestAt(c, 0.5e-3+0.2*float64(i))
		w2.AddBody(c)
	}
	if err := Start(w2); err != nil {
		t.Fatal(err)
	}
	w2.Integrator = nm
	run(t, w2, 0.1, nil)
	w.Integrator = &Explicit{}
	run(t, w, 0.4, nil)
	W := b.Mass() * 9.81
	if fz := w.Walls[0].Force.Z; math.Abs(fz-W) > 0.01*W {
		t.Errorf("ground reaction %.5g N after switching, want %.5g N (±1%%)", fz, W)
	}
	w.Integrator = nm
	run(t, w, 0.6, nil)
	if fz := w.Walls[0].Force.Z; math.Abs(fz-W) > 0.01*W {
		t.Errorf("ground reaction %.5g N with newmark, want %.5g N (±1%%)", fz, W)
	}
}

// Invalid parameters are reported by field name, not by a panic.
func TestNewmarkBadParams(t *testing.T) {
	w := groundWorld(t, cubeParams(0, 0))
	nm := NewNewmark()
	nm.Beta = -1
	if _, err := nm.Step(w, 1); err == nil {
		t.Fatal("beta = -1 accepted")
	}
}

// A sphere dropped 1 cm onto a plane with newmark and the OmegaDt guideline
// lands and comes to rest at the Hookean overlap m g/k_n (±1%). Before, the
// guideline took the polyhedral barrier law for the smooth contact (infinite
// stiffness at its negative gap) and the step crawled at dt_min; and Newton
// could not converge below ~1e-8 s, where the round-off of α1 u − α2 u̇
// exceeded the tolerance (the unknowns are now corrections to the predictor).
func TestNewmarkSphereLands(t *testing.T) {
	const r, rho = 0.01, 2500.0
	s := law.Smooth{Model: law.HookeLAMMPS, Kn: 1e4, GammaN: 200}
	w := smoothWorld(t, s)
	w.Gravity = geom.V(0, 0, -9.81)
	if _, err := w.AddWall("ground", plane(t, "ground", geom.Vec3{}, geom.V(0, 0, 1), 1), 0, true); err != nil {
		t.Fatal(err)
	}
	b := body.NewSphere("s", r, rho, geom.V(0, 0, r+0.01))
	w.AddBody(b)
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	nm := NewNewmark()
	nm.OmegaDt = 0.2
	w.Integrator = nm
	w.Settings.DtMax = 0.01
	run(t, w, 0.5, func() {
		if w.Steps > 5000 {
			t.Fatalf("%d steps by t = %.4g s: the step crawls (Δt %.3g s)", w.Steps, w.Time, w.Stats.Dt)
		}
	})
	want, got := b.Mass()*9.81/s.Kn, r-b.X.Z
	t.Logf("overlap %.5g m (m g/k_n %.5g m), %d steps, mean Δt %.3g s, %+v", got, want, w.Steps, w.Time/float64(w.Steps), nm.Counts)
	if math.Abs(got-want) > 0.01*want {
		t.Errorf("overlap %.5g m, want m g/k_n = %.5g m (±1%%)", got, want)
	}
}

// The crossing guard's cheap speed bound (bounding radii) is never below the
// vertex-by-vertex approach speed it lets approachDt skip, for random
// velocities of tetrapods, cubes and a sphere over a ground plane, and
// approachDt with the shortcut returns the minimum over every pair exactly
// (without the certified clearance, which can only allow a longer step).
func TestNewmarkSpeedBound(t *testing.T) {
	w := groundWorld(t, cubeParams(0.5, 0.5))
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	rv := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	for i := 0; i < 12; i++ {
		var b *body.Body
		x := geom.V(0.6*float64(i%4)-0.9, 0.6*float64(i/4)-0.6, 0.45+0.05*rng.Float64())
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		switch i % 3 {
		case 0, 1:
			b = body.New("tet", tet, 1000, x, q)
		default:
			b = body.New("cube", shape.Box(0.3, 0.3, 0.3), 1000, x, q)
		}
		w.AddBody(b)
	}
	w.AddBody(body.NewSphere("ball", 0.2, 1000, geom.V(0, 0.9, 0.3)))
	w.Settings.DtMax = 1
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	n := NewNewmark()
	checked, visited := 0, 0
	for trial := 0; trial < 50; trial++ {
		for _, b := range w.Bodies() {
			if !b.Fixed {
				b.V, b.W = rv(2), rv(10)
			}
		}
		n.prepare(w)
		// With the certified clearance (separation) approachDt can only
		// allow more; the exactness of the shortcut is checked without it.
		certified := n.approachDt(w, 1)
		n.prepare(w)
		for i := range n.guard {
			n.guard[i].sep = false
		}
		want := math.Inf(1)
		for _, g := range n.guard {
			s, ub := n.approachSpeed(w, g), n.speedBound(w, g)
			if s > ub*(1+1e-12) {
				t.Fatalf("pair %d–%d: approach speed %.17g above its bound %.17g", g.a, g.b, s, ub)
			}
			checked++
			lim := approachFrac * math.Max(g.d0, g.gbar)
			if g.poly {
				lim = math.Max(lim, sweepFrac*g.gbar)
			}
			if s > 0 {
				want = math.Min(want, lim/s)
			}
		}
		if certified < math.Min(1, want) {
			t.Fatalf("approachDt with the certified clearance %.17g below %.17g without", certified, math.Min(1, want))
		}
		for _, cap := range []float64{1, want * 1.5, want, want / 2} {
			if got := n.approachDt(w, cap); got != math.Min(cap, want) {
				t.Fatalf("approachDt(%g) = %.17g, want %.17g", cap, got, math.Min(cap, want))
			}
			visited++
		}
	}
	t.Logf("%d guard pairs checked, %d approachDt calls", checked, visited)
	if checked < 500 {
		t.Fatalf("only %d guard pairs checked", checked)
	}
}

// The cube of TestNewmarkNewtonConvergence, one step of 5 ms with the
// tangent reused in the tail (ReuseBelow, the default) and built at every
// iterate (ReuseBelow 0): both converge to the tolerance, the default builds
// fewer Newton matrices than it takes iterations, and the two end states
// agree to 1e-9 m and 1e-9 rad (the solves differ only within the
// tolerance).
func TestNewmarkTangentReuse(t *testing.T) {
	var x [2]geom.Vec3
	var q [2]geom.Quat
	for k, reuse := range []float64{NewNewmark().ReuseBelow, 0} {
		w, ib := pushedCube(t)
		nm := NewNewmark()
		nm.ReuseBelow = reuse
		w.Integrator = nm
		w.Settings.DtMax = 1
		w.Dt = 5e-3
		if _, err := nm.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		h, c := nm.History, nm.Counts
		t.Logf("ReuseBelow %g: residual history %.3g, %d Newton iterations, %d Newton matrices", reuse, h, c.NewtonIters, c.Tangents)
		if h[len(h)-1] > nm.Tol {
			t.Errorf("ReuseBelow %g: final residual %.3g above tolerance %.3g", reuse, h[len(h)-1], nm.Tol)
		}
		switch {
		case reuse > 0 && c.Tangents >= c.NewtonIters:
			t.Errorf("ReuseBelow %g: %d Newton matrices for %d iterations: none reused", reuse, c.Tangents, c.NewtonIters)
		case reuse == 0 && c.Tangents != c.NewtonIters:
			t.Errorf("ReuseBelow 0: %d Newton matrices for %d iterations", c.Tangents, c.NewtonIters)
		}
		x[k], q[k] = w.Bodies()[ib].X, w.Bodies()[ib].Q
	}
	dq := q[0].Conj().Mul(q[1])
	if d, a := x[0].Sub(x[1]).Norm(), 2*math.Asin(math.Min(1, geom.V(dq.X, dq.Y, dq.Z).Norm())); d > 1e-9 || a > 1e-9 {
		t.Errorf("end states differ by %.3g m and %.3g rad", d, a)
	}
}

// pushedCube is the world of the Newton tests: a 0.1 m cube tilted by 0.02
// rad about (1, 1, 0), its lowest point 0.9 mm above the ground, moving at
// (0.05, 0, −0.05) m/s, pushed down by 1 kN (which brings the contacts into
// the barrier part of the law), started; and the cube's index.
func pushedCube(t *testing.T) (*world.World, int) {
	t.Helper()
	w := groundWorld(t, cubeParams(0.5, 0.5))
	b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, geom.QAxisAngle(geom.V(1, 1, 0), 0.02))
	lowestAt(b, 0.9e-3)
	b.V = geom.V(0.05, 0, -0.05)
	ib := w.AddBody(b)
	w.Loads = append(w.Loads, body.Load{Body: ib, Force: body.Const(geom.V(0, 0, -1000))})
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	return w, ib
}
