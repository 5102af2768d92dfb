package world

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// StableDt's shortcut for a list of fresh pairs (freshAbove): when one pass
// over the spheres shows that no fresh pair's travel bound can be below
// the step so far, the pairs are not visited. The step must be the bits of
// min(DtMax, freshDt over every pair) whatever the speeds — at rest, one
// common velocity, small and large random speeds, speeds from rotation
// only, a NaN — for DtMax on both sides of the pairs' smallest bound; and
// the shortcut must be taken where it is meant to be (at rest, a common
// velocity: the first list of a generated scene).
func TestStableDtFreshAbove(t *testing.T) {
	const n = 2000
	cases := []struct {
		name  string
		set   func(s *Spheres, rng *rand.Rand)
		taken bool // freshAbove at DtMax = 1
	}{
		{"rest", func(s *Spheres, _ *rand.Rand) {
			for k := range s.tr.L {
				s.tr.L[k].V, s.tr.R[k].W = geom.Vec3{}, geom.Vec3{}
			}
		}, true},
		{"common velocity", func(s *Spheres, _ *rand.Rand) {
			for k := range s.tr.L {
				s.tr.L[k].V, s.tr.R[k].W = geom.V(0.3, -2, 1e5), geom.Vec3{}
			}
		}, true},
		{"signed zeros", func(s *Spheres, _ *rand.Rand) {
			for k := range s.tr.L {
				s.tr.L[k].V, s.tr.R[k].W = geom.V(math.Copysign(0, float64(k%2)-0.5), 0, 0), geom.Vec3{}
			}
		}, true},
		{"slow", func(s *Spheres, rng *rand.Rand) {
			for k := range s.tr.L {
				s.tr.L[k].V = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(1e-9)
				s.tr.R[k].W = s.tr.R[k].W.Scale(1e-9)
			}
		}, true},
		{"fast", func(*Spheres, *rand.Rand) {}, false},
		{"turning only", func(s *Spheres, _ *rand.Rand) {
			for k := range s.tr.L {
				s.tr.L[k].V, s.tr.R[k].W = geom.Vec3{}, geom.Vec3{}
			}
			s.tr.R[n/2].W = geom.V(0, 1e3, 0)
		}, false},
		{"all turning", func(s *Spheres, _ *rand.Rand) { // r1: both spheres of a pair turn: speed 2ω·r, the 2 of 2ω
			for k := range s.tr.L {
				s.tr.L[k].V, s.tr.R[k].W = geom.Vec3{}, geom.V(0, 1e3, 0)
			}
		}, false},
		{"diagonal", func(s *Spheres, _ *rand.Rand) { // V_0 = 0, |V_i − V_i+1| = 2√3·m: the bound itself
			for k := range s.tr.L {
				s.tr.L[k].V, s.tr.R[k].W = geom.V(1, 1, 1).Scale(float64(2*(k%2)-1)*1e-2), geom.Vec3{}
			}
			s.tr.L[0].V = geom.Vec3{}
		}, false},
		{"nan", func(s *Spheres, _ *rand.Rand) {
			for k := range s.tr.L {
				s.tr.L[k].V, s.tr.R[k].W = geom.Vec3{}, geom.Vec3{}
			}
			s.tr.L[7].V.Y = math.NaN()
		}, false},
	}
	for _, c := range cases {
		ref := freshSpheres(n, 1, -1)
		c.set(ref, rand.New(rand.NewSource(9)))
		bound := ref.freshDt(ref.fresh) // every pair's travel bound, smallest
		if got := freshSpheres(n, 1, -1); true {
			c.set(got, rand.New(rand.NewSource(9)))
			if taken := got.freshAbove(1); taken != c.taken {
				t.Errorf("%s: freshAbove(1) = %v, want %v (pairs' bound %v)", c.name, taken, c.taken, bound)
			}
		}
		for _, dtMax := range []float64{1, bound * 2, bound * 1.5, bound * (1 + 1e-12), bound, bound * (1 - 1e-12), bound / 2, 1e-12} {
			if !(dtMax > 0) || math.IsInf(dtMax, 0) {
				continue
			}
			s := freshSpheres(n, 1, -1)
			c.set(s, rand.New(rand.NewSource(9)))
			s.w.Settings.DtMax = dtMax
			want := min(dtMax, bound)
			if got := s.StableDt(); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s, DtMax %v: dt %v, want %v", c.name, dtMax, got, want)
			}
			for k, f := range s.isFresh {
				if f {
					t.Fatalf("%s: pair %d still fresh", c.name, k)
				}
			}
		}
	}
}
