package broad

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"sync"
	"testing"

	"grainlab/sim/geom"
)

// brute returns the O(N²) reference pairs with the same predicate.
func brute(c []geom.Vec3, r []float64, margin float64, active func(int) bool) [][2]int32 {
	var out [][2]int32
	margin = sanitizeMargin(margin)
	for i := range c {
		if (active != nil && !active(i)) || !validBody(c[i], r[i]) {
			continue
		}
		for j := i + 1; j < len(c); j++ {
			if (active != nil && !active(j)) || !validBody(c[j], r[j]) {
				continue
			}
			if Overlaps(c[i], c[j], r[i], r[j], margin) {
				out = append(out, [2]int32{int32(i), int32(j)})
			}
		}
	}
	return out
}

func randBox(rng *rand.Rand, n int, side float64) []geom.Vec3 {
	c := make([]geom.Vec3, n)
	for i := range c {
		c[i] = geom.V(side*rng.Float64(), side*rng.Float64(), side*rng.Float64())
	}
	return c
}

func uniformRadii(rng *rand.Rand, n int, lo, hi float64) []float64 {
	r := make([]float64, n)
	for i := range r {
		r[i] = lo + (hi-lo)*rng.Float64()
	}
	return r
}

func checkEqual(t *testing.T, name string, g *Grid, c []geom.Vec3, r []float64, margin float64, active func(int) bool) {
	t.Helper()
	got := g.Pairs(c, r, margin, active, nil)
	want := brute(c, r, margin, active)
	if !slices.Equal(got, want) {
		missing, extra := 0, 0
		for _, p := range want {
			if _, ok := slices.BinarySearchFunc(got, p, cmpPair); !ok {
				missing++
			}
		}
		for _, p := range got {
			if _, ok := slices.BinarySearchFunc(want, p, cmpPair); !ok {
				extra++
			}
		}
		t.Fatalf("%s: got %d pairs, want %d (missing %d, extra %d, sorted %v)", name, len(got), len(want),
			missing, extra, slices.IsSortedFunc(got, cmpPair))
	}
}

func cmpPair(a, b [2]int32) int {
	if a[0] != b[0] {
		return int(a[0] - b[0])
	}
	return int(a[1] - b[1])
}

// Grid.Pairs equals the brute-force list exactly (same pairs, same order) on
// uniform, wide-spread, clustered, coincident, lattice (exact touching) and
// sparse sets, with and without margin and an active filter.
func TestPairsMatchBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var g Grid
	for trial := 0; trial < 40; trial++ {
		n := 1 + rng.Intn(600)
		margin := []float64{0, 0.01, 0.3}[trial%3]
		var c []geom.Vec3
		var r []float64
		kind := trial % 8
		switch kind {
		case 0: // uniform
			c, r = randBox(rng, n, 10), uniformRadii(rng, n, 0.2, 0.6)
		case 1: // wide spread: log-uniform over 4 decades plus one huge sphere
			c = randBox(rng, n, 20)
			r = make([]float64, n)
			for i := range r {
				r[i] = 0.01 * math.Pow(10, 4*rng.Float64()*rng.Float64())
			}
			r[rng.Intn(n)] = 50
		case 2: // clustered: a few tight blobs far apart
			c = make([]geom.Vec3, n)
			for i := range c {
				k := float64(rng.Intn(4))
				c[i] = geom.V(1000*k+rng.NormFloat64(), rng.NormFloat64(), -500*k+rng.NormFloat64())
			}
			r = uniformRadii(rng, n, 0.05, 0.3)
		case 3: // degenerate: all at the same position
			c = make([]geom.Vec3, n)
			for i := range c {
				c[i] = geom.V(1.5, -2, 3)
			}
			r = uniformRadii(rng, n, 0, 1)
		case 4: // lattice of touching unit spheres (exact ties)
			c = c[:0]
			for i := 0; i < 8; i++ {
				for j := 0; j < 8; j++ {
					for k := 0; k < 8; k++ {
						c = append(c, geom.V(2*float64(i), 2*float64(j), 2*float64(k)))
					}
				}
			}
			n = len(c)
			r = uniformRadii(rng, n, 1, 1)
		case 5: // zero radii, some coincident points
			c = randBox(rng, n, 3)
			for i := 0; i < n/3; i++ {
				c[rng.Intn(n)] = c[rng.Intn(n)]
			}
			r = make([]float64, n)
		case 6: // sparse: tiny spheres spread over a huge box, plus a runaway body
			c, r = randBox(rng, n, 1e4), uniformRadii(rng, n, 0.5, 300)
			c[0] = geom.V(1e12, -1e12, 3)
		case 7: // bimodal: half small, half 30× larger
			c, r = randBox(rng, n, 30), uniformRadii(rng, n, 0.1, 0.2)
			for i := 0; i < n; i += 2 {
				r[i] *= 30
			}
		}
		var active func(int) bool
		if trial%5 == 4 {
			active = func(i int) bool { return i%3 != 1 }
		}
		checkEqual(t, fmt.Sprintf("trial %d kind %d n %d", trial, kind, n), &g, c, r, margin, active)
	}
}

// Empty, single and two-body inputs; NaN/Inf centres and bad radii are skipped and reported.
func TestPairsEdgeCases(t *testing.T) {
	var g Grid
	if p := g.Pairs(nil, nil, 0.1, nil, nil); len(p) != 0 {
		t.Fatalf("empty: %v", p)
	}
	if p := g.Pairs([]geom.Vec3{{}}, []float64{1}, 0.1, nil, nil); len(p) != 0 {
		t.Fatalf("one: %v", p)
	}
	nan := math.NaN()
	c := []geom.Vec3{geom.V(0, 0, 0), geom.V(nan, 0, 0), geom.V(1, 0, 0), geom.V(0, math.Inf(1), 0), geom.V(0.5, 0, 0), geom.V(2, 0, 0), geom.V(2, 0, 0)}
	r := []float64{0.6, 1, 0.6, 1, nan, -1, math.Inf(1)}
	p := g.Pairs(c, r, 0, nil, nil)
	if !slices.Equal(p, [][2]int32{{0, 2}}) {
		t.Fatalf("pairs %v", p)
	}
	if !slices.Equal(g.Invalid, []int{1, 3, 4, 5, 6}) {
		t.Fatalf("invalid %v", g.Invalid)
	}
	// Exactly touching counts; a hair apart does not.
	c = []geom.Vec3{geom.V(0, 0, 0), geom.V(2, 0, 0), geom.V(4+1e-12, 0, 0)}
	p = g.Pairs(c, []float64{1, 1, 1}, 0, nil, p)
	if !slices.Equal(p, [][2]int32{{0, 1}}) {
		t.Fatalf("touching %v", p)
	}
	// NaN margin is 0; margin inflates both spheres.
	p = g.Pairs(c, []float64{1, 1, 1}, nan, nil, p)
	if len(p) != 1 {
		t.Fatalf("nan margin %v", p)
	}
	p = g.Pairs(c, []float64{1, 1, 1}, 1e-11, nil, p)
	if !slices.Equal(p, [][2]int32{{0, 1}, {1, 2}}) {
		t.Fatalf("margin %v", p)
	}
	// All inactive.
	if p = g.Pairs(c, []float64{1, 1, 1}, 0, func(int) bool { return false }, p); len(p) != 0 {
		t.Fatalf("inactive %v", p)
	}
}

// A fixed CellSize far from the automatic choice still gives exact results.
func TestPairsFixedCellSize(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	c, r := randBox(rng, 400, 10), uniformRadii(rng, 400, 0.1, 0.5)
	for _, h := range []float64{0.01, 0.3, 5, 100} {
		g := Grid{CellSize: h}
		checkEqual(t, fmt.Sprintf("h=%g", h), &g, c, r, 0.05, nil)
	}
}

// One huge sphere among many small ones lands on its own coarse level and
// does not coarsen the fine grid.
func TestHugeSphereDoesNotCoarsen(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	n := 5000
	c, r := randBox(rng, n, 40), uniformRadii(rng, n, 0.4, 0.5)
	r[17] = 1000
	var g Grid
	checkEqual(t, "huge", &g, c, r, 0, nil)
	if h := g.CellSize0(); h > 1.1 {
		t.Fatalf("level-0 cell %g coarsened by the huge sphere", h)
	}
	if g.Levels() != 2 {
		t.Fatalf("levels %d, want 2", g.Levels())
	}
}

// Zero allocations per call after warm-up, for Grid and for Verlet rebuilds.
func TestZeroAllocs(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	n := 2000
	c, r := randBox(rng, n, 20), uniformRadii(rng, n, 0.2, 0.5)
	r[3] = 30
	c[9].X = math.NaN()
	var g Grid
	out := g.Pairs(c, r, 0.05, nil, nil)
	active := func(i int) bool { return i%7 != 0 }
	out = g.Pairs(c, r, 0.05, active, out)
	if a := testing.AllocsPerRun(20, func() { out = g.Pairs(c, r, 0.05, active, out) }); a != 0 {
		t.Fatalf("Grid.Pairs: %v allocs/op", a)
	}
	var v Verlet
	v.Update(c, r, 0.1)
	v.Invalidate()
	v.Update(c, r, 0.1)
	if a := testing.AllocsPerRun(20, func() { v.Invalidate(); v.Update(c, r, 0.1) }); a != 0 {
		t.Fatalf("Verlet rebuild: %v allocs/op", a)
	}
	if a := testing.AllocsPerRun(20, func() { v.Update(c, r, 0.1) }); a != 0 {
		t.Fatalf("Verlet reuse: %v allocs/op", a)
	}
}

// Property: along random-walk trajectories (steps smaller than skin/2, with
// occasional fast bodies, radius edits, bodies going NaN and back) the Verlet
// list always contains every pair overlapping with the Verlet margin, and it
// is reused between rebuilds.
func TestVerletSupersetProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 6; trial++ {
		n := 150 + rng.Intn(250)
		side := math.Cbrt(float64(n)) * 1.6
		c, r := randBox(rng, n, side), uniformRadii(rng, n, 0.3, 0.6)
		if trial%2 == 1 {
			r[0] = 4 // one big body
		}
		skin := 0.1 + 0.2*rng.Float64()
		v := Verlet{Margin: []float64{0, 0.05}[trial%2]}
		if trial == 5 {
			v.Active = func(i int) bool { return i%4 != 0 }
		}
		saved := geom.Vec3{}
		for step := 0; step < 120; step++ {
			for i := range c {
				d := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
				c[i] = c[i].AddScaled(skin*0.1*rng.Float64(), d)
			}
			if step%17 == 5 { // one fast body
				k := rng.Intn(n)
				c[k] = c[k].AddScaled(0.8*skin, geom.V(1, 0, 0))
			}
			if step%23 == 7 { // live radius edit (grow)
				r[rng.Intn(n)] *= 1.3
			}
			if step%29 == 3 { // shrink: no rebuild needed
				r[rng.Intn(n)] *= 0.7
			}
			if step == 40 { // a body goes NaN, then comes back
				saved = c[5]
				c[5].Y = math.NaN()
			}
			if step == 45 {
				c[5] = saved
			}
			_, pairs := v.Update(c, r, skin)
			want := brute(c, r, v.Margin, v.Active)
			for _, p := range want {
				if _, ok := slices.BinarySearchFunc(pairs, p, cmpPair); !ok {
					t.Fatalf("trial %d step %d: pair %v missing (builds %d)", trial, step, p, v.Builds())
				}
			}
			if !slices.IsSortedFunc(pairs, cmpPair) {
				t.Fatal("unsorted")
			}
		}
		if v.Builds() >= v.Calls() || v.Builds() < 2 {
			t.Fatalf("trial %d: %d builds for %d calls", trial, v.Builds(), v.Calls())
		}
	}
}

// Verlet rebuild criterion: not while every body moved ≤ skin/2, yes after
// one moved more than skin (or two each more than skin/2), on radius growth,
// skin change and Invalidate.
func TestVerletCriterion(t *testing.T) {
	c := []geom.Vec3{geom.V(0, 0, 0), geom.V(3, 0, 0), geom.V(6, 0, 0)}
	r := []float64{1, 1, 1}
	var v Verlet
	if rb, _ := v.Update(c, r, 0.2); !rb {
		t.Fatal("first call must build")
	}
	c[0].X, c[1].X = 0.0999, 3.0999
	if rb, _ := v.Update(c, r, 0.2); rb {
		t.Fatal("rebuilt although all moved < skin/2")
	}
	if d := v.MaxDisplacement(); math.Abs(d-0.0999) > 1e-12 {
		t.Fatalf("max displacement %g", d)
	}
	c[1].X = 3
	c[0].X = 0.19 // one body alone may use most of the skin
	if rb, _ := v.Update(c, r, 0.2); rb {
		t.Fatal("rebuilt with a single displacement < skin")
	}
	c[2].X = 6.011 // 0.19 + 0.011 > 0.2
	if rb, _ := v.Update(c, r, 0.2); !rb {
		t.Fatal("no rebuild after two displacements summing > skin")
	}
	if rb, _ := v.Update(c, r, 0.2); rb {
		t.Fatal("rebuilt without motion")
	}
	r[1] = 1.0000001
	if rb, _ := v.Update(c, r, 0.2); !rb {
		t.Fatal("no rebuild after radius growth")
	}
	r[1] = 0.5
	if rb, _ := v.Update(c, r, 0.2); rb {
		t.Fatal("rebuilt after radius shrink")
	}
	if rb, _ := v.Update(c, r, 0.3); !rb {
		t.Fatal("no rebuild after skin change")
	}
	v.Invalidate()
	if rb, _ := v.Update(c, r, 0.3); !rb {
		t.Fatal("no rebuild after Invalidate")
	}
	if v.Builds() != 5 || v.Calls() != 9 {
		t.Fatalf("builds %d calls %d", v.Builds(), v.Calls())
	}
}

func benchSet(n int) ([]geom.Vec3, []float64) {
	rng := rand.New(rand.NewSource(int64(n)))
	// Constant density: about 1 sphere of radius 0.35–0.5 per unit³ (≈ 35% solid fraction).
	side := math.Cbrt(float64(n))
	return randBox(rng, n, side), uniformRadii(rng, n, 0.35, 0.5)
}

// BenchmarkGridPairs measures one full linked-cell pass at constant density.
func BenchmarkGridPairs(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		c, r := benchSet(n)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			var g Grid
			out := g.Pairs(c, r, 0.05, nil, nil)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				out = g.Pairs(c, r, 0.05, nil, out)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/body")
			b.ReportMetric(float64(len(out))/float64(n), "pairs/body")
		})
	}
}

// BenchmarkGridPairsWideSpread adds huge spheres (1% of bodies, 20× radius).
func BenchmarkGridPairsWideSpread(b *testing.B) {
	n := 100000
	c, r := benchSet(n)
	for i := 0; i < n; i += 100 {
		r[i] = 10
	}
	var g Grid
	out := g.Pairs(c, r, 0.05, nil, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out = g.Pairs(c, r, 0.05, nil, out)
	}
	b.ReportMetric(float64(len(out))/float64(n), "pairs/body")
}

// BenchmarkVerletReuse measures an Update that keeps the cached list.
func BenchmarkVerletReuse(b *testing.B) {
	c, r := benchSet(100000)
	var v Verlet
	v.Update(c, r, 0.1)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v.Update(c, r, 0.1)
	}
}

// Randomised stress: mixed scales, far offsets, duplicated points, radius
// spreads over many decades; Grid must equal brute force exactly.
func TestPairsFuzz(t *testing.T) {
	rng := rand.New(rand.NewSource(99))
	var g Grid
	for trial := 0; trial < 400; trial++ {
		n := 2 + rng.Intn(250)
		scale := math.Pow(10, -6+12*rng.Float64())
		off := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(math.Pow(10, 9*rng.Float64()) * scale)
		side := scale * (0.5 + 20*rng.Float64())
		decades := 6 * rng.Float64() * rng.Float64()
		c := make([]geom.Vec3, n)
		r := make([]float64, n)
		for i := range c {
			c[i] = off.Add(geom.V(side*rng.Float64(), side*rng.Float64(), side*rng.Float64()))
			r[i] = scale * 0.3 * math.Pow(10, -decades*rng.Float64())
			switch rng.Intn(20) {
			case 0:
				r[i] = 0
			case 1:
				c[i] = c[rng.Intn(i+1)]
			case 2:
				r[i] *= 1000
			}
		}
		margin := scale * 0.05 * rng.Float64() * float64(rng.Intn(2))
		checkEqual(t, fmt.Sprintf("fuzz %d", trial), &g, c, r, margin, nil)
	}
}

// latticeSet is the start of `make bench-lammps N=n`: equal spheres (r =
// 1 mm, inflated by the sphere path's ḡ/2 = 0 and half the skin 0.1 mm) on
// a cubic lattice of 2.1 mm, jittered by up to 0.05 mm, numbered along a
// Morton curve as the sphere path orders them from 4096 spheres.
func latticeSet(n int) (c []geom.Vec3, r []float64, margin float64) {
	side := int(math.Ceil(math.Cbrt(float64(n))))
	rng := rand.New(rand.NewSource(3))
	type kc struct {
		key uint64
		c   geom.Vec3
	}
	var ks []kc
	for i := 0; len(ks) < n; i++ {
		x, y, z := i%side, i/side%side, i/(side*side)
		spread := func(v int) uint64 {
			var o uint64
			for b := range 21 {
				o |= uint64(v>>b&1) << (3 * b)
			}
			return o
		}
		p := geom.V(2.1e-3*float64(x), 2.1e-3*float64(y), 2.1e-3*float64(z))
		p = p.Add(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(1e-4))
		ks = append(ks, kc{spread(x) | spread(y)<<1 | spread(z)<<2, p})
	}
	slices.SortFunc(ks, func(a, b kc) int {
		if a.key < b.key {
			return -1
		}
		if a.key > b.key {
			return 1
		}
		return 0
	})
	c, r = make([]geom.Vec3, n), make([]float64, n)
	for i := range ks {
		c[i], r[i] = ks[i].c, 1e-3
	}
	return c, r, 1e-4
}

// BenchmarkGridPairsLattice is Grid.Pairs on latticeSet: the rebuild of the
// falling lattice of `make bench-lammps`, serial and in parts (run one
// after the other: the instructions of the two-worker path).
func BenchmarkGridPairsLattice(b *testing.B) {
	for _, n := range []int{20000, 100000} {
		c, r, m := latticeSet(n)
		for _, fk := range []struct {
			name string
			fork func(int, func(int, int, int))
		}{{"", nil}, {"-parts", forkReverse}} {
			b.Run(fmt.Sprintf("N=%d%s", n, fk.name), func(b *testing.B) {
				g := Grid{Fork: fk.fork}
				out := g.Pairs(c, r, m, nil, nil)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					out = g.Pairs(c, r, m, nil, out)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/body")
				b.ReportMetric(float64(len(out))/float64(n), "pairs/body")
			})
		}
	}
}

// forkReverse runs the parts in reverse order on the caller; forkGo runs
// each part on its own goroutine.
func forkReverse(n int, job func(worker, lo, hi int)) {
	for p := n - 1; p >= 0; p-- {
		job(0, p, p+1)
	}
}

func forkGo(n int, job func(worker, lo, hi int)) {
	var wg sync.WaitGroup
	for p := range n {
		wg.Add(1)
		go func() { defer wg.Done(); job(p, p, p+1) }()
	}
	wg.Wait()
}

// With Fork, Pairs searches a single dense level in parts (rows.go): the
// same pairs in the same order as without it and as brute force, whatever
// the order the parts run in, on the bench-lammps lattice, equal and
// similar radii, and on sets that take the general steps (radii over two
// binades, an invalid body, a sparse set, a fixed cell size).
func TestPairsForkMatchesSerial(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	lc, lr, lm := latticeSet(6000)
	// forkCase is one set of bodies: centres, radii, the grid's margin,
	// whether one level must be used, a fixed cell size (0: chosen).
	type forkCase struct {
		name    string
		c       []geom.Vec3
		r       []float64
		margin  float64
		oneLvl  bool
		cellFix float64
	}
	cases := []forkCase{
		{"lattice", lc, lr, lm, true, 0},
		{"uniform equal", randBox(rng, 5000, 12), uniformRadii(rng, 5000, 0.3, 0.3), 0.05, true, 0},
		{"uniform similar", randBox(rng, 7000, 25), uniformRadii(rng, 7000, 0.26, 0.5), 0, true, 0},
		{"two binades", randBox(rng, 5000, 20), uniformRadii(rng, 5000, 0.1, 0.6), 0.01, false, 0},
		{"sparse", randBox(rng, 5000, 1e4), uniformRadii(rng, 5000, 0.3, 0.4), 0, false, 0},
		{"fixed cell", randBox(rng, 5000, 20), uniformRadii(rng, 5000, 0.3, 0.3), 0, false, 0.7},
	}
	// Touching at exactly the reach: a cubic lattice of spacing r + r + 2·margin
	// (every value exact in binary), so that each axis neighbour passes the
	// test with equality and must be kept (a search window pruning by a
	// bound 2^-40 too tight drops a third of them).
	var tc []geom.Vec3
	var tr []float64
	for i := range 20 {
		for j := range 20 {
			for k := range 20 {
				tc = append(tc, geom.V(0.625*float64(i), 0.625*float64(j), 0.625*float64(k)))
				tr = append(tr, 0.25)
			}
		}
	}
	cases = append(cases, forkCase{"touching lattice", tc, tr, 0.0625, true, 0})
	bad, br := randBox(rng, 5000, 20), uniformRadii(rng, 5000, 0.3, 0.3)
	bad[1234] = geom.V(math.NaN(), 0, 0)
	cases = append(cases, forkCase{"invalid body", bad, br, 0, false, 0})
	for _, tc := range cases {
		want := brute(tc.c, tc.r, tc.margin, nil)
		for _, fk := range []func(int, func(int, int, int)){nil, forkReverse, forkGo} {
			g := Grid{Fork: fk, CellSize: tc.cellFix}
			for round := range 2 { // buffers reused
				got := g.Pairs(tc.c, tc.r, tc.margin, nil, nil)
				if !slices.Equal(got, want) {
					t.Fatalf("%s round %d: %d pairs, want %d (sorted %v)", tc.name, round, len(got), len(want), slices.IsSortedFunc(got, cmpPair))
				}
			}
			var s Grid
			s.CellSize = tc.cellFix
			s.Pairs(tc.c, tc.r, tc.margin, nil, nil)
			if g.CellSize0() != s.CellSize0() || g.Levels() != s.Levels() || !slices.Equal(g.Invalid, s.Invalid) {
				t.Fatalf("%s: h0 %g levels %d invalid %v, serial %g %d %v", tc.name, g.CellSize0(), g.Levels(), g.Invalid, s.CellSize0(), s.Levels(), s.Invalid)
			}
			if fast := len(g.pos) == len(tc.c); fast != tc.oneLvl { // pos: set by oneLevel only
				t.Fatalf("%s: parallel steps taken %v, want %v", tc.name, fast, tc.oneLvl)
			}
			if fk != nil && reflect.ValueOf(fk).Pointer() == reflect.ValueOf(forkGo).Pointer() {
				continue // goroutines allocate
			}
			out := g.Pairs(tc.c, tc.r, tc.margin, nil, nil)
			if a := testing.AllocsPerRun(3, func() { out = g.Pairs(tc.c, tc.r, tc.margin, nil, out) }); a != 0 {
				t.Fatalf("%s: %v allocations per call after warm-up", tc.name, a)
			}
		}
	}
}

// Verlet.Update with Grid.Fork tests and copies in parts: the same
// rebuilds, pairs and largest displacement as without, step by step, on a
// moving set with fast bodies, grown and shrunk radii and a body that turns
// NaN and comes back.
func TestVerletForkMatchesSerial(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	n := 6000
	c, r := randBox(rng, n, 30), uniformRadii(rng, n, 0.3, 0.5)
	skin := 0.1
	serial := Verlet{Margin: 0.01}
	split := Verlet{Margin: 0.01, Grid: Grid{Fork: forkGo}}
	var saved geom.Vec3
	for step := range 80 {
		for i := range c {
			c[i] = c[i].AddScaled(skin*0.05*rng.Float64(), geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit())
		}
		switch step % 20 {
		case 3:
			k := rng.Intn(n)
			c[k] = c[k].AddScaled(0.9*skin, geom.V(0, 1, 0))
		case 7:
			r[rng.Intn(n)] *= 1.2
		case 11:
			r[rng.Intn(n)] *= 0.8
		}
		if step == 30 {
			saved = c[77]
			c[77].Z = math.Inf(1)
		}
		if step == 34 {
			c[77] = saved
		}
		rs, ps := serial.Update(c, r, skin)
		rp, pp := split.Update(c, r, skin)
		if rs != rp || !slices.Equal(ps, pp) || serial.MaxDisplacement() != split.MaxDisplacement() ||
			!slices.Equal(serial.Grid.Invalid, split.Grid.Invalid) {
			t.Fatalf("step %d: rebuilt %v/%v, %d/%d pairs, max displacement %g/%g", step, rs, rp, len(ps), len(pp),
				serial.MaxDisplacement(), split.MaxDisplacement())
		}
	}
	// After warm-up neither a rebuild in parts nor a kept list allocates
	// (forkReverse: goroutines of forkGo would).
	split.Grid.Fork = forkReverse
	if a := testing.AllocsPerRun(5, func() { split.Invalidate(); split.Update(c, r, skin); split.Update(c, r, skin) }); a != 0 {
		t.Fatalf("%v allocations per rebuild in parts", a)
	}
	if split.Builds() < 4 || split.Builds() >= split.Calls() {
		t.Fatalf("%d builds for %d calls", split.Builds(), split.Calls())
	}
}

// validBody is its definition (every coordinate finite; the radius ≥ 0 and
// not +Inf) on the special values of each coordinate and the radius.
func TestValidBodyAsDefined(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN()}
	fin := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	for _, x := range vals {
		for _, y := range vals {
			for _, r := range vals {
				for _, c := range []geom.Vec3{{X: x, Y: y, Z: 1}, {X: 1, Y: x, Z: y}, {X: y, Y: 1, Z: x}} {
					want := fin(c.X) && fin(c.Y) && fin(c.Z) && r >= 0 && !math.IsInf(r, 1)
					if got := validBody(c, r); got != want {
						t.Fatalf("validBody(%v, %g) = %v, want %v", c, r, got, want)
					}
				}
			}
		}
	}
}

// UpdateTested after Test on the first bodies, in parts taken in any order
// (as a caller that places the bodies in parallel tests them), decides every step as
// Update does: the same rebuilds, the same list and largest displacement,
// through fast bodies, radius growth and shrinkage, a NaN body and back,
// a change of the body count and Invalidate.
func TestVerletUpdateTestedAsUpdate(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for trial := 0; trial < 4; trial++ {
		n := 120 + rng.Intn(200)
		side := math.Cbrt(float64(n)) * 1.6
		c, r := randBox(rng, n, side), uniformRadii(rng, n, 0.3, 0.6)
		skin := 0.1 + 0.2*rng.Float64()
		var a, b Verlet
		if trial == 3 {
			a.Active = func(i int) bool { return i%5 != 0 }
			b.Active = a.Active
		}
		saved := geom.Vec3{}
		rebuilds := 0
		for step := 0; step < 150; step++ {
			for i := range c {
				d := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
				c[i] = c[i].AddScaled(skin*0.08*rng.Float64(), d)
			}
			switch {
			case step%17 == 5: // one fast body
				k := rng.Intn(n)
				c[k] = c[k].AddScaled(0.8*skin, geom.V(1, 0, 0))
			case step%23 == 7:
				r[rng.Intn(n)] *= 1.3
			case step%29 == 3:
				r[rng.Intn(n)] *= 0.7
			case step == 40:
				saved = c[5]
				c[5].Y = math.NaN()
			case step == 45:
				c[5] = saved
			case step == 60: // one body more
				c, r = append(c, geom.V(0, 0, 0)), append(r, 0.4)
				n++
			case step == 80:
				a.Invalidate()
				b.Invalidate()
			}
			tested := rng.Intn(n + 1)
			var cuts []int // the tested bodies in parts, tested in any order
			for lo := 0; lo < tested; lo += 1 + rng.Intn(40) {
				cuts = append(cuts, lo)
			}
			cuts = append(cuts, tested)
			need, d1, d2 := false, 0.0, 0.0
			for _, k := range rng.Perm(len(cuts) - 1) {
				nd, e1, e2 := b.Test(c, r, cuts[k], cuts[k+1])
				need = need || nd
				d1, d2 = KeepTwoLargest(d1, d2, e1)
				d1, d2 = KeepTwoLargest(d1, d2, e2)
			}
			ra, pa := a.Update(c, r, skin)
			rb, pb := b.UpdateTested(c, r, skin, tested, need, d1, d2)
			if ra != rb || !slices.Equal(pa, pb) || a.MaxDisplacement() != b.MaxDisplacement() {
				t.Fatalf("trial %d step %d (tested %d of %d): Update rebuilt %v, %d pairs, max %g; UpdateTested %v, %d pairs, max %g",
					trial, step, tested, n, ra, len(pa), a.MaxDisplacement(), rb, len(pb), b.MaxDisplacement())
			}
			if ra {
				rebuilds++
			}
		}
		if rebuilds < 4 || rebuilds > 120 {
			t.Fatalf("trial %d: %d rebuilds in 150 steps: the test does not cover both cases", trial, rebuilds)
		}
	}
}

// forkWorkers returns a Fork that splits the n parts in w contiguous shares,
// each on its own goroutine (as the world's crew does).
func forkWorkers(w int) func(int, func(int, int, int)) {
	return func(n int, job func(worker, lo, hi int)) {
		var wg sync.WaitGroup
		for k := range w {
			lo, hi := k*n/w, (k+1)*n/w
			wg.Add(1)
			go func() { defer wg.Done(); job(k, lo, hi) }()
		}
		wg.Wait()
	}
}

// The single dense level of one radius (Grid.oneLevel: the sphere path's
// rebuild, with its 32-byte slots and no radii per slot) gives the same
// slice as the general steps (an active filter that keeps every body takes
// them) and, up to 6000 bodies, as brute force: mono-radius boxes of 1 to
// 20 000 bodies, dilute and dense, with bodies on cell boundaries (centres
// on multiples of the cell edge), with an invalid body, in random and in
// sorted order, serial and on 1, 2 and 3 workers.
func TestOneRadiusMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	all := func(int) bool { return true }
	for _, n := range []int{1, 2, 50, 4095, 4096, 5000, 9000, 20000} {
		for _, kind := range []string{"dilute", "dense", "boundaries", "invalid", "sorted"} {
			r0 := 0.25 + 0.5*rng.Float64()
			margin := 0.1 * r0 * rng.Float64()
			// dense: about 0.5 volume fraction; dilute: about 0.05.
			frac := 0.5
			if kind == "dilute" {
				frac = 0.05
			}
			side := math.Cbrt(float64(n) * 4.19 * r0 * r0 * r0 / frac)
			c := randBox(rng, n, side)
			r := make([]float64, n)
			for i := range r {
				r[i] = r0
			}
			switch kind {
			case "boundaries": // on multiples of the grid's cell edge
				h := 2 * (r0 + margin) * (1 + slack)
				m := max(1, int(side/h))
				for i := range c {
					c[i] = geom.V(h*float64(rng.Intn(m)), h*float64(rng.Intn(m)), c[i].Z)
					if i%3 == 0 {
						c[i].Z = h * float64(rng.Intn(m))
					}
				}
			case "invalid":
				c[rng.Intn(n)] = geom.V(math.NaN(), 0, 0)
			case "sorted":
				slices.SortFunc(c, func(a, b geom.Vec3) int { return cmpFloat(a.X, b.X) })
			}
			var gen Grid
			want := gen.Pairs(c, r, margin, all, nil)
			if n <= 6000 {
				if b := brute(c, r, margin, nil); !slices.Equal(want, b) {
					t.Fatalf("n=%d %s: general steps %d pairs, brute force %d", n, kind, len(want), len(b))
				}
			}
			for w, fk := range []func(int, func(int, int, int)){nil, forkWorkers(1), forkWorkers(2), forkWorkers(3)} {
				g := Grid{Fork: fk}
				for round := range 2 { // buffers reused
					got := g.Pairs(c, r, margin, nil, nil)
					if !slices.Equal(got, want) {
						t.Fatalf("n=%d %s workers %d round %d: %d pairs, general %d", n, kind, w, round, len(got), len(want))
					}
				}
				if one := n >= rowMin && kind != "invalid" && kind != "dilute"; one && g.levs[0].rsame != r0 {
					t.Fatalf("n=%d %s: one-radius path not taken (rsame %g)", n, kind, g.levs[0].rsame)
				}
			}
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
