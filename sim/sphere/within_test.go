package sphere

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand"
	"runtime"
	"slices"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/internal/cputime"
)

// withinScan lists the pairs within from k on as hookeRowsOne visits
// them (within's answers, each bit of m; withinGo: each first pair from
// the last one on), checking within's contract (next > k, the hits in [k,
// next) above j), and the panic's text if it panics.
func withinScan(asm bool, P []Pair, X []geom.Vec3, k int, cut2 float64) (hits []int, msg string) {
	defer func() {
		if e := recover(); e != nil {
			msg = fmt.Sprint(e)
		}
	}()
	if !asm {
		for j := withinGo(P, X, k, cut2); j < len(P); j = withinGo(P, X, j+1, cut2) {
			hits = append(hits, j)
		}
		_ = P[k:]
		return hits, ""
	}
	for k < len(P) {
		j, m, next := within(P, X, k, cut2)
		if next <= k || (m == 0 && (j != len(P) || next != len(P))) || (m != 0 && j >= len(P)) || j < k || j+bits.Len(m) > next || m > 255 { // a turn: eight pairs
			return hits, fmt.Sprintf("within(%d) = %d, %b, %d", k, j, m, next)
		}
		for ; m != 0; m &= m - 1 {
			hits = append(hits, j+bits.TrailingZeros(m))
		}
		k = next
	}
	_ = P[k:]
	return hits, ""
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
// gives the pairs that withinGo finds from every start k, in order, with
// within's contract on j, m and next, on random lists of every
// length from 0 to 40 (up to five turns of eight pairs and every tail) over centres with integer, fractional and special
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
	var first [8]int // first hits at distances 0 … 7 (mod 8) from k
	var hits, ends, panics, eq int
	for trial := 0; trial < 40000; trial++ {
		special := 0.0
		if trial%4 == 1 {
			special = 0.1
		}
		X := make([]geom.Vec3, r.Intn(13)) // empty: every pair is out of range
		for i := range X {
			X[i] = geom.Vec3{X: withinCoord(r, special), Y: withinCoord(r, special), Z: withinCoord(r, special)}
		}
		P := make([]Pair, r.Intn(41))
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
			ha, ma := withinScan(true, P, X, k, cut2)
			hg, mg := withinScan(false, P, X, k, cut2)
			if !slices.Equal(ha, hg) || ma != mg {
				t.Fatalf("trial %d k %d cut2 %v: within %v %q, withinGo %v %q\nP %v\nX %v", trial, k, cut2, ha, ma, hg, mg, P, X)
			}
			if mg != "" {
				panics++
			}
			if len(hg) == 0 {
				ends++
			} else {
				first[(hg[0]-k)%8]++
				hits += len(hg)
			}
			if mg != "" {
				continue
			}
			for i := k; i < len(P); i++ { // pairs passed at d² = cut2 exactly
				p := P[i]
				d := X[p.I].Sub(X[p.J])
				if dist2(d.X, d.Y, d.Z) == cut2 {
					eq++
				}
			}
		}
	}
	t.Logf("pairs within %d, the first at k + 0 … 7 (mod 8): %v; none: %d; panics: %d; pairs at d² = cut2: %d", hits, first, ends, panics, eq)
	if slices.Min(first[:]) < 3000 || ends < 10000 || panics < 10000 || eq < 1000 {
		t.Fatal("the comparison is too weak")
	}
}

// BenchmarkWithin scans a half list of a jittered cubic lattice of 20³
// spheres (diameter 1, spacing 1.005, the pairs within 1.5: about one in
// ten within the cut-off 1, as on the 10⁵ box) the way hookeRowsOne
// does: within (on amd64 below v3 the assembly; its hits bit by bit) and
// withinGo (a call a hit).
func BenchmarkWithin(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	const n = 20
	var X []geom.Vec3
	for i := 0; i < n*n*n; i++ {
		j := func() float64 { return 0.04 * (r.Float64() - 0.5) }
		X = append(X, geom.Vec3{X: 1.005*float64(i%n) + j(), Y: 1.005*float64(i/n%n) + j(), Z: 1.005*float64(i/(n*n)) + j()})
	}
	var P []Pair
	for i := range X {
		for j := i + 1; j < len(X); j++ {
			if d := X[i].Sub(X[j]); d.Norm2() < 1.5*1.5 {
				P = append(P, Pair{int32(i), int32(j)})
			}
		}
	}
	scans := []struct {
		name string
		scan func() int
	}{
		{"asm", func() (hits int) {
			for k := 0; k < len(P); {
				_, m, next := within(P, X, k, 1)
				hits += bits.OnesCount(m)
				k = next
			}
			return hits
		}},
		{"go", func() (hits int) {
			for k := withinGo(P, X, 0, 1); k < len(P); k = withinGo(P, X, k+1, 1) {
				hits++
			}
			return hits
		}},
	}
	for _, f := range scans {
		b.Run(f.name, func(b *testing.B) {
			hits := 0
			for b.Loop() {
				hits += f.scan()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(P)), "ns/pair")
			b.ReportMetric(float64(hits)/float64(b.N*len(P)), "hits/pair")
		})
	}
}

// BenchmarkWithinLarge is BenchmarkWithin's scan (within, the assembly on
// amd64 below v3) on a lattice of 100³ spheres (10⁶: 24 MB of centres,
// 9·10⁶ pairs, I in sphere order as a list built cell by cell over
// spheres in lattice order has them): the gathers of X[J] a layer away
// miss the caches as on the 10⁶-sphere box.
func BenchmarkWithinLarge(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	const n = 100
	X := make([]geom.Vec3, 0, n*n*n)
	for i := 0; i < n*n*n; i++ {
		j := func() float64 { return 0.04 * (r.Float64() - 0.5) }
		X = append(X, geom.Vec3{X: 1.005*float64(i%n) + j(), Y: 1.005*float64(i/n%n) + j(), Z: 1.005*float64(i/(n*n)) + j()})
	}
	var P []Pair
	for i := range X {
		x, y, z := i%n, i/n%n, i/(n*n)
		for dz := -1; dz <= 1; dz++ {
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					a, c, e := x+dx, y+dy, z+dz
					j := a + n*c + n*n*e
					if a < 0 || a >= n || c < 0 || c >= n || e < 0 || e >= n || j <= i {
						continue
					}
					if d := X[i].Sub(X[j]); d.Norm2() < 1.5*1.5 {
						P = append(P, Pair{int32(i), int32(j)})
					}
				}
			}
		}
	}
	hits := 0
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := int64(cputime.Thread())
	for b.Loop() {
		for k := 0; k < len(P); {
			_, m, next := within(P, X, k, 1)
			hits += bits.OnesCount(m)
			k = next
		}
	}
	b.ReportMetric(float64(int64(cputime.Thread())-c0)/float64(b.N*len(P)), "cpu-ns/pair")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(P)), "ns/pair")
	b.ReportMetric(float64(hits)/float64(b.N*len(P)), "hits/pair")
}

// TestWithinPrefetchMatchesGo: within on 300 000 centres (past the
// assembly's PFMIN, so that its turns prefetch X[J] of the pairs PFD
// ahead) gives withinGo's hits and panics, on lists of every length up to
// 80 and of 20 000 pairs scanned from several k (the prefetch's guard at
// P's end), with bad indices (≥ len(X), −1) among the pairs the turns
// look ahead to (a prefetch never faults; their test is the one-pair
// loop's, as below PFMIN).
func TestWithinPrefetchMatchesGo(t *testing.T) {
	r := rand.New(rand.NewSource(20))
	X := make([]geom.Vec3, 300000)
	for i := range X {
		// Centres 3 apart in x: pairs within only for cut2 = 10 and now
		// and then, so that scans run many turns without a hit.
		X[i] = geom.Vec3{X: 3 * float64(i), Y: withinCoord(r, 0.01), Z: withinCoord(r, 0.01)}
	}
	idx := func() int32 {
		switch r.Intn(200) {
		case 0:
			return int32(len(X))
		case 1:
			return -1
		case 2:
			return math.MaxInt32
		}
		return int32(r.Intn(len(X)))
	}
	for trial := 0; trial < 400; trial++ {
		n := trial % 81
		if trial%40 == 39 {
			n = 20000
		}
		P := make([]Pair, n)
		for i := range P {
			a := int32(r.Intn(len(X)))
			P[i] = Pair{a, a + 1 + int32(r.Intn(2))}
			if P[i].J >= int32(len(X)) || r.Intn(3) == 0 {
				P[i].J = idx()
			}
		}
		for _, k := range []int{0, n / 3, max(n-5, 0), n} {
			cut2 := []float64{1, 9, 10}[trial%3]
			hg, mg := withinScan(false, P, X, k, cut2)
			ha, ma := withinScan(true, P, X, k, cut2)
			if mg != ma || !slices.Equal(hg, ha) {
				t.Fatalf("trial %d (n %d, k %d): within %v %q, Go %v %q", trial, n, k, ha, ma, hg, mg)
			}
		}
	}
}
