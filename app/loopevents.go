package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// sideWalls are the wall names of a `type: box` wall set's sides.
var sideWalls = []string{"back", "front", "left", "right"}

// wallPhrase names a list of walls: "the side walls" for the four sides of
// a box, else "wall a" / "walls a, b".
func wallPhrase(names []string) string {
	s := slices.Clone(names)
	slices.Sort(s)
	if slices.Equal(s, sideWalls) {
		return "the side walls"
	}
	if len(names) == 1 {
		return "wall " + names[0]
	}
	return "walls " + strings.Join(names, ", ")
}

// EventHint says what a scene event will do, for the first view's hint:
// "the side walls go at t = 6 s".
func EventHint(ev *world.Event) string {
	var what []string
	if n := len(ev.Disable); n > 0 {
		what = append(what, wallPhrase(ev.Disable)+verb(n, " goes", " go"))
	}
	if n := len(ev.Enable); n > 0 {
		what = append(what, wallPhrase(ev.Enable)+verb(n, " comes back", " come back"))
	}
	for _, a := range ev.Set {
		what = append(what, a.Path+" becomes "+strconv.FormatFloat(a.Value, 'g', -1, 64))
	}
	if len(what) == 0 {
		return fmt.Sprintf("an event at t = %g s", ev.At)
	}
	return strings.Join(what, ", ") + fmt.Sprintf(" at t = %g s", ev.At)
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// EventDone says what a scene event did, for the status line when it
// fires at time t: "t = 6.000 s: side walls removed".
func EventDone(ev *world.Event, t float64) string {
	var what []string
	if len(ev.Disable) > 0 {
		what = append(what, strings.TrimPrefix(wallPhrase(ev.Disable), "the ")+" removed")
	}
	if len(ev.Enable) > 0 {
		what = append(what, strings.TrimPrefix(wallPhrase(ev.Enable), "the ")+" back")
	}
	for _, a := range ev.Set {
		what = append(what, a.Path+" = "+strconv.FormatFloat(a.Value, 'g', -1, 64))
	}
	if len(what) == 0 {
		what = append(what, "scene event")
	}
	return fmt.Sprintf("t = %.3f s: %s", t, strings.Join(what, ", "))
}

// nextEvent returns the earliest pending scene event of w (nil: none).
func nextEvent(w *world.World) *world.Event {
	var next *world.Event
	for i := range w.Events {
		ev := &w.Events[i]
		if !ev.Done && (next == nil || ev.At < next.At) {
			next = ev
		}
	}
	return next
}

// EventStatus returns what the window shows about w's scene events: the
// hint of the next pending one (EventHint, "" when none) and the status of
// the latest that fired (EventDone at its time, "" when none).
func EventStatus(w *world.World) (hint, done string) {
	if ev := nextEvent(w); ev != nil {
		hint = EventHint(ev)
	}
	var last *world.Event
	for i := range w.Events {
		if ev := &w.Events[i]; ev.Done && (last == nil || ev.At >= last.At) {
			last = ev
		}
	}
	if last != nil {
		done = EventDone(last, last.At)
	}
	return hint, done
}

// PackedSetAllowed reports whether a `--set key=value` override leaves the
// default scene's packed state valid: the contact-law and friction
// parameters (contact.*), the integrator (integrator.*), gravity and the
// end time change no body, so the packed bodies, walls and contact history
// still apply (the run continues from them under the new rules).
// Everything else (the generators, shapes, walls, events …) may change the
// bodies or how they got there.
func PackedSetAllowed(set string) bool {
	key, _, _ := strings.Cut(set, "=")
	key = strings.TrimSpace(key)
	return strings.HasPrefix(key, "contact.") || strings.HasPrefix(key, "integrator.") ||
		key == "gravity" || key == "time"
}

// AutoRestart resolves Restart "auto": the default scene starts from its
// shipped packed state (the fill done, the side walls about to go) when
// every --set is one the packed state allows (PackedSetAllowed: the
// contact law and friction, the integrator, gravity, the end time); with
// any other override, and for every other scene, from the scene's own
// initial state. It returns a one-line note naming the override when the
// default scene cannot keep its packed start ("" otherwise). Overrides
// that do not apply to the scene (an unknown key, a bad value) give no
// note: the restart stays packed and loading the scene reports the error
// alone.
func AutoRestart(o *Options) (note string) {
	if o.Restart != "auto" {
		return ""
	}
	o.Restart = ""
	if o.Scene != DefaultScene {
		return ""
	}
	for _, set := range o.Sets {
		if PackedSetAllowed(set) {
			continue
		}
		if _, err := scene.Find(o.Scene, o.Sets...); err != nil {
			break // bad input: Load names it
		}
		key, _, _ := strings.Cut(set, "=")
		return fmt.Sprintf("--set %s is not one the packed state allows: starting from the scene's initial state", strings.TrimSpace(key))
	}
	o.Restart = "builtin:" + DefaultPacked
	return ""
}
