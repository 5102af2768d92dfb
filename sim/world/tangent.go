package world

import "grainlab/sim/contact"

// EachTrialContact calls f for every contact of the last evaluation (the
// trial state of Evaluate, before Commit), active or suppressed, in a
// deterministic order. Implicit integrators read it to estimate contact
// tangents within a Newton iteration; after Commit use EachContact.
func (w *World) EachTrialContact(f func(a, b int, c *contact.Contact)) {
	w.leaveSpheres()
	for _, e := range w.pairs {
		for k := range e.cur {
			f(int(e.A), int(e.B), &e.cur[k])
		}
	}
}

// EachCandidatePair calls f for every body pair (a < b) that the last
// detection kept as a contact candidate (Verlet list and wall pairs).
func (w *World) EachCandidatePair(f func(a, b int)) {
	w.leaveSpheres()
	for _, e := range w.pairs {
		f(int(e.A), int(e.B))
	}
}

// EachFeatureCache calls f for every candidate pair of polyhedra (walls
// included) of the last evaluation with its second-level feature cache and
// the cache's reach at the evaluated poses (contact.Cache.Reach): every
// feature pair closer than reach is listed. rebuild rebuilds the pair's
// cache at these poses and returns its new reach (ḡ + margin); detection
// results do not change. Implicit integrators use it to check a step for
// crossings (contact.Cache.Crossed).
func (w *World) EachFeatureCache(f func(a, b int, c *contact.Cache, reach float64, rebuild func() float64)) {
	w.leaveSpheres()
	if w.posedOld {
		w.place()
	}
	for _, e := range w.pairs {
		if e.smooth {
			continue
		}
		pa, pb := &w.posed[e.A], &w.posed[e.B]
		rebuild := func() float64 {
			g := w.Params(w.Bodies[e.A].Material, w.Bodies[e.B].Material).Normal.GBar
			e.cache.Build(pa, pb, g, w.featureSkin(g), &w.scratch[0].Scratch)
			return e.cache.Reach(pa, pb)
		}
		f(int(e.A), int(e.B), &e.cache, e.cache.Reach(pa, pb), rebuild)
	}
}
