package integrate

import (
	"fmt"

	"grainlab/sim/world"
)

// rejectText names each rejection reason (world.Reject*) in the error of a
// step that fails at dt_min.
var rejectText = [world.NumRejectReasons]string{
	world.RejectSolve:       "the step's solve did not converge",
	world.RejectPenetration: "contact normal reversed (penetration, S0 §2.4.5) or non-finite force",
	world.RejectNightOwl:    "night-owl contacts (S0 §2.6)",
	world.RejectStepSize:    "step too large (skin or swept crossing, accuracy guideline)",
}

// retry is the one reject–count–cut rule of every integrator's step: an
// attempt at Δt is tried; a rejected one is counted under its reason
// (Stats.Rejected, Stats.RejectedBy), the world is rolled back to the start
// of the step, and Δt is cut by the integrator's factor, never below
// dt_min; a rejection at dt_min is the step's failure, with one error text
// naming the time, Δt and the reason. The caller keeps what differs between
// integrators: what an attempt is, when a result is accepted, and whether
// night owls are accepted at dt_min (S0 §2.6).
type retry struct {
	w    *world.World
	name string      // the integrator, for the error
	cut  float64     // Δt ← max(Δt·cut, dt_min) after a rejection
	cp   *checkpoint // the start of the step, restored on rejection (nil: a trial writes no accepted state)
	// detail is added to the failure's error (e.g. the last residual).
	detail string
	last   int // the reason of the last rejection
	n      int // rejections in this step
}

// newRetry returns the retry rule of one step of integrator name on w.
func newRetry(w *world.World, name string, cut float64, cp *checkpoint) retry {
	return retry{w: w, name: name, cut: cut, cp: cp, last: -1}
}

// again counts a rejected attempt under why and rolls back, to be tried
// again at the same Δt (newmark's recomputation with night owls, S0 §2.6).
func (r *retry) again(why int) {
	if r.cp != nil {
		r.cp.restore(r.w)
	}
	r.w.Stats.Rejected++
	r.w.Stats.RejectedBy[why]++
	r.last = why
	r.n++
}

// reject counts a rejected attempt at dt under why, rolls back and returns
// the next Δt = max(dt·cut, dt_min). At dt_min (dt ≤ dt_min) it returns dt
// and the step's failure (fail).
func (r *retry) reject(dt float64, why int) (float64, error) {
	return r.rejectBy(dt, why, r.cut)
}

// rejectBy is reject with the cut factor f of this rejection (a guard's own
// estimate of the step that would have passed).
func (r *retry) rejectBy(dt float64, why int, f float64) (float64, error) {
	r.again(why)
	if dt <= r.w.Settings.DtMin {
		return dt, r.fail(dt)
	}
	return max(dt*f, r.w.Settings.DtMin), nil
}

// fail is the error of a step rejected at dt (≤ dt_min) for the last reason.
func (r *retry) fail(dt float64) error {
	why := "rejected"
	if r.last >= 0 && r.last < len(rejectText) {
		why = rejectText[r.last]
	}
	if r.detail != "" {
		why += " (" + r.detail + ")"
	}
	return fmt.Errorf("t=%.6g s: %s: step rejected at dt=%g, dt_min=%g: %s", r.w.Time, r.name, dt, r.w.Settings.DtMin, why)
}
