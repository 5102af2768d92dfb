package world

import (
	"strings"
	"testing"

	"grainlab/sim/law"
)

// TestSetFieldTable: SetField reaches every Number and Flag of law.Params
// through the table's accessor (LawSet reads back what was set, the other
// fields keep their values), a Flag takes only 0 or 1, and choices and
// unknown keys are refused with the key named.
func TestSetFieldTable(t *testing.T) {
	var p ContactParams
	want := map[string]float64{}
	for i, q := range law.Params {
		v := float64(i + 1)
		if q.Kind == law.Flag {
			v = 1
		}
		err := SetField(&p, q.Name, v)
		if q.Kind == law.Choice {
			if err == nil || !strings.Contains(err.Error(), q.Name) {
				t.Errorf("%s: a choice set by number: error %v", q.Name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", q.Name, err)
		}
		want[q.Name] = v
	}
	s := p.LawSet()
	for i := range law.Params {
		q := &law.Params[i]
		switch {
		case q.Field != nil && *q.Field(&s) != want[q.Name]:
			t.Errorf("%s reads %v, want %v", q.Name, *q.Field(&s), want[q.Name])
		case q.Flag != nil && !*q.Flag(&s):
			t.Errorf("%s not set", q.Name)
		}
	}
	if !p.Smooth.LimitDamping || p.Normal.GBar != want["gbar"] {
		t.Errorf("ContactParams not written: %+v", p)
	}
	for _, c := range []struct {
		key string
		v   float64
	}{{"limit_damping", 0.5}, {"no_such_key", 1}} {
		if err := SetField(&p, c.key, c.v); err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("SetField(%s, %v): error %v, want one naming the key", c.key, c.v, err)
		}
	}
}
