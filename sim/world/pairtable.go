package world

import "math"

// pairTable is bodyPairs' set of candidate pairs during a Verlet rebuild:
// an open-addressing hash table keyed as pairKey (a, b and the image's
// shift x, y compared with ==, as a Go map compares them: +0 = −0, a NaN
// matches nothing), each slot holding the pair's entry and whether the
// rebuild met the pair. It replaces two Go maps (the entries before the
// rebuild, the keys met), whose assignments and look-ups cost ≈ 0.4k
// instructions per contact-step of the settling superquadrics (session
// 18); it answers the same, so the candidates keep their order and entries.
// The slots are kept from one rebuild to the next, empty: a rebuild
// allocates nothing once they have grown.
type pairTable struct {
	slot  []pairSlot
	shift uint // 64 − log₂ len(slot)
}

// pairSlot is one slot of a pairTable: e nil is an empty slot.
type pairSlot struct {
	e    *pairEntry
	seen bool
}

// reset readies t for up to n keys, at most half full.
func (t *pairTable) reset(n int) {
	size, bits := 16, uint(4)
	for size < 2*n {
		size, bits = 2*size, bits+1
	}
	if cap(t.slot) >= size {
		t.slot = t.slot[:size] // empty: done cleared every slot ever in use
	} else {
		t.slot = make([]pairSlot, size)
	}
	t.shift = 64 - bits
}

// done empties t's slots: the entries dropped are not kept alive.
func (t *pairTable) done() { clear(t.slot) }

// find returns the slot of key (a, b, sx, sy): the one whose entry has that
// key (A, B, Shift.X, Shift.Y), or the empty slot where it goes.
func (t *pairTable) find(a, b int32, sx, sy float64) *pairSlot {
	// x + 0 is +0 for both zeros: equal keys hash alike.
	h := uint64(uint32(a))*0x9e3779b97f4a7c15 ^ uint64(uint32(b))*0xc2b2ae3d27d4eb4f ^
		math.Float64bits(sx+0)*0x165667b19e3779f9 ^ math.Float64bits(sy+0)*0x27d4eb2f165667c5
	h ^= h >> 31
	m := uint64(len(t.slot) - 1)
	for i := (h * 0x9e3779b97f4a7c15) >> t.shift; ; i = (i + 1) & m {
		s := &t.slot[i]
		if e := s.e; e == nil || e.A == a && e.B == b && e.Shift.X == sx && e.Shift.Y == sy {
			return s
		}
	}
}
