package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// The split evaluation's force test (each part's terms tested by
// forceTerms, combined by forcesBad) answers as the serial sum of every
// sphere's F.X + … + T.Z does, including where finite forces overflow the
// sum (1e308 + 1e308 − 1e308: bad serially, not by parts of one sphere
// each) or cancel before they would (1e308 − 1e308 + 1e308: fine), and
// where a component is NaN or infinite: 3000 random states of 40 spheres in
// 8 parts, forces of magnitudes from 1 to 1e308 and one in 50 not finite.
func TestSpherePathForcesBadByParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var s Spheres
	s.tr.Resize(40)
	n := len(s.tr.L)
	val := func() float64 {
		switch rng.IntN(50) {
		case 0:
			return []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
		}
		return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(4))*102.6)
	}
	bad, fine := 0, 0
	for range 3000 {
		for k := range s.tr.L {
			s.tr.L[k], s.tr.R[k] = sphere.Lin{}, sphere.Rot{}
			if rng.IntN(4) == 0 {
				s.tr.L[k].F = geom.V(val(), 0, 0)
				s.tr.R[k].T = geom.V(0, 0, val())
			}
		}
		for c := range nChunks {
			s.chunkFin[c], s.chunkBig[c] = forceTerms(s.tr.Slice(c*n/nChunks, (c+1)*n/nChunks))
		}
		want := s.forcesBad(false)
		if got := s.forcesBad(true); got != want {
			t.Fatalf("by parts: bad %v, the serial sum says %v (%v %v)", got, want, s.tr.L, s.tr.R)
		}
		if want {
			bad++
		} else {
			fine++
		}
	}
	// The overflow cases above, by hand.
	for _, c := range []struct {
		f    []float64
		want bool
	}{{[]float64{1e308, 1e308, -1e308}, true}, {[]float64{1e308, -1e308, 1e308}, false}, {[]float64{1, 2, 3}, false}} {
		for k := range s.tr.L {
			s.tr.L[k], s.tr.R[k] = sphere.Lin{}, sphere.Rot{}
			if k < len(c.f) {
				s.tr.L[k].F.X = c.f[k]
			}
		}
		for p := range nChunks {
			lo, hi := min(p, 3), min(p+1, 3) // one sphere a part
			if p == nChunks-1 {
				hi = n
			}
			s.chunkFin[p], s.chunkBig[p] = forceTerms(s.tr.Slice(lo, hi))
		}
		if got := s.forcesBad(true); got != c.want || s.forcesBad(false) != c.want {
			t.Errorf("forces %v: bad %v by parts, %v serially, want %v", c.f, got, s.forcesBad(false), c.want)
		}
	}
	t.Logf("%d states with a bad sum, %d fine", bad, fine)
}
