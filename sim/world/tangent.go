package world

import "grainlab/sim/contact"

// EachTrialContact calls f for every contact of the last evaluation (the
// trial state of Evaluate, before Commit), active or suppressed, in a
// deterministic order. Implicit integrators read it to estimate contact
// tangents within a Newton iteration; after Commit use EachContact.
func (w *World) EachTrialContact(f func(a, b int, c *contact.Contact)) {
	for _, e := range w.pairs {
		for k := range e.cur {
			f(int(e.A), int(e.B), &e.cur[k])
		}
	}
}

// EachCandidatePair calls f for every body pair (a < b) that the last
// detection kept as a contact candidate (Verlet list and wall pairs).
func (w *World) EachCandidatePair(f func(a, b int)) {
	for _, e := range w.pairs {
		f(int(e.A), int(e.B))
	}
}
