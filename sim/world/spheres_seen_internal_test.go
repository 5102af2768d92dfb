package world

import (
	"math/rand"
	"testing"
)

// The seen flags as bits (Session 27) against a flag a wall and sphere:
// random worlds of 1…20 walls (one to three columns of bytes), random
// flags set, cleared and set again, then a renumbering's permutation of
// every column (applyOrder's job 8): seenAt and anySeen answer as the
// flags do, and the storage is ⌈walls/8⌉ bytes a sphere. It fails when
// a column or bit is addressed wrong (e.g. walls of two columns aliased).
func TestSeenBits(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	for trial := range 300 {
		nw, n := 1+rng.Intn(20), 1+rng.Intn(40)
		s := &Spheres{idx: make([]int32, n), planes: make([]plane, nw)}
		s.seen = make([]uint8, seenCols(nw)*n)
		if want := (nw + 7) / 8 * n; len(s.seen) != want {
			t.Fatalf("%d walls, %d spheres: %d bytes, want %d", nw, n, len(s.seen), want)
		}
		ref := make([][]bool, nw)
		for wi := range ref {
			ref[wi] = make([]bool, n)
		}
		for range 3 * nw * n / 2 {
			wi, k := rng.Intn(nw), rng.Intn(n)
			switch rng.Intn(3) {
			case 0:
				s.setSeen(wi, k)
				ref[wi][k] = true
			default:
				v := rng.Intn(2) == 0
				s.putSeen(wi, k, v)
				ref[wi][k] = v
			}
		}
		check := func(when string) {
			any := false
			for wi := range nw {
				for k := range n {
					any = any || ref[wi][k]
					if s.seenAt(wi, k) != ref[wi][k] {
						t.Fatalf("trial %d %s: wall %d sphere %d: %v, want %v", trial, when, wi, k, s.seenAt(wi, k), ref[wi][k])
					}
				}
			}
			if s.anySeen() != any {
				t.Fatalf("trial %d %s: anySeen %v, want %v", trial, when, s.anySeen(), any)
			}
		}
		check("set")
		// A renumbering: new k holds old perm[k].
		perm := rng.Perm(n)
		p32 := make([]int32, n)
		for k, v := range perm {
			p32[k] = int32(v)
		}
		cyc := cycleOrder(p32, &orderScratch{})
		for c := range seenCols(nw) {
			permute(s.seen[c*n:(c+1)*n], cyc)
		}
		for wi := range nw {
			old := append([]bool(nil), ref[wi]...)
			for k := range n {
				ref[wi][k] = old[perm[k]]
			}
		}
		check("permuted")
	}
}
