package world

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TravelFloor is at most every body's travel term ApproachDt(h, v, acc)
// (the step control skips its walk over the bodies when the floor clears
// its limit, so a floor above one term would change Δt): random sets of
// bodies whose speeds and accelerations mix 0, ordinary values, +Inf and
// the tiny values (v below 1.5e-154, so v² is subnormal; 2·acc·h rounding
// to 0) at which 2h/(v + √(v² + 2ah)) exceeds h/v in floating point — a
// body moving under no force beside one with the smallest acceleration. The world's
// maxima are formed as speedOf and speedsSum form them.
func TestTravelFloorBelowEveryTerm(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 15))
	pick := func(tiny float64) float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Inf(1)
		case 2, 3:
			return tiny * (1 + 100*rng.Float64())
		default:
			return math.Exp(rng.Float64()*20 - 10)
		}
	}
	w := New("floor")
	checked := 0
	for trial := 0; trial < 200000; trial++ {
		n := 1 + rng.IntN(4)
		h := math.Exp(rng.Float64()*10 - 8)
		v, a := make([]float64, n), make([]float64, n)
		var sw stepWorld
		for i := range v {
			v[i], a[i] = pick(1e-160), pick(5e-324/h)
			if trial%3 == 0 { // no other mixing: the tiny regime alone
				v[i], a[i] = 1e-158*(1+rng.Float64()), 0
				if i > 0 { // the smallest acceleration: 2·acc·h rounds to 0 for h < ¼
					a[i] = 5e-324
				}
			}
			sw.sMax, sw.accMax = max(sw.sMax, v[i]*boundUp), max(sw.accMax, a[i])
		}
		w.bound.visitSw = sw
		floor := w.TravelFloor(h)
		for i := range v {
			if d := ApproachDt(h, v[i], a[i]); !(floor <= d) {
				t.Fatalf("h=%g: floor %g above body %d's term %g (v=%g, acc=%g; world %g, %g)", h, floor, i, d, v[i], a[i], sw.sMax, sw.accMax)
			}
			checked++
		}
	}
	for _, h := range []float64{0, -1, math.NaN()} {
		if f := w.TravelFloor(h); !math.IsNaN(f) {
			t.Fatalf("TravelFloor(%g) = %g, want NaN", h, f)
		}
	}
	t.Logf("%d terms checked", checked)
}
