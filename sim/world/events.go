package world

import (
	"fmt"
	"math"
	"strings"

	"grainlab/sim/law"
)

// Event is a timed change applied between steps (a scene's `events`).
type Event struct {
	At      float64
	Disable []string // walls to turn off
	Enable  []string // walls to turn on
	Set     []Assign // parameter changes
	Done    bool
	Source  string // where it was declared, for messages
}

// Assign sets one parameter by dotted path, as `--set` does.
type Assign struct {
	Path  string
	Value float64
}

// ApplyEvents applies every pending event whose time has come (t ≥ At).
func (w *World) ApplyEvents() error {
	for i := range w.Events {
		ev := &w.Events[i]
		if ev.Done || w.Time+1e-12 < ev.At {
			continue
		}
		ev.Done = true
		w.SyncBodies() // the event may read or change the bodies (SetLazyBodies)
		for _, n := range ev.Disable {
			if err := w.SetWallEnabled(n, false); err != nil {
				return fmt.Errorf("%s: %w", ev.Source, err)
			}
		}
		for _, n := range ev.Enable {
			if err := w.SetWallEnabled(n, true); err != nil {
				return fmt.Errorf("%s: %w", ev.Source, err)
			}
		}
		for _, a := range ev.Set {
			if err := w.SetParam(a.Path, a.Value); err != nil {
				return fmt.Errorf("%s: %w", ev.Source, err)
			}
		}
	}
	return nil
}

// NextEventTime returns the time of the earliest pending event, or +Inf.
func (w *World) NextEventTime() float64 {
	t := math.Inf(1)
	for i := range w.Events {
		if !w.Events[i].Done && w.Events[i].At < t {
			t = w.Events[i].At
		}
	}
	return t
}

// SetParam changes a contact parameter of the running world by dotted path:
// contact.default.<key> or contact.<matA>.<matB>.<key>, with key the name
// of a Number or a Flag (0 or 1) in law.Params. The change is validated first; an invalid
// value is refused and nothing changes.
func (w *World) SetParam(path string, v float64) error {
	parts := strings.Split(path, ".")
	if len(parts) < 3 || parts[0] != "contact" {
		return fmt.Errorf("%s: only contact.* parameters can change while running", path)
	}
	var a, b int
	key := parts[len(parts)-1]
	switch {
	case len(parts) == 3 && parts[1] == "default":
		a, b = 0, 0
	case len(parts) == 4:
		a, b = w.materialIndex(parts[1]), w.materialIndex(parts[2])
		if a < 0 || b < 0 {
			return fmt.Errorf("%s: unknown material", path)
		}
	default:
		return fmt.Errorf("%s: expected contact.default.<key> or contact.<matA>.<matB>.<key>", path)
	}
	p := *w.Params(a, b)
	if err := SetField(&p, key, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	w.setPairParams(a, b, p)
	w.Edits = append(w.Edits, Edit{Time: w.Time, Path: path, Value: v})
	return nil
}

// SetField sets one named parameter of p (no range validation): a Number of
// law.Params by its accessor, a Flag (limit_damping) from 0 or 1
// (law.Param.SetNumber).
func SetField(p *ContactParams, key string, v float64) error {
	q, ok := law.Lookup(key)
	if !ok || q.Kind == law.Choice {
		return fmt.Errorf("unknown contact parameter %q", key)
	}
	s := p.LawSet()
	if err := q.SetNumber(&s, v); err != nil {
		return err
	}
	p.SetLawSet(s)
	return nil
}

func (w *World) materialIndex(name string) int {
	for i, m := range w.Materials {
		if m == name {
			return i
		}
	}
	return -1
}
