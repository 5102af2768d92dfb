package law

import (
	"math"
	"math/rand/v2"
	"testing"
)

// powExact must return math.Pow's bits for every x: random positive x
// over the whole exponent range (products near the subnormal and overflow
// limits included), the special values and negative x, for the integer
// exponents it shortcuts and for others it hands to Pow.
func TestPowExactSameBits(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2, math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-511, 0x1p-512,
		0x1p-341, 0x1p-342, 0x1p511, 0x1p512, 0x1p341, 0x1p342, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), -3.5, 1e-3}
	for i := 0; i < 200000; i++ {
		x := math.Ldexp(1+r.Float64(), r.IntN(2100)-1050) // 2^-1050 … 2^1050
		if i%3 == 0 {
			x = 1e-3 * r.Float64() // the gaps of part (i)
		}
		xs = append(xs, x)
	}
	n := 0
	for _, x := range xs {
		for _, y := range []float64{0, 1, 2, 3, 4, 1.5, -1, -2, -3, -4, -0.5} {
			got, want := powExact(x, y), math.Pow(x, y)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("powExact(%v, %v) = %v (%#x), math.Pow = %v (%#x)", x, y, got, math.Float64bits(got), want, math.Float64bits(want))
			}
			n++
		}
	}
	if n < 2200000 {
		t.Fatalf("only %d cases", n)
	}
}
