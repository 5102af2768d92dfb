package world

import "math"

// StableDtFull is StableDt with nothing left out: every candidate pair's
// full bound (pairDt with skipNone), for tests of StableDtBelow. visited is
// how many pairs the last StableDtBelow evaluated, of pairs.
func (w *World) StableDtFull() (dt float64, visited, pairs int) {
	visited, pairs = len(w.bound.visit), len(w.pairs)
	sp, _ := w.bound.speeds(w)
	dt = min(w.Settings.DtMax, w.smoothTravelDt(sp))
	for _, e := range w.pairs {
		dt = min(dt, w.pairDt(e, sp, &skipNone, nil))
	}
	return math.Max(dt, w.Settings.DtMin), visited, pairs
}

// ForgetBinder drops the pair StableDtBelow evaluates first.
func (w *World) ForgetBinder() { w.bound.last, w.bound.lastI = nil, 0 }

// LivePairs returns Commit's list of the pairs with accepted contacts
// (livePairs: the list and whether it is in date) and the list a walk over
// every candidate pair gives.
func (w *World) LivePairs() (live []int32, ok bool, walk []int32) {
	live, ok = w.livePairs()
	for i, e := range w.pairs {
		if len(e.prev) > 0 {
			walk = append(walk, int32(i))
		}
	}
	return live, ok, walk
}
