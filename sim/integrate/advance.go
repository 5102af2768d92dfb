package integrate

import (
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
	return advance(w, t, end, each, false, false)
}

// AdvanceStats is Advance for a caller whose each reads nothing of the world
// but its time, step count and statistics (w.Stats) other than the
// kinetic and gravitational energies (grainlab bench's contact counts):
// between events the explicit integrator's sphere path then keeps its
// state in its own flat arrays and writes the bodies only when an event
// applies and on return (world.SetLazyBodies), and sums those energies
// only then too (world.SetLazyEnergies: until then each sees those of an
// earlier step); the same bits as Advance.
func AdvanceStats(w *world.World, t float64, each func() bool) (int, error) {
	return advance(w, t, t, each, true, true)
}

// AdvancePastLazy is AdvancePast for a caller whose each reads the world
// only through its time, step count and statistics (w.Stats) and through
// World.CheckFinite and BodyStates.Save, which read the sphere path's flat
// state: the explicit integrator's sphere path then keeps the bodies lazy
// between events as in AdvanceStats (grainlab run's finite guard and last
// good state). The bodies are written on every return; the same bits as
// AdvancePast.
func AdvancePastLazy(w *world.World, t, end float64, each func() bool) (int, error) {
	return advance(w, t, end, each, true, false)
}

// advance is AdvancePast; lazy: each reads no body (AdvanceStats); lazyE:
// nor the energies. Without each the bodies and energies are lazy too:
// nobody reads them before the return.
func advance(w *world.World, t, end float64, each func() bool, lazy, lazyE bool) (int, error) {
	if _, ok := w.Integrator.(*Explicit); ok && (lazy || each == nil) {
		w.SetLazyBodies(true)
		defer w.SetLazyBodies(false) // the bodies written on every return
		if lazyE || each == nil {
			w.SetLazyEnergies(true)
			defer w.SetLazyEnergies(false) // the energies summed on every return (before the bodies)
		}
	}
	t = min(t, end)
	n := 0
	for w.Time < t-1e-12 {
		if err := w.ApplyEvents(); err != nil {
			return n, err
		}
		limit := min(end, w.NextEventTime()) - w.Time
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
