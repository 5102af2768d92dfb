package world

import "grainlab/sim/sphere"

// Two arrays of touches, not three (issue #16, memory per sphere;
// docs/performance.md, "Session 26: memory at 10⁶").
//
// The list in use has its touches (Touch, this evaluation's) and last
// touches (PrevTouch, the accepted step's), swapped by Accept; a rebuild
// reads the old list's PrevTouch (the merge carries each pair's) and
// writes the new list's, and the evaluation after it writes the new
// Touch. The old Touch is dead from the build's start (TakeScratch hands
// it to the new list) and the old PrevTouch from the merge's end. So the
// new PrevTouch goes into the old Touch's room and the new Touch into the
// old PrevTouch's, cleared once the merge is done (pairsEnd): the idle
// list keeps no array of touches (1 byte a pair, 3.6 MB at 10⁶ spheres,
// made while stepping). Only with a table of pair classes (s.pairCls: the
// merge writes no Touch; with a class a pair, setPair clears each new
// pair's Touch during the merge, and the three arrays stay).

// rotateTouch gives the new list nl, before it is sized, the old list's
// rooms of touches (pairsBegin, after TakeScratch): its PrevTouch in the
// old Touch's (TakeScratch moved it to nl.Touch), its Touch in the old
// PrevTouch's, which the merge still reads (nothing writes nl.Touch
// before pairsEnd).
func (s *Spheres) rotateTouch(old, nl *sphere.List) {
	s.rb.touchRot = s.pairCls != nil
	if !s.rb.touchRot {
		return
	}
	nl.PrevTouch, nl.Touch = nl.Touch, old.PrevTouch[:0:cap(old.PrevTouch)]
}

// endTouchRot ends a rotating build (pairsEnd, the merge done, l the new
// list in use): the new Touch cleared (the old last touches were there;
// the evaluations write the touching pairs' only), and the old list,
// idle, without touches.
func (s *Spheres) endTouchRot(l *sphere.List) {
	if !s.rb.touchRot {
		return
	}
	s.rb.touchRot = false
	clear(l.Touch)
	idle := &s.lists[1-s.cur]
	idle.Touch, idle.PrevTouch = nil, nil
}
