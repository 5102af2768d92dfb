package validation

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"grainlab/sim/audit"
	"grainlab/sim/contact"
	"grainlab/sim/integrate"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// collapseWorld is the default scene's tetrapod collapse (`grainlab bench`):
// the shipped packed state (300 tetrapods at rest at t = 6 s) with the side
// walls removed.
func collapseWorld(t testing.TB, sets ...string) *world.World {
	t.Helper()
	w := load(t, "box-of-tetrapods", sets...)
	const path = "builtin:box-of-tetrapods-300-packed"
	f, err := state.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := state.Apply(w, f, path); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	if err := w.ApplyEvents(); err != nil {
		t.Fatal(err)
	}
	return w
}

// collapseRun holds what runCollapse measured.
type collapseRun struct {
	exMean, exCrit, exWall float64 // explicit: mean step, mean critical step, wall s per simulated s
	exCritMin              float64 // the smallest critical step of the span
	mean, wall             float64 // newmark: mean step, wall s per simulated s
	steps                  int64
	counts                 integrate.NewmarkCounts
	stats                  world.Stats
	audited, violations    int
}

// runCollapse runs the first span seconds of the collapse with explicit and
// with newmark (dt_max newmarkDtMax) from the same state. The explicit
// critical step is S0's 2√(m_c/k_c) (§2.4.7) of the stiffest active contact,
// with m_c the effective mass along the normal, averaged over the steps.
// auditEvery > 0 audits every that many newmark steps for penetration.
func runCollapse(t *testing.T, span float64, auditEvery int, sets ...string) collapseRun {
	t.Helper()
	var r collapseRun
	we := collapseWorld(t, sets...)
	t0, n0 := we.Time, we.Steps
	start := time.Now()
	crit, nc := 0.0, 0
	r.exCritMin = math.Inf(1)
	exSpan := span
	if collapseNoExplicit {
		exSpan = 1e-6 // one step: newmark's counts alone
	}
	advance(t, we, t0+exSpan, func() bool {
		if c := criticalDt(we); !math.IsInf(c, 1) {
			crit += c
			nc++
			r.exCritMin = math.Min(r.exCritMin, c)
		}
		return false
	})
	r.exWall = time.Since(start).Seconds() / exSpan
	r.exMean = exSpan / float64(we.Steps-n0)
	r.exCrit = crit / float64(max(nc, 1))

	w := collapseWorld(t, sets...)
	nm := integrate.NewNewmark()
	if collapseTune != nil {
		collapseTune(nm)
	}
	w.Integrator = nm
	w.Settings.DtMax = newmarkDtMax
	n0 = w.Steps
	start = time.Now()
	var auditTime time.Duration
	advance(t, w, t0+span, func() bool {
		if auditEvery > 0 && (w.Steps-n0)%int64(auditEvery) == 0 {
			a := time.Now()
			s, ws := audit.WorldMeshes(w)
			if v := audit.Check(s, ws, 0); len(v) > 0 {
				if r.violations == 0 {
					t.Logf("t = %.4f s: %d penetrating pairs, first %+v", w.Time, len(v), v[0])
				}
				r.violations++
			}
			r.audited++
			auditTime += time.Since(a)
		}
		return false
	})
	r.wall = (time.Since(start) - auditTime).Seconds() / span
	r.steps = w.Steps - n0
	r.mean = span / float64(r.steps)
	r.counts, r.stats = nm.Counts, w.Stats
	c := r.counts
	t.Logf("explicit: mean Δt %.3g s, critical Δt 2√(m_c/k_c) %.3g s on average, %.3g s at least; wall %.1f s per simulated s", r.exMean, r.exCrit, r.exCritMin, r.exWall)
	t.Logf("newmark: %d steps, mean Δt %.3g s = %.1f× explicit's mean step, %.2f× the mean and %.2f× the smallest critical step; wall %.1f s per simulated s",
		r.steps, r.mean, r.mean/r.exMean, r.mean/r.exCrit, r.mean/r.exCritMin, r.wall)
	t.Logf("  %d attempts, %.2f Newton and %.1f GMRES iterations per attempt; rejected %d (stall %d, max-iter %d, line search %d, predictor %d, night owls %d, step size %d with %d swept crossings, energy %d); RejectedBy %v",
		c.Attempts, float64(c.NewtonIters)/float64(c.Attempts), float64(c.LinearIters)/float64(c.Attempts),
		c.Rejected(), c.Stall, c.MaxIter, c.LineSearch, c.Predictor, c.NightOwl, c.Guard+c.Located, c.Crossings, c.Energy, r.stats.RejectedBy)
	t.Logf("  %d of %d steps sized by the crossing guard's prediction; %d Newton iterations, %d GMRES iterations, %d tangents, %d full evaluations (detection)",
		c.ApproachLimited, r.steps, c.NewtonIters, c.LinearIters, c.Tangents, r.stats.Profile.Evaluations)
	if auditEvery > 0 {
		t.Logf("  audit: %d of %d audited states with penetrating pairs", r.violations, r.audited)
	}
	return r
}

// criticalDt is the smallest 2√(m_c/k_c) over the active contacts of w.
func criticalDt(w *world.World) float64 {
	dt := math.Inf(1)
	w.EachContact(func(a, b int, c *contact.Contact) {
		if !c.Active() {
			return
		}
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		k := w.Params(ba.Material, bb.Material).Normal.Stiffness(c.Gn)
		im := 0.0 // 1/m_c: the inverse mass of both bodies along the normal
		if !ba.Fixed {
			rn := c.PA.Sub(ba.X).Cross(c.N)
			im += ba.InvMass() + rn.Dot(ba.MulInvInertia(rn))
		}
		if !bb.Fixed {
			rn := c.PB.Sub(bb.X).Cross(c.N)
			im += bb.InvMass() + rn.Dot(bb.MulInvInertia(rn))
		}
		if k > 0 && im > 0 {
			dt = math.Min(dt, 2/math.Sqrt(k*im)) // S0 §2.4.7: Δt_c = 2√(m_c/k_c)
		}
	})
	return dt
}

// The first 0.2 s of the tetrapod collapse (S0 ex. 6 at 300 bodies) with
// newmark, the dashpot switched on over 1% of the skin (damp_band 0.01;
// S0 eq. 52 as written stalls Newton, see docs/validation.md): the mean step
// is at least 12× explicit's on the same span, and no two bodies (or a body
// and the ground) interpenetrate in any of the audited states (every 10th
// step).
func TestNewmarkTetrapodCollapse(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	r := runCollapse(t, 0.2, 10, "contact.default.damp_band=0.01")
	if r.violations > 0 {
		t.Errorf("%d of %d audited states have penetrating pairs", r.violations, r.audited)
	}
	if r.mean < 12*r.exMean {
		t.Errorf("newmark mean Δt %.3g s is less than 12× explicit's %.3g s", r.mean, r.exMean)
	}
}

// TestNewmarkCollapseRatio (GRAINLAB_NEWMARK_COLLAPSE=seconds, e.g. 1;
// GRAINLAB_NEWMARK_SET="key=value;…" scene overrides, e.g.
// contact.default.damp_band=0.01; GRAINLAB_NEWMARK_AUDIT=n audits every n-th
// step): the measurement behind docs/performance.md.
func TestNewmarkCollapseRatio(t *testing.T) {
	span, _ := strconv.ParseFloat(os.Getenv("GRAINLAB_NEWMARK_COLLAPSE"), 64)
	if !(span > 0) {
		t.Skip("set GRAINLAB_NEWMARK_COLLAPSE=seconds to run")
	}
	var sets []string
	if v := os.Getenv("GRAINLAB_NEWMARK_SET"); v != "" {
		sets = strings.Split(v, ";")
	}
	every, _ := strconv.Atoi(os.Getenv("GRAINLAB_NEWMARK_AUDIT"))
	if v := os.Getenv("GRAINLAB_NEWMARK_PARAMS"); v != "" {
		tune, err := newmarkParams(v)
		if err != nil {
			t.Fatal(err)
		}
		collapseTune = tune
		defer func() { collapseTune = nil }()
	}
	if os.Getenv("GRAINLAB_NEWMARK_NOEXPLICIT") != "" {
		collapseNoExplicit = true
		defer func() { collapseNoExplicit = false }()
	}
	runCollapse(t, span, every, sets...)
}

// collapseTune, when not nil, adjusts runCollapse's newmark integrator
// (TestNewmarkCollapseRatio's GRAINLAB_NEWMARK_PARAMS).
var collapseTune func(*integrate.Newmark)

// collapseNoExplicit (GRAINLAB_NEWMARK_NOEXPLICIT) skips runCollapse's
// explicit run beyond one step, for newmark's counts alone.
var collapseNoExplicit bool

// newmarkParams parses "tol=1e-6;grow_iters=6;shrink_iters=10" into a
// function that sets those fields of a Newmark (the step controller's and
// Newton's knobs that are not scene keys).
func newmarkParams(spec string) (func(*integrate.Newmark), error) {
	var sets []func(*integrate.Newmark)
	for _, kv := range strings.Split(spec, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return nil, fmt.Errorf("GRAINLAB_NEWMARK_PARAMS: %q is not key=value", kv)
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("GRAINLAB_NEWMARK_PARAMS: %s: %v", k, err)
		}
		switch k {
		case "tol":
			sets = append(sets, func(n *integrate.Newmark) { n.Tol = x })
		case "grow_iters":
			sets = append(sets, func(n *integrate.Newmark) { n.GrowIters = int(x) })
		case "shrink_iters":
			sets = append(sets, func(n *integrate.Newmark) { n.ShrinkIters = int(x) })
		case "reuse_below":
			sets = append(sets, func(n *integrate.Newmark) { n.ReuseBelow = x })
		default:
			return nil, fmt.Errorf("GRAINLAB_NEWMARK_PARAMS: unknown key %q (tol, grow_iters, shrink_iters, reuse_below)", k)
		}
	}
	return func(n *integrate.Newmark) {
		for _, f := range sets {
			f(n)
		}
	}, nil
}
