package ui

import (
	"testing"

	"grainlab/sim/law"
)

// TestLawFieldsFromTable: the panel's law fields are law.Params' panel
// Numbers in table order, each accessor writing its own field of the
// mirror struct, and limit_damping is a checkbox sent as 0 or 1.
func TestLawFieldsFromTable(t *testing.T) {
	want := law.Names(func(p *law.Param) bool { return p.Panel && p.Field != nil })
	var got []string
	for _, f := range lawFields {
		got = append(got, f.Label)
	}
	for _, f := range smoothFields {
		got = append(got, f.Label)
	}
	if len(got) != len(want) {
		t.Fatalf("panel fields %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d: %q, want %q", i, got[i], want[i])
		}
	}
	// distinct accessors: writing i+1 through field i leaves every field its own value
	var lp LawParams
	for i, f := range lawFields {
		*f.Get(&lp) = float64(i + 1)
	}
	for i, f := range lawFields {
		if v := *f.Get(&lp); v != float64(i+1) {
			t.Errorf("law field %s reads %v, want %d: two fields share an accessor", f.Label, v, i+1)
		}
	}
	var sl SmoothLaw
	for i, f := range smoothFields {
		*f.Get(&sl) = float64(i + 1)
	}
	for i, f := range smoothFields {
		if v := *f.Get(&sl); v != float64(i+1) {
			t.Errorf("smooth field %s reads %v, want %d", f.Label, v, i+1)
		}
	}
	if lawNormalFields != 6 || lawFields[lawNormalFields].Label != law.NameOf(func(s *law.Set) *float64 { return &s.Friction.MuS }) {
		t.Errorf("lawNormalFields = %d: the friction fields must follow the normal law's six", lawNormalFields)
	}
	if len(smoothFlags) != 1 {
		t.Fatalf("smoothFlags = %d, want limit_damping", len(smoothFlags))
	}
	f := smoothFlags[0]
	*f.Get(&sl) = true
	if !sl.Smooth.LimitDamping {
		t.Errorf("%s's accessor does not reach SmoothLaw.LimitDamping", f.Label)
	}
	if on, off := flagEdit(f.Label, true), flagEdit(f.Label, false); on.Value != 1 || off.Value != 0 || on.Key != f.Label {
		t.Errorf("flagEdit: %+v, %+v", on, off)
	}
}
