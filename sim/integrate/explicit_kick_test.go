package integrate

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
)

// integrateQ is geom.Quat.Integrate written out: the same bits for random
// orientations, angular velocities and steps over many magnitudes —
// rotation angles below QFromRotVec's series threshold 1e-12, around it
// and up to several turns — and for special values (zeros, NaN, ±Inf; a
// NaN may differ in sign or payload, which no result keeps, see
// body.TestConjugateSameBits).
func TestIntegrateQSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	val := func(spread int) float64 {
		switch rng.IntN(50) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.NaN()
		case 3:
			return math.Inf(1 - 2*rng.IntN(2))
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(spread)-spread/2))
	}
	eq := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	series := 0
	for n := 0; n < 300000; n++ {
		q := geom.Quat{W: val(4), X: val(4), Y: val(4), Z: val(4)}.Normalize()
		w := geom.V(val(20), val(20), val(20))
		dt := math.Abs(val(12))
		if n%3 == 0 { // angles near the series threshold
			w = w.Unit().Scale(1e-12 * (0.5 + rng.Float64()))
			dt = 1
		}
		if a := w.Scale(dt).Norm(); a < 1e-12 {
			series++
		}
		want := q.Integrate(w, dt)
		got := integrateQ(q, w, dt)
		if !eq(got.W, want.W) || !eq(got.X, want.X) || !eq(got.Y, want.Y) || !eq(got.Z, want.Z) {
			t.Fatalf("q %v w %v dt %g: integrateQ %v, want %v", q, w, dt, got, want)
		}
	}
	if series < 1000 {
		t.Fatalf("only %d cases on the series branch", series)
	}
}
