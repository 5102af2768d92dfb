package world

import (
	"grainlab/sim/contact"
	"grainlab/sim/snap"
)

// Stats are the scalars reported per step (series.csv, the panel).
type Stats struct {
	Kinetic, PotentialGravity, PotentialContact float64
	Contacts                                    int // active contacts
	ByKind                                      [snap.NumContactKinds]int
	Suppressed                                  int
	NightOwls, Rejected                         int64 // cumulative
	Dt                                          float64

	// Filled by the integrator that took the last step (0 where it does not apply).
	Integrator  string  // its name
	NewtonIters int     // Newton iterations of the last step (newmark, variational)
	LinearIters int     // linear-solver iterations of the last step (CG/GMRES, PGS/APGD sweeps)
	Residual    float64 // final residual of the last step's nonlinear or complementarity solve
	// SQFailures counts superquadric contact solves that missed their tolerance (cumulative, S1 §2.3).
	SQFailures int64
	// RejectedBy breaks Rejected down by reason (cumulative; filled by
	// newmark, the other integrators count Rejected only).
	RejectedBy [NumRejectReasons]int64
}

// Reasons for rejecting a step attempt (Stats.RejectedBy).
const (
	RejectSolve       = iota // the nonlinear solve did not converge
	RejectPenetration        // the solve met a reversed normal (S0 §2.4.5) or a non-finite force
	RejectNightOwl           // night-owl contacts: the step is recomputed (S0 §2.6)
	RejectStepSize           // too large: a skin or swept crossing, or an accuracy guideline
	NumRejectReasons
)

// Total returns the mechanical energy: kinetic + gravity + contact potential.
func (s *Stats) Total() float64 { return s.Kinetic + s.PotentialGravity + s.PotentialContact }

// UpdateStats recomputes energies and contact counts from the accepted state.
func (w *World) UpdateStats() {
	s := &w.Stats
	s.Kinetic, s.PotentialGravity, s.PotentialContact = 0, 0, 0
	s.Contacts, s.Suppressed = 0, 0
	s.ByKind = [snap.NumContactKinds]int{}
	for _, b := range w.Bodies {
		if b.Fixed {
			continue
		}
		s.Kinetic += b.KineticEnergy()
		s.PotentialGravity -= b.Mass * w.Gravity.Dot(b.X)
	}
	s.PotentialContact += w.bondEnergy()
	if sp := w.sph; sp != nil && sp.owns && sp.valid {
		// The sphere path's sums of its last evaluation (no suppressed contacts).
		s.PotentialContact += sp.epot
		s.Contacts = sp.contacts
		s.ByKind[snap.SQ] = sp.contacts
		return
	}
	w.EachContact(func(_, _ int, c *contact.Contact) {
		if !c.Active() {
			s.Suppressed++
			return
		}
		s.Contacts++
		s.ByKind[c.Kind]++
		s.PotentialContact += c.Epot
	})
}

// EachContact calls f for every contact of the last accepted step, active or
// suppressed, in a deterministic order.
func (w *World) EachContact(f func(a, b int, c *contact.Contact)) {
	if s := w.sph; s != nil && s.owns {
		if s.valid {
			s.eachContact(f)
			return
		}
		w.leaveSpheres()
	}
	for _, e := range w.pairs {
		for k := range e.prev {
			f(int(e.A), int(e.B), &e.prev[k])
		}
	}
}

// TrialEnergy returns the mechanical energy of Stats.Total (kinetic +
// gravity + contact and bond potential) at the bodies' current state with
// the contacts of the last Evaluate (EachTrialContact): the energy of an
// implicit integrator's trial end state before Commit.
func (w *World) TrialEnergy() float64 {
	e := w.bondEnergy()
	for _, b := range w.Bodies {
		if !b.Fixed {
			e += b.KineticEnergy() - b.Mass*w.Gravity.Dot(b.X)
		}
	}
	w.EachTrialContact(func(_, _ int, c *contact.Contact) {
		if c.Active() {
			e += c.Epot
		}
	})
	return e
}
