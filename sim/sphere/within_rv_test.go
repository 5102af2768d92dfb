package sphere

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// TestRvWithinSubnormalsAndRuns: within against withinGo with subnormal
// and tiny coordinates (squares that underflow to subnormals or 0), NaNs of
// other payloads, long lists (up to 70 pairs) with runs of hits, bad
// indices of every kind at any position, cut2 = the exact d² of some pair.
func TestRvWithinSubnormalsAndRuns(t *testing.T) {
	r := rand.New(rand.NewSource(2026))
	vals := []float64{5e-324, -5e-324, 2.2250738585072014e-308, 1e-160, -1e-160, 1e-154, 0, math.Copysign(0, -1),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000123), math.Inf(1), math.MaxFloat64, 1.3407807929942596e154}
	coord := func() float64 {
		switch r.Intn(4) {
		case 0:
			return vals[r.Intn(len(vals))]
		case 1:
			return float64(r.Intn(3)) * 1e-160
		default:
			return (r.Float64() - 0.5) * math.Pow(10, float64(r.Intn(6)-3))
		}
	}
	for trial := 0; trial < 30000; trial++ {
		X := make([]geom.Vec3, 1+r.Intn(40))
		for i := range X {
			X[i] = geom.Vec3{X: coord(), Y: coord(), Z: coord()}
		}
		P := make([]Pair, r.Intn(70))
		for k := range P {
			P[k] = Pair{int32(r.Intn(len(X))), int32(r.Intn(len(X)))}
		}
		if trial%4 == 0 && len(P) > 0 {
			bad := []int32{-1, int32(len(X)), math.MaxInt32, math.MinInt32, -2}[r.Intn(5)]
			k := r.Intn(len(P))
			if r.Intn(2) == 0 {
				P[k].I = bad
			} else {
				P[k].J = bad
			}
		}
		cut2 := []float64{1e-320, 5e-324, 0, 1e-6, 1, math.Inf(1), math.NaN()}[r.Intn(7)]
		if len(P) > 0 && r.Intn(2) == 0 {
			p := P[r.Intn(len(P))]
			if uint32(p.I) < uint32(len(X)) && uint32(p.J) < uint32(len(X)) {
				d := X[p.I].Sub(X[p.J])
				cut2 = dist2(d.X, d.Y, d.Z)
			}
		}
		for _, k := range []int{0, r.Intn(len(P) + 1), len(P)} {
			ha, ma := withinScan(true, P, X, k, cut2)
			hg, mg := withinScan(false, P, X, k, cut2)
			if !slices.Equal(ha, hg) || ma != mg {
				t.Fatalf("trial %d k %d cut2 %v: within %v %q, withinGo %v %q", trial, k, cut2, ha, ma, hg, mg)
			}
		}
	}
}
