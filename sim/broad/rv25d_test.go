package broad

import (
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// clumpSet: nSparse spheres of radius 0.5 on a lattice of spacing 1.5 (no
// pair at margin 0) and nClump spheres of radius 0.5 packed at spacing
// 0.3 (about 150 neighbours each) with its corner at off.
func clumpSet(nSparse, nClump int, off geom.Vec3, seed int64) ([]geom.Vec3, []float64) {
	rng := rand.New(rand.NewSource(seed))
	k := 1
	for k*k*k < nSparse {
		k++
	}
	var c []geom.Vec3
	for i := range nSparse {
		x, y, z := i%k, i/k%k, i/(k*k)
		c = append(c, geom.V(1.5*float64(x), 1.5*float64(y), 1.5*float64(z)))
	}
	m := 1
	for m*m*m < nClump {
		m++
	}
	for i := range nClump {
		x, y, z := i%m, i/m%m, i/(m*m)
		c = append(c, off.Add(geom.V(0.3*float64(x)+0.01*rng.Float64(), 0.3*float64(y), 0.3*float64(z))))
	}
	// Clump bodies spread over the index range (a renumbered world would
	// not keep them last): shuffle.
	rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
	r := make([]float64, len(c))
	for i := range r {
		r[i] = 0.5
	}
	return c, r
}

// r4 (session 25): the first search's sampled estimate badly low (a dense
// clump in cells the sample skips, the sample sees only the sparse
// lattice): the blocks overflow the estimated room into the pool and the
// pairs are still the serial search's; then a rebuild after the set
// shrinks and one after it grows (a live AddBody), on real goroutines
// (for -race) with 1, 2 and 3 workers.
func TestRV25dFirstSearchLowEstimate(t *testing.T) {
	lowSeen := false
	for _, w := range []int{1, 2, 3} {
		for _, ox := range []float64{3, 7.4, 12.1, 20.3} {
			c, r := clumpSet(6000, 2000, geom.V(ox, ox/2, 1), int64(w))
			var serial Grid
			want := serial.Pairs(c, r, 0, nil, nil)
			g := Grid{Fork: forkWorkers(w)}
			got := g.Pairs(c, r, 0, nil, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("w %d ox %g: first search %d pairs, want %d", w, ox, len(got), len(want))
			}
			if g.lastArena < g.lastBlocks {
				lowSeen = true
			}
			noHold(t, &g, "first")
			// Shrink: drop the last 3000 bodies; the last output as room.
			c2, r2 := c[:5000], r[:5000]
			want2 := serial.Pairs(c2, r2, 0, nil, nil)
			got = g.Pairs(c2, r2, 0, nil, got)
			if !slices.Equal(got, want2) {
				t.Fatalf("w %d ox %g: shrunk %d pairs, want %d", w, ox, len(got), len(want2))
			}
			// Grow: the whole set plus 2000 bodies inside the clump.
			c3 := slices.Clone(c)
			r3 := slices.Clone(r)
			for i := range 2000 {
				c3 = append(c3, geom.V(ox+0.15+0.3*float64(i%12), ox/2+0.15+0.3*float64(i/12%12), 1.15+0.3*float64(i/144)))
				r3 = append(r3, 0.5)
			}
			want3 := serial.Pairs(c3, r3, 0, nil, nil)
			got = g.Pairs(c3, r3, 0, nil, got)
			if !slices.Equal(got, want3) {
				t.Fatalf("w %d ox %g: grown %d pairs, want %d", w, ox, len(got), len(want3))
			}
			noHold(t, &g, "grown")
			// A wide margin on the grown set: more pairs than the slots' room.
			want4 := serial.Pairs(c3, r3, 0.3, nil, nil)
			got = g.Pairs(c3, r3, 0.3, nil, got)
			if !slices.Equal(got, want4) {
				t.Fatalf("w %d ox %g: wide %d pairs, want %d", w, ox, len(got), len(want4))
			}
			// And back to margin 0 (lastPairs > the slots' room: no arena).
			got = g.Pairs(c3, r3, 0, nil, got)
			if !slices.Equal(got, want3) {
				t.Fatalf("w %d ox %g: back %d pairs, want %d", w, ox, len(got), len(want3))
			}
		}
	}
	if !lowSeen {
		t.Fatalf("no first search overflowed its estimated room: the growth path was not tested")
	}
}

// r4: a Verlet driven like the world (SetOut with the previous output's
// array, the reference in the slots' storage) over moving centres and
// growing/shrinking sets, 3 workers: pairs, reference and the previous
// list (still the caller's: the world merges old into new) intact.
func TestRV25dVerletOldListIntact(t *testing.T) {
	c, r := clumpSet(5000, 1500, geom.V(4, 4, 4), 7)
	var v Verlet
	v.Grid.Fork = forkWorkers(3)
	var serial Grid
	var prev, spare [][2]int32
	rng := rand.New(rand.NewSource(3))
	for it := range 12 {
		switch it {
		case 4:
			c, r = c[:4000], r[:4000]
		case 8:
			for range 3000 {
				c = append(c, geom.V(4+3*rng.Float64(), 4+3*rng.Float64(), 4+3*rng.Float64()))
				r = append(r, 0.5)
			}
		}
		for i := range c {
			c[i].X += 0.05 * (rng.Float64() - 0.5)
		}
		old := slices.Clone(prev)
		v.SetOut(spare)
		v.Invalidate()
		_, p := v.Update(c, r, 0.1)
		want := serial.Pairs(c, r, 0.05, nil, nil)
		if !slices.Equal(p, want) {
			t.Fatalf("it %d: %d pairs, want %d", it, len(p), len(want))
		}
		if !slices.Equal(prev, old) {
			t.Fatalf("it %d: the previous list was overwritten", it)
		}
		if !slices.Equal(v.Ref(), c) {
			t.Fatalf("it %d: reference is not the centres", it)
		}
		spare, prev = prev, p
	}
}
