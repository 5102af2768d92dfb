package sphere

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// TestRVSplitTiny (review r1): lists of 0 to 9 pairs in 8 ranges cut as
// relJob cuts them (c·n/8: empty ranges), loose and not, every level and
// limits 0..m+1: SelectRange + JoinParts give Select's/SelectLoose's P, K,
// Out, Held, On and result.
func TestRVSplitTiny(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	c := innerSetup(rng, 120, false)
	all := c.l.P
	for m := range 10 {
		c.l.P = all[:m]
		l := c.l
		for _, withLoose := range []bool{false, true} {
			var loose []bool
			if withLoose {
				loose = make([]bool, len(c.ref))
				for i := range loose {
					loose[i] = rng.Intn(3) == 0
				}
			}
			for lev := range InnerLevels {
				for limit := 0; limit <= m+1; limit++ {
					var ws, got Inner
					ws.Delta, got.Delta = c.skin/InnerLevels, c.skin/InnerLevels
					wok := ws.SelectLoose(l, c.ref, loose, lev, limit)
					parts := got.Parts(8)
					for i := range parts {
						got.SelectRange(l, c.ref, loose, lev, limit, i*m/8, (i+1)*m/8, &parts[i])
					}
					gok := got.JoinParts(l, parts, lev, limit)
					if gok != wok || got.On != ws.On || got.Held != ws.Held ||
						math.Float64bits(got.Out) != math.Float64bits(ws.Out) ||
						!slices.Equal(got.P, ws.P) || !slices.Equal(got.K, ws.K) {
						t.Fatalf("m %d loose %v level %d limit %d: split %v on %v held %d out %g n %d; serial %v on %v held %d out %g n %d",
							m, withLoose, lev, limit, gok, got.On, got.Held, got.Out, len(got.P), wok, ws.On, ws.Held, ws.Out, len(ws.P))
					}
				}
			}
		}
	}
}
