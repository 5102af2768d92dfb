package world

import (
	"unsafe"

	"grainlab/sim/sphere"
)

// One array of fresh flags while no pair is fresh (issue #16, memory per
// sphere; docs/performance.md, "Session 26: memory at 10⁶").
//
// A pair is fresh (s.isFresh, listed in s.fresh) from the build that
// lists it to the next StableDt, which takes its travel bound once and
// clears every flag. A build while steps run comes after that StableDt:
// every old flag is false. The merge (pairsRange) then reads none of them
// and writes the new flags over them, and sortOld does not carry them
// (false in any order): the spare array of flags (s.freshBuf, 1 byte a
// pair, 3.6 MB at 10⁶ spheres) is not kept. A build with fresh pairs
// still listed (two builds without a StableDt between them: a first
// evaluation rebuilt twice, a restart's imported fresh pairs) uses the
// spare array as before. The flags, the fresh list and the list are the
// same either way.

// oldFreshFlags returns the old list's fresh flags the merge reads
// (nold of them), or nil when none is set (rebuildState.noOldFresh).
func (s *Spheres) oldFreshFlags(nold int) []bool {
	if s.rb.noOldFresh {
		return nil
	}
	return s.freshBuf[:nold]
}

// sortFreshRoom returns the array sortOld scatters the old list's nold
// fresh flags into, and whether no flag is set (none fresh): then a room
// whose contents, false flags, sortOld leaves there — the Verlet
// reference's spare room (8 bytes a sphere, dead until the grid's search
// that follows sortOld), else the idle list's PrevTouch's (dead until the
// merge writes it; it keeps the room); else s.freshBuf's, which becomes
// the flags.
func (s *Spheres) sortFreshRoom(old *sphere.List, nold int) ([]bool, bool) {
	if s.freshCount() != 0 {
		return resize(s.freshBuf, nold), false
	}
	s.freshBuf = nil
	// The room beyond the Verlet reference (dead until the search that
	// follows: broad.Verlet.Spare), else the idle list's PrevTouch's.
	if sp := s.w.verlet.Spare(); nold > 0 && len(sp) >= nold {
		return unsafe.Slice((*bool)(unsafe.Pointer(unsafe.SliceData(sp))), nold), true
	}
	idle := &s.lists[1-s.cur]
	if idle == old { // (never: sortOld sorts the list in use)
		return make([]bool, nold), true
	}
	f := resize(idle.PrevTouch[:0:cap(idle.PrevTouch)], nold)
	idle.PrevTouch = f
	return f, true
}
