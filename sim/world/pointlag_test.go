package world

import (
	"math"
	"testing"

	"grainlab/sim/geom"
)

// TestPointLagCarry: carry keeps a point fixed in its body — its body-frame
// coordinates at the new pose are those at the old one — and returns the
// point itself, to the bit, when the body has not moved.
func TestPointLagCarry(t *testing.T) {
	x0, q0 := geom.V(0.01, -0.02, 0.03), geom.QAxisAngle(geom.V(1, 2, 3).Unit(), 0.7)
	x, q := geom.V(0.011, -0.019, 0.0305), geom.QAxisAngle(geom.V(-2, 1, 0.5).Unit(), 1.9)
	for _, p := range []geom.Vec3{geom.V(0.012, -0.02, 0.031), geom.V(0, 0, 0), geom.V(0.01, -0.02, 0.03)} {
		c := carry(p, x0, q0, x, q)
		want, got := q0.InvRotate(p.Sub(x0)), q.InvRotate(c.Sub(x))
		if d := got.Sub(want).Norm(); !(d <= 1e-15) {
			t.Errorf("p %v: body-frame coordinates %v at the new pose, %v at the old (%.3g apart)", p, got, want, d)
		}
		if r0, r := p.Sub(x0).Norm(), c.Sub(x).Norm(); math.Abs(r-r0) > 1e-15 {
			t.Errorf("p %v: distance to the centre %.17g → %.17g", p, r0, r)
		}
		if carry(p, x0, q0, x0, q0) != p {
			t.Errorf("p %v moved by a body at rest", p)
		}
	}
}
