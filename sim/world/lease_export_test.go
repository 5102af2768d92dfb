package world

// SetPairLeases turns pairPass's leases (pairLeases) on or off.
func SetPairLeases(w *World, on bool) { w.leases.off = !on }

// PairLeasesHeld returns how many candidate pairs pairPass left alone on a
// lease, over all passes.
func PairLeasesHeld(w *World) int64 { return w.leases.held }

// HeldLeasesStale checks every lease that pairPass would
// honour at the current placements: it returns how many hold, how many of
// those the weighted test decided, how many were granted from A's
// displacement in B's frame (contact.Lease.Swapped), and how many of those
// caches Stale (run on a copy, so nothing changes) finds stale.
func HeldLeasesStale(w *World) (held, fast, swapped, stale int) {
	lz := &w.leases
	if lz.off || len(lz.recs) < len(w.pairs) {
		return 0, 0, 0, 0
	}
	for i, e := range w.pairs {
		r := &lz.recs[i]
		if e.smooth {
			continue
		}
		h, f := lz.holds(r, e, w.posed[r.a].Travel(), w.posed[r.b].Travel())
		if !h {
			continue
		}
		held++
		if f {
			fast++
		}
		if r.l.Swapped() {
			swapped++
		}
		c := e.cache
		if c.Stale(&w.posed[e.A], &w.posed[e.B], w.pairGBar(e)) {
			stale++
		}
	}
	return held, fast, swapped, stale
}

// WearTravel counts 2n unknown motions (contact.Travel: 2⁴⁰ quanta each)
// in the travel of body i's pose: n placements with a copy of its shape and
// back, at the same pose.
func WearTravel(w *World, i, n int) {
	p := &w.posed[i]
	poly, x, q, fixed := p.Poly, p.X, p.Q, p.Fixed
	cp := *poly
	for k := 0; k < n; k++ {
		p.Update(&cp, x, q, fixed)
		p.Update(poly, x, q, fixed)
	}
}

// MaxTravel returns the largest travel count (X or T) over the bodies'
// poses.
func MaxTravel(w *World) float64 {
	m := 0.0
	for i := range w.posed {
		t := w.posed[i].Travel()
		m = max(m, t.X, t.T)
	}
	return m
}
