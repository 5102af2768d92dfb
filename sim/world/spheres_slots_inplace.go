package world

// The wall slots in one array (Session 27). buildSlots used to write the
// new slots into a spare array while it read the old ones, and the
// renumbering sorted them into that spare: two arrays of slots (112 B a
// slot, 2 × 5.5 MB at 10⁶ spheres). Now both work in place:
//
//   - buildSlots lists the new slots' keys first (sphere, wall: 8 B a
//     slot, slotKey), moves the old slots to the back of the array, far
//     enough that the merge (old and new both in (sphere, wall) order)
//     never writes over an old slot it has not read (slotsRoom), and
//     writes the new slots from the front — the same slots, the same
//     state carried, the same order.
//   - the renumbering's stable counting sort by the new sphere computes
//     each slot's place and moves the slots there along the cycles of that
//     permutation (sortSlotsInPlace): the order the sort into a spare gave.
//
// The friction sides (Spheres.hists, only in worlds with a law that has
// friction or rolling resistance) keep their spare: a renumbering leaves
// them out of slot order.

// slotKey is a slot's sphere k and its wall's place o in buildSlots'
// enabled walls (on[o], in wall order): buildSlots' first pass.
type slotKey struct{ k, o int32 }

// slotsRoom returns the array the merge of the slots old with the new
// keys writes into and where old then starts in it (base): old's slots
// moved to arr[base:base+len(old)] (old may be arr's own storage), base
// the least offset at which writing new slot i (after reading the old
// slots before it and the one of its key) never reaches an old slot not
// yet read. arr has room for max(base+len(old), len(keys)) slots and is
// old's storage when that holds them (else a new array: to size when old
// has no storage — the first build — else with a quarter more).
func slotsRoom(old []wallSlot, keys []slotKey, on []slotWall) (arr []wallSlot, base int) {
	po := 0
	for i, key := range keys {
		wall := on[key.o].wall
		for po < len(old) && (old[po].k < key.k || old[po].k == key.k && old[po].wall < wall) {
			po++
		}
		read := po // old slots read when new slot i is written
		if po < len(old) && old[po].k == key.k && old[po].wall == wall {
			read++
		}
		base = max(base, i+1-read)
	}
	c := max(base+len(old), len(keys))
	switch {
	case cap(old) >= c:
		arr = old[:c]
	case cap(old) == 0:
		arr = make([]wallSlot, c) // the first build (set-up): to size
	default:
		arr = make([]wallSlot, c, c+c/4)
	}
	copy(arr[base:base+len(old)], old) // memmove: the ranges may overlap
	return arr, base
}

// sortSlotsInPlace puts the slots in a stable order by the new sphere
// newOf[sl.k] and renumbers them (sl.k = newOf[sl.k]): applyOrder's
// counting sort, in place. cnt has room for n+1 counts (n spheres);
// keys a scratch of a slot's place (its k) a slot.
func sortSlotsInPlace(slots []wallSlot, newOf, cnt []int32, keys []slotKey) {
	n := len(newOf)
	cnt = cnt[:n+1]
	clear(cnt)
	for i := range slots {
		cnt[newOf[slots[i].k]+1]++
	}
	for k := 1; k <= n; k++ {
		cnt[k] += cnt[k-1]
	}
	dest := keys[:len(slots)]
	for i := range slots {
		k := newOf[slots[i].k]
		dest[i].k = cnt[k]
		cnt[k]++
		slots[i].k = k
	}
	// Each swap puts one slot in its place.
	for i := range slots {
		for j := dest[i].k; j != int32(i); j = dest[i].k {
			slots[i], slots[j] = slots[j], slots[i]
			dest[i].k, dest[j].k = dest[j].k, j
		}
	}
}
