package validation

import (
	"math"
	"os"
	"strconv"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/state"
)

// tolRun runs the first span seconds of the tetrapod collapse with newmark
// at the fixed step dt (dt_min = dt_max = dt: no guard or controller
// changes it) and Newton tolerance tol, and returns the movable bodies'
// end state as positions, velocities and orientations.
func tolRun(t *testing.T, from *state.File, span, dt, tol float64) (x, v, q []float64) {
	t.Helper()
	w := collapseWorld(t)
	nm := integrate.NewNewmark()
	nm.Tol = tol
	w.Integrator = nm
	if from != nil {
		if err := state.Apply(w, *from, "the mid-collapse state"); err != nil {
			t.Fatal(err)
		}
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
	}
	w.Settings.DtMin, w.Settings.DtMax, w.Dt = dt/64, dt, dt
	n := int(math.Round(span / dt))
	t0, s0 := w.Time, w.Steps
	advance(t, w, t0+float64(n)*dt, nil)
	t.Logf("    dt %g, Tol %g: %d steps (%d at dt), %d attempts", dt, tol, w.Steps-s0, n, nm.Counts.Attempts)
	for _, b := range w.Bodies() {
		if b.Fixed {
			continue
		}
		x = append(x, b.X.X, b.X.Y, b.X.Z)
		v = append(v, b.V.X, b.V.Y, b.V.Z, b.W.X, b.W.Y, b.W.Z)
		s := 1.0 // q and −q are the same orientation
		if b.Q.W < 0 {
			s = -1
		}
		q = append(q, s*b.Q.W, s*b.Q.X, s*b.Q.Y, s*b.Q.Z)
	}
	return x, v, q
}

// rmsDiff is the RMS of a − b.
func rmsDiff(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return math.Sqrt(s / float64(max(len(a), 1)))
}

// collapseAt returns the collapse's state at t0 + at (newmark, default
// settings, dt_max newmarkDtMax), or nil for at = 0.
func collapseAt(t *testing.T, at float64) *state.File {
	t.Helper()
	if !(at > 0) {
		return nil
	}
	w := collapseWorld(t)
	w.Integrator = integrate.NewNewmark()
	w.Settings.DtMax = newmarkDtMax
	advance(t, w, w.Time+at, nil)
	f := state.Capture(w)
	return &f
}

// newmarkTolRatio returns, for the collapse's first span seconds at the
// fixed step dt, the Newton solve error at tol (the end state against
// Tol = 1e-10's at the same dt) over the time-discretisation error (Tol =
// 1e-10 at dt against dt/2), for positions, velocities (linear and angular)
// and orientations.
func newmarkTolRatio(t *testing.T, from *state.File, span, dt float64, tols ...float64) (ratios [][3]float64) {
	t.Helper()
	rx, rv, rq := tolRun(t, from, span, dt, 1e-10)
	hx, hv, hq := tolRun(t, from, span, dt/2, 1e-10)
	ex, ev, eq := rmsDiff(rx, hx), rmsDiff(rv, hv), rmsDiff(rq, hq)
	t.Logf("span %g s, dt %g: discretisation error (dt against dt/2, Tol 1e-10): x %.3g m, v %.3g, q %.3g", span, dt, ex, ev, eq)
	for _, tol := range tols {
		x, v, q := tolRun(t, from, span, dt, tol)
		r := [3]float64{rmsDiff(x, rx) / ex, rmsDiff(v, rv) / ev, rmsDiff(q, rq) / eq}
		t.Logf("  Tol %g: solve error x %.3g m, v %.3g, q %.3g; over the discretisation error %.3g, %.3g, %.3g",
			tol, rmsDiff(x, rx), rmsDiff(v, rv), rmsDiff(q, rq), r[0], r[1], r[2])
		ratios = append(ratios, r)
	}
	return ratios
}

// TestNewmarkTolSweep (GRAINLAB_NEWMARK_TOLSWEEP=dt, e.g. 1e-3): the solve
// error over the discretisation error for Tol 1e-8 … 1e-3 on the collapse's
// first 0.02 s, the measurement behind docs/performance.md "Session 15:
// newmark".
func TestNewmarkTolSweep(t *testing.T) {
	dt, _ := strconv.ParseFloat(os.Getenv("GRAINLAB_NEWMARK_TOLSWEEP"), 64)
	if !(dt > 0) {
		t.Skip("set GRAINLAB_NEWMARK_TOLSWEEP=dt to run")
	}
	span := 0.02
	if s, _ := strconv.ParseFloat(os.Getenv("GRAINLAB_NEWMARK_TOLSPAN"), 64); s > 0 {
		span = s
	}
	at, _ := strconv.ParseFloat(os.Getenv("GRAINLAB_NEWMARK_TOLAT"), 64)
	newmarkTolRatio(t, collapseAt(t, at), span, dt, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2)
}

// TestNewmarkTolAccuracy: on the first 0.02 s of the tetrapod collapse at
// a fixed step of 2 ms (about newmark's mean step on the collapse), the
// end state's error from stopping Newton at the default Tol (against Tol
// 1e-10 at the same step) is below 1% of the time-discretisation error (Tol
// 1e-10 at 2 ms against 1 ms), for positions, velocities and orientations
// (RMS over the bodies). The same check with Tol 1e-2 must fail, so the
// measure can tell a too-loose tolerance (docs/performance.md, "Session 15:
// newmark").
func TestNewmarkTolAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	tol := integrate.NewNewmark().Tol
	r := newmarkTolRatio(t, nil, 0.02, 2e-3, tol, 1e-2)
	worst := func(r [3]float64) float64 { return max(r[0], r[1], r[2]) }
	if w := worst(r[0]); !(w < 0.01) {
		t.Errorf("default Tol %g: solve error %.3g of the discretisation error (want < 1%%)", tol, w)
	}
	if w := worst(r[1]); !(w > 0.01) {
		t.Errorf("Tol 1e-2: solve error %.3g of the discretisation error, want > 1%% (the check cannot tell a loose tolerance)", w)
	}
}
