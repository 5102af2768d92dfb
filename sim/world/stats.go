package world

import (
	"time"

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
	// RejectedBy breaks Rejected down by reason (cumulative; every
	// integrator's step-retry rule counts it, integrate/retry.go).
	RejectedBy [NumRejectReasons]int64
	// Profile is the wall time of each stage of the polyhedral path
	// (cumulative). It is a measurement of this process, not state: state
	// files leave it out, so a restart is byte-identical.
	Profile Profile `json:"-"`
}

// Profile is the wall time spent in each named stage of a step, summed over
// every evaluation since the world was built (like Box2D's b2Profile): one
// clock reading per stage per evaluation, none per pair. Rejected attempts
// count too. Filled by the generic (polyhedral and smooth) stages and by the
// sphere path (World.Spheres: its list upkeep as Broad, its fused
// overlap-and-law kernel as Laws, Place, Cache and Narrow left at 0).
type Profile struct {
	// Place is detect's placing of bodies: world vertices, face normals and
	// boxes (contact.Posed.Update).
	Place time.Duration
	// Broad is detect's first level: the Verlet list of body pairs and the
	// body–wall candidates.
	Broad time.Duration
	// Cache is detect's second level: the staleness test of every pair's
	// feature list and the rebuilds of stale lists (contact.Cache).
	Cache time.Duration
	// Narrow is detect's narrow phase: the local problems of the listed
	// feature pairs, the hierarchy and the match with the last step's
	// contacts (contact.Detect), smooth pairs' contacts, night owls.
	Narrow time.Duration
	// Laws is the interface laws of every active contact (stageLaws); under
	// Eval.Fixed also the refreshed geometry of its contacts.
	Laws time.Duration
	// Accumulate is gravity, loads, bonds and contact forces summed into bodies.
	Accumulate time.Duration
	// StepBound is the next step's bound (StableDt).
	StepBound time.Duration
	// Integrate is the rest of the integrator's step: kicks and drifts,
	// checkpoint and roll-backs, commit, statistics (explicit fills it).
	Integrate time.Duration
	// Evaluations counts detect stages; Pairs sums the candidate pairs and
	// Rebuilds the feature lists rebuilt over them.
	Evaluations, Pairs, Rebuilds int64
	// ForkJoins counts the parallel passes run on two or more workers (the
	// World's crew, crew.go), Batches their batches and Helped the batches
	// the helpers ran (the caller ran the rest); JoinWait is the time the
	// caller spent at the joins waiting for helpers to finish a batch. They
	// show whether the helpers take part, whatever the machine's load.
	ForkJoins, Batches, Helped int64
	JoinWait                   time.Duration
	// Parallel is the wall time of the passes that split over the workers
	// when there are two or more (64 items or more), with any number of
	// workers: with one, 1 − Parallel/Total() is the serial share of the
	// step, the part a second worker cannot shorten.
	Parallel time.Duration
}

// Stages returns the sum of the stage times other than Integrate.
func (p *Profile) Stages() time.Duration {
	return p.Place + p.Broad + p.Cache + p.Narrow + p.Laws + p.Accumulate + p.StepBound
}

// Total returns the wall time of every stage, Integrate included.
func (p *Profile) Total() time.Duration { return p.Stages() + p.Integrate }

// Sub returns the stage times and counts accumulated since q (an earlier copy).
func (p Profile) Sub(q Profile) Profile {
	return Profile{
		Place: p.Place - q.Place, Broad: p.Broad - q.Broad, Cache: p.Cache - q.Cache,
		Narrow: p.Narrow - q.Narrow, Laws: p.Laws - q.Laws, Accumulate: p.Accumulate - q.Accumulate,
		StepBound: p.StepBound - q.StepBound, Integrate: p.Integrate - q.Integrate,
		Evaluations: p.Evaluations - q.Evaluations, Pairs: p.Pairs - q.Pairs, Rebuilds: p.Rebuilds - q.Rebuilds,
		ForkJoins: p.ForkJoins - q.ForkJoins, Batches: p.Batches - q.Batches, Helped: p.Helped - q.Helped,
		JoinWait: p.JoinWait - q.JoinWait, Parallel: p.Parallel - q.Parallel,
	}
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
	w.bodyTerms()
	w.parallelRange(len(w.Bodies()), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			w.bodyTerm(i)
		}
	})
	w.sumStats()
}

// bodyTerms sizes the bodies' terms of the statistics (bodyTerm).
func (w *World) bodyTerms() {
	n := len(w.Bodies())
	if cap(w.energy) < n {
		w.energy = make([][2]float64, n)
	}
	w.energy = w.energy[:n]
}

// bodyTerm records body i's terms of the statistics, its kinetic energy and
// m·g·x, computed on the workers and summed in body order by sumStats (the
// same bits for any number of workers).
func (w *World) bodyTerm(i int) {
	if b := w.Bodies()[i]; !b.Fixed {
		w.energy[i] = [2]float64{b.KineticEnergy(), b.Mass() * w.Gravity.Dot(b.X)}
	}
}

// sumStats is the rest of UpdateStats once every body's terms are recorded.
// The sums run in locals (not through w.Stats: a store per term), with the
// same operations in the same order as adding into the fields — 0, then
// each body's terms in body order, the bonds' energy, each contact's in
// pair order — so the same bits.
func (w *World) sumStats() { w.sumStatsWith(nil) }

// sumStatsWith is sumStats with the contacts' part from t when not nil (the
// accumulation's pass summed them, contactSums.tally, on the contacts that
// Commit has just accepted unchanged): the same operations in the same
// order, so the same bits, without the serial walk.
func (w *World) sumStatsWith(t *contactTally) {
	s := &w.Stats
	kin, pg, from := 0.0, 0.0, 0
	if t != nil { // the bodies before t.upTo summed in the pass, in order
		kin, pg, from = t.kin, t.pg, t.upTo
	}
	kin, pg = w.sumBodyTerms(kin, pg, from, len(w.Bodies()))
	pc := 0.0
	pc += w.bondEnergy()
	if sp := w.sph; sp != nil && sp.owns && sp.valid {
		// The sphere path's sums of its last evaluation (no suppressed contacts).
		s.Kinetic, s.PotentialGravity, s.PotentialContact = kin, pg, pc+sp.epot
		s.Contacts, s.Suppressed = sp.contacts, 0
		s.ByKind = [snap.NumContactKinds]int{}
		s.ByKind[snap.SQ] = sp.contacts
		return
	}
	if t != nil {
		s.Kinetic, s.PotentialGravity, s.PotentialContact = kin, pg, t.pc
		s.Contacts, s.Suppressed = t.contacts-t.suppressed, t.suppressed
		s.ByKind = t.byKind
		return
	}
	var byKind [snap.NumContactKinds]int
	contacts, suppressed := 0, 0
	// The pairs with contacts only, when Commit's list is up to date: the
	// same contacts in the same order as EachContact, so the same sums.
	if live, ok := w.livePairs(); ok {
		pairs := w.pairs
		for _, i := range live {
			cs := pairs[i].prev
			contacts += len(cs)
			for k := range cs {
				c := &cs[k]
				if !c.Active() {
					suppressed++
					continue
				}
				byKind[c.Kind]++
				pc += c.Epot
			}
		}
	} else {
		pc, contacts, suppressed = w.sumEachContact(pc, &byKind)
	}
	s.Kinetic, s.PotentialGravity, s.PotentialContact = kin, pg, pc
	s.Contacts, s.Suppressed = contacts-suppressed, suppressed
	s.ByKind = byKind
}

// sumBodyTerms adds the statistics' terms of the movable bodies [lo, hi),
// in body order, to the kinetic energy kin and to −pg (sumStats's order:
// 0, then each body's; a prefix of the bodies summed first, from 0, is
// the same sum carried on).
func (w *World) sumBodyTerms(kin, pg float64, lo, hi int) (float64, float64) {
	en := w.energy[lo:hi]
	for i, b := range w.Bodies()[lo:hi] {
		if b.Fixed {
			continue
		}
		kin += en[i][0]
		pg -= en[i][1]
	}
	return kin, pg
}

// sumEachContact is sumStats's walk of every contact (EachContact) when
// Commit's list is out of date: it adds each active contact's Epot to pc
// in order and counts them into byKind, and returns pc, the number of
// contacts and of suppressed ones. (Apart from sumStats so that its
// closure's captures do not put sumStats's sums in memory.)
func (w *World) sumEachContact(pc float64, byKind *[snap.NumContactKinds]int) (_ float64, contacts, suppressed int) {
	w.EachContact(func(_, _ int, c *contact.Contact) {
		contacts++
		if !c.Active() {
			suppressed++
			return
		}
		byKind[c.Kind]++
		pc += c.Epot
	})
	return pc, contacts, suppressed
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
	for _, b := range w.Bodies() {
		if !b.Fixed {
			e += b.KineticEnergy() - b.Mass()*w.Gravity.Dot(b.X)
		}
	}
	w.EachTrialContact(func(_, _ int, c *contact.Contact) {
		if c.Active() {
			e += c.Epot
		}
	})
	return e
}
