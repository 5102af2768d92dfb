package integrate

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/krylov"
	"grainlab/sim/world"
)

// Variational is the implicit variational integrator of de Klerk et al. (S2):
// a discrete Lagrange–d'Alembert principle (S2 eq. 4) with the discrete
// Lagrangian L_d^α (S2 eq. 2, 28), α = 0 (first order) or α = ½ (second
// order), solved each step by Newton's method with a matrix-free Krylov
// solver (S2 Algorithm 1), at a fixed step h.
//
// Translation (S2 §2.1–2.2). The unknown of body i is its displacement Δx
// over the step; the trial state is x_{k+α} = x_k + αΔx with velocity Δx/h.
// Every force the world computes — contact springs, dashpots and friction,
// gravity, loads, bonds — is evaluated there by w.Evaluate at time t_k + αh
// (the friction history advanced by αh) as one generalised force f, and
// enters as the discrete forces F_d⁻ = (1−α)h·f, F_d⁺ = αh·f. For the
// conservative part this is exactly S2's −D_{1,2} of hV(q_{k+α}) (eq. 28);
// for the dissipative part it equals S2's Q_d^± (eq. 5–6) at α = ½ (both at
// the midpoint) and at α = 0 puts the whole dashpot/friction impulse at the
// start of the step (S2 splits it half–half there; both are first order).
// The step solves the residual of S2 eq. (15)/(29),
//
//	R_x = m·Δx/h − p_k − (1−α)h·f(q_{k+α}, Δx/h) = 0,
//
// and the momentum follows from S2 eq. (16)/(31) plus F_d⁺:
// p_{k+1} = m·Δx/h + αh·f.
//
// Rotation: a Lie-group variational update on SO(3) (Lee–Leok–McClamroch,
// Moser–Veselov). The unknown is the body-frame rotation vector θ of the
// step, R_{k+1} = R_k·exp(θ^), trial orientation R_k·exp(αθ^), angular
// velocity R_k·θ/h. With the world-frame moment τ of the same evaluation,
//
//	R_θ = (F J_d − J_d Fᵀ)^∨/h − R_kᵀ·(L_k + (1−α)h·τ) = 0,   F = exp(θ^),
//
// and L_{k+1} = R_k·(F J_d − J_d Fᵀ)^∨/h + αh·τ, so that without moments the
// spatial angular momentum is conserved exactly and energy stays bounded
// (variational_rot.go has the closed form; for a sphere the kinetic map is
// I·sin|θ|·θ/|θ| and, torque-free, the update is explicit).
//
// Switching: the state is (q, p) with p = m·v, L = J·ω (the continuous
// Legendre transform), so a step starts from whatever x, q, v, ω and contact
// history another integrator left, and leaves v = p_{k+1}/m, ω = J⁻¹L_{k+1}.
//
// Solver: Newton on (Δx, θ) of all movable bodies, predictor from the forces
// of the current state (S2 Algorithm 1 uses q + h·M⁻¹p). Each Newton
// iteration solves K·δ = −R with the Jacobian-vector product
// K·v ≈ (R(u + εv) − R(u))/ε (one w.Evaluate each: forces are a pure
// function of the trial state and the committed history), preconditioned by
// the block diagonal of the inertia M/h. K = M/h + (1−α)[αh·H + C] + N:
// symmetric for central springs and dashpots between spheres (S2's
// frictionless tests), but friction in sliding, moment arms of non-spherical
// contacts and the gyroscopic part of the SO(3) map add a nonsymmetric N.
// CG (S2 Algorithm 1) is tried first; its residual is the true residual of
// its iterate, so a converged CG solve is valid whatever the symmetry, and
// for h below the contact time M/h dominates, so CG almost always converges
// (no fallback in any test scene). When CG meets non-positive curvature or
// misses the tolerance in MaxLinear iterations, BiCGStab continues from the
// CG iterate (it needs no symmetry, only a spectrum away from the imaginary
// axis, which M/h guarantees). An unconverged linear solve is still used as
// an inexact Newton direction; a damped update (step halved while the
// residual grows or the trial state is bad) guards the iteration. Newton
// stops when every body's residual, as a velocity error
// max(|R_x|/m, R_b·|J⁻¹R_θ|), is below Tol times the velocity scale of the
// step (largest |v| + |ω|R_b + h|F|/m, h|g|).
//
// Step size: fixed, h = min(w.Dt, dtMax, Settings.DtMax), with w.Dt set back
// to Settings.Dt after each step (S2 uses fixed steps). A step whose Newton
// solve fails, or whose endpoint has a penetrating (flipped) or non-finite
// contact, is rejected and retried with h/4 (Stats.Rejected); the reduced
// step is kept for 8 accepted steps, then doubles back. Night owls are
// counted but need no retry: the implicit solve already includes their
// forces. The accepted endpoint is evaluated once more (with the step's
// mean velocities and the full friction increment) and committed, so b.F,
// b.T, the contact list and the energies refer to the new state. Stats get
// Integrator, NewtonIters, LinearIters (CG + BiCGStab, each one
// w.Evaluate), Residual (final velocity error / velocity scale) and Dt.
type Variational struct {
	Alpha     float64 // 0: first order (S2 α = 0); 0.5: second order (midpoint)
	Tol       float64 // Newton tolerance, relative velocity error (default 1e-10)
	MaxNewton int     // Newton iterations per attempt (default 25)
	MaxLinear int     // CG (then BiCGStab) iterations per Newton iteration (default 60)
	LinearTol float64 // relative tolerance of each linear solve (default 1e-4)
	// Safety bounds every step to Safety·2√(m_c/k_c) over the active and
	// approaching contacts (World.StableDt's bounds, stepcontrol.go); 0: the
	// default (on conservative scenes 0.07 for α = ½ and 0.002 for α = 0; on
	// damped ones 0.5).
	Safety float64
	// FixedStep turns that bound off: S2's fixed step h, which only the
	// rejection of a failed step shortens.
	FixedStep bool

	// Fallbacks counts the linear solves that CG could not finish and
	// BiCGStab completed (cumulative, for diagnostics).
	Fallbacks int64

	mov          []int       // indices of the movable bodies
	cp           checkpoint  // the start of the step, for rejections
	x0, v0, l0   []geom.Vec3 // state at t_k: position, velocity, world angular momentum
	q0           []geom.Quat
	fs, ts       []geom.Vec3 // force and moment of the last residual evaluation
	u, res, du   []float64
	ut, rt, tmpr []float64
	kr           krylov.Work
	scaleU       float64 // FD scale: typical coordinate size
	vscale       float64
	calm         int // accepted steps since the step was last reduced
}

// regrowAfter is how many accepted steps a reduced step is kept before it doubles.
const regrowAfter = 8

// NewVariational returns the variational integrator of order 1 (alpha = 0)
// or 2 (alpha = 0.5) with default tolerances.
func NewVariational(alpha float64) *Variational {
	return &Variational{Alpha: alpha, Tol: 1e-10, MaxNewton: 25, MaxLinear: 60, LinearTol: 1e-4}
}

// Name returns "variational".
func (v *Variational) Name() string {
	if v.Alpha == 0 {
		return "variational1" // first order (S2 α = 0)
	}
	return "variational"
}

func (v *Variational) validate() error {
	if math.IsNaN(v.Alpha) || v.Alpha < 0 || v.Alpha > 1 {
		return fmt.Errorf("variational.alpha must be in [0, 1] (0 first order, 0.5 second order; got %g)", v.Alpha)
	}
	if v.Tol == 0 {
		v.Tol = 1e-10
	}
	if v.MaxNewton == 0 {
		v.MaxNewton = 25
	}
	if v.MaxLinear == 0 {
		v.MaxLinear = 60
	}
	if v.LinearTol == 0 {
		v.LinearTol = 1e-4
	}
	if !(v.Tol > 0 && v.Tol < 1) {
		return fmt.Errorf("variational.tol must be in (0, 1) (got %g)", v.Tol)
	}
	if !(v.LinearTol > 0 && v.LinearTol < 1) {
		return fmt.Errorf("variational.linear_tol must be in (0, 1) (got %g)", v.LinearTol)
	}
	if v.MaxNewton < 1 || v.MaxLinear < 1 {
		return fmt.Errorf("variational.max_newton and variational.max_linear must be ≥ 1 (got %d, %d)", v.MaxNewton, v.MaxLinear)
	}
	return nil
}

// Step advances w by one accepted step h = min(w.Dt, dtMax, Settings.DtMax).
func (v *Variational) Step(w *world.World, dtMax float64) (float64, error) {
	if err := v.validate(); err != nil {
		return 0, err
	}
	if err := v.setup(w); err != nil {
		return 0, err
	}
	// The superquadric contacts' point to a residual the Newton tolerance
	// can see (smoothtol.go).
	defer tightSmooth(w)()
	// The superquadric contacts' point of application carried with the
	// bodies from the committed state (World.SetPointLag), as newmark: a
	// smooth residual within the step where the midway point between
	// near-parallel faces jumps.
	lagPt0 := w.PointLag()
	w.SetPointLag(true)
	defer w.SetPointLag(lagPt0)
	s := w.Settings
	target := s.Dt
	if !(target > 0) {
		target = s.DtMax
	}
	target = max(min(target, s.DtMax), s.DtMin)
	h := w.Dt
	if !(h > 0) {
		h = target
	}
	h = min(min(h, dtMax), s.DtMax)
	// The contact laws' bound (stepcontrol.go): a fraction of the contact
	// period of the stiffest active or approaching contact, no tunnelling.
	if !v.FixedStep {
		sf := v.safety(w)
		// Only a bound below h changes h, and min(StableDt, h) in place of
		// StableDt gives the same h: where the two differ both are ≥ h, and
		// so is every min/max below that starts from them.
		lim := max(min(lawDt(w, sf, h), travelDt(w, 0.5)), s.DtMin)
		if v.Alpha == 0 {
			// Explicit in the tangential springs too (stepcontrol.go).
			lim = max(min(lim, tangentDt(w, sf)), s.DtMin)
		}
		if v.Alpha == 0 && Conservative(w) {
			// First order: the energy error of a step itself (stepcontrol.go).
			lim = max(min(lim, firstOrderDt(w, variational1Energy, variational1Rate)), s.DtMin)
		}
		if lim < h {
			h = min(lim, dtMax)
		}
	}
	if !(h > 0) {
		return 0, fmt.Errorf("variational: step must be > 0 (dt %g, dt_max %g)", w.Dt, dtMax)
	}
	newton, linear := 0, 0
	var resid float64
	avail := v.energyAvailable(w)
	rt := newRetry(w, v.Name(), 0.25, &v.cp)
	for {
		ok, owls, ni, li, r := v.attempt(w, h)
		newton, linear, resid = newton+ni, linear+li, r
		if ok && v.kinetic(w) > 10*(avail+h*v.power(w)) {
			ok = false // a spurious root of the step's equations (see energyAvailable)
		}
		w.Stats.NightOwls += int64(owls)
		if ok {
			break
		}
		// Newton did not converge, a trial state penetrated, or a spurious
		// root: attempt does not tell them apart.
		rt.detail = "Newton did not converge or contacts penetrate"
		var err error
		if h, err = rt.reject(h, world.RejectSolve); err != nil {
			return 0, err
		}
	}
	w.Commit(world.Commit{})
	w.Time += h
	w.Steps++
	w.UpdateStats()
	st := &w.Stats
	st.Integrator, st.NewtonIters, st.LinearIters, st.Residual, st.Dt = v.Name(), newton, linear, resid, h
	// After a rejection keep the reduced step for regrowAfter accepted steps,
	// then double it back towards the fixed step.
	switch {
	case rt.n > 0:
		w.Dt, v.calm = h, 0
	case w.Dt < target:
		if v.calm++; v.calm >= regrowAfter {
			w.Dt, v.calm = min(target, 2*w.Dt), 0
		}
	default:
		w.Dt = target
	}
	return h, nil
}

// safety returns the fraction of the contact period a step may take
// (stepcontrol.go): Safety when set, else the default of the order.
func (v *Variational) safety(w *world.World) float64 {
	if v.Safety > 0 {
		return v.Safety
	}
	switch {
	case !Conservative(w):
	case v.Alpha == 0:
		return variational1Safety
	default:
		return variationalSafety
	}
	return variationalDamped
}

// energyAvailable returns the energy a step could at most turn into
// kinetic energy without work of the loads: the kinetic energy of the
// bodies, the contact energy of the committed state (Stats) and m·|g|·R
// per movable body. A converged
// step whose kinetic energy exceeds ten times that and the loads' work is
// not a solution of the motion but a spurious root of the discrete
// equations (the SO(3) map and the damped Newton update admit others: a
// block tipping on an edge under variational1 once left a 1e-4 s step at
// 2.9e4 J from below 15 J); it is rejected like a failed solve.
func (v *Variational) energyAvailable(w *world.World) float64 {
	e := v.kinetic(w) + max(w.Stats.PotentialContact, 0)
	g := w.Gravity.Norm()
	for _, i := range v.mov {
		b := w.Bodies()[i]
		e += b.Mass() * g * b.R
	}
	return e
}

// kinetic returns the kinetic energy of the movable bodies' current state.
func (v *Variational) kinetic(w *world.World) float64 {
	k := 0.0
	for _, i := range v.mov {
		k += w.Bodies()[i].KineticEnergy()
	}
	return k
}

// power returns Σ |F|·|v| + |T|·|ω| over the movable bodies at the start
// of the step (the checkpoint's forces, the saved velocities): a bound of
// the loads' work rate for energyAvailable.
func (v *Variational) power(w *world.World) float64 {
	p := 0.0
	for k, i := range v.mov {
		b := w.Bodies()[i]
		p += v.cp.forces[2*i].Norm()*v.v0[k].Norm() + v.cp.forces[2*i+1].Norm()*b.MulInvInertia(v.l0[k]).Norm()
	}
	return p
}

// setup sizes the per-body arrays (bodies may be added between steps) and
// saves the state for a rollback.
func (v *Variational) setup(w *world.World) error {
	v.mov = v.mov[:0]
	for i, b := range w.Bodies() {
		if b.Fixed {
			continue
		}
		if !(b.Mass() > 0) {
			return fmt.Errorf("body %d (%s): mass must be > 0", i, b.Name)
		}
		v.mov = append(v.mov, i)
	}
	v.cp.save(w)
	m := len(v.mov)
	grow := func(a []geom.Vec3) []geom.Vec3 {
		if cap(a) < m {
			return make([]geom.Vec3, m)
		}
		return a[:m]
	}
	v.x0, v.v0, v.l0, v.fs, v.ts = grow(v.x0), grow(v.v0), grow(v.l0), grow(v.fs), grow(v.ts)
	if cap(v.q0) < m {
		v.q0 = make([]geom.Quat, m)
	}
	v.q0 = v.q0[:m]
	for _, a := range []*[]float64{&v.u, &v.res, &v.du, &v.ut, &v.rt, &v.tmpr} {
		if cap(*a) < 6*m {
			*a = make([]float64, 6*m)
		}
		*a = (*a)[:6*m]
	}
	return nil
}

func get3(a []float64, i int) geom.Vec3 { return geom.Vec3{X: a[i], Y: a[i+1], Z: a[i+2]} }

func set3(a []float64, i int, x geom.Vec3) { a[i], a[i+1], a[i+2] = x.X, x.Y, x.Z }

// attempt runs one Newton solve of step h from the saved state and, on
// success, leaves the world at the endpoint evaluated (not yet committed).
func (v *Variational) attempt(w *world.World, h float64) (ok bool, owls, newton, linear int, resid float64) {
	al := v.Alpha
	// Legendre transform of the current state and predictor (S2 Algorithm 1).
	v.vscale = h * w.Gravity.Norm()
	v.scaleU = 0
	for k, i := range v.mov {
		b := w.Bodies()[i]
		v.x0[k], v.q0[k], v.v0[k] = b.X, b.Q, b.V
		v.l0[k] = b.MulInertia(b.W) // L = J·ω
		// Stored forces are those of the current state (last evaluation).
		dx := b.V.AddScaled(h*(1-al)*b.InvMass(), b.F).Scale(h)
		hPi := b.Q.InvRotate(v.l0[k].AddScaled(h*(1-al), b.T)).Scale(h)
		th, good := solveLGVI(b.IBody(), b.IBodyInv(), hPi)
		if !good {
			th = b.IBodyInv().MulV(hPi)
		}
		set3(v.u, 6*k, dx)
		set3(v.u, 6*k+3, th)
		v.vscale = max(v.vscale, b.V.Norm()+b.W.Norm()*b.R+h*b.InvMass()*b.F.Norm())
		v.scaleU = max(v.scaleU, b.X.Norm()+b.R)
	}
	v.vscale = max(v.vscale, 1e-6*v.scaleU/h) // below this the residual is roundoff
	if len(v.mov) == 0 {
		ev := w.Evaluate(w.Time+h, h, world.Eval{})
		return !ev.Bad, ev.NightOwls, 0, 0, 0
	}
	err, o, bad := v.residual(w, h, v.u, v.res, true)
	owls += o
	if bad {
		return false, owls, 0, 0, err
	}
	A := func(d, out []float64) error {
		if !v.jacVec(w, h, d, out) {
			return errBadTrial
		}
		return nil
	}
	P := func(r, z []float64) { v.precond(w, h, r, z) }
	for err > v.Tol*v.vscale && err != 0 {
		if newton >= v.MaxNewton {
			return false, owls, newton, linear, err / v.vscale
		}
		newton++
		for i := range v.res {
			v.tmpr[i] = -v.res[i]
		}
		its, fellBack, _, fail := linearSolve(&v.kr, A, P, v.tmpr, v.du, v.LinearTol, v.MaxLinear)
		linear += its
		if fellBack {
			v.Fallbacks++
		}
		if fail {
			return false, owls, newton, linear, err / v.vscale
		}
		// Damped update: halve the Newton step while the residual is not
		// finite, the trial state is bad, or the residual grows.
		lam, accepted := 1.0, false
		for tries := 0; tries < 6; tries++ {
			for i := range v.u {
				v.ut[i] = v.u[i] + lam*v.du[i]
			}
			e2, o2, bad2 := v.residual(w, h, v.ut, v.rt, true)
			owls += o2
			if !bad2 && !math.IsNaN(e2) && (e2 < 2*err || tries == 5) {
				copy(v.u, v.ut)
				copy(v.res, v.rt)
				err, accepted = e2, true
				break
			}
			lam /= 2
		}
		if !accepted {
			return false, owls, newton, linear, err / v.vscale
		}
	}
	resid = err / max(v.vscale, 1e-300)
	// Endpoint: momenta from S2 eq. (31) plus F_d⁺, state committed at t+h.
	for k, i := range v.mov {
		b := w.Bodies()[i]
		dx, th := get3(v.u, 6*k), get3(v.u, 6*k+3)
		p1 := dx.Scale(b.Mass()/h).AddScaled(al*h, v.fs[k])                                   // S2 eq. (31) + F_d⁺
		l1 := v.q0[k].Rotate(lgviMomentum(b.IBody(), th)).Scale(1/h).AddScaled(al*h, v.ts[k]) // LGVI + F_d⁺
		b.X = v.x0[k].Add(dx)
		b.Q = v.q0[k].Mul(geom.QFromRotVec(th)).Normalize()
		b.V = dx.Scale(1 / h)
		b.W = v.q0[k].Rotate(th).Scale(1 / h)
		v.fs[k], v.ts[k] = p1, l1 // reuse: endpoint momenta
	}
	ev := w.Evaluate(w.Time+h, h, world.Eval{})
	o, bad = ev.NightOwls, ev.Bad
	owls += o
	if bad {
		return false, owls, newton, linear, resid
	}
	for k, i := range v.mov {
		b := w.Bodies()[i]
		b.V = v.fs[k].Scale(b.InvMass())
		b.W = b.MulInvInertia(v.ts[k])
	}
	return true, owls, newton, linear, resid
}

// residual sets the trial state of u, evaluates the forces at t_k + αh and
// fills r with R_x, R_θ of every movable body. It returns the velocity-error
// norm max_i max(|R_x|/m, R_b·|J⁻¹R_θ|). keep stores the forces in fs, ts.
func (v *Variational) residual(w *world.World, h float64, u, r []float64, keep bool) (float64, int, bool) {
	al := v.Alpha
	for k, i := range v.mov {
		b := w.Bodies()[i]
		dx, th := get3(u, 6*k), get3(u, 6*k+3)
		b.X = v.x0[k].AddScaled(al, dx)
		b.Q = v.q0[k].Mul(geom.QFromRotVec(th.Scale(al))).Normalize()
		b.V = dx.Scale(1 / h)
		b.W = v.q0[k].Rotate(th).Scale(1 / h)
	}
	ev := w.Evaluate(w.Time+al*h, al*h, world.Eval{})
	owls, bad := ev.NightOwls, ev.Bad
	e := 0.0
	for k, i := range v.mov {
		b := w.Bodies()[i]
		dx, th := get3(u, 6*k), get3(u, 6*k+3)
		rx := dx.Scale(b.Mass()/h).Sub(v.v0[k].Scale(b.Mass())).AddScaled(-(1-al)*h, b.F) // S2 eq. (29)
		pi := v.q0[k].InvRotate(v.l0[k].AddScaled((1-al)*h, b.T))
		rt := lgviMomentum(b.IBody(), th).Scale(1 / h).Sub(pi) // LGVI: hΠ = (F J_d − J_d Fᵀ)^∨
		set3(r, 6*k, rx)
		set3(r, 6*k+3, rt)
		e = max(e, max(rx.Norm()*b.InvMass(), b.R*b.IBodyInv().MulV(rt).Norm()))
		if keep {
			v.fs[k], v.ts[k] = b.F, b.T
		}
	}
	if math.IsNaN(e) || math.IsInf(e, 0) {
		bad = true
	}
	return e, owls, bad
}

// jacVec returns out = K·d by a forward difference of the residual at v.u
// (whose residual is v.res).
func (v *Variational) jacVec(w *world.World, h float64, d, out []float64) bool {
	dn := 0.0
	for k, i := range v.mov {
		b := w.Bodies()[i]
		dn = max(dn, max(get3(d, 6*k).Norm(), b.R*get3(d, 6*k+3).Norm()))
	}
	if dn == 0 {
		clear(out)
		return true
	}
	eps := 1e-8 * v.scaleU / dn
	for i := range v.u {
		v.ut[i] = v.u[i] + eps*d[i]
	}
	_, _, bad := v.residual(w, h, v.ut, out, false)
	if bad {
		return false
	}
	for i := range out {
		out[i] = (out[i] - v.res[i]) / eps
	}
	return true
}

// precond applies the inverse of the inertia block diagonal M/h:
// z_x = h·r_x/m, z_θ = h·J⁻¹r_θ (body frame).
func (v *Variational) precond(w *world.World, h float64, r, z []float64) {
	for k, i := range v.mov {
		b := w.Bodies()[i]
		set3(z, 6*k, get3(r, 6*k).Scale(h*b.InvMass()))
		set3(z, 6*k+3, b.IBodyInv().MulV(get3(r, 6*k+3)).Scale(h))
	}
}
