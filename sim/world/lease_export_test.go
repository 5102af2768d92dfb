package world

// SetPairLeases turns pairPass's leases (pairLeases) on or off.
func SetPairLeases(w *World, on bool) { w.leases.off = !on }

// PairLeasesHeld returns how many candidate pairs pairPass left alone on a
// lease, over all passes.
func PairLeasesHeld(w *World) int64 { return w.leases.held }
