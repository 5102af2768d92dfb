package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

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
	// Picture (shot): Time is the picture's time, so a restart state at
	// exactly that time is accepted and drawn as it is.
	Picture bool

	// restartData, when set, is the content of the state file Restart names
	// (Compare starts its second run from the main run's state bytes).
	restartData []byte
}

// InputError is bad input (a scene file, a flag): exit code 2.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Sim is a loaded scene ready to advance: the world, its spec and end time.
type Sim struct {
	Spec    *scene.Spec
	World   *world.World
	End     float64
	Restart string // the state file it started from ("" for the scene's own state)
	// Warnings are findings at load that do not stop a run (overlapping
	// spheres: their overlap is a contact force).
	Warnings []string
	// Notes say what a restart could not restore or found different
	// (state.ApplyNotes): an old state file, another scene, other parameters.
	Notes []string
}

// Load reads the scene (with overrides), builds the world and evaluates the
// initial forces. Errors in the input are *InputError.
func Load(o Options) (*Sim, error) {
	if err := checkScenePath(o.Scene); err != nil {
		return nil, &InputError{err}
	}
	if o.Integrator != "" && !slices.Contains(integrate.Names, o.Integrator) {
		return nil, &InputError{fmt.Errorf("--integrator %q: unknown integrator (one of %s)", o.Integrator, strings.Join(integrate.Names, ", "))}
	}
	if err := checkFlags(o, nil); err != nil {
		return nil, &InputError{err}
	}
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
	// An integrator that cannot run this scene is refused, never silently
	// wrong (integrate.Check: the same reason the panel shows).
	if err := integrate.Check(w.Integrator.Name(), w); err != nil {
		where := spec.File + ": integrator.name"
		if o.Integrator != "" {
			where = "--integrator " + o.Integrator
		}
		return nil, &InputError{fmt.Errorf("%s: %w", where, err)}
	}
	if o.Workers > 0 {
		w.Settings.Workers = o.Workers
	}
	var notes []string
	if o.Restart != "" {
		var f state.File
		var err error
		if o.restartData != nil {
			f, err = state.Parse(o.restartData, o.Restart)
		} else {
			f, err = state.Read(o.Restart)
		}
		if err != nil {
			return nil, &InputError{err}
		}
		check := state.CheckTime
		if o.Picture {
			check = state.CheckPictureTime
		}
		if err := check(f, o.Restart, spec.Time); err != nil {
			return nil, &InputError{err}
		}
		// A complete (version 2) file restores the contact history and the
		// integrator's state as well: the run continues bit for bit.
		if notes, err = state.ApplyNotes(w, f, o.Restart); err != nil {
			return nil, &InputError{err}
		}
	}
	if every, dtMin := spec.Output.Every, spec.Integrator.DtMin; every > 0 && every < dtMin {
		return nil, &InputError{fmt.Errorf("%s: output.every = %g s is below the smallest time step integrator.dt_min = %g s "+
			"(a row per step at most; raise output.every)", spec.File, every, dtMin)}
	}
	s := &Sim{Spec: spec, World: w, End: spec.Time, Restart: o.Restart, Notes: notes}
	var bad []string
	for _, ov := range findOverlaps(w) {
		bad = append(bad, ov.String())
	}
	from := spec.File
	if o.Restart != "" {
		from = o.Restart
	}
	if len(bad) > 0 {
		more := ""
		if len(bad) > 3 {
			more = fmt.Sprintf(" (and %d more)", len(bad)-3)
			bad = bad[:3]
		}
		return nil, &InputError{fmt.Errorf("%s: the start state interpenetrates: %s%s; move the bodies apart", from, strings.Join(bad, "; "), more)}
	}
	if err := integrate.Start(w); err != nil {
		return nil, &InputError{fmt.Errorf("%s: %w", spec.File, err)}
	}
	if msg := deepSmoothOverlaps(w); msg != "" {
		s.Warnings = append(s.Warnings, "at the start: "+msg)
	}
	// The start state itself (velocities, energies) must be finite: a
	// non-finite one is the input's fault, so bad input rather than a
	// simulation failure at the first step.
	if err := w.CheckFinite(); err != nil {
		return nil, &InputError{fmt.Errorf("%s: the start state is not finite: %w", from, err)}
	}
	return s, nil
}

// checkScenePath: an argument that looks like a path (it contains a slash
// or ends in .yaml) must name a readable file; say so plainly rather than
// "no built-in scene".
func checkScenePath(arg string) error {
	if !strings.ContainsRune(arg, '/') && !strings.HasSuffix(arg, ".yaml") && !strings.HasSuffix(arg, ".yml") {
		return nil
	}
	st, err := os.Stat(arg)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", arg)
	case err != nil:
		return err
	case st.IsDir():
		return fmt.Errorf("%s: is a directory, not a scene file", arg)
	}
	return nil
}

// StepTo advances the world until time t (landing on t and on event times
// exactly) or until stop returns true. It returns the steps taken.
func (s *Sim) StepTo(t float64, stop func() bool) (int, error) {
	return integrate.Advance(s.World, t, stop)
}
