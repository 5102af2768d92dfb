package integrate

import (
	"math"

	"grainlab/sim/world"
)

// The energy budget of a newmark step on a damped scene (Newmark.EnergyGain).
//
// With damping or friction and without loads or bonds doing work, no step
// may raise the total energy (kinetic + gravity + contact and bond
// potential, world.Stats.Total) beyond the loads' work. Newmark's end-point
// averaging (S0 eq. 20–22, γ = ½: the impulse of a step is Δt·(f^i + f^{i+1})/2)
// can: a contact that turns round deep in the barrier (S0 eq. 49) ends its
// compression step with the barrier force of its deepest gap, and the next
// step applies half of it over the whole rebound, which may be several times
// the compression's length (box-of-cubes: the barrier's end-point work
// exceeds its potential drop by up to 1 J in one step, while the dashpot's
// own end-point work is negative there). The dashpot of eq. (52) hides this
// when its coefficient is that of the deepest gap; the lagged coefficient
// (World.SetDampLag) and its entry fraction, taken from shallower gaps,
// dissipate less there and let it show. The error vanishes with Δt, so
// the step control rejects a step that gains more than EnergyGain of the
// largest kinetic energy seen and cuts it, as for a failed solve (S0 §3.5).

// budget is the start-of-step state of the energy check.
type budget struct {
	e0, p0 float64 // total energy and the loads' power at the start
	keMax  float64 // the largest kinetic energy this integrator has seen
	gain   float64 // the gain of the last attempt cut for energy (0: none)
}

// energyOn reports whether the energy check applies to this step: on
// scenes whose steps the accuracy guidelines do not bound (stepcontrol.go).
func (n *Newmark) energyOn() bool {
	return n.EnergyGain > 0 && n.Approach == 0 && n.OmegaDt == 0
}

// startBudget records the start-of-step energy and the loads' power.
func (n *Newmark) startBudget(w *world.World) {
	w.UpdateStats()
	n.bud.e0 = w.Stats.Total()
	n.bud.keMax = max(n.bud.keMax, w.Stats.Kinetic)
	n.bud.p0 = loadPower(w, w.Time)
	n.bud.gain = 0
}

// energyFactor returns 1 when the trial step (dt, its end state evaluated)
// keeps the energy budget, else the factor by which to cut the step: the
// trial gain E^{i+1} − E^i − W_loads (loads' work by the trapezoidal rule)
// may be at most EnergyGain·KE_max. A gain that a cut did not at least
// halve is a jump of the state's energy (e.g. a contact's feature pair
// changing at depth), not an error of the step: it is accepted.
func (n *Newmark) energyFactor(w *world.World, dt float64) float64 {
	ke := 0.0
	for k := range n.nb {
		ke += w.Bodies()[n.nb[k].i].KineticEnergy()
	}
	n.bud.keMax = max(n.bud.keMax, ke)
	gain := w.TrialEnergy() - n.bud.e0 - 0.5*dt*(n.bud.p0+loadPower(w, n.t+dt))
	allow := n.EnergyGain * n.bud.keMax
	if !(gain > allow) || (n.bud.gain > 0 && gain > 0.5*n.bud.gain) {
		return 1
	}
	n.bud.gain = gain
	return max(n.Cut, min(0.9, math.Sqrt(allow/gain)))
}

// loadPower returns the power of the external loads at time t on the
// bodies' current velocities.
func loadPower(w *world.World, t float64) float64 {
	p := 0.0
	for i := range w.Loads {
		l := &w.Loads[i]
		p += l.Power(w.Bodies()[l.Body], t)
	}
	return p
}
