package integrate

import (
	"grainlab/sim/internal/fma"
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
	// To the bit where nothing fuses; where products may (fma.MayFuse) the
	// written-out copy rounds differently: the angle |ω|Δt by an ulp, and
	// the quaternion by that much times the angle (up to 1e8 rad here), so
	// 1e-14·(1 + |ω|Δt) of a unit quaternion.
	tol := 0.0
	eq := func(a, b float64) bool { return fma.Same(a, b, tol, 1) }
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
		tol = 1e-14 * (1 + w.Norm()*dt)
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

// sincosSmall is math.Sincos to the bit: every x tried — log-uniform from
// 1e-300 to π/4, the 200 floats below π/4 (the octant boundary x·4/π = 1
// lies among them), and the values sent on to math.Sincos (0, negatives,
// large, ±Inf, NaN).
func TestSincosSmallSameBits(t *testing.T) {
	check := func(x float64) {
		s, c := sincosSmall(x)
		ws, wc := math.Sincos(x)
		// To the bit where nothing fuses; math.Sincos's polynomial is
		// compiled into both and fuses differently inlined (fma.MayFuse):
		// 1e-15 relative there.
		if !fma.Same(s, ws, 1e-15, 0) || !fma.Same(c, wc, 1e-15, 0) {
			t.Fatalf("x = %v: sincosSmall (%v, %v), math.Sincos (%v, %v)", x, s, c, ws, wc)
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), -1e-3, 1, math.Nextafter(math.Pi/4, 1), 2, 1e6,
		math.Inf(1), math.Inf(-1), math.NaN(), 5e-324} {
		check(x)
	}
	for x, k := math.Pi/4, 0; k < 200; x, k = math.Nextafter(x, 0), k+1 {
		check(x)
	}
	rng := rand.New(rand.NewPCG(1, 8))
	for n := 0; n < 1000000; n++ {
		check(math.Pi / 4 * math.Pow(10, -300*rng.Float64()))
	}
}
