package world

// SetPairLeases turns pairPass's leases (pairLeases) on or off.
func SetPairLeases(w *World, on bool) { w.leases.off = !on }

// PairLeasesHeld returns how many candidate pairs pairPass left alone on a
// lease, over all passes.
func PairLeasesHeld(w *World) int64 { return w.leases.held }

// HeldLeasesStale checks every lease that pairPass would
// honour at the current placements: it returns how many hold and how many
// of those caches Stale (run on a copy, so nothing changes) finds stale.
func HeldLeasesStale(w *World) (held, stale int) {
	lz := &w.leases
	if lz.off || len(lz.recs) < len(w.pairs) {
		return 0, 0
	}
	for i, e := range w.pairs {
		r := &lz.recs[i]
		if r.e != e || e.smooth || !r.l.Holds(w.posed[r.a].Travel(), w.posed[r.b].Travel()) {
			continue
		}
		held++
		c := e.cache
		if c.Stale(&w.posed[e.A], &w.posed[e.B], w.pairGBar(e)) {
			stale++
		}
	}
	return held, stale
}
