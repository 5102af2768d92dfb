package sphere

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// withinCall runs f and returns its answer, or the panic's text.
func withinCall(f func(P []Pair, X []geom.Vec3, k int, cut2 float64) int, P []Pair, X []geom.Vec3, k int, cut2 float64) (j int, msg string) {
	defer func() {
		if e := recover(); e != nil {
			j, msg = -1, fmt.Sprint(e)
		}
	}()
	return f(P, X, k, cut2), ""
}

// withinCoord is a random coordinate: mostly small integers (so that
// squared distances equal to cut2 are common), some fractions, and now
// and then ±0, ±Inf, NaN or a huge value (squares overflow to +Inf).
func withinCoord(r *rand.Rand, special float64) float64 {
	if r.Float64() < special {
		switch r.Intn(7) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1)
		case 2:
			return math.Inf(-1)
		case 3:
			return math.Copysign(0, -1)
		case 4:
			return 0
		case 5:
			return 1e200
		default:
			return -1e-200
		}
	}
	if r.Intn(2) == 0 {
		return float64(r.Intn(5) - 2)
	}
	return 4*r.Float64() - 2
}

// TestWithinAsmMatchesGo: within (on amd64 below v3 the SSE2 assembly)
// returns withinGo's pair from every start k, on random lists of every
// length from 0 to 24 over centres with integer, fractional and special
// coordinates (NaN, ±Inf, ±0, overflowing squares), cut-offs equal to
// squared distances and special ones (0, −0, negative, +Inf, NaN), the
// first hit in any lane of a turn, at the end or nowhere; and panics
// where withinGo panics, with its message (an index out of range, negative
// or ≥ len(X); k beyond len(P)).
func TestWithinAsmMatchesGo(t *testing.T) {
	if !withinAsm {
		t.Log("within is withinGo on this build: the comparison is trivial")
	}
	r := rand.New(rand.NewSource(19))
	var hits [4]int // first hits at distances 0, 1, 2, 3 (mod 4) from k
	var ends, panics, eq int
	for trial := 0; trial < 40000; trial++ {
		special := 0.0
		if trial%4 == 1 {
			special = 0.1
		}
		X := make([]geom.Vec3, r.Intn(13)) // empty: every pair is out of range
		for i := range X {
			X[i] = geom.Vec3{X: withinCoord(r, special), Y: withinCoord(r, special), Z: withinCoord(r, special)}
		}
		P := make([]Pair, r.Intn(25))
		for k := range P {
			P[k] = Pair{int32(r.Intn(len(X) + 1)), int32(r.Intn(len(X) + 1))} // len(X): out of range, 1 in 2 to 13
		}
		if trial%3 != 0 { // indices in range (X not empty), or ...
			for k := range P {
				P[k] = Pair{P[k].I % max(int32(len(X)), 1), P[k].J % max(int32(len(X)), 1)}
			}
		}
		if trial%5 == 2 && len(P) > 0 { // ... one out of range
			bad := []int32{-1, int32(len(X)), int32(len(X)) + 1, math.MaxInt32, math.MinInt32}[r.Intn(5)]
			k := r.Intn(len(P))
			if r.Intn(2) == 0 {
				P[k].I = bad
			} else {
				P[k].J = bad
			}
		}
		var cut2 float64
		switch r.Intn(12) {
		case 0:
			cut2 = math.NaN()
		case 1:
			cut2 = math.Inf(1)
		case 2:
			cut2 = math.Copysign(0, -r.Float64())
		case 3:
			cut2 = -1
		case 4, 5, 6:
			cut2 = float64(r.Intn(10)) // often a squared distance exactly
		default:
			cut2 = 4 * r.Float64()
		}
		for k := 0; k <= len(P)+1; k++ {
			ja, ma := withinCall(within, P, X, k, cut2)
			jg, mg := withinCall(withinGo, P, X, k, cut2)
			if ja != jg || ma != mg {
				t.Fatalf("trial %d k %d cut2 %v: within %d %q, withinGo %d %q\nP %v\nX %v", trial, k, cut2, ja, ma, jg, mg, P, X)
			}
			switch {
			case mg != "":
				panics++
			case jg == len(P):
				ends++
			default:
				hits[(jg-k)%4]++
				p := P[jg]
				d := X[p.I].Sub(X[p.J])
				if dist2(d.X, d.Y, d.Z) == cut2 {
					t.Fatalf("trial %d: pair %d at d² = cut2 reported within", trial, jg)
				}
			}
			if jg == len(P) || mg != "" {
				continue
			}
			for _, p := range P[k:jg] { // pairs passed at d² = cut2 exactly
				if p.I >= 0 && int(p.I) < len(X) && p.J >= 0 && int(p.J) < len(X) {
					d := X[p.I].Sub(X[p.J])
					if dist2(d.X, d.Y, d.Z) == cut2 {
						eq++
					}
				}
			}
		}
	}
	t.Logf("first hits at k + 0, 1, 2, 3 (mod 4): %v; none: %d; panics: %d; passed at d² = cut2: %d", hits, ends, panics, eq)
	if min(hits[0], hits[1], hits[2], hits[3]) < 10000 || ends < 10000 || panics < 10000 || eq < 1000 {
		t.Fatal("the comparison is too weak")
	}
}
