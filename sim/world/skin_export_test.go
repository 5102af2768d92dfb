package world

// VerletPairCount returns the number of pairs in the world's Verlet list
// at its last build (tests).
func (w *World) VerletPairCount() int { return len(w.verlet.Pairs()) }
