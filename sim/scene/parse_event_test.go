package scene

import (
	"reflect"
	"strings"
	"testing"
)

const eventBase = `time: 5
integrator: {dt: 1.0e-4}
contact:
  default: {gbar: 0.001, eps1: 2.0e5}
walls:
  - {type: box, min: [-1, -1, 0], max: [1, 1, 2], open_top: false}
events:
`

func parseEvents(t *testing.T, events string) ([]Event, error) {
	t.Helper()
	s, err := Parse([]byte(eventBase+events), "ev.yaml")
	if err != nil {
		return nil, err
	}
	for i := range s.Events {
		s.Events[i].Path = "" // differs between the forms by construction
	}
	return s.Events, nil
}

// The string and mapping forms of an event decode to equal structs.
func TestEventFormsEqual(t *testing.T) {
	for _, c := range []struct{ str, mapping string }{
		{`"at 2.0 s disable walls left,right,front,back"`, `{at: 2.0, disable_walls: [left, right, front, back]}`},
		{`"at 1.5 s enable walls top"`, `{at: 1.5, enable_walls: [top]}`},
		{`"at 3 s set contact.default.mu_s = 0.5"`, `{at: 3, set: {"contact.default.mu_s": 0.5}}`},
		{`"at 3s set contact.default.mu_s=0.5"`, `{at: 3, set: {contact.default.mu_s: 0.5}}`},
		{`"at 0 s disable walls left, right; enable walls top; set integrator.safety = 0.1"`,
			`{at: 0, disable_walls: [left, right], enable_walls: [top], set: {integrator.safety: 0.1}}`},
		{`at 1e-3 s disable wall bottom`, "\n    at: 0.001\n    disable_walls:\n      - bottom"},
	} {
		a, err := parseEvents(t, "  - "+c.str+"\n")
		if err != nil {
			t.Errorf("%s: %v", c.str, err)
			continue
		}
		b, err := parseEvents(t, "  - "+c.mapping+"\n")
		if err != nil {
			t.Errorf("%s: %v", c.mapping, err)
			continue
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("forms differ:\n%s → %+v\n%s → %+v", c.str, a, c.mapping, b)
		}
	}
	got, _ := parseEvents(t, `  - "at 2 s disable walls left,right; set contact.default.mu_s = 0.5"`+"\n")
	want := []Event{{At: 2, DisableWalls: []string{"left", "right"}, Set: []Assignment{{"contact.default.mu_s", "0.5"}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// Malformed events are errors naming the line (9: the second event).
func TestEventErrors(t *testing.T) {
	for _, c := range []struct{ ev, want string }{
		{`"at two s disable walls left"`, `ev.yaml:9: events[1]: expected "at <time> s <action>`},
		{`"disable walls left at 2 s"`, `ev.yaml:9: events[1]: expected "at <time> s <action>`},
		{`"at 2 s"`, `ev.yaml:9: events[1]: no action after the time`},
		{`"at -1 s disable walls left"`, `ev.yaml:9: events[1]: time must be ≥ 0, got -1`},
		{`"at 2 s disable walls left,,right"`, `ev.yaml:9: events[1]: bad wall name "" in "disable walls left,,right"`},
		{`"at 2 s remove walls left"`, `ev.yaml:9: events[1]: cannot read action "remove walls left"`},
		{`"at 2 s set contact.default.mu_s"`, `ev.yaml:9: events[1]: cannot read action "set contact.default.mu_s"`},
		{`"at 2 s set contact.default.mu_s ="`, `ev.yaml:9: events[1]: missing value in "set contact.default.mu_s ="`},
		{`"at 2 s disable walls lefft"`, `ev.yaml:9: events[1]: unknown wall "lefft" (did you mean "left"?)`},
		{`"at 2 s set contact.default.gbar = -1"`, `ev.yaml:9: events[1].set contact.default.gbar: must be > 0, got -1`},
		{`"at 2 s set bodies.x.mass = 1"`, `ev.yaml:9: events[1].set bodies.x.mass: bodies has no entries to address`},
		{`"at 2 s set time = [1, 2]"`, `ev.yaml:9: events[1].set time: set values must be single numbers, booleans or names`},
		{`{at: 2}`, `ev.yaml:9: events[1]: an event needs disable_walls, enable_walls or set`},
		{`{disable_walls: [left]}`, `ev.yaml:9: events[1]: missing required key "at"`},
		{`{at: 2, disable: [left]}`, `ev.yaml:9: events[1].disable: unknown key (did you mean "disable_walls"?)`},
		{`{at: 2, set: {contact.default.mu_s: [1]}}`, `ev.yaml:9: events[1].set.contact.default.mu_s: set values must be single numbers`},
		{`[at, 2]`, `ev.yaml:9: events[1]: expected a mapping (key: value lines), got a list`},
	} {
		_, err := parseEvents(t, "  - at 1 s disable walls top\n  - "+c.ev+"\n")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s…", c.ev, err, c.want)
		}
	}
}

func TestParseEventString(t *testing.T) {
	ev, msg := parseEventString("  at 2.5 s  enable walls a ; disable walls b,c ")
	if msg != "" || ev.At != 2.5 || !reflect.DeepEqual(ev.EnableWalls, []string{"a"}) ||
		!reflect.DeepEqual(ev.DisableWalls, []string{"b", "c"}) {
		t.Errorf("%+v %q", ev, msg)
	}
}
