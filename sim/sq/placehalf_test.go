package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/internal/fma"
)

// TestPlaceHalfWidthsSameBits: PlaceHalfWidths (the placement and the world
// box's half-widths in one call, the narrow phase's per-body step) leaves
// the Prepared with the pose and geom.Quat.Mat's matrix (S1 eq. 4) and
// returns what HalfWidths returns after Place, for 4 000 random shapes (n up to 10) at random
// positions and unit, non-unit, axis-aligned and signed-zero quaternions,
// and for quaternions with ±∞ and NaN components. Tolerance: none where
// nothing fuses; 1e-12 relative on FMA builds (fma.MayFuse: the two copies
// of the sums may fuse differently).
func TestPlaceHalfWidthsSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(24)))
	odd := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e300}
	for k := 0; k < 4000; k++ {
		s := randShape(rng, 10)
		x := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		var q geom.Quat
		switch k % 4 {
		case 0:
			q = randQuat(rng)
		case 1: // not normalised
			q = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		case 2: // axis-aligned, signed zeros
			c := [4]float64{}
			c[rng.Intn(4)] = []float64{1, -1}[rng.Intn(2)]
			for i := range c {
				if c[i] == 0 && rng.Intn(2) == 0 {
					c[i] = math.Copysign(0, -1)
				}
			}
			q = geom.Quat{W: c[0], X: c[1], Y: c[2], Z: c[3]}
		default: // odd components
			q = geom.Quat{W: odd[rng.Intn(len(odd))], X: odd[rng.Intn(len(odd))], Y: odd[rng.Intn(len(odd))], Z: odd[rng.Intn(len(odd))]}
		}
		want := s.Prepare()
		want.Place(x, q)
		hw := want.HalfWidths()
		got := s.Prepare()
		got.Place(geom.Vec3{X: 9, Y: 9, Z: 9}, geom.Quat{W: 0.6, X: 0.8}) // an earlier placement, overwritten
		h := got.PlaceHalfWidths(x, q)
		if !fma.Equal(h, hw, 1e-12, 0) {
			t.Fatalf("case %d (q %v): half-widths %v, Place+HalfWidths %v", k, q, h, hw)
		}
		if !fma.Equal(got.r, q.Mat(), 1e-12, 0) || got.x != want.x || got.placed != want.placed ||
			math.Float64bits(got.q.W) != math.Float64bits(want.q.W) || math.Float64bits(got.q.X) != math.Float64bits(want.q.X) ||
			math.Float64bits(got.q.Y) != math.Float64bits(want.q.Y) || math.Float64bits(got.q.Z) != math.Float64bits(want.q.Z) {
			t.Fatalf("case %d (q %v): placed %+v %v %v, Place %+v %v %v", k, q, got.r, got.x, got.q, want.r, want.x, want.q)
		}
	}
}
