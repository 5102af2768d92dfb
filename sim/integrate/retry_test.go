package integrate

import (
	"math"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// retryWorld is a world with one free cube at rest at x0 and the step
// bounds dtMin, for the retry rule's contract.
func retryWorld(dtMin float64) (*world.World, *body.Body, geom.Vec3) {
	w := world.New("retry")
	x0 := geom.V(0.1, 0.2, 0.3)
	b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, x0, geom.QIdent())
	w.AddBody(b)
	w.Settings.DtMin = dtMin
	w.Time = 1.5
	return w, b, x0
}

// The retry rule against a fake step that moves the body and is accepted
// only at Δt ≤ 1e-4: every rejection is counted once under its reason, the
// body is back at the start of the step before each new attempt, and Δt is
// cut by the integrator's factor (¼: 1e-2 → 3.90625e-5 in four cuts, exact
// in binary).
func TestRetryCountsRollsBackAndCuts(t *testing.T) {
	w, b, x0 := retryWorld(1e-9)
	var cp checkpoint
	cp.save(w)
	rt := newRetry(w, "fake", 0.25, &cp)
	dt, tried := 1e-2, []float64{}
	for {
		if b.X != x0 {
			t.Fatalf("attempt %d starts at %v, not at the start of the step %v", len(tried), b.X, x0)
		}
		tried = append(tried, dt)
		b.X = b.X.AddScaled(dt, geom.V(0, 0, -1)) // the fake step moves the body
		if dt <= 1e-4 {
			break
		}
		var err error
		if dt, err = rt.reject(dt, world.RejectPenetration); err != nil {
			t.Fatal(err)
		}
	}
	want := []float64{1e-2, 2.5e-3, 6.25e-4, 1.5625e-4, 3.90625e-5}
	if len(tried) != len(want) {
		t.Fatalf("attempts at %v, want %v", tried, want)
	}
	for k := range want {
		if tried[k] != want[k] {
			t.Errorf("attempt %d at Δt = %g, want %g (cut ¼)", k, tried[k], want[k])
		}
	}
	st := w.Stats
	if st.Rejected != 4 || st.RejectedBy[world.RejectPenetration] != 4 || rt.n != 4 {
		t.Errorf("rejected %d (by reason %v, in the step %d), want 4 under penetration", st.Rejected, st.RejectedBy, rt.n)
	}
	// rejectBy: a guard's own factor instead of the cut, floored at dt_min.
	w2, _, _ := retryWorld(1e-3)
	rt2 := newRetry(w2, "fake", 0.25, nil)
	if dt, err := rt2.rejectBy(1e-2, world.RejectStepSize, 0.5); err != nil || dt != 5e-3 {
		t.Errorf("rejectBy(1e-2, ½) = %g, %v; want 5e-3", dt, err)
	}
	if dt, err := rt2.reject(2e-3, world.RejectStepSize); err != nil || dt != 1e-3 {
		t.Errorf("reject(2e-3) = %g, %v; want dt_min 1e-3", dt, err)
	}
	if w2.Stats.RejectedBy[world.RejectStepSize] != 2 {
		t.Errorf("RejectedBy %v, want 2 step-size rejections", w2.Stats.RejectedBy)
	}
}

// A rejection at dt_min is the step's failure: counted, rolled back, and one
// error naming the time, Δt, dt_min, the integrator and the last reason.
func TestRetryFailsAtDtMin(t *testing.T) {
	w, b, x0 := retryWorld(1e-3)
	var cp checkpoint
	cp.save(w)
	rt := newRetry(w, "fake", 0.25, &cp)
	rt.detail = "residual 0.5"
	dt := 1e-2
	whys := []int{world.RejectStepSize, world.RejectSolve, world.RejectNightOwl}
	var err error
	for k := 0; err == nil; k++ {
		if k >= len(whys) {
			t.Fatalf("no failure after %d rejections (Δt %g, dt_min %g)", k, dt, w.Settings.DtMin)
		}
		b.X = b.X.Add(geom.V(1, 0, 0))
		dt, err = rt.reject(dt, whys[k])
	}
	// 1e-2 → 2.5e-3 → max(6.25e-4, dt_min) = 1e-3, rejected there.
	msg := err.Error()
	for _, s := range []string{"t=1.5 s", "fake", "dt=0.001", "dt_min=0.001", rejectText[world.RejectNightOwl], "residual 0.5"} {
		if !strings.Contains(msg, s) {
			t.Errorf("error %q does not name %q", msg, s)
		}
	}
	if strings.Contains(msg, rejectText[world.RejectSolve]) {
		t.Errorf("error %q names an earlier reason, not the last", msg)
	}
	if w.Stats.Rejected != 3 || b.X != x0 {
		t.Errorf("rejected %d (want 3), body at %v (want rolled back to %v)", w.Stats.Rejected, b.X, x0)
	}
}

// cutBy reports whether dt is dt0·f^k for some k ≥ 1 (the retry rule's cuts).
func cutBy(dt, dt0, f float64) bool {
	for d := dt0 * f; d >= dt*0.999; d *= f {
		if math.Abs(d-dt) <= 1e-12*dt0 {
			return true
		}
	}
	return false
}

// The explicit integrator forced to steps far too large: a cube dropped
// from 5 cm with every step asked for at Δt = 2 ms (it falls 2 mm per step
// near the ground, through the 1 mm skin). Attempts that reverse a contact
// normal (S0 §2.4.5) or meet night owls (S0 §2.6) are rejected and counted
// by reason; every accepted step is 2 ms or 2 ms cut by ¼ a whole number of
// times, and the cube never reaches the ground.
func TestExplicitRetriesLargeSteps(t *testing.T) {
	w, b := cubeOverGround(t, cubeParams(0, 0), &Explicit{})
	const big = 2e-3
	minGap, minDt := askLargeSteps(t, w, b, big, func() {
		if dt := w.Stats.Dt; dt != big && !cutBy(dt, big, 0.25) {
			t.Fatalf("t=%.4g s: accepted Δt %g is neither 2 ms nor 2 ms cut by ¼", w.Time, dt)
		}
	})
	st := w.Stats
	t.Logf("rejected %d %v, smallest Δt %.4g s, smallest gap %.3g mm", st.Rejected, st.RejectedBy, minDt, 1e3*minGap)
	if st.Rejected == 0 || st.Rejected != st.RejectedBy[world.RejectPenetration]+st.RejectedBy[world.RejectNightOwl] {
		t.Errorf("rejected %d by reason %v: want rejections, every one counted as penetration or night owls", st.Rejected, st.RejectedBy)
	}
	if minGap <= 0 {
		t.Errorf("the cube reached %.3g mm below the ground", -1e3*minGap)
	}
}

// The sphere path forced to steps far too large: two spheres 6.5 mm apart
// closing at 1 m/s with every step asked for at Δt = 3 ms (3 mm closer per
// step), so that the step after the one ending 0.5 mm apart would end
// 2.5 mm deep in a pair that was never a candidate (night owls, S0 §2.6).
// That attempt is rejected, counted by reason, and retried at ¼ of the
// step: the first contact step is 0.75 ms and enters the contact by at most
// the closing speed times it.
func TestSpherePathRetriesLargeSteps(t *testing.T) {
	const r, v = 0.001, 1.0
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 100})
	w.Gravity = geom.Vec3{}
	a := body.NewSphere("a", r, 2500, geom.V(-0.00425, 0, 0))
	c := body.NewSphere("b", r, 2500, geom.V(0.00425, 0, 0))
	a.V, c.V = geom.V(v/2, 0, 0), geom.V(-v/2, 0, 0)
	w.AddBody(a)
	w.AddBody(c)
	w.Integrator = &Explicit{}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	if w.Spheres() == nil {
		t.Fatal("not on the sphere path")
	}
	const big = 3e-3
	for w.Stats.Contacts == 0 && w.Time < 0.03 {
		w.Dt = big
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	st := w.Stats
	overlap := 2*r - a.X.Sub(c.X).Norm()
	t.Logf("rejected %d %v, first contact step Δt %.4g s, overlap %.3g mm", st.Rejected, st.RejectedBy, st.Dt, 1e3*overlap)
	if st.Rejected == 0 || st.Rejected != st.RejectedBy[world.RejectNightOwl]+st.RejectedBy[world.RejectPenetration] {
		t.Errorf("rejected %d by reason %v: want rejections, every one counted by reason", st.Rejected, st.RejectedBy)
	}
	if !cutBy(st.Dt, big, 0.25) {
		t.Errorf("the first contact step Δt %g is not 3 ms cut by ¼", st.Dt)
	}
	if overlap > v*st.Dt {
		t.Errorf("the first contact step ends %.3g mm deep, more than one step's closing %.3g mm", 1e3*overlap, 1e3*v*st.Dt)
	}
}

// Newmark forced to steps far too large: a cube dropped from 5 cm onto the
// ground with MaxIter 2 and every step asked for at Δt = 2 ms. Attempts whose
// Newton solve fails, that cross the skin or meet night owls are rejected
// and counted by reason in Stats (all of Stats.Rejected, each attempt once in
// Stats.RejectedBy, as many as Newmark.Counts); the accepted steps are 2 ms or smaller and the cube
// never reaches the ground.
func TestNewmarkRetriesLargeSteps(t *testing.T) {
	n := NewNewmark()
	n.MaxIter = 2
	w, b := cubeOverGround(t, cubeParams(0.2, 0), n)
	const big = 2e-3
	minGap, minDt := askLargeSteps(t, w, b, big, nil)
	st := w.Stats
	sum := int64(0)
	for _, k := range st.RejectedBy {
		sum += k
	}
	t.Logf("rejected %d %v (newmark counts %+v), smallest Δt %.4g s, smallest gap %.3g mm", st.Rejected, st.RejectedBy, n.Counts, minDt, 1e3*minGap)
	if st.Rejected == 0 || st.Rejected != sum {
		t.Errorf("rejected %d by reason %v: want rejections, every one counted by reason", st.Rejected, st.RejectedBy)
	}
	if c := n.Counts.Rejected(); c != st.Rejected {
		t.Errorf("newmark's own counters say %d rejected attempts, Stats %d", c, st.Rejected)
	}
	if minDt > big {
		t.Errorf("a step of %g s was accepted, more than the %g s asked for", minDt, big)
	}
	if minGap <= 0 {
		t.Errorf("the cube reached %.3g mm below the ground", -1e3*minGap)
	}
}

// cubeOverGround returns a world of the ground and a 0.2 m cube of density
// 1000 kg/m³ whose lowest point is 5 cm above it, with contact parameters p,
// integrated by it and started.
func cubeOverGround(t *testing.T, p world.ContactParams, it world.Integrator) (*world.World, *body.Body) {
	t.Helper()
	w := groundWorld(t, p)
	b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, geom.QIdent())
	lowestAt(b, 0.05)
	w.AddBody(b)
	w.Integrator = it
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	return w, b
}

// askLargeSteps runs the cube of cubeOverGround to t = 0.15 s asking every
// step for big, calls each (nil: none) after every step, and returns the
// smallest gap of the cube to the ground and the smallest accepted step.
func askLargeSteps(t *testing.T, w *world.World, b *body.Body, big float64, each func()) (minGap, minDt float64) {
	t.Helper()
	minGap, minDt = math.Inf(1), math.Inf(1)
	for w.Time < 0.15 {
		w.Dt = big
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each()
		}
		minGap, minDt = math.Min(minGap, b.X.Z-0.05), math.Min(minDt, w.Stats.Dt)
	}
	return minGap, minDt
}
