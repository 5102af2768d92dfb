package world

// The wall slots' acceptance in Accept's kick pass, with an undo (Session
// 25: a fork–join fewer a step). After EvaluateKick (badKick) a split
// Accept ran its kick pass, tested the forces (finishSplitBad) and only
// then accepted the slots in a pass of their own, so that a failed test
// committed nothing: a fourth fork–join every step (≈ 30 µs of work at 10⁵
// spheres, in 8 items, each fork a wake-up of the other worker). Now the
// kick pass accepts each range's slots too (acceptSlots, unchanged: the
// same bits), having first noted what acceptSlots overwrites — each
// slot's last-accepted flags (pTouch, pRim, pNew), its accepted history
// entry (pHist) and, for a rim slot, the length of its accepted contact
// list (acceptSlots swaps the two lists and empties the older one,
// keeping its contents) — and a failed test puts every slot back as it
// was (restore), so that the retry finds what it would have found.
// acceptSlots reads nothing the kick writes (the slots' own evaluation),
// so running it before the test gives what running it after gives.

// slotUndo is the noted state, one entry per slot (kept between steps).
type slotUndo struct {
	on    bool    // this Accept's kick pass accepts the slots (prepare)
	flags []uint8 // pTouch | pRim<<1 | pNew<<2
	hist  []int32 // pHist
	plen  []int32 // a rim slot's len(e.prev)
	// restores and passes: failed tests undone, kick passes that accepted
	// the slots (tests).
	restores, passes int
}

// prepare sizes the undo for s's slots and turns it on when the split
// kick pass is to accept them (bk: the force test comes after the pass).
func (u *slotUndo) prepare(s *Spheres, bk bool) {
	u.on = bk && len(s.slots) > 0
	if u.on {
		u.passes++
		n := len(s.slots)
		u.flags, u.hist, u.plen = resize(u.flags, n), resize(u.hist, n), resize(u.plen, n)
	}
}

// acceptSlotsUndo is acceptSlots(lo, hi) after noting the state it
// overwrites (spheres lo…hi−1: their slots only, so ranges may run at once).
func (s *Spheres) acceptSlotsUndo(lo, hi int) (float64, bool) {
	u := &s.rb.undo
	i0, i1 := int(s.slotStart[lo]), int(s.slotStart[hi])
	slots := s.slots[i0:i1]
	flags, hist, plen := u.flags[i0:i1], u.hist[i0:i1], u.plen[i0:i1]
	for i := range slots {
		sl := &slots[i]
		var f uint8
		if sl.pTouch {
			f |= 1
		}
		if sl.pRim {
			f |= 2
		}
		if sl.pNew {
			f |= 4
		}
		flags[i], hist[i] = f, sl.pHist
		if sl.rim {
			plen[i] = int32(len(sl.e.prev))
		}
	}
	return s.acceptSlots(lo, hi)
}

// restore puts every slot back as it was before acceptSlotsUndo (all of
// them: the kick pass has run every range), and turns the undo off.
func (u *slotUndo) restore(s *Spheres) {
	if !u.on {
		return
	}
	u.on = false
	u.restores++
	for i := range s.slots {
		sl := &s.slots[i]
		f := u.flags[i]
		sl.pTouch, sl.pRim, sl.pNew, sl.pHist = f&1 != 0, f&2 != 0, f&4 != 0, u.hist[i]
		if sl.rim {
			// acceptSlots: prev, cur = cur, prev[:0].
			sl.e.prev, sl.e.cur = sl.e.cur[:u.plen[i]], sl.e.prev
		}
	}
}
