package broad

import (
	"math/rand"
	"slices"
	"testing"
	"unsafe"

	"grainlab/sim/geom"
)

// TestVerletSpare: the reference's spare room (Spare: 8 bytes a body
// beyond the reference in its storage) is nil before a build, overlaps no
// byte of the reference, and scribbling over it changes neither the
// reference, the displacement test, nor the next rebuild's pairs (also
// after an Invalidate, which keeps the room) and
// cells in the output's room (cells_room.go: the grid keeps no array of
// cells once the output holds them); serial and in parts.
func TestVerletSpare(t *testing.T) {
	const n = 6000
	rng := rand.New(rand.NewSource(26))
	for _, fork := range []bool{false, true} {
		c := make([]geom.Vec3, n)
		rad := make([]float64, n)
		for i := range c {
			c[i] = geom.V(rng.Float64()*30, rng.Float64()*30, rng.Float64()*30)
			rad[i] = 0.5
		}
		var v, w Verlet
		if fork {
			f := func(n int, job func(worker, lo, hi int)) { job(0, 0, n) }
			v.Grid.Fork, w.Grid.Fork = f, f
		}
		if v.Spare() != nil {
			t.Fatal("a spare room before a build")
		}
		const skin = 0.2
		v.Update(c, rad, skin)
		w.Update(c, rad, skin)
		sp := v.Spare()
		if len(sp) != 8*n {
			t.Fatalf("fork %v: spare room %d bytes, want %d", fork, len(sp), 8*n)
		}
		ref := v.Ref()
		r0 := uintptr(unsafe.Pointer(&ref[0]))
		r1 := r0 + uintptr(len(ref))*unsafe.Sizeof(geom.Vec3{})
		if s0 := uintptr(unsafe.Pointer(&sp[0])); s0 < r1 {
			t.Fatalf("fork %v: spare room overlaps the reference", fork)
		}
		refCopy := slices.Clone(ref)
		for round := range 3 {
			sp = v.Spare()
			for i := range sp {
				sp[i] = byte(rng.Intn(256))
			}
			if !slices.Equal(v.Ref(), refCopy) {
				t.Fatalf("fork %v round %d: the reference changed", fork, round)
			}
			for i := range c {
				c[i] = c[i].Add(geom.V(0.05*(rng.Float64()-0.5), 0.05*(rng.Float64()-0.5), 0.05*(rng.Float64()-0.5)))
			}
			rv, pv := v.Update(c, rad, skin)
			rw, pw := w.Update(c, rad, skin)
			if rv != rw || !slices.Equal(pv, pw) {
				t.Fatalf("fork %v round %d: rebuilt %v/%v, %d/%d pairs", fork, round, rv, rw, len(pv), len(pw))
			}
			v.Invalidate()
			w.Invalidate()
			if sp = v.Spare(); len(sp) != 8*n { // kept by Invalidate, dead until the Update
				t.Fatalf("fork %v round %d: spare room %d bytes after Invalidate", fork, round, len(sp))
			}
			for i := range sp {
				sp[i] = byte(rng.Intn(256))
			}
			_, pv = v.Update(c, rad, skin)
			_, pw = w.Update(c, rad, skin)
			if !slices.Equal(pv, pw) {
				t.Fatalf("fork %v round %d: a rebuild after the scribble: %d pairs, want %d", fork, round, len(pv), len(pw))
			}
			if fork && (v.Grid.cellOwn != nil || v.Grid.cell != nil) {
				t.Fatalf("fork %v round %d: the grid keeps cells of its own (%d) with the output's room", fork, round, cap(v.Grid.cellOwn))
			}
			refCopy = slices.Clone(v.Ref())
		}
	}
}
