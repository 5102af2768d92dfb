package world

import (
	"math/rand"
	"testing"
	"unsafe"

	"grainlab/sim/contact"
)

// slotsState is what acceptSlots may change on a slot: the flags, pHist,
// and the two contact lists' headers (pointer, length, capacity).
type slotsState struct {
	pTouch, pRim, pNew bool
	pHist              int32
	prev, cur          [3]uintptr
}

func sliceHead(c []contact.Contact) [3]uintptr {
	if cap(c) == 0 {
		return [3]uintptr{0, 0, 0}
	}
	return [3]uintptr{uintptr(len(c)), uintptr(cap(c)), 0} // the address: slotsOf
}

func slotsOf(s *Spheres) []slotsState {
	out := make([]slotsState, len(s.slots))
	for i := range s.slots {
		sl := &s.slots[i]
		st := slotsState{pTouch: sl.pTouch, pRim: sl.pRim, pNew: sl.pNew, pHist: sl.pHist}
		if sl.e != nil {
			st.prev, st.cur = sliceHead(sl.e.prev), sliceHead(sl.e.cur)
			if cap(sl.e.prev) > 0 {
				st.prev[2] = uintptr(unsafePointer(sl.e.prev))
			}
			if cap(sl.e.cur) > 0 {
				st.cur[2] = uintptr(unsafePointer(sl.e.cur))
			}
		}
		out[i] = st
	}
	return out
}

// TestSlotUndoRestores: the kick pass's acceptance with an undo
// (acceptSlotsUndo by ranges, run in random order) returns what
// acceptSlots returns and leaves the slots as acceptSlots leaves them, and
// restore puts back every flag, pHist and both contact lists of rim slots
// (their headers: the same arrays, lengths and capacities), on random
// slots — rim or not, facet contacts or not, with and without histories
// (moms), ranges of no slot and of one. It fails with a flag or the
// length of the accepted list not restored, or the lists left swapped.
func TestSlotUndoRestores(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	for trial := range 200 {
		n := 1 + rng.Intn(40)
		s := &Spheres{moms: trial%2 == 0}
		s.dt.classes = []dtClass{{hooke: true, spring: 3}, {hooke: false}, {hooke: true, spring: 1}}
		for k := range n {
			m := rng.Intn(3)
			for range m {
				sl := wallSlot{k: int32(k), cls: int32(rng.Intn(3)), hist: int32(rng.Intn(9)), pHist: int32(rng.Intn(9))}
				sl.cand, sl.touch, sl.rim = rng.Intn(2) == 0, rng.Intn(2) == 0, rng.Intn(3) == 0
				sl.pTouch, sl.pRim, sl.pNew = rng.Intn(2) == 0, rng.Intn(2) == 0, rng.Intn(2) == 0
				if sl.rim || sl.pRim || rng.Intn(2) == 0 { // a rim contact, now or accepted, has its entry
					e := &pairEntry{}
					mk := func() []contact.Contact {
						c := make([]contact.Contact, rng.Intn(4), 4+rng.Intn(3))
						for x := range c {
							c[x].FA, c[x].FB = int32(rng.Intn(2)), int32(rng.Intn(2))
						}
						return c
					}
					e.prev, e.cur = mk(), mk()
					sl.e = e
				}
				s.slots = append(s.slots, sl)
			}
		}
		before := slotsOf(s)
		// The reference: acceptSlots on a copy of the slots (entries copied too).
		ref := &Spheres{moms: s.moms, dt: s.dt}
		ref.slots = append([]wallSlot(nil), s.slots...)
		for i := range ref.slots {
			if e := ref.slots[i].e; e != nil {
				c := *e
				ref.slots[i].e = &c
			}
		}
		parts := 1 + rng.Intn(9)
		wantS, wantO := make([]float64, parts), make([]bool, parts)
		for p := range parts {
			wantS[p], wantO[p] = ref.acceptSlots(p*n/parts, (p+1)*n/parts)
		}
		s.rb.undo.prepare(s, true)
		if !s.rb.undo.on && len(s.slots) > 0 {
			t.Fatal("prepare: off with slots")
		}
		for _, p := range rng.Perm(parts) {
			sp, o := s.acceptSlotsUndo(p*n/parts, (p+1)*n/parts)
			if sp != wantS[p] || o != wantO[p] {
				t.Fatalf("trial %d range %d: %v %v, acceptSlots %v %v", trial, p, sp, o, wantS[p], wantO[p])
			}
		}
		after, want := slotsOf(s), slotsOf(ref)
		for i := range after {
			if after[i] != want[i] {
				t.Fatalf("trial %d slot %d: accepted %+v, acceptSlots %+v", trial, i, after[i], want[i])
			}
		}
		s.rb.undo.restore(s)
		if s.rb.undo.on {
			t.Fatal("restore left the undo on")
		}
		for i, st := range slotsOf(s) {
			if st != before[i] {
				t.Fatalf("trial %d slot %d: restored %+v, was %+v", trial, i, st, before[i])
			}
		}
	}
}

func unsafePointer(c []contact.Contact) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(c)) }
