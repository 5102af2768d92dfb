package integrate

import (
	"fmt"
	"io"
	"math"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/krylov"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Newmark is the implicit integrator of S0 §2.2 and §2.6: per movable body
// the unknowns are the incremental displacement u^Δ of the centre of mass
// and the incremental Rodrigues rotation vector α^Δ (S0 eq. 6–9, 59); the
// Newmark formulas (S0 eq. 20–22) express the end-of-step accelerations and
// velocities through them, and Newton–Raphson drives the residual of the
// equations of motion (S0 eq. 62) to zero. The tangent is assembled at each
// iterate from the contacts' law derivatives in 6×6 body–body blocks
// (newmark_tangent.go) and the linear systems are solved by GMRES,
// right-preconditioned by its diagonal blocks (LU factors); with
// FDProducts, and for smooth contacts, bonds or periodic worlds, the
// products are finite differences of World.Evaluate with world.Eval{Fixed: true} instead, with
// approximate body blocks as preconditioner (newmark_precond.go).
// Velocity-dependent forces (damping, friction) are part of the residual,
// evaluated with the step size as friction increment time.
//
// The step adapts to convergence (S0 §3.5): it grows after a Newton solve
// that needs few iterations, shrinks after one that needs many, and a failed
// solve (no convergence, a contact normal that reverses — a penetration, S0
// §2.4.7 — or non-finite forces) is rejected and retried with a smaller step.
// A solve that meets night-owl contacts (S0 §2.6) is recomputed with them as
// candidates. No body point may cross a neighbour's skin and surface unseen
// within a step: the step is sized and checked by the crossing guard
// (newmark_guard.go), with a swept test of the second-level feature lists
// for steps longer than the skin allows. The unknowns of the solve are the
// corrections to the predictor increments, which keeps the accelerations
// free of round-off at any step size (setTrial).
//
// Newton stalls where the residual is discontinuous; the common case is a
// closing contact entering the skin, whose dashpot 2ζ√(k m_eq)·ġ (S0 eq. 52)
// switches on with k = ε1 at g = ḡ when n1 = 1: often no end state solves
// the step (the contact would have to stop exactly at the skin's edge with
// part of the dashpot force). A stalled solve is rejected and the step cut,
// which moves the end state off the jump. Two settings remove most stalls:
// World.ContactParams.DampBand (scene key damp_band) switches the dashpot on
// across a band of the skin instead, a change of the law at every Δt
// (docs/validation.md); World.Settings.DampLag (scene key
// integrator.damp_lag) takes each contact's dashpot coefficient of eq. (52)
// at its gap at the start of the step (World.SetDampLag) while ġ is the
// trial velocity, so the residual is continuous in the unknowns within a
// step — our semi-implicit time discretisation of eq. (52), first order in
// Δt, converging to it as Δt → 0 (docs/performance.md); with
// integrator.damp_lag_entry a contact new in the step gets the fraction of
// the step it spent in the skin instead of no dashpot. The lag with the
// entry fraction is the default (world.DefaultSettings, scene defaults);
// damp_lag: false gives eq. (52)'s coefficient fully implicit.
//
// On damped scenes a step that gains energy beyond EnergyGain is rejected
// and cut (newmark_budget.go), and the stick→slip test takes the static
// excess of the Coulomb limit at the start-of-step normal force
// (World.SetStickLag), which keeps Newton solvable at the switch.
//
// Step works from whatever state another integrator left: the start-of-step
// accelerations are the bodies' F/m and, for rotation, Euler's equation with
// the moments T of the last evaluation.
type Newmark struct {
	Beta, Gamma float64 // Newmark parameters β, γ (S0 §2.2: 0.3, 0.5)
	// Tol: the Newton solve has converged when the RMS over bodies of the
	// scaled residual (force/mass and moment/(mass·radius of gyration)) is at
	// most Tol times the reference acceleration of the step (max of |g| and
	// the bodies' start-of-step |F|/m and |T|/(m·ρ)).
	Tol     float64
	MaxIter int // Newton iterations per attempt
	// LinMaxIter bounds the GMRES iterations per Newton iteration; Restart is
	// the GMRES restart length.
	LinMaxIter, Restart int
	// Step control (S0 §3.5): grow by GrowFast after a solve of at most one
	// Newton iteration (after none — the predictor was exact, as in free
	// flight — jump to dt_max), by Grow after at most GrowIters, shrink by
	// Shrink after at least ShrinkIters, cut by Cut on a failed attempt.
	GrowIters, ShrinkIters      int
	Grow, GrowFast, Shrink, Cut float64
	// Optional accuracy guidelines (S0 §3.5 drives the step by convergence
	// alone, S0 ex. 1 adds a maximum step for energy accuracy; both 0: off
	// on damped scenes, 0.2 and 0.7 on conservative ones, stepcontrol.go):
	// Approach bounds Δt so that no active contact's gap changes by more
	// than this fraction of itself in one step (at the start-of-step normal
	// velocity; the barrier's work is then integrated accurately); OmegaDt
	// bounds Δt·ω_c of every active contact, ω_c = √(k_c/m_c) (S0 §2.4.7),
	// as a multiple of what explicit integration could take (2 at the
	// stability limit), and with it steps end where contacts leave the skin
	// (exitDt) or just before they enter it (entryFactor), so that no contact
	// force switches on or off inside a step.
	Approach, OmegaDt float64
	// EnergyGain: where the guidelines are off (damped scenes), a step whose
	// trial end state holds more than EnergyGain × the largest kinetic
	// energy seen above its start energy plus the loads' work is rejected
	// and cut (newmark_budget.go); 0 turns the check off.
	EnergyGain float64
	// FDProducts: the Newton systems use finite-difference products of the
	// whole world (jv) and the approximate block-Jacobi preconditioner
	// (buildPrec) instead of the assembled analytic tangent
	// (newmark_tangent.go). Worlds with smooth contacts use them anyway.
	// Default false: the analytic tangent costs 27% fewer instructions on
	// the collapse since its assembly was made cheap (docs/performance.md,
	// "Session 9: newmark's Newton iterations"); scene key
	// integrator.tangent: fd (true) selects the products.
	FDProducts bool
	// ReuseBelow, ReuseRatio: a Newton iteration whose residual is below
	// ReuseBelow (relative, as Tol) and below ReuseRatio times the previous
	// iterate's keeps the assembled tangent and its preconditioner from the
	// previous iteration of the attempt instead of assembling them again (a
	// chord step: in the tail the contact set no longer changes, and the
	// convergence is linear anyway at the rate of the tangent's left-out
	// terms; docs/performance.md, "Session 11: newmark"). ReuseBelow 0 turns
	// it off; the finite-difference products always use the current iterate.
	ReuseBelow, ReuseRatio float64

	// History holds ‖r_k‖/a_ref of the Newton iterations of the last accepted
	// step (k = 0 is the predictor).
	History []float64
	// Counts accumulates what the integrator did since it was created.
	Counts NewmarkCounts
	// Trace, when not nil, receives one line per attempt: its outcome, the
	// Newton residuals and which contacts switched between iterates
	// (newmark_trace.go). Nil (off) by default.
	Trace io.Writer

	nb     []nmBody // movable bodies
	kOf    []int    // body index → position in nb, −1 when fixed
	y, r   []float64
	dy     []float64
	yt     []float64
	rt     []float64
	prec   []mat6
	piv    [][6]uint8  // row order of the LU factors in prec (precLU)
	precLU bool        // prec holds LU factors (buildTangent), not inverses (buildPrec)
	tan    nmTangent   // the assembled tangent (newmark_tangent.go)
	useTan bool        // the current Newton system uses tan
	qxi    []geom.Mat3 // Q^Δ Ξ⁻¹ per movable body at the tangent's iterate (kTheta)
	gm     krylov.Work
	pw     *world.World // the world whose workers run the passes over bodies (each); nil: serial
	guard  []nmGuard
	gv     []geom.Vec3    // start-of-step world vertices of the movable polyhedra
	vOff   []int          // body i's vertices are gv[vOff[i]:vOff[i+1]]
	mot    []affine       // each body's rigid motion over the trial step
	turnOf []float64      // each body's turn (motions), 0 for fixed bodies
	gs     []guardScratch // guardFactor's per-worker scratch
	lamW   []paddedMin    // fractionToBoundary's per-worker minimum
	// cleared holds the certified start-of-step clearance of the body pairs
	// (a, b) that separation cleared in this step; sepA, sepB and
	// sepScratch are its scratch.
	cleared    map[[2]int]float64
	sepA, sepB contact.Posed
	sepScratch contact.Scratch

	tr  nmTrace    // the attempt log's scratch (Trace)
	cp  checkpoint // the start of the step, for rejections
	bud budget     // the energy check (newmark_budget.go)
	tun tunnelScratch

	t, dt           float64
	a1, a2, a3      float64 // S0 eq. (21) constants α1–α3
	a4, a5, a6      float64 // S0 eq. (21) constants α4–α6
	aref, lfd       float64
	owls            int
	linIters, iters int
	fail            failKind // why the last solve did not converge
	lastRes         float64
	hist            []float64
}

// NewmarkCounts are cumulative counters of the Newmark integrator: its
// attempts, iterations, and its rejected attempts by reason.
type NewmarkCounts struct {
	Steps, Attempts          int64 // accepted steps, Newton solves
	NewtonIters, LinearIters int64 // over all attempts, accepted or not
	// Non-convergence by kind: the residual stagnated, MaxIter was reached,
	// the line search found no decrease (LineSearchBad: of those, at least
	// one trial penetrated — a reversed normal — or had non-finite forces),
	// or no admissible predictor.
	Stall, MaxIter, LineSearch, LineSearchBad, Predictor int64
	NightOwl                                             int64 // attempts recomputed or cut for night-owl contacts
	Guard                                                int64 // attempts cut by the skin-crossing guard or OmegaDt
	Located                                              int64 // attempts cut to end before a contact entry (OmegaDt)
	// Crossings counts pairs whose feature lists showed a crossing (each
	// cuts its attempt, counted in Guard).
	Crossings       int64
	ApproachLimited int64 // steps whose size the crossing guard's prediction set
	Energy          int64 // attempts cut for gaining energy (EnergyGain)
	Tangents        int64 // Newton matrices built (fewer than NewtonIters where ReuseBelow lets one serve again)
}

// Rejected returns the number of rejected attempts.
func (c NewmarkCounts) Rejected() int64 {
	return c.Stall + c.MaxIter + c.LineSearch + c.Predictor + c.NightOwl + c.Guard + c.Energy
}

// nmBody is the start-of-step state and the trial kinematics of one movable body.
type nmBody struct {
	i          int
	x0, v0, a0 geom.Vec3 // position, velocity, acceleration at step start
	q0         geom.Quat
	w0, wd0    geom.Vec3 // ω and ω̇ at step start (world frame)
	m, rho     float64   // mass and radius of gyration √(tr J/3m)
	acc, wdot  geom.Vec3 // trial ü^{i+1}, ω̇^{i+1}
	xi         geom.Mat3 // Ξ(α^Δ), S0 eq. (9)
	u, alpha   geom.Vec3 // trial increments (unscaled)
	up, ap     geom.Vec3 // predictor increments: the unknowns are the corrections to them
	radius     float64   // bounding radius
	j0         geom.Mat3 // inertia tensor at step start, world frame (S0 eq. 15), for rotJacobian
}

// failKind says why a Newton solve did not converge.
type failKind uint8

const (
	failNone failKind = iota
	failStall
	failMaxIter
	failLineSearch
	failLineSearchBad
	failPredictor
)

// NewNewmark returns the integrator with S0's β = 0.3, γ = 0.5 and default
// tolerances and step control.
func NewNewmark() *Newmark {
	return &Newmark{
		Beta: 0.3, Gamma: 0.5,
		Tol: 1e-8, MaxIter: 12,
		LinMaxIter: 120, Restart: 40,
		GrowIters: 5, ShrinkIters: 9,
		Grow: 1.5, GrowFast: 3, Shrink: 0.7, Cut: 0.5,
		EnergyGain: 0.002,
		FDProducts: false,
		ReuseBelow: 1e-5, ReuseRatio: 0.2,
	}
}

// Name returns "newmark".
func (*Newmark) Name() string { return "newmark" }

// validate checks the parameters, naming the offending field.
func (n *Newmark) validate() error {
	switch {
	case !(n.Beta > 0 && n.Beta <= 0.5):
		return fmt.Errorf("newmark.beta must be in (0, 0.5] (got %g)", n.Beta)
	case !(n.Gamma >= 0.5 && n.Gamma <= 1):
		return fmt.Errorf("newmark.gamma must be in [0.5, 1] (got %g)", n.Gamma)
	case !(n.Tol > 0 && n.Tol < 1):
		return fmt.Errorf("newmark.tol must be in (0, 1) (got %g)", n.Tol)
	case n.MaxIter < 1:
		return fmt.Errorf("newmark.max_iter must be ≥ 1 (got %d)", n.MaxIter)
	case n.LinMaxIter < 1 || n.Restart < 1:
		return fmt.Errorf("newmark.lin_max_iter and newmark.restart must be ≥ 1 (got %d, %d)", n.LinMaxIter, n.Restart)
	case !(n.ReuseBelow >= 0) || !(n.ReuseRatio >= 0) || math.IsInf(n.ReuseBelow, 0) || math.IsInf(n.ReuseRatio, 0):
		return fmt.Errorf("newmark.reuse_below and newmark.reuse_ratio must be finite and ≥ 0 (got %g, %g)", n.ReuseBelow, n.ReuseRatio)
	case !(n.EnergyGain >= 0) || math.IsInf(n.EnergyGain, 0):
		return fmt.Errorf("newmark.energy_gain must be finite and ≥ 0 (got %g)", n.EnergyGain)
	case !(n.Grow >= 1) || !(n.GrowFast >= 1) || !(n.Shrink > 0 && n.Shrink <= 1) || !(n.Cut > 0 && n.Cut < 1):
		return fmt.Errorf("newmark: need grow, grow_fast ≥ 1, shrink in (0, 1], cut in (0, 1) (got %g, %g, %g, %g)", n.Grow, n.GrowFast, n.Shrink, n.Cut)
	}
	return nil
}

// Step advances w by one accepted step of at most dtMax.
func (n *Newmark) Step(w *world.World, dtMax float64) (float64, error) {
	if err := n.validate(); err != nil {
		return 0, err
	}
	s := w.Settings
	// The lagged dashpot (World.SetDampLag) for this step's evaluations only.
	lag0, entry0 := w.DampLag()
	w.SetDampLag(s.DampLag, s.DampLagEntry)
	defer w.SetDampLag(lag0, entry0)
	// The lagged Coulomb test (World.SetStickLag): the stick→slip switch
	// against the start-of-step normal force.
	stick0 := w.StickLag()
	w.SetStickLag(true)
	defer w.SetStickLag(stick0)
	// The superquadric contacts' point to a residual the Newton tolerance
	// can see (smoothtol.go).
	defer tightSmooth(w)()
	// The superquadric contacts' point of application carried with the
	// bodies from the committed state (World.SetPointLag): a smooth
	// residual within the step where the midway point between near-parallel
	// faces jumps.
	lagPt0 := w.PointLag()
	w.SetPointLag(true)
	defer w.SetPointLag(lagPt0)
	// The accuracy guidelines when none are set (stepcontrol.go): on a
	// conservative scene Approach and OmegaDt (energy must be conserved,
	// S0 ex. 1); on a damped one the step stays convergence-driven.
	if n.Approach == 0 && n.OmegaDt == 0 {
		if Conservative(w) {
			n.Approach, n.OmegaDt = newmarkApproach, newmarkOmegaDt
			if hasSmooth(w) {
				n.OmegaDt = newmarkSmoothOmegaDt
			}
			defer func() { n.Approach, n.OmegaDt = 0, 0 }()
		}
	}
	n.prepare(w)
	if n.energyOn() {
		n.startBudget(w)
	}
	dt := w.Dt
	if !(dt > 0) {
		dt = s.Dt
	}
	dt = min(max(dt, s.DtMin), s.DtMax)
	// No body point may cross a neighbour's skin unseen (newmark_guard.go).
	if ad := n.approachDt(w, dt); ad < dt {
		if n.tracing() {
			fmt.Fprintf(n.Trace, "t=%.6g guard: the crossing guard's prediction sets dt %.3g (from %.3g)\n", w.Time, ad, dt)
		}
		n.Counts.ApproachLimited++
		dt = max(ad, s.DtMin)
	}
	dt = max(min(dt, n.accuracyDt(w)), s.DtMin)
	want := dt
	if dtMax < dt {
		dt = dtMax
	}
	n.cp.save(w)
	w.Stats.Integrator = n.Name()
	totalLin := 0
	owlRetry := false
	located := 0
	rt := newRetry(w, n.Name(), n.Cut, &n.cp)
	for {
		ok, err := n.solve(w, dt)
		totalLin += n.linIters
		n.Counts.Attempts++
		n.Counts.NewtonIters += int64(n.iters)
		n.Counts.LinearIters += int64(n.linIters)
		if err != nil {
			return 0, err
		}
		reason := ""
		switch {
		case !ok:
			reason = "Newton–Raphson did not converge"
		case n.owls > 0:
			reason = "night-owl contacts"
		default:
			f := n.guardFactor(w)
			if n.Approach > 0 {
				f = min(f, n.newDepthFactor(w))
			}
			if n.OmegaDt > 0 {
				if x := n.omegaDtEnd(w); x > 1.25*n.OmegaDt {
					f = min(f, n.OmegaDt/x)
				}
				if g := n.entryFactor(w); f == 1 && g < 1 && located < 2 && dt*g > s.DtMin {
					// End the step just before the contact entry instead.
					located++
					n.Counts.Located++
					if n.tracing() {
						n.traceAttempt(w, dt, fmt.Sprintf("entry ×%.3g", g))
					}
					dt, _ = rt.rejectBy(dt, world.RejectStepSize, g) // dt·g > dt_min: no failure
					continue
				}
			}
			if n.energyOn() && f == 1 && dt > s.DtMin {
				if g := n.energyFactor(w, dt); g < 1 {
					n.Counts.Energy++
					if n.tracing() {
						n.traceAttempt(w, dt, fmt.Sprintf("energy ×%.3g", g))
					}
					dt, _ = rt.rejectBy(dt, world.RejectStepSize, g) // dt > dt_min: no failure
					continue
				}
			}
			if f == 1 && dt > s.DtMin {
				// A body that passed wholly through a wall or a neighbour
				// in the step (stepcontrol.go).
				f = tunnelFactor(w, n.cp.states, &n.tun)
			}
			if f < 1 && dt > s.DtMin {
				n.Counts.Guard++
				if n.tracing() {
					n.traceAttempt(w, dt, fmt.Sprintf("guard ×%.3g", max(f, n.Cut)))
				}
				dt, _ = rt.rejectBy(dt, world.RejectStepSize, max(f, n.Cut)) // dt > dt_min: no failure
				continue
			}
		}
		if n.tracing() {
			switch {
			case reason == "":
				n.traceAttempt(w, dt, "accepted")
			case ok:
				n.traceAttempt(w, dt, "night owls")
			default:
				n.traceAttempt(w, dt, n.failText())
			}
		}
		if reason == "" {
			break
		}
		n.countFailure(ok, dt <= s.DtMin)
		w.Stats.NightOwls += int64(n.owls)
		if n.owls > 0 && ok && !owlRetry {
			// S0 §2.6: recompute the step with the night owls as candidates.
			owlRetry = true
			rt.again(world.RejectNightOwl)
			continue
		}
		if dt <= s.DtMin {
			if ok { // night owls again at the smallest step: accept them
				break
			}
			rt.detail = fmt.Sprintf("%s, residual %.3g", reason, n.lastRes)
		}
		why := world.RejectSolve
		switch {
		case ok:
			why = world.RejectNightOwl
		case n.fail == failLineSearchBad || n.fail == failPredictor:
			why = world.RejectPenetration
		}
		if dt, err = rt.reject(dt, why); err != nil {
			return 0, err
		}
		owlRetry = false
	}
	omEnd := 0.0
	if n.OmegaDt > 0 {
		omEnd = n.omegaDtEnd(w) / dt
	}
	w.Commit(world.Commit{})
	w.Time += dt
	w.Steps++
	n.Counts.Steps++
	w.UpdateStats()
	n.History = append(n.History[:0], n.hist...)
	w.Stats.Dt = dt
	w.Stats.NewtonIters = n.iters
	w.Stats.LinearIters = totalLin
	w.Stats.Residual = n.lastRes

	// Next step (S0 §3.5): driven by the Newton iteration count. A step cut
	// short by dtMax (an event or the end time) does not shrink the next one.
	next := dt
	if dt < want && dt == dtMax {
		next = want
	}
	switch {
	case n.iters == 0:
		next = s.DtMax // the predictor was exact (free flight): only the guards bound the next step
	case n.iters <= 1:
		next *= n.GrowFast
	case n.iters <= n.GrowIters:
		next *= n.Grow
	case n.iters >= n.ShrinkIters:
		next *= n.Shrink
	}
	if omEnd > 0 {
		next = min(next, n.OmegaDt/omEnd)
	}
	w.Dt = min(max(next, s.DtMin), s.DtMax)
	return dt, nil
}

// countFailure records why an attempt was not accepted (final: at dt_min,
// where night owls are accepted and a failed solve is an error).
func (n *Newmark) countFailure(ok, final bool) {
	if ok {
		if !final {
			n.Counts.NightOwl++
		}
		return
	}
	switch n.fail {
	case failStall:
		n.Counts.Stall++
	case failMaxIter:
		n.Counts.MaxIter++
	case failLineSearch:
		n.Counts.LineSearch++
	case failLineSearchBad:
		n.Counts.LineSearch++
		n.Counts.LineSearchBad++
	case failPredictor:
		n.Counts.Predictor++
	}
}

// prepare records the start-of-step state of every movable body: position,
// orientation, velocities, and the accelerations of the last evaluation
// (a = F/m, Jω̇ = T − ω×Jω by Euler's equation), and the guard pairs.
func (n *Newmark) prepare(w *world.World) {
	nb := len(w.Bodies())
	if cap(n.kOf) < nb {
		n.kOf = make([]int, nb)
	}
	n.kOf = n.kOf[:nb]
	n.nb = n.nb[:0]
	n.pw = w
	gmag := w.Gravity.Norm()
	n.aref = gmag
	lsum := 0.0
	for i, b := range w.Bodies() {
		n.kOf[i] = -1
		if b.Fixed {
			continue
		}
		n.kOf[i] = len(n.nb)
		jw := b.MulInertia(b.W)
		wd := b.MulInvInertia(b.T.Sub(b.W.Cross(jw))) // Euler: J ω̇ + ω × Jω = T
		ib := b.IBody()
		rho := math.Sqrt((ib[0][0] + ib[1][1] + ib[2][2]) / (3 * b.Mass())) // radius of gyration
		if !(rho > 0) {
			rho = max(b.Radius(), 1e-3)
		}
		nbd := nmBody{i: i, x0: b.X, v0: b.V, a0: b.F.Scale(b.InvMass()), q0: b.Q, w0: b.W, wd0: wd,
			m: b.Mass(), rho: rho, radius: b.Radius(), j0: b.InertiaWorld()}
		n.nb = append(n.nb, nbd)
		n.aref = max(n.aref, b.F.Norm()/b.Mass())
		n.aref = max(n.aref, b.T.Norm()/(b.Mass()*rho))
		lsum += rho
	}
	if !(n.aref > 0) || math.IsInf(n.aref, 0) {
		n.aref = 1
	}
	if len(n.nb) > 0 {
		n.lfd = 1e-8 * lsum / float64(len(n.nb)) // finite-difference displacement
	}
	m := 6 * len(n.nb)
	n.y, n.r, n.dy = resize(n.y, m), resize(n.r, m), resize(n.dy, m)
	n.yt, n.rt = resize(n.yt, m), resize(n.rt, m)
	if cap(n.prec) < len(n.nb) {
		n.prec = make([]mat6, len(n.nb))
	}
	n.prec = n.prec[:len(n.nb)]
	if cap(n.piv) < len(n.nb) {
		n.piv = make([][6]uint8, len(n.nb))
	}
	n.piv = n.piv[:len(n.nb)]

	n.prepareGuard(w)
}

func resize(s []float64, m int) []float64 {
	if cap(s) < m {
		return make([]float64, m)
	}
	return s[:m]
}

// accuracyDt applies the optional Approach and OmegaDt bounds to the
// contacts of the last accepted step.
func (n *Newmark) accuracyDt(w *world.World) float64 {
	dt := math.Inf(1)
	if n.Approach <= 0 && n.OmegaDt <= 0 {
		return dt
	}
	w.EachContact(func(a, b int, c *contactT) {
		if !c.Active() {
			return
		}
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		if n.Approach > 0 {
			vrel := ba.VelocityAt(c.PA).Sub(bb.VelocityAt(c.PB))
			if ap := math.Abs(vrel.Dot(c.N)); ap > 0 && c.Gn > 0 {
				dt = min(dt, n.Approach*c.Gn/ap) // |Δg_n| ≤ Approach·g_n
			}
		}
		if n.OmegaDt > 0 {
			if om := contactOmega(w, a, b, c); om > 0 {
				dt = min(dt, n.OmegaDt/om) // Δt ω_c ≤ OmegaDt
			}
		}
	})
	if n.OmegaDt > 0 {
		dt = min(dt, n.exitDt(w))
	}
	return dt
}

// exitDt, with OmegaDt, ends the step where the first active contact is
// predicted to leave the skin (at its start-of-step separation speed), so
// that the force does not switch off within a step: Newmark averages the
// end-point forces over the step (S0 eq. 20), and a contact that ends early
// in the step would leave the impulse of its start force to the whole step.
// Contacts that leave within a small part of the OmegaDt step carry little
// force and are not waited for.
func (n *Newmark) exitDt(w *world.World) float64 {
	dt := math.Inf(1)
	w.EachContact(func(a, b int, c *contactT) {
		if !c.Active() {
			return
		}
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		gd := ba.VelocityAt(c.PA).Sub(bb.VelocityAt(c.PB)).Dot(c.N)
		gbar := contactSkin(w, a, b)
		if gd <= 0 || c.Gn >= gbar {
			return
		}
		tau := (gbar - c.Gn) / gd
		if om := contactOmega(w, a, b, c); om > 0 && tau > 0.02*n.OmegaDt/om {
			dt = min(dt, 1.02*tau)
		}
	})
	return dt
}

// entryFactor, with OmegaDt, checks the contacts that entered the skin
// during the trial step: when one entered well inside the step (estimated
// from its depth and closing speed at the end), it returns the factor that
// ends the step just before the entry, so that the next step starts at the
// skin's edge; else 1.
func (n *Newmark) entryFactor(w *world.World) float64 {
	f := 1.0
	w.EachTrialContact(func(a, b int, c *contactT) {
		if !c.Active() || !c.New {
			return
		}
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		gbar := contactSkin(w, a, b)
		gd := ba.VelocityAt(c.PA).Sub(bb.VelocityAt(c.PB)).Dot(c.N)
		depth := gbar - c.Gn
		if gd >= 0 || depth <= 0.02*gbar {
			return
		}
		in := depth / -gd / n.dt // fraction of the step spent in the skin
		if in < 0.98 {
			f = min(f, 0.98*(1-in))
		}
	})
	return f
}

// newDepthFactor, with Approach, checks the contacts that entered the skin
// during the trial step: none may be deeper than 1.5·Approach of the skin
// (the start-of-step bound of Approach covers the contacts that were active).
// It returns 1, or the factor by which to cut the step.
func (n *Newmark) newDepthFactor(w *world.World) float64 {
	f := 1.0
	w.EachTrialContact(func(a, b int, c *contactT) {
		if !c.Active() || !c.New {
			return
		}
		gbar := contactSkin(w, a, b)
		lim := 1.5 * n.Approach * gbar
		if d := gbar - c.Gn; gbar > 0 && d > lim {
			f = min(f, lim/d)
		}
	})
	return f
}

// contactSkin is the gap at which a contact's force switches on: ḡ of the
// normal law for polyhedra, 0 (the overlap starts) for smooth bodies, whose
// gap g_n is minus the overlap.
func contactSkin(w *world.World, a, b int) float64 {
	ba, bb := w.Bodies()[a], w.Bodies()[b]
	if ba.Kind != body.Polyhedral || bb.Kind != body.Polyhedral {
		return 0
	}
	return w.Params(ba.Material, bb.Material).Normal.GBar
}

// omegaDtEnd returns the largest Δt·ω_c over the contacts of the last
// evaluation (the end of the trial step).
func (n *Newmark) omegaDtEnd(w *world.World) float64 {
	x := 0.0
	w.EachTrialContact(func(a, b int, c *contactT) {
		if c.Active() {
			x = max(x, n.dt*contactOmega(w, a, b, c))
		}
	})
	return x
}

// contactOmega returns ω_c = √(k_c/m_c) of an active contact: k_c =
// −df_n/dg (S0 §2.4.7) and 1/m_c the inverse mass of both bodies along n.
func contactOmega(w *world.World, a, b int, c *contactT) float64 {
	ba, bb := w.Bodies()[a], w.Bodies()[b]
	p := w.Params(ba.Material, bb.Material)
	var k float64
	if ba.Kind != body.Polyhedral || bb.Kind != body.Polyhedral {
		// A smooth contact: the spring–dashpot's tangent dF/dδ at the overlap
		// δ = −g_n, with the bodies' radii for R_eff.
		reff := law.Reduced(ba.R, bb.R)
		if ba.Wall >= 0 {
			reff = bb.R
		} else if bb.Wall >= 0 {
			reff = ba.R
		}
		k = p.Smooth.Normal(-c.Gn, 0, 1, reff).K
	} else {
		k = p.Normal.Stiffness(c.Gn) // S0 §2.4.7: k_c = −df_n/dg
	}
	im := invMassAlong(ba, c.PA, c.N) + invMassAlong(bb, c.PB, c.N)
	if !(k > 0 && im > 0) {
		return 0
	}
	return math.Sqrt(k * im)
}

// invMassAlong returns 1/m + (r×n)·J⁻¹(r×n) for a unit force along n at p.
func invMassAlong(b *body.Body, p, n geom.Vec3) float64 {
	if b.Fixed {
		return 0
	}
	rn := p.Sub(b.X).Cross(n)
	return b.InvMass() + rn.Dot(b.MulInvInertia(rn))
}

// constants sets the Newmark constants α1–α6 for step dt. // S0 eq. (21)
func (n *Newmark) constants(dt float64) {
	b, g := n.Beta, n.Gamma
	n.dt = dt
	n.a1 = 1 / (b * dt * dt)   // α1, S0 eq. (21)
	n.a2 = 1 / (b * dt)        // α2, S0 eq. (21)
	n.a3 = (1 - 2*b) / (2 * b) // α3, S0 eq. (21)
	n.a4 = g / (b * dt)        // α4, S0 eq. (21)
	n.a5 = 1 - g/b             // α5, S0 eq. (21)
	n.a6 = (1 - g/(2*b)) * dt  // α6, S0 eq. (21)
}

// setTrial places every movable body at the trial increments and sets its
// end-of-step velocities and accelerations. The unknowns y are the
// corrections to the predictor increments (δu, then ρ·δα per body): with
// u^Δ = u_p + δu and u_p = Δt u̇^i + ½Δt² ü^i, S0 eq. (21) reads
// ü^{i+1} = ü^i + α1 δu and u̇^{i+1} = u̇^i + Δt ü^i + α4 δu (the same for α^Δ
// in eq. 22 with α_p = Δt ω^i + ½Δt² ω̇^i). Written so, the accelerations
// carry no cancellation of the O(u̇/Δt) terms α1 u^Δ and α2 u̇^i, whose
// round-off would exceed the tolerance at small steps.
func (n *Newmark) setTrial(w *world.World, y []float64) {
	n.each(len(n.nb), func(lo, hi int) { n.setTrialRange(w, y, lo, hi) })
}

// setTrialRange is setTrial for the movable bodies lo..hi−1.
func (n *Newmark) setTrialRange(w *world.World, y []float64, lo, hi int) {
	dt := n.dt
	for k := lo; k < hi; k++ {
		bd := &n.nb[k]
		b := w.Bodies()[bd.i]
		o := 6 * k
		du := geom.V(y[o], y[o+1], y[o+2])
		da := geom.V(y[o+3], y[o+4], y[o+5]).Scale(1 / bd.rho)
		u, al := bd.up.Add(du), bd.ap.Add(da)
		bd.u, bd.alpha = u, al
		b.X = bd.x0.Add(u)
		b.V = bd.v0.AddScaled(dt, bd.a0).AddScaled(n.a4, du) // α4 u^Δ + α5 u̇^i + α6 ü^i, S0 eq. (21)
		bd.acc = bd.a0.AddScaled(n.a1, du)                   // α1 u^Δ − α2 u̇^i − α3 ü^i, S0 eq. (21)
		qd := geom.QFromRodrigues(al)
		b.Q = qd.Mul(bd.q0).Normalize()                                // Q^{i+1} = Q^Δ Q^i, S0 eq. (5)
		Qd := geom.RodriguesMat(al)                                    // S0 eq. (6)
		b.W = Qd.MulV(bd.w0.AddScaled(dt, bd.wd0).AddScaled(n.a4, da)) // S0 eq. (22)
		bd.wdot = Qd.MulV(bd.wd0.AddScaled(n.a1, da))                  // S0 eq. (22)
		bd.xi = geom.RodriguesXi(al)                                   // S0 eq. (9)
	}
}

// residual evaluates the scaled residual r(y) of S0 eq. (62) into r:
// r_f = m ü − f, r_μ = Ξᵀ(ω×Jω + Jω̇ − m_e), divided by m and m·ρ. It reports
// a penetration or a non-finite force.
func (n *Newmark) residual(w *world.World, y, r []float64) bool {
	n.setTrial(w, y)
	ev := w.Evaluate(n.t+n.dt, n.dt, world.Eval{})
	n.owls += ev.NightOwls
	if ev.Bad {
		return true
	}
	return n.residualForces(w, r)
}

// residualFixed is residual with the contact set of the last evaluation
// (World.Evaluate with world.Eval{Fixed: true}), for the finite-difference products.
func (n *Newmark) residualFixed(w *world.World, y, r []float64) bool {
	n.setTrial(w, y)
	if w.Evaluate(n.t+n.dt, n.dt, world.Eval{Fixed: true}).Bad {
		return true
	}
	return n.residualForces(w, r)
}

// residualForces fills r from the evaluated forces and the trial kinematics.
func (n *Newmark) residualForces(w *world.World, r []float64) bool {
	n.each(len(n.nb), func(lo, hi int) { n.residualRange(w, r, lo, hi) })
	return !finite(r)
}

// residualRange fills r for the movable bodies lo..hi−1 (residualForces).
func (n *Newmark) residualRange(w *world.World, r []float64, lo, hi int) {
	for k := lo; k < hi; k++ {
		bd := &n.nb[k]
		b := w.Bodies()[bd.i]
		o := 6 * k
		rf := bd.acc.Scale(bd.m).Sub(b.F) // f_t − f_e − f_c, S0 eq. (19), (62)
		jw := b.MulInertia(b.W)
		mt := b.W.Cross(jw).Add(b.MulInertia(bd.wdot))            // S0 eq. (19)
		rm := bd.xi.TMulV(mt.Sub(b.T)).Scale(1 / (bd.m * bd.rho)) // μ = Ξᵀ m, S0 eq. (17), (24), (62)
		rf = rf.Scale(1 / bd.m)
		r[o], r[o+1], r[o+2] = rf.X, rf.Y, rf.Z
		r[o+3], r[o+4], r[o+5] = rm.X, rm.Y, rm.Z
	}
}

// finite reports whether every entry of r is finite.
func finite(r []float64) bool {
	for _, v := range r {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// each runs f(lo, hi) over batches covering [0, m) on the workers of the
// world being stepped (World.ParallelRange), or in one call without one.
// f must write only the data of its items, so the results are the same
// for any worker count.
func (n *Newmark) each(m int, f func(lo, hi int)) {
	if n.pw == nil || n.pw.Settings.Workers <= 1 {
		f(0, m)
		return
	}
	n.pw.ParallelRange(m, f)
}

// rnorm is the RMS over bodies of the scaled residual, relative to a_ref.
func (n *Newmark) rnorm(r []float64) float64 {
	if len(n.nb) == 0 {
		return 0
	}
	return krylov.Norm(r) / math.Sqrt(float64(len(n.nb))) / n.aref
}

// solve runs Newton–Raphson for step dt from the saved start state. It
// returns whether it converged; on success the bodies hold the end state
// and the world's last evaluation is at that state.
func (n *Newmark) solve(w *world.World, dt float64) (bool, error) {
	n.t = w.Time
	n.constants(dt)
	n.owls, n.linIters, n.iters = 0, 0, 0
	n.fail = failNone
	n.hist = n.hist[:0]
	if len(n.nb) == 0 {
		return !w.Evaluate(n.t+dt, dt, world.Eval{}).Bad, nil
	}
	// Predictor (y = 0): the end-of-step acceleration equals the start one
	// (S0 eq. 20 with ü^{i+1} = ü^i); while it penetrates, the increments are
	// halved towards no motion.
	for k := range n.nb {
		bd := &n.nb[k]
		bd.up = bd.v0.Scale(dt).AddScaled(0.5*dt*dt, bd.a0)
		bd.ap = bd.w0.Scale(dt).AddScaled(0.5*dt*dt, bd.wd0)
	}
	clear(n.y)
	bad := n.residual(w, n.y, n.r)
	for tries, f := 0, 1.0; bad; tries++ {
		if tries > 8 {
			n.fail = failPredictor
			return false, nil
		}
		f *= 0.5
		if tries == 8 {
			f = 0
		}
		for k := range n.nb { // increments f·(u_p, α_p)
			bd := &n.nb[k]
			du, da := bd.up.Scale(f-1), bd.ap.Scale((f-1)*bd.rho)
			o := 6 * k
			n.y[o], n.y[o+1], n.y[o+2] = du.X, du.Y, du.Z
			n.y[o+3], n.y[o+4], n.y[o+5] = da.X, da.Y, da.Z
		}
		bad = n.residual(w, n.y, n.r)
	}
	rn := n.rnorm(n.r)
	n.hist = append(n.hist, rn)
	haveTan := false // a Newton matrix was built in this attempt
	if n.tracing() {
		n.tr.line.Reset()
		n.traceSnap(w, true)
		fmt.Fprintf(&n.tr.line, " %.2g", rn)
	}
	for {
		n.lastRes = rn
		if rn <= n.Tol {
			return true, nil
		}
		if n.iters >= n.MaxIter {
			n.fail = failMaxIter
			return false, nil
		}
		// Stagnation (a non-smooth residual: contact sets or friction states
		// switching within the step): less than a halving over two
		// iterations. A smaller step is the remedy (S0 §3.5), so stop early.
		if k := len(n.hist); k >= 4 && rn > 0.5*n.hist[k-3] {
			n.fail = failStall
			return false, nil
		}
		n.iters++
		// In the tail (ReuseBelow, ReuseRatio) the tangent of the previous
		// iterate serves again.
		if !(haveTan && n.useTan && rn < n.ReuseBelow && rn < n.ReuseRatio*n.hist[len(n.hist)-2]) {
			n.newtonMatrix(w)
			haveTan = true
			n.Counts.Tangents++
		}
		// Inexact Newton: J δ = −r to a relative accuracy that shrinks with
		// the residual, which keeps the convergence quadratic.
		eta := max(min(0.1, rn), 0.1*n.Tol/rn)
		for i := range n.rt {
			n.rt[i] = -n.r[i]
		}
		clear(n.dy)
		li := n.gmresSolve(w, eta)
		n.linIters += li
		lam := n.fractionToBoundary(w)
		accepted, sawBad := false, false
		for ls := 0; ls < 12; ls++ {
			for i := range n.yt {
				n.yt[i] = n.y[i] + lam*n.dy[i]
			}
			if n.residual(w, n.yt, n.rt) {
				sawBad = true
			} else {
				if ls == 0 && n.tracing() {
					if rt := n.rnorm(n.rt); !(rt <= (1-1e-4*lam)*rn || rt <= n.Tol) {
						n.traceTrial(w, rt)
					}
				}
				if rt := n.rnorm(n.rt); rt <= (1-1e-4*lam)*rn || rt <= n.Tol {
					accepted = true
					rn = rt
					break
				}
			}
			lam *= 0.5
		}
		if !accepted {
			// Leave the world evaluated at the last good iterate.
			n.residual(w, n.y, n.r)
			n.fail = failLineSearch
			if sawBad {
				n.fail = failLineSearchBad
			}
			return false, nil
		}
		n.y, n.yt = n.yt, n.y
		n.r, n.rt = n.rt, n.r
		n.hist = append(n.hist, rn)
		if n.tracing() {
			n.traceSnap(w, false)
			fmt.Fprintf(&n.tr.line, " %.2g (λ%.2g l%d)", rn, lam, li)
		}
	}
}

// jv returns the matrix-free product v ↦ J v ≈ (r(y + h v) − r(y))/h, with h
// such that no body point moves by more than lfd. r(y + h v) keeps the
// contact set of r(y) (residualFixed): the same contacts, their geometry
// recomputed, without the detection stage.
func (n *Newmark) jv(w *world.World) func(v, out []float64) {
	return func(v, out []float64) {
		vmax := 0.0
		for k := range n.nb {
			o := 6 * k
			vmax = max(vmax, math.Sqrt(v[o]*v[o]+v[o+1]*v[o+1]+v[o+2]*v[o+2])+
				math.Sqrt(v[o+3]*v[o+3]+v[o+4]*v[o+4]+v[o+5]*v[o+5]))
		}
		if vmax == 0 {
			clear(out)
			return
		}
		h := n.lfd / vmax
		for _, sgn := range [2]float64{1, -1} {
			for i := range n.yt {
				n.yt[i] = n.y[i] + sgn*h*v[i]
			}
			if !n.residualFixed(w, n.yt, out) {
				for i := range out {
					out[i] = sgn * (out[i] - n.r[i]) / h
				}
				return
			}
		}
		clear(out)
	}
}

// fractionToBoundary returns the largest λ ≤ 1 for which the linearised gap
// of every active barrier contact of the current iterate keeps at least a
// tenth of its value (an interior-point safeguard: the barrier law admits no
// closed gap).
func (n *Newmark) fractionToBoundary(w *world.World) float64 {
	// Pair by pair on the workers; λ is a minimum over contacts, so it does
	// not depend on the order.
	np := w.TrialPairs()
	nw := max(w.Settings.Workers, 1)
	if len(n.lamW) < nw {
		n.lamW = make([]paddedMin, nw)
	}
	for k := range n.lamW {
		n.lamW[k].v = 1
	}
	w.ParallelRangeWorker(np, func(k, lo, hi int) {
		lam := n.lamW[k].v
		for i := lo; i < hi; i++ {
			a, b, cs := w.TrialPair(i)
			for j := range cs {
				if c := &cs[j]; c.Active() && !(c.Gn <= 0) {
					lam = n.boundaryFraction(w, a, b, c, lam)
				}
			}
		}
		n.lamW[k].v = lam
	})
	lam := 1.0
	for k := range n.lamW {
		lam = min(lam, n.lamW[k].v)
	}
	return lam
}

// boundaryFraction lowers lam to the step fraction at which the linearised
// gap of active contact c of bodies a, b falls to a tenth of its value
// (fractionToBoundary).
func (n *Newmark) boundaryFraction(w *world.World, a, b int, c *contactT, lam float64) float64 {
	const keep = 0.1
	dg := n.pointMotion(w, a, c.PA).Sub(n.pointMotion(w, b, c.PB)).Dot(c.N)
	if dg < 0 {
		lam = min(lam, (1-keep)*c.Gn/-dg)
	}
	return lam
}

// paddedMin is one worker's running minimum, on its own cache line.
type paddedMin struct {
	v float64
	_ [56]byte
}

// pointMotion is the linearised motion of point p of body i along n.dy.
func (n *Newmark) pointMotion(w *world.World, i int, p geom.Vec3) geom.Vec3 {
	k := n.kOf[i]
	if k < 0 {
		return geom.Vec3{}
	}
	o := 6 * k
	bd := &n.nb[k]
	du := geom.V(n.dy[o], n.dy[o+1], n.dy[o+2])
	dth := geom.V(n.dy[o+3], n.dy[o+4], n.dy[o+5]).Scale(1 / bd.rho)
	return du.Add(dth.Cross(p.Sub(w.Bodies()[i].X)))
}
