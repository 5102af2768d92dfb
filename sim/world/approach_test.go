package world

import (
	"math"
	"testing"
)

// ApproachDt is the root of vΔt + ½aΔt² = h: the travel at the bound is h
// (to 1e-14 relative), h/v without acceleration, √(2h/a) from rest, and no
// bound (+Inf) for a point at rest without acceleration.
func TestApproachDt(t *testing.T) {
	for _, c := range []struct{ h, v, a float64 }{
		{1e-3, 2, 9.81}, {1e-3, 0, 9.81}, {1e-3, 2, 0}, {0.05, 1e-6, 1e3}, {2e-4, 30, 1e-9},
	} {
		dt := ApproachDt(c.h, c.v, c.a)
		if travel := c.v*dt + 0.5*c.a*dt*dt; math.Abs(travel-c.h) > 1e-14*c.h {
			t.Errorf("h %g, v %g, a %g: Δt %g travels %g, want h", c.h, c.v, c.a, dt, travel)
		}
	}
	if dt := ApproachDt(1e-3, 2, 0); dt != 5e-4 {
		t.Errorf("no acceleration: Δt %g, want h/v = 5e-4", dt)
	}
	if dt, want := ApproachDt(1e-3, 0, 9.81), math.Sqrt(2e-3/9.81); math.Abs(dt-want) > 1e-15*want {
		t.Errorf("from rest: Δt %g, want √(2h/a) = %g", dt, want)
	}
	if dt := ApproachDt(1e-3, 0, 0); !math.IsInf(dt, 1) {
		t.Errorf("at rest without acceleration: Δt %g, want +Inf", dt)
	}
}
