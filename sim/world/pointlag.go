package world

import (
	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
)

// pointLag is what SetPointLag keeps: the bodies' poses at the call (the
// last committed state, where the accepted contacts' points were found).
type pointLag struct {
	on   bool
	x    []geom.Vec3
	q    []geom.Quat
	move []float64 // per body |v| (+ |ω|·R for a superquadric) at the recorded state
	dt   float64   // the step of the evaluations (Evaluate's dt)
}

// pointLagTravel is the gate of the carried point: a contact is carried
// through a step only when its bodies' motion at the step's start, over
// the step, moves a surface point by at most this fraction of the smaller
// superquadric's bounding radius ((|v_A| + |ω_A| R_A + |v_B| + |ω_B| R_B)·Δt
// ≤ pointLagTravel·R_min) — so that the lag's error stays below that
// (pointLagAt). The gate reads only the step's start and its Δt: it does
// not switch within a Newton solve. The contacts of a bed at rest pass it
// (the settled n = 10 bed of docs/validation.md runs with 1e-4 and with
// 1e-5, 6 and 11 CPU s for 10 ms); the impacts of a falling heap (speeds
// ≈ 0.3 m/s at steps of 1e-4 s) do not: carried through such steps (no
// gate) the point lagged by up to 3e-5 m, and newmark's 20-grain
// sq-settling ended at 0.3 s with 6% more total energy than explicit's
// (3.888e-4 against 3.668e-4 J; 3.666e-4 without the lag, the gap closing
// as dt_max → 2e-5 s). With the gate its series are unchanged.
const pointLagTravel = 1e-4

// SetPointLag switches the carried contact point of superquadric contacts
// on or off for the following evaluations; switching it on records every
// body's pose, and must be done at the last committed state (the start of
// an implicit step: the poses at which the accepted contacts' points were
// found). With it on, a superquadric contact (a pair with at least one
// superquadric) that has a contact with its key in the accepted list takes
// the force's point of application, its relative velocity and its
// effective radius (S1 eq. 38–40) not at the midway point of the current
// state (S1 eq. 19–24, 36) but at the accepted contact's points PA and PB
// carried with their bodies: each is fixed in its body's frame at the
// recorded pose and moved with the body to its current pose (pointLagAt),
// and the point of application is their midpoint. The normal and the gap
// stay those of the current state. Only contacts whose bodies move slowly
// enough at the step's start are carried (pointLagTravel).
//
// Why: between near-parallel faces of blocky superquadrics (n = 10) S1's
// single midway point is nearly undetermined along the faces — on the
// settled bed of docs/validation.md it moved 0.24 mm between Newton
// iterates 1e-9 m apart whose normals and overlaps agreed to 1e-11 — so
// the contact's moment nearly jumps with the faces' relative tilt (S1's
// moment arm, x_c − x_i, at that point), and a
// Newton solve over the state (newmark: its finite-difference tangent
// spans the jump) stalls at any step size. Carried with the bodies, the
// point is a smooth function of the unknowns within a step; it is updated
// at each step from the accepted state's midway point (Contact.PA, PB keep
// the midway point's intersections: what is committed, written and read
// by everything else).
//
// What it changes: over a step the point of application differs from the
// end state's midway point by how far that point moves relative to the
// bodies in the step — for a rolling or sliding contact between curved
// surfaces O(Δt·(|v_t| + |ω|·R)), first order in Δt as the lagged dashpot
// (SetDampLag) and Coulomb test (SetStickLag). The gate bounds how far the
// bodies' surface points travel in a step (pointLagTravel·R_min), not how
// far the midway point moves across them: that is within the same bound
// only where the surfaces' curvature radii are about R or less; between
// the near-flat faces of n = 10 grains it moves further (on the bed of
// docs/validation.md: per step median 2.2e-6 R, 99th percentile 0.02 R,
// largest 0.48 R; review r7). The moment error is |F| times that distance. Between near-parallel faces the midway point's own
// jumps (which no step size removes) are taken at the step boundaries
// instead of within a Newton solve. The newmark and variational integrators
// turn it on for their steps; explicit never does (its bits are unchanged).
func (w *World) SetPointLag(on bool) {
	l := &w.ptLag
	l.on = on
	if !on {
		return
	}
	n := len(w.Bodies())
	if cap(l.x) < n {
		l.x, l.q, l.move = make([]geom.Vec3, n), make([]geom.Quat, n), make([]float64, n)
	}
	l.x, l.q, l.move = l.x[:n], l.q[:n], l.move[:n]
	for i, b := range w.Bodies() {
		l.x[i], l.q[i] = b.X, b.Q
		l.move[i] = b.V.Norm() + b.W.Norm()*b.Radius() // every kind's surface speed (a sphere's points turn too)
	}
}

// PointLag reports whether the carried contact point is on (SetPointLag).
func (w *World) PointLag() bool { return w.ptLag.on }

// pointLagAt returns the points at which the laws take smooth contact c of
// pair e (bodies a, b at their current poses; B at its image e.Shift): the
// accepted contact's PA and PB carried with A and B from the poses
// SetPointLag recorded, and true; or c's own points and false when the lag
// is off, the pair has no superquadric, or c has no accepted contact with
// its key.
func (w *World) pointLagAt(e *pairEntry, a, b *body.Body, c *contact.Contact) (pa, pb geom.Vec3, ok bool) {
	l := &w.ptLag
	if !l.on || c.New || (a.Kind != body.Superquadric && b.Kind != body.Superquadric) ||
		int(max(e.A, e.B)) >= len(l.x) {
		return c.PA, c.PB, false
	}
	rmin := sqR(a)
	if r := sqR(b); r > 0 && (rmin == 0 || r < rmin) {
		rmin = r
	}
	if !((l.move[e.A]+l.move[e.B])*l.dt <= pointLagTravel*rmin) { // the gate (pointLagTravel)
		return c.PA, c.PB, false
	}
	var p *contact.Contact
	for j := range e.prev {
		if e.prev[j].Key == c.Key {
			p = &e.prev[j]
			break
		}
	}
	if p == nil {
		return c.PA, c.PB, false
	}
	// A body that crossed a periodic seam since the recorded pose was
	// wrapped into the box at placement (by whole periods, seamShift): its
	// point is carried to its unwrapped pose and then moved with it by the
	// wrap; a wall's point — walls are not repeated: the pair is the
	// body's image against the wall — is moved by its body's wrap. Two
	// bodies wrapped differently are another image pair (the sanity bound
	// below). Before, a body–wall contact whose body wrapped within a step
	// was carried a period away and fell back to the midway point (review
	// r7 F3).
	var wa, wb, ia, ib geom.Vec3 // the bodies' wraps, the points' shifts
	if w.Periodic.On() {
		wa, wb = w.Periodic.seamShift(l.x[e.A], a.X), w.Periodic.seamShift(l.x[e.B], b.X)
		ia, ib = wa, wb
		if a.Wall >= 0 {
			ia = wb
		} else if b.Wall >= 0 {
			ib = wa
		}
	}
	pa = carryShift(p.PA, l.x[e.A], l.q[e.A], a.X, a.Q, wa, ia)
	pb = carryShift(p.PB.Sub(e.Shift), l.x[e.B], l.q[e.B], b.X, b.Q, wb, ib).Add(e.Shift)
	// A sanity bound (a periodic image changed under the pair, a body
	// replaced): a carried point cannot lie a body's size from the midway
	// point.
	if geom.Lerp(pa, pb, 0.5).Sub(c.Point()).Norm() > max(sqR(a), sqR(b)) {
		return c.PA, c.PB, false
	}
	return pa, pb, true
}

// carry moves the world point p fixed in a body from the body's pose (x0,
// q0) to its pose (x, q): x + q q0⁻¹ (p − x0).
func carry(p, x0 geom.Vec3, q0 geom.Quat, x geom.Vec3, q geom.Quat) geom.Vec3 {
	if x == x0 && q == q0 {
		return p
	}
	return x.Add(q.Rotate(q0.InvRotate(p.Sub(x0))))
}

// carryShift is carry for a body wrapped by the whole periods wrap since
// the pose (x0, q0), its point shifted by shift (pointLagAt): p carried to
// the body's unwrapped pose (x − wrap, q), then shifted; carry itself,
// the same bits, when both are zero.
func carryShift(p, x0 geom.Vec3, q0 geom.Quat, x geom.Vec3, q geom.Quat, wrap, shift geom.Vec3) geom.Vec3 {
	if wrap == (geom.Vec3{}) && shift == (geom.Vec3{}) {
		return carry(p, x0, q0, x, q)
	}
	return carry(p, x0, q0, x.Sub(wrap), q).Add(shift)
}

// sqR is b's bounding radius when b is a superquadric, else 0.
func sqR(b *body.Body) float64 {
	if b.Kind == body.Superquadric {
		return b.R
	}
	return 0
}
