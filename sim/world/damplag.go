package world

import (
	"math"

	"grainlab/sim/contact"
	"grainlab/sim/law"
)

// SetDampLag switches the lagged dashpot coefficient on or off for the
// following evaluations (Evaluate, with Eval.Fixed or without, alike). With it on, the
// dashpot of a polyhedral contact, f_d = c·ġ_n with c = 2ζ√(k m_eq) (S0
// eq. 52), takes k at the contact's gap in the last committed state
// (Contact.G0, carried by key like the friction history) instead of its
// current gap, while ġ_n stays the current (trial) velocity: c = 0 for a
// contact that was outside the skin or did not exist at the last Commit.
// Within one step of an implicit integrator the dashpot force is then
// continuous in the unknowns, without the jump of eq. (52) at g = ḡ that
// stalls Newton; over a step the coefficient differs from eq. (52)'s by
// k(g_0) − k(g_1) (for n1 = 1: only in a contact's first step), a time
// discretisation of first order in Δt that converges to eq. (52) as Δt → 0
// (TestDampLagConverges).
//
// With entry also on, a contact new since the last Commit gets, instead of
// no dashpot, eq. (52)'s coefficient at its current gap times the fraction
// of the step it has spent in the skin at its current speed,
// min(1, (ḡ − g)/(|ġ_n|·dt)) (dt: the evaluation's step): still continuous
// (0 at g = ḡ), and the dashpot impulse of the entry step is not lost. A
// closing contact that was in the skin at the last Commit takes its lagged
// coefficient times the same fraction: without it, a trial state that
// carries such a contact out of the skin and back in meets a jump of
// c(g_0)·|ġ_n| at g = ḡ, which stalled Newton on the tetrapod collapse
// (docs/performance.md, Session 8). Deep in the skin (ḡ − g ≥ |ġ_n|·dt) the
// fraction is 1 and nothing changes.
//
// The newmark integrator turns the lag on for its steps when
// Settings.DampLag (and DampLagEntry) is set; smooth contacts (spheres,
// superquadrics) are not affected.
func (w *World) SetDampLag(on, entry bool) { w.dampLag, w.dampEntry = on, on && entry }

// DampLag reports whether the lagged dashpot coefficient is on, and with
// the entry fraction (SetDampLag).
func (w *World) DampLag() (on, entry bool) { return w.dampLag, w.dampEntry }

// DashpotAt returns how the dashpot of S0 eq. (52) of the polyhedral
// contact c is evaluated at normal velocity gnDot in a step dt: the gap g at
// which its coefficient is taken and a factor s on the force. Without the
// lag (SetDampLag) g is the current gap and s = 1; with it g is the gap at
// the last committed state (+Inf for a contact new since then: no dashpot),
// or, with the entry fraction, a new contact's current gap and s the
// fraction of the step it has spent in the skin (for a closing contact
// that is not new, its committed gap and that fraction).
func (w *World) DashpotAt(c *contact.Contact, gbar, gnDot, dt float64) (g, s float64) {
	switch {
	case !w.dampLag:
		return c.Gn, 1
	case !c.New:
		if w.dampEntry && gnDot < 0 && dt > 0 {
			// A closing contact that was in the skin at the last Commit:
			// the same fraction, or its dashpot would jump from 0 to
			// c(g_0)·|ġ_n| where a trial state takes it out of the skin
			// and back in (g = ḡ).
			return c.G0, min(1, (gbar-c.Gn)/(-gnDot*dt))
		}
		return c.G0, 1
	case !w.dampEntry || !(dt > 0):
		return math.Inf(1), 1
	}
	if v := math.Abs(gnDot) * dt; v > 0 {
		return c.Gn, min(1, (gbar-c.Gn)/v) // time in the skin / dt at speed |ġ_n|
	}
	return c.Gn, 1
}

// dashpot returns the signed dashpot force of S0 eq. (52) of the polyhedral
// contact c (law.Damping, switched on across ContactParams.DampBand, lagged
// as DashpotAt says).
func (w *World) dashpot(c *contact.Contact, p *ContactParams, ma, mb, gnDot, dt float64) float64 {
	g, s := c.Gn, 1.0
	if w.dampLag {
		g, s = w.DashpotAt(c, p.Normal.GBar, gnDot, dt)
	}
	return dashpotAt(p, g, s, p.Normal.Stiffness(g), law.EquivalentMass(ma, mb), gnDot)
}

// dashpotAt is dashpot's force with its coefficient's gap g, factor s, the
// normal law's stiffness k at g and the equivalent mass meq given (lawsPair
// has k at the current gap and meq for the pair in hand, and writes it out
// for s = 1: its cost is over the inliner's budget).
func dashpotAt(p *ContactParams, g, s, k, meq, gnDot float64) float64 {
	fd := law.DampingEq(p.Zeta, k, meq, gnDot) // S0 eq. (52), k at g
	if fd != 0 && p.DampBand > 0 {
		fd = dampRamp(p, g, fd)
	}
	if s != 1 {
		fd *= s
	}
	return fd
}

// dampRamp is fd switched on across the band of the skin (law.DampingRamp,
// our regularisation) at gap g; a call of its own, out of lawsPair's loop.
//
//go:noinline
func dampRamp(p *ContactParams, g, fd float64) float64 {
	r, _ := law.DampingRamp(g, p.Normal.GBar, p.DampBand)
	return fd * r
}

// SetStickLag switches the lagged Coulomb test on or off for the following
// evaluations (Evaluate, with Eval.Fixed or without, alike). With it on, a sticking
// polyhedral contact starts to slide when its trial force exceeds
// μ_d·f_n + (μ_s − μ_d)·f_n0, with f_n0 its normal force at the last
// committed state (Contact.Fn0), instead of μ_s·f_n (law.Friction.UpdateStick;
// a contact new since then uses f_n); the sliding force stays μ_d·f_n (S0
// eq. 56), and with μ_s = μ_d nothing changes. The force then drops by
// (μ_s − μ_d)·f_n0 at the stick→slip switch, a jump fixed within the step.
// With the current f_n, whose dashpot part (S0 eq. 52) follows the
// end-of-step velocities, a contact on the verge of slipping can have no
// end state — sticking drives |f_tr| past μ_s·f_n, sliding changes the
// velocities so that the dashpot raises μ_s·f_n above |f_tr| — and Newton
// fails at any step size (S0 ex. 3b and 3c at dt_max 1 ms). The test differs
// from S0's by (μ_s − μ_d)·(f_n0 − f_n), first order in Δt.
// The newmark integrator turns it on for its steps; smooth contacts are not
// affected.
func (w *World) SetStickLag(on bool) { w.stickLag = on }

// StickLag reports whether the lagged Coulomb test is on (SetStickLag).
func (w *World) StickLag() bool { return w.stickLag }

// stickForce returns the normal force of the Coulomb test that decides
// whether the sticking polyhedral contact c starts to slide: the committed
// Contact.Fn0 under SetStickLag for a contact that existed then, else the
// current Contact.Fn.
func (w *World) stickForce(c *contact.Contact) float64 {
	if w.stickLag && !c.New {
		return c.Fn0
	}
	return c.Fn
}
