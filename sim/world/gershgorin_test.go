package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
)

// TestGershgorinAsDefined: gershgorin is max(0, r0, r1, r2) of the rows'
// sums of magnitudes to the bit, and NaN when the matrix holds one, on
// random matrices with zeros of both signs, infinities and NaN among the
// entries.
func TestGershgorinAsDefined(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e300}
	for trial := 0; trial < 20000; trial++ {
		var m geom.Mat3
		for i := range m {
			for j := range m[i] {
				if rng.IntN(5) == 0 {
					m[i][j] = special[rng.IntN(len(special))]
				} else {
					m[i][j] = rng.NormFloat64()
				}
			}
		}
		var r [3]float64
		for i := range m {
			r[i] = math.Abs(m[i][0]) + math.Abs(m[i][1]) + math.Abs(m[i][2])
		}
		want, got := max(0, r[0], r[1], r[2]), gershgorin(&m)
		if !(math.Float64bits(got) == math.Float64bits(want) || got != got && want != want) {
			t.Fatalf("trial %d: gershgorin(%v) = %v, want %v", trial, m, got, want)
		}
	}
}
