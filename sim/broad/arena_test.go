package broad

import (
	"math/rand"
	"slices"
	"testing"
	"unsafe"

	"grainlab/sim/geom"
)

// arenaSet returns n spheres of radius 0.5 on a jittered lattice of
// spacing 0.95 (three pairs a body at margin 0; many more with a wide
// margin).
func arenaSet(n int, seed int64) ([]geom.Vec3, []float64) {
	rng := rand.New(rand.NewSource(seed))
	k := 1
	for k*k*k < n {
		k++
	}
	c := make([]geom.Vec3, n)
	r := make([]float64, n)
	for i := range c {
		x, y, z := i%k, i/k%k, i/(k*k)
		c[i] = geom.V(0.95*float64(x)+0.02*rng.Float64(), 0.95*float64(y)+0.02*rng.Float64(), 0.95*float64(z)+0.02*rng.Float64())
		r[i] = 0.5
	}
	return c, r
}

// noHold fails when the grid keeps, after a call, a block of the call
// (the output's room is the caller's then) or pool blocks the call did
// not take.
func noHold(t *testing.T, g *Grid, what string) {
	t.Helper()
	if g.ar.buf != nil || g.rowAr != nil {
		t.Fatalf("%s: the grid keeps the output's room", what)
	}
	for p := range g.part {
		bk := &g.part[p].bk
		if len(bk.blocks) != 0 || bk.ar != nil {
			t.Fatalf("%s: part %d keeps %d blocks of the call", what, p, len(bk.blocks))
		}
		for k, b := range bk.blocks[:cap(bk.blocks)] {
			if b != nil {
				t.Fatalf("%s: part %d keeps block %d of the call in its list's room", what, p, k)
			}
		}
		for b := range bk.cur {
			if bk.cur[b] != nil {
				t.Fatalf("%s: part %d keeps bucket %d's last block", what, p, b)
			}
		}
		if len(bk.pool) != bk.own {
			t.Fatalf("%s: part %d keeps %d pool blocks, took %d", what, p, len(bk.pool), bk.own)
		}
		for k, b := range bk.pool[len(bk.pool):cap(bk.pool)] {
			if b != nil {
				t.Fatalf("%s: part %d keeps untaken pool block %d in the pool's room", what, p, len(bk.pool)+k)
			}
		}
	}
}

// The search in parts puts its buckets' blocks in the output's room and
// sorts the pairs in the slots' room (Session 25): the pairs are the
// serial search's, whichever room holds the blocks — the output's alone
// (a first call, its room estimated; later calls, the last output's
// room), the output's and the pool's (a short room), and the output's
// with the slots' room too short for the pairs (a wide margin: a new
// array) — serial and on a Fork, with the slots in a Verlet's storage or
// the grid's own; no pool is kept when the output's room held every block.
// Fails when the sort writes into the room that holds the blocks (the
// output's) or an arena block has more room than its own (pairs then
// written over another block), or when the grid keeps the call's blocks.
func TestPairsBlocksInOutput(t *testing.T) {
	for _, fork := range []func(int, func(int, int, int)){nil, forkReverse} {
		c, r := arenaSet(20000, 1)
		var serial Grid
		want := serial.Pairs(c, r, 0, nil, nil)
		if len(want) < 3*len(c)/2 {
			t.Fatalf("%d pairs: not a dense pack", len(want))
		}
		g := Grid{Fork: fork}
		var out [][2]int32
		for round := range 3 {
			out = g.Pairs(c, r, 0, nil, out)
			if !slices.Equal(out, want) {
				t.Fatalf("fork %v round %d: %d pairs, want the serial %d", fork != nil, round, len(out), len(want))
			}
			if g.lastArena == 0 || g.lastArena != g.lastBlocks {
				t.Fatalf("fork %v round %d: %d of %d blocks in the output's room, want all", fork != nil, round, g.lastArena, g.lastBlocks)
			}
			noHold(t, &g, "dense")
			if got := bucketBytes(&g); got != 0 {
				t.Fatalf("fork %v round %d: the pool keeps %d bytes", fork != nil, round, got)
			}
			// The jitter moves: other pairs in the same room.
			c[round*7].X += 0.3
			want = serial.Pairs(c, r, 0, nil, nil)
		}

		// A short room: the first blocks there, the rest the pool's.
		short := make([][2]int32, 0, len(want)/3)
		for i := range cap(short) {
			short = append(short, [2]int32{int32(i), -1})
		}
		got := g.Pairs(c, r, 0, nil, short[:0])
		if !slices.Equal(got, want) {
			t.Fatalf("fork %v short room: other pairs than the serial search's", fork != nil)
		}
		if g.lastArena == 0 || g.lastArena == g.lastBlocks {
			t.Fatalf("fork %v short room: %d of %d blocks in the room, want some", fork != nil, g.lastArena, g.lastBlocks)
		}
		noHold(t, &g, "short room")
		if bucketBytes(&g) == 0 {
			t.Fatalf("fork %v short room: no pool block taken", fork != nil)
		}
		// The room again: the pool's blocks dropped.
		if got = g.Pairs(c, r, 0, nil, got); !slices.Equal(got, want) {
			t.Fatalf("fork %v room again: other pairs than the serial search's", fork != nil)
		}
		noHold(t, &g, "room again")
		if b := bucketBytes(&g); b != 0 {
			t.Fatalf("fork %v room again: the pool keeps %d bytes", fork != nil, b)
		}

		// A wide margin: more pairs than the slots' room holds (4 a body).
		wide := serial.Pairs(c, r, 0.4, nil, nil)
		if len(wide) <= slotRoom(make([]slotBody, len(c))) {
			t.Fatalf("%d pairs at the wide margin: fit the slots' room", len(wide))
		}
		room := make([][2]int32, 0, 2*len(wide))
		var g2 Grid
		g2.Fork = fork
		got = g2.Pairs(c, r, 0.4, nil, room)
		if !slices.Equal(got, wide) || g2.lastArena == 0 {
			t.Fatalf("fork %v wide margin: %d pairs (%d blocks in the room), want the serial %d", fork != nil, len(got), g2.lastArena, len(wide))
		}
		if unsafe.SliceData(got) == unsafe.SliceData(room) {
			t.Fatalf("fork %v wide margin: sorted into the room that held the blocks", fork != nil)
		}
		noHold(t, &g2, "wide margin")

		// In a Verlet: the slots in its reference's storage, the pairs
		// sorted there, then its reference written.
		var v Verlet
		v.Grid.Fork = fork
		cc, rr := arenaSet(20000, 2)
		wantV := serial.Pairs(cc, rr, 0.05, nil, nil)
		for round := range 3 {
			v.SetOut(make([][2]int32, 0, len(wantV)+len(wantV)/4))
			v.Invalidate()
			_, p := v.Update(cc, rr, 0.1)
			if !slices.Equal(p, wantV) {
				t.Fatalf("fork %v Verlet round %d: other pairs than the serial search's", fork != nil, round)
			}
			if !slices.Equal(v.Ref(), cc) {
				t.Fatalf("fork %v Verlet round %d: the reference is not the centres", fork != nil, round)
			}
			if v.Grid.lastArena == 0 {
				t.Fatalf("fork %v Verlet round %d: no block in the room", fork != nil, round)
			}
			noHold(t, &v.Grid, "Verlet")
		}
	}
}
