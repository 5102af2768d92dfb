package ui

import (
	"math"
	"reflect"
	"testing"

	"github.com/inkyblackness/imgui-go/v4"
)

// The Compare section's law edits: bare keys are the default pair's,
// full paths stay, separators are spaces, commas or semicolons, and an
// item without key=value is refused naming it.
func TestParseCompareSets(t *testing.T) {
	got, err := ParseCompareSets(" mu_s=0.3, eps1=5e4;contact.pair.a.b.mu_d=0.1  integrator.dt=1e-4")
	want := []string{"contact.default.mu_s=0.3", "contact.default.eps1=5e4", "contact.pair.a.b.mu_d=0.1", "integrator.dt=1e-4"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %q (%v), want %q", got, err, want)
	}
	if got, err := ParseCompareSets("  "); err != nil || len(got) != 0 {
		t.Errorf("empty: %q %v", got, err)
	}
	for _, bad := range []string{"mu_s", "=3", "mu_s="} {
		if _, err := ParseCompareSets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The comparison plot maps both series onto one scale: the lowest value
// at the bottom edge, the highest at the top, x spread over the width;
// non-finite samples are left out.
func TestSeriesPoints(t *testing.T) {
	p0 := imgui.Vec2{X: 10, Y: 20}
	pts := seriesPoints([]float32{1, 3, float32(math.NaN()), 2}, 1, 3, p0, 90, 40)
	want := []imgui.Vec2{{X: 10, Y: 60}, {X: 40, Y: 20}, {X: 100, Y: 40}}
	if !reflect.DeepEqual(pts, want) {
		t.Errorf("got %v, want %v", pts, want)
	}
}
