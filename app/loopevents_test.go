package app

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/world"
)

// The hint and status texts of scene events: the four sides of a box read
// "the side walls"; other walls by name; parameter changes by path.
func TestEventTexts(t *testing.T) {
	for _, c := range []struct {
		ev         world.Event
		hint, done string
	}{
		{world.Event{At: 6, Disable: []string{"left", "right", "front", "back"}},
			"the side walls go at t = 6 s", "t = 6.000 s: side walls removed"},
		{world.Event{At: 0.5, Disable: []string{"gate"}},
			"wall gate goes at t = 0.5 s", "t = 0.500 s: wall gate removed"},
		{world.Event{At: 2, Enable: []string{"lid", "left"}, Set: []world.Assign{{Path: "contact.default.mu_s", Value: 0.4}}},
			"walls lid, left come back, contact.default.mu_s becomes 0.4 at t = 2 s",
			"t = 2.000 s: walls lid, left back, contact.default.mu_s = 0.4"},
		{world.Event{At: 1}, "an event at t = 1 s", "t = 1.000 s: scene event"},
	} {
		if got := EventHint(&c.ev); got != c.hint {
			t.Errorf("EventHint(%+v) = %q, want %q", c.ev, got, c.hint)
		}
		if got := EventDone(&c.ev, c.ev.At); got != c.done {
			t.Errorf("EventDone(%+v) = %q, want %q", c.ev, got, c.done)
		}
	}
}

// TestBenchKeepsPackedStart: bench resolves --restart auto by the window's
// rule (AutoRestart): a contact-law --set keeps the shipped packed box (its
// settled pile has contacts at once, the fill's first step has none); a
// --set that changes the bodies starts from the fill and says so on stderr.
func TestBenchKeepsPackedStart(t *testing.T) {
	for _, c := range []struct {
		set     string
		packed  bool
		warning string
	}{
		{"contact.default.mu_s=0.5", true, ""},
		{"generators.fill.seed=3", false, "--set generators.fill.seed is not one the packed state allows"},
	} {
		var out, errb bytes.Buffer
		if code := cmdBench([]string{"--set", c.set, "--time", "1e-4", "--workers", "1"}, &out, &errb); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", c.set, code, errb.String())
		}
		var mean float64
		for _, line := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "contacts" {
				mean, _ = strconv.ParseFloat(f[1], 64)
			}
		}
		if (mean > 0) != c.packed {
			t.Errorf("--set %s: %g mean contacts, want the packed start %v", c.set, mean, c.packed)
		}
		if got := errb.String(); (c.warning == "") != (got == "") || !strings.Contains(got, c.warning) || strings.Count(got, "\n") > 1 {
			t.Errorf("--set %s: stderr %q, want one line with %q", c.set, got, c.warning)
		}
	}
}

// TestAutoRestartSets: on the default scene, integrator and gravity
// overrides keep the packed start (and it loads at the packed time); a bad
// override gives no note, and loading then reports only its error.
func TestAutoRestartSets(t *testing.T) {
	for _, set := range []string{"integrator.name=newmark", "integrator.dt=1e-4", "gravity=[0,0,-4.9]"} {
		o := Options{Scene: DefaultScene, Sets: []string{set}, Restart: "auto", Workers: 1}
		if note := AutoRestart(&o); note != "" || o.Restart != "builtin:"+DefaultPacked {
			t.Errorf("--set %s: restart %q note %q; want the packed start, no note", set, o.Restart, note)
			continue
		}
		s, err := Load(o)
		if err != nil {
			t.Errorf("--set %s: %v", set, err)
			continue
		}
		if s.World.Time != 6 {
			t.Errorf("--set %s: starts at t = %g, want the packed state's 6", set, s.World.Time)
		}
	}
	o := Options{Scene: DefaultScene, Sets: []string{"dt=1e-4"}, Restart: "auto", Workers: 1}
	if note := AutoRestart(&o); note != "" {
		t.Errorf("--set dt=1e-4: note %q, want none (the key is unknown)", note)
	}
	_, err := Load(o)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "dt") {
		t.Errorf("--set dt=1e-4: load error %v, want an input error naming the key", err)
	}
}
