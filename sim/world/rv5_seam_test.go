package world

import (
	"math"
	"testing"

	"grainlab/sim/geom"
)

// TestRV5SeamShift (review r5): whole periods in x and y, two periods,
// either sign; zero (exactly) short of half a period; NaN gives zero.
func TestRV5SeamShift(t *testing.T) {
	p := Periodic{X: true, Y: true, Lo: geom.V(-0.04, -0.04, 0), Hi: geom.V(0.04, 0.04, 1)}
	L := 0.08
	x0 := geom.V(0.039, -0.039, 0.5)
	cases := []struct {
		x    geom.Vec3
		want geom.Vec3
	}{
		{geom.V(0.039+0.039*0.9, -0.039, 0.5), geom.Vec3{}},
		{x0.Add(geom.V(-L+1e-7, L-1e-7, 0.3)), geom.V(-L, L, 0)},
		{x0.Add(geom.V(2*L+1e-7, -2*L, 0)), geom.V(2*L, -2*L, 0)},
		{geom.V(math.NaN(), math.NaN(), 0), geom.Vec3{}},
	}
	for i, c := range cases {
		if s := p.seamShift(x0, c.x); s != c.want || math.Signbit(s.X) && s.X == 0 {
			t.Errorf("case %d: %v, want %v", i, s, c.want)
		}
	}
	q0 := geom.QAxisAngle(geom.V(0.3, 1, 0.2).Unit(), 0.2)
	q := geom.QAxisAngle(geom.V(0.3, 1, 0.2).Unit(), 0.2001)
	pt := x0.Add(geom.V(0.001, 0.002, -0.001))
	d := geom.V(1e-6, -2e-6, 3e-7)
	for _, wr := range []geom.Vec3{geom.V(-L, 0, 0), geom.V(2*L, -L, 0)} {
		got := carryShift(pt, x0, q0, x0.Add(d).Add(wr), q, wr, wr)
		want := carry(pt, x0, q0, x0.Add(d), q).Add(wr)
		if e := got.Sub(want).Norm(); e > 1e-15 {
			t.Errorf("wrap %v: carried %v, want %v (%.3g m)", wr, got, want, e)
		}
	}
}
