package app

import (
	"fmt"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// Options are the command-line choices that override a scene.
type Options struct {
	Scene      string   // built-in name or path
	Sets       []string // "key=value" overrides by dotted path
	Integrator string   // overrides integrator.name when set
	Dt         float64  // overrides integrator.dt when > 0
	Time       float64  // overrides the scene's end time when > 0
	Workers    int      // goroutines for detection and laws; 0 = all cores
	Restart    string   // a final.json to start from (bodies by name, and the time)
	Duration   float64  // bench: simulated seconds to run from the start state
}

// InputError is bad input (a scene file, a flag): exit code 2.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Sim is a loaded scene ready to advance: the world, its spec and end time.
type Sim struct {
	Spec  *scene.Spec
	World *world.World
	End   float64
}

// Load reads the scene (with overrides), builds the world and evaluates the
// initial forces. Errors in the input are *InputError.
func Load(o Options) (*Sim, error) {
	sets := append([]string(nil), o.Sets...)
	if o.Integrator != "" {
		sets = append(sets, "integrator.name="+o.Integrator)
	}
	if o.Dt > 0 {
		sets = append(sets, fmt.Sprintf("integrator.dt=%g", o.Dt))
	}
	if o.Time > 0 {
		sets = append(sets, fmt.Sprintf("time=%g", o.Time))
	}
	spec, err := scene.Find(o.Scene, sets...)
	if err != nil {
		return nil, &InputError{err}
	}
	w, err := scene.Build(spec)
	if err != nil {
		return nil, &InputError{err}
	}
	if o.Workers > 0 {
		w.Settings.Workers = o.Workers
	}
	if o.Restart != "" {
		f, err := state.Read(o.Restart)
		if err != nil {
			return nil, &InputError{err}
		}
		if err := state.Apply(w, f, o.Restart); err != nil {
			return nil, &InputError{err}
		}
	}
	if err := integrate.Start(w); err != nil {
		return nil, &InputError{fmt.Errorf("%s: %w", spec.File, err)}
	}
	return &Sim{Spec: spec, World: w, End: spec.Time}, nil
}

// StepTo advances the world until time t (landing on t and on event times
// exactly) or until stop returns true. It returns the steps taken.
func (s *Sim) StepTo(t float64, stop func() bool) (int, error) {
	return integrate.Advance(s.World, t, stop)
}
