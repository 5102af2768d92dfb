package broad

import (
	"math"
	"math/rand"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"grainlab/sim/geom"
)

// halvesSet returns 8192 spheres of radius 0.5: the bodies of half dense
// (a touching lattice, three pairs a body) and the other half's on a
// lattice of spacing 1.5 (no pairs), dense first when denseLow.
func halvesSet(denseLow bool) ([]geom.Vec3, []float64) {
	const k = 16
	c := make([]geom.Vec3, 0, 2*k*k*k)
	lat := func(x0, step float64) {
		for x := range k {
			for y := range k {
				for z := range k {
					c = append(c, geom.V(x0+step*float64(x), step*float64(y), step*float64(z)))
				}
			}
		}
	}
	if denseLow {
		lat(0, 1)
		lat(k+1, 1.5)
	} else {
		lat(k+1, 1.5)
		lat(0, 1)
	}
	r := make([]float64, len(c))
	for i := range r {
		r[i] = 0.5
	}
	return c, r
}

// bucketBytes is the room the parts' buckets keep between calls: their
// pools' blocks.
func bucketBytes(g *Grid) int {
	const pair = int(unsafe.Sizeof([2]int32{}))
	n := 0
	for p := range g.part {
		for _, b := range g.part[p].bk.pool {
			n += cap(b) * pair
		}
	}
	return n
}

// The buckets of the search in parts keep about the pairs of the last calls
// between calls, not the most each bucket ever held: with the pairs' lower
// bodies moved from the low to the high half of the indices (twice in the
// low half, then three times in the high), append's growth bucket by
// bucket kept both halves' (fails with reset's used = 0 left out: the
// pools then grow at every call). The bound: the pairs, a quarter more,
// and a partial block a part's bucket.
func TestBucketsKeepLastCall(t *testing.T) {
	a, r := halvesSet(true)
	b, _ := halvesSet(false)
	wantA, wantB := brute(a, r, 0, nil), brute(b, r, 0, nil)
	if len(wantA) < 10000 || len(wantB) != len(wantA) {
		t.Fatalf("%d and %d pairs: not the dense half's", len(wantA), len(wantB))
	}
	g := Grid{Fork: forkReverse}
	var out [][2]int32
	for round := range 5 {
		c, want := a, wantA
		if round >= 2 {
			c, want = b, wantB
		}
		out = g.Pairs(c, r, 0, nil, out)
		if !slices.Equal(out, want) {
			t.Fatalf("round %d: other pairs than brute force's", round)
		}
		if len(g.pos) != len(c) {
			t.Fatal("not the search in parts")
		}
	}
	const pair = int(unsafe.Sizeof([2]int32{}))
	limit := int(math.Ceil(1.25*float64(len(out)*pair))) + rowParts*maxBuckets*g.blk*pair
	if got := bucketBytes(&g); got > limit {
		t.Fatalf("buckets keep %d bytes for %d pairs (%.2f×), want at most %d", got, len(out), float64(got)/float64(len(out)*pair), limit)
	}
}

// Verlet keeps no validity flags: a body invalid at the build has a NaN
// reference radius. Its rebuilds on validity flips are those of the
// criterion (fails when copyRef stores an invalid body's radius as is).
func TestVerletValidityWithoutFlags(t *testing.T) {
	c := []geom.Vec3{geom.V(0, 0, 0), geom.V(math.NaN(), 0, 0), geom.V(6, 0, 0)}
	r := []float64{1, 1, 1}
	var v Verlet
	steps := []struct {
		name    string
		edit    func()
		rebuild bool
	}{
		{"first", func() {}, true},
		{"still invalid", func() {}, false},
		{"invalid body's radius grows", func() { r[1] = 2 }, false},
		{"centre back", func() { c[1] = geom.V(3, 0, 0) }, true},
		{"radius NaN", func() { r[2] = math.NaN() }, true},
		{"invalid by radius, moved", func() { c[2].X = 7 }, false},
		{"radius back", func() { r[2] = 1 }, true},
		{"radius shrinks", func() { r[0] = 0.5 }, false},
		{"radius grows", func() { r[0] = 0.75 }, false},
		{"beyond the build's", func() { r[0] = 1.0000001 }, true},
	}
	for _, s := range steps {
		s.edit()
		if rb, _ := v.Update(c, r, 0.2); rb != s.rebuild {
			t.Fatalf("%s: rebuilt %v, want %v", s.name, rb, s.rebuild)
		}
	}
}

// A warm call whose pairs move between buckets allocates (almost) nothing:
// a lattice of touching spheres numbered at random, then in lattice order
// (a renumbering: each part's pairs fall from every bucket into one or
// two). Session 21's buckets, each carved the room it used at the last
// call and grown by append past it, allocated 3.8× the pairs' bytes here.
// Bound: a tenth of the pairs' bytes (the lists of full blocks).
func TestBucketsNoGarbageAfterRenumbering(t *testing.T) {
	const k = 20
	sorted := make([]geom.Vec3, 0, k*k*k)
	for x := range k {
		for y := range k {
			for z := range k {
				sorted = append(sorted, geom.V(float64(x), float64(y), float64(z)))
			}
		}
	}
	r := make([]float64, len(sorted))
	for i := range r {
		r[i] = 0.5
	}
	perm := rand.New(rand.NewSource(5)).Perm(len(sorted))
	shuffled := make([]geom.Vec3, len(sorted))
	for i, p := range perm {
		shuffled[p] = sorted[i]
	}
	g := Grid{Fork: forkReverse}
	out := g.Pairs(shuffled, r, 0, nil, nil)
	if !slices.Equal(out, brute(shuffled, r, 0, nil)) || len(g.pos) != len(sorted) {
		t.Fatal("shuffled: not brute force's pairs in parts")
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	out = g.Pairs(sorted, r, 0, nil, out)
	runtime.ReadMemStats(&m1)
	if !slices.Equal(out, brute(sorted, r, 0, nil)) {
		t.Fatal("sorted: not brute force's pairs")
	}
	const pair = int(unsafe.Sizeof([2]int32{}))
	alloc, bound := m1.TotalAlloc-m0.TotalAlloc, uint64(len(out)*pair/10)
	if alloc > bound {
		t.Fatalf("the call after the renumbering allocated %d B for %d pairs (%d B), want at most %d", alloc, len(out), len(out)*pair, bound)
	}
	t.Logf("allocated %d B for %d pairs", alloc, len(out))
}

// SetOut: the next Update that rebuilds writes its pairs into the array
// given (room enough), the pairs those of Grid.Pairs; an Update that does
// not rebuild forgets it; a rebuild without SetOut writes to v's own array,
// not the one given before (fails with SetOut's array ignored).
func TestVerletSetOut(t *testing.T) {
	c, r := halvesSet(true)
	var g Grid
	want := slices.Clone(g.Pairs(c, r, 0.05, nil, nil))
	buf := make([][2]int32, 0, len(want)+10)
	same := func(a, b [][2]int32) bool {
		return cap(a) > 0 && cap(b) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
	}
	var v Verlet
	v.SetOut(buf)
	_, got := v.Update(c, r, 0.1)
	if !same(got, buf) || !slices.Equal(got, want) {
		t.Fatalf("first build: in the array given %v, Grid.Pairs' pairs %v", same(got, buf), slices.Equal(got, want))
	}
	v.SetOut(make([][2]int32, 0, len(want)))
	if rebuilt, got := v.Update(c, r, 0.1); rebuilt || !same(got, buf) {
		t.Fatal("no rebuild: not the last list")
	}
	v.Invalidate()
	if _, got := v.Update(c, r, 0.1); same(got, buf) || !slices.Equal(got, want) {
		t.Fatalf("rebuild without SetOut: in the array given before %v, Grid.Pairs' pairs %v", same(got, buf), slices.Equal(got, want))
	}
}
