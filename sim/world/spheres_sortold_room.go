package world

import "unsafe"

// sortOld's counts without an array of their own (Session 27, memory at
// 10⁶; docs/performance.md, "Session 27: memory at 10⁶ — bodies, pairs,
// set-up"). The row ends by lower sphere (n+1 int32: 4 MB at 10⁶ spheres;
// a range's counts on the crew, sortOldParts·n) go in the dead room of
// the scattered pairs' array beyond them (fb's, the spare list's), which
// holds them while that array has a quarter of room at ≈ 3 pairs a sphere.
// With the per-pair arrays' smaller room (sphere.PairRoom) it does not:
// the room beyond the Verlet reference (broad.Verlet.Spare: 8 bytes a
// body, dead until the search that follows) beyond the fresh flags that
// sortFreshRoom may have put at its start does, at up to 4 pairs a sphere.

// sortOldRoom returns the dead floats for sortOld's counts: room (fb's
// beyond the scattered pairs) when it holds them, else the Verlet spare
// beyond the flags F2 (when sortFreshRoom put them at its start: inSpare
// and the same address) when that does, else room (rowEnds then makes the
// counts' array).
func (s *Spheres) sortOldRoom(room []float64, F2 []bool, inSpare bool, n int) []float64 {
	need := n + 1 // int32s (rowEnds)
	if s.passes() {
		need = sortOldParts * n
	}
	if 2*len(room) >= need {
		return room
	}
	sp := s.w.verlet.Spare()
	skip := 0
	if inSpare && len(F2) > 0 && len(sp) > 0 &&
		unsafe.Pointer(unsafe.SliceData(F2)) == unsafe.Pointer(unsafe.SliceData(sp)) {
		skip = (len(F2) + 7) &^ 7 // the flags at the spare's start: after them, 8-byte aligned
	}
	if len(sp) < skip+8 || uintptr(unsafe.Pointer(unsafe.SliceData(sp)))%8 != 0 {
		return room
	}
	f := unsafe.Slice((*float64)(unsafe.Pointer(&sp[skip])), (len(sp)-skip)/8)
	if 2*len(f) < need {
		return room
	}
	return f
}
