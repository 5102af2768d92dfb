package world

import (
	"math"

	"grainlab/sim/contact"
)

// SetDampLag switches the lagged dashpot coefficient on or off for the
// following evaluations (Evaluate and EvaluateFixed alike). With it on, the
// dashpot of a polyhedral contact, f_d = c·ġ_n with c = 2ζ√(k m_eq) (S0
// eq. 52), takes k at the contact's gap in the last committed state
// (Contact.G0, carried by key like the friction history) instead of its
// current gap, while ġ_n stays the current (trial) velocity: c = 0 for a
// contact that was outside the skin or did not exist at the last Commit.
// Within one step of an implicit integrator the dashpot force is then
// linear in the unknowns, without the jump of eq. (52) at g = ḡ that stalls
// Newton; over a step the coefficient differs from eq. (52)'s by k(g_0) −
// k(g_1), a time discretisation of first order in Δt that converges to
// eq. (52) as Δt → 0 (TestDampLagConverges). The newmark integrator turns
// it on for its steps when Settings.DampLag is set; smooth contacts (spheres,
// superquadrics) are not affected.
func (w *World) SetDampLag(on bool) { w.dampLag = on }

// DampLag reports whether the lagged dashpot coefficient is on (SetDampLag).
func (w *World) DampLag() bool { return w.dampLag }

// DashpotGap returns the gap at which the dashpot coefficient of S0 eq. (52)
// of the polyhedral contact c is taken: its current gap, or with the lag on
// (SetDampLag) its gap at the last committed state, +Inf for a contact new
// since then (no dashpot this step).
func (w *World) DashpotGap(c *contact.Contact) float64 {
	if !w.dampLag {
		return c.Gn
	}
	if c.New {
		return math.Inf(1)
	}
	return c.G0
}
