package world

// GenericEntries returns how many generic body–body pair entries the world
// holds (releaseGeneric's test).
func (w *World) GenericEntries() int { return len(w.bbPairs) }

// SetReleaseOff makes the sphere path keep the generic entries it took the
// history from (releaseOff), as before releaseGeneric.
func SetReleaseOff(off bool) { releaseOff = off }
