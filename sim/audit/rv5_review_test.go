package audit

import (
	"math"
	"testing"

	"grainlab/sim/geom"
)

// TestRV5PlaneSideUnderflow (review rv5): plane.side claims the exact sign of
// det[p−a, b−a, c−a]; its float filter (plane.sure) takes Shewchuk's
// errboundA, which holds only without underflow. A triangle whose edge
// products are subnormal (coordinates ~2^-537 ≈ 1e-162) has a normal rounded
// by up to half a subnormal ulp per component, and u·n can then have the
// wrong sign while passing the filter (errboundA·perm underflows to 0).
// Here n = (1.5, −8.5, 0)·2^-1074 exactly, rounded to (2, −8, 0)·2^-1074;
// u = (5, 1, 0): exact det = (7.5 − 8.5)·2^-1074 < 0, float det = +2·2^-1074.
func TestRV5PlaneSideUnderflow(t *testing.T) {
	s := math.Ldexp(1, -537)
	tri := [3]geom.Vec3{{}, geom.V(8.5*s, 1.5*s, 0), geom.V(0, 0, s)}
	p := geom.V(5, 1, 0)
	pl := newPlane(&tri)
	want := -orient3dExact(tri[0], tri[1], tri[2], p) // sign of det[b−a, c−a, p−a]
	if o := orient3d(tri[0], tri[1], tri[2], p); o != want {
		t.Fatalf("orient3d %d, exact %d", o, want)
	}
	if got := pl.side(&tri, p); got != want {
		t.Errorf("plane.side = %d, exact sign %d (n = %v, sure = %d)", got, want, pl.n, pl.sure(p))
	}
}
