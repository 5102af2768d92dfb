package world

import (
	"math"
	"testing"

	"grainlab/sim/geom"
)

// Reviewer r1: freshAbove's B = 2√3·m + 2ω is finite while a pair's
// |V_i − V_j| (geom.Vec3.Norm: sqrt of a sum of squares) overflows to +Inf
// once the components pass ≈ 1.3e154: the pair's bound is then h/Inf = 0
// but the shortcut keeps dt.
func TestStableDtFreshAboveOverflow(t *testing.T) {
	const n = 2000
	set := func(s *Spheres) {
		for k := range s.tr.L {
			a := 1e154
			if k%2 == 1 {
				a = -a
			}
			s.tr.L[k].V, s.tr.R[k].W = geom.V(a, 0, 0), geom.Vec3{}
		}
	}
	ref := freshSpheres(n, 1, -1)
	set(ref)
	bound := ref.freshDt(ref.fresh)
	s := freshSpheres(n, 1, -1)
	set(s)
	s.w.Settings.DtMax, s.w.Settings.DtMin = 1e-160, 0
	want := min(1e-160, bound)
	if got := s.StableDt(); math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("dt %v, want %v (pairs' bound %v)", got, want, bound)
	}
}
