package world

// The wall slots' acceptance in Accept's kick pass, with an undo (Session
// 25: a fork–join fewer a step). After EvaluateKick (badKick) a split
// Accept ran its kick pass, tested the forces (finishSplitBad) and only
// then accepted the slots in a pass of their own, so that a failed test
// committed nothing: a fourth fork–join every step (≈ 30 µs of work at 10⁵
// spheres, in 8 items, each fork a wake-up of the other worker). Now the
// kick pass accepts each range's slots too (acceptSlots' loop: the same
// bits), noting as it goes what acceptSlots overwrites — each
// slot's last-accepted flags (pTouch, pRim, pNew), its accepted history
// entry (pHist) and, for a rim slot, the length of its accepted contact
// list (acceptSlots swaps the two lists and empties the older one,
// keeping its contents) — and a failed test puts every slot back as it
// was (restore), so that the retry finds what it would have found.
// acceptSlots reads nothing the kick writes (the slots' own evaluation),
// so running it before the test gives what running it after gives.

// slotUndo is the noted state, one entry per slot (kept between steps).
type slotUndo struct {
	on    bool      // this Accept's kick pass accepts the slots (prepare)
	moms  bool      // s.moms at prepare: acceptSlots writes pHist, noted in hist
	flags [][3]bool // pTouch, pRim, pNew (three adjacent fields, one copy)
	hist  []int32   // pHist (with moms)
	plen  []int32   // a rim slot's len(e.prev)
	// restores and passes: failed tests undone, kick passes that accepted
	// the slots (tests).
	restores, passes int
}

// prepare sizes the undo for s's slots and turns it on when the split
// kick pass is to accept them (bk: the force test comes after the pass).
func (u *slotUndo) prepare(s *Spheres, bk bool) {
	u.on, u.moms = bk && len(s.slots) > 0, s.moms
	if u.on {
		u.passes++
		n := len(s.slots)
		u.flags, u.plen = resize(u.flags, n), resize(u.plen, n)
		if u.moms {
			u.hist = resize(u.hist, n)
		}
	}
}

// acceptSlotsUndo is acceptSlots(lo, hi) noting, slot by slot, the state
// it overwrites (spheres lo…hi−1: their slots only, so ranges may run at
// once). Its loop is acceptSlots' with the notes added, in one pass over
// the slots (a pass of notes before acceptSlots cost +37.8 M instructions
// in 207 steps of the 10⁵ box, this +15.6 M, against acceptSlots' 79.4 M);
// TestSlotUndoRestores holds the two to the same results.
func (s *Spheres) acceptSlotsUndo(lo, hi int) (spring float64, other bool) {
	u := &s.rb.undo
	spring = inf
	cls := s.dt.classes
	i0, i1 := s.slotAt(lo), s.slotAt(hi)
	slots := s.slots[i0:i1]
	flags, plen := u.flags[i0:i1], u.plen[i0:i1]
	var hist []int32
	if u.moms {
		hist = u.hist[i0:i1]
	}
	for i := range slots {
		sl := &slots[i]
		flags[i] = [3]bool{sl.pTouch, sl.pRim, sl.pNew}
		if sl.rim {
			plen[i] = int32(len(sl.e.prev))
		}
		if hist != nil {
			hist[i] = sl.pHist
		}
		sl.accept(hist != nil)
		spring, other = sl.springBound(cls, spring, other)
	}
	return spring, other
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
		sl.pTouch, sl.pRim, sl.pNew = f[0], f[1], f[2]
		if u.moms {
			sl.pHist = u.hist[i]
		}
		if sl.rim {
			// acceptSlots: prev, cur = cur, prev[:0].
			sl.e.prev, sl.e.cur = sl.e.cur[:u.plen[i]], sl.e.prev
		}
	}
}
