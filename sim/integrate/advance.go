package integrate

import (
	"math"

	"grainlab/sim/world"
)

// Advance steps w with its integrator until time t, landing exactly on t and
// on the times of pending events (which it applies). each, when not nil, is
// called after every accepted step; returning true stops early. It returns
// the number of steps taken.
func Advance(w *world.World, t float64, each func() bool) (int, error) {
	n := 0
	for w.Time < t-1e-12 {
		if err := w.ApplyEvents(); err != nil {
			return n, err
		}
		limit := math.Min(t, w.NextEventTime()) - w.Time
		if limit <= 0 {
			limit = t - w.Time
		}
		if _, err := w.Integrator.Step(w, limit); err != nil {
			return n, err
		}
		n++
		if each != nil && each() {
			break
		}
	}
	return n, w.ApplyEvents()
}
