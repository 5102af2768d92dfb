package world

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// TestOrderCodeSplitSameAsSerial: the renumbering's box and Morton codes
// by ranges (their items in random order, at once on goroutines: `go test
// -race`) are reorder's serial loop's (the largest radius slices.Max's)
// and mortonCodes', to the bit, for 1
// to 1001 centres (ranges of 0 and 1 sphere), with −0 and +0 in every
// coordinate, negative coordinates, and a NaN in some lists (a NaN as any
// NaN: reorder only computes with it). It fails with
// the ranges' boxes joined from the last range only, a range skipped, or
// the radix prefix laid out range by range.
func TestOrderCodeSplitSameAsSerial(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	fork := shuffledFork(rng)
	var o orderCode
	sorts := 0
	defer func() { t.Logf("%d orders, %d split radix sorts", sorts, o.sortsRun) }()
	// A coordinate's bits, any NaN as one (which NaN min and max return
	// depends on the order; reorder only computes with it, and every
	// NaN's codes are the same).
	bits := func(v geom.Vec3) [3]uint64 {
		b := func(x float64) uint64 {
			if x != x {
				return 1
			}
			return math.Float64bits(x)
		}
		return [3]uint64{b(v.X), b(v.Y), b(v.Z)}
	}
	for _, n := range []int{1, 2, 3, 7, 8, 9, 15, 17, 100, 1001} {
		for _, nan := range []bool{false, true} {
			S, rad := make([]sphere.Lin, n), make([]float64, n)
			for k := range S {
				c := func() float64 {
					switch rng.Intn(8) {
					case 0:
						return math.Copysign(0, -1)
					case 1:
						return 0
					}
					return rng.Float64()*0.2 - 0.05
				}
				S[k].X = geom.V(c(), c(), c())
				rad[k] = 0.0005 + 0.001*rng.Float64()
			}
			if nan {
				S[rng.Intn(n)].X.Y = math.NaN()
			}
			lo, hi := S[0].X, S[0].X
			for k := range S {
				x := S[k].X
				lo = geom.V(min(lo.X, x.X), min(lo.Y, x.Y), min(lo.Z, x.Z))
				hi = geom.V(max(hi.X, x.X), max(hi.Y, x.Y), max(hi.Z, x.Z))
			}
			plo, phi, prm := o.box(fork, S, rad)
			if bits(plo) != bits(lo) || bits(phi) != bits(hi) || prm != slices.Max(rad) {
				t.Fatalf("n=%d nan=%v: box %v %v %g, serial %v %v %g", n, nan, plo, phi, prm, lo, hi, slices.Max(rad))
			}
			// Cells of 1.3 mm; none (every code 0); few (many ties); and so
			// many that codes pass 2³² (the serial sort's orderKeys).
			for _, inv := range []float64{1 / 0.0013, 0, 1 / 0.05, 1e7} {
				want, got := make([]uint64, n), make([]uint64, n)
				mortonCodes(S, want, lo, inv)
				o.codes(fork, S, got, lo, inv)
				if !slices.Equal(want, got) {
					t.Fatalf("n=%d nan=%v inv=%g: codes differ", n, nan, inv)
				}
				wp, gp := make([]int32, n), make([]int32, n)
				mortonPerm(want, wp, &orderScratch{})
				o.mortonPerm(fork, got, gp, &orderScratch{})
				if !slices.Equal(wp, gp) {
					t.Fatalf("n=%d nan=%v inv=%g: the split Morton order differs", n, nan, inv)
				}
				sorts++
			}
		}
	}
}
