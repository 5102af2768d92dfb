package world

// Where a sphere's wall slots start (Session 27): the slots are in
// (sphere, wall) order, so sphere k's are those from the first slot of a
// sphere ≥ k on, found by bisection, not kept in an array of n+1 starts
// (slotStart: 4 B a sphere, 3.8 MB at 10⁶, for ≈ 49 000 slots). The
// readers take a range's bounds (a few a step) or walk the slots in order
// (slotsEnd).

// slotAt returns the index of the first slot of a sphere ≥ k (len(s.slots)
// if none).
func (s *Spheres) slotAt(k int) int {
	lo, hi, kk := 0, len(s.slots), int32(k)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.slots[m].k < kk {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// slotsEnd returns the end of sphere k's slots, which start at i.
func (s *Spheres) slotsEnd(i, k int) int {
	for i < len(s.slots) && int(s.slots[i].k) == k {
		i++
	}
	return i
}
