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
	return AdvancePast(w, t, t, each)
}

// AdvancePast steps w until its time reaches t (the first step end at or
// after t), limiting steps only by end and by the times of pending events,
// which land exactly: an output time t never shortens a step, so the
// trajectory does not depend on when it is observed (docs/outputs.md). t is
// clamped to end; with t = end it is Advance. each is as in Advance.
func AdvancePast(w *world.World, t, end float64, each func() bool) (int, error) {
	t = math.Min(t, end)
	n := 0
	for w.Time < t-1e-12 {
		if err := w.ApplyEvents(); err != nil {
			return n, err
		}
		limit := math.Min(end, w.NextEventTime()) - w.Time
		if limit <= 0 {
			limit = end - w.Time
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
