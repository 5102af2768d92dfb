package app

import (
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
