package world

import (
	"math/rand"
	"slices"
	"testing"
	"unsafe"
)

// slotsRoom's layout against a merge into a fresh array (buildSlots'
// before Session 27): random old slots and new keys, both in (sphere,
// wall) order, with slots that stay, go and come; the in-place merge
// (old moved back by base, new slots written from the front, a kept
// slot's state read before its place is written) gives the same slots,
// and reuses old's storage when it holds base + len(old). It fails when
// base is one short (a write over an old slot not yet read).
func TestSlotsRoomMerge(t *testing.T) {
	rng := rand.New(rand.NewSource(27))
	for trial := range 2000 {
		nw := 1 + rng.Intn(6)
		on := make([]slotWall, 0, nw)
		for wi := range 8 {
			if len(on) < nw && rng.Intn(2) == 0 {
				on = append(on, slotWall{wall: int32(wi)})
			}
		}
		if len(on) == 0 {
			on = append(on, slotWall{wall: 3})
		}
		n := 1 + rng.Intn(30)
		pOld, pNew := rng.Float64(), rng.Float64()
		var old []wallSlot
		var keys []slotKey
		for k := range n {
			for o := range on {
				if rng.Float64() < pOld {
					old = append(old, wallSlot{k: int32(k), wall: on[o].wall, fn: float64(len(old)) + 0.5})
				}
				if rng.Float64() < pNew {
					keys = append(keys, slotKey{int32(k), int32(o)})
				}
			}
		}
		// The reference: out of place.
		var want []wallSlot
		po := 0
		for _, key := range keys {
			wall := on[key.o].wall
			for po < len(old) && (old[po].k < key.k || old[po].k == key.k && old[po].wall < wall) {
				po++
			}
			sl := wallSlot{fn: -1}
			if po < len(old) && old[po].k == key.k && old[po].wall == wall {
				sl = old[po]
			}
			sl.k, sl.wall = key.k, wall
			want = append(want, sl)
		}
		// In place, in storage of random spare room.
		store := make([]wallSlot, len(old), len(old)+rng.Intn(8))
		copy(store, old)
		arr, base := slotsRoom(store, keys, on)
		if cap(store) >= base+len(old) && cap(store) >= len(keys) && len(arr) > 0 && &arr[:1][0] != &store[:1][0] {
			t.Fatalf("trial %d: new storage although the old holds %d slots (base %d, %d old)", trial, cap(store), base, len(old))
		}
		o := arr[base : base+len(old)]
		got := arr[:0]
		po = 0
		for _, key := range keys {
			wall := on[key.o].wall
			for po < len(o) && (o[po].k < key.k || o[po].k == key.k && o[po].wall < wall) {
				po++
			}
			sl := wallSlot{fn: -1}
			if po < len(o) && o[po].k == key.k && o[po].wall == wall {
				sl = o[po]
			}
			sl.k, sl.wall = key.k, wall
			got = append(got, sl)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d old, %d new, base %d): in place %v, want %v", trial, len(old), len(keys), base, got, want)
		}
	}
}

// sortSlotsInPlace against the renumbering's stable counting sort into a
// spare array (before Session 27): random slots and a random renumbering.
func TestSortSlotsInPlace(t *testing.T) {
	rng := rand.New(rand.NewSource(2027))
	for trial := range 500 {
		n := 1 + rng.Intn(50)
		newOf := make([]int32, n)
		for k, v := range rng.Perm(n) {
			newOf[k] = int32(v)
		}
		var slots []wallSlot
		for k := range n {
			for wi := range 5 {
				if rng.Intn(3) == 0 {
					slots = append(slots, wallSlot{k: int32(k), wall: int32(wi), fn: float64(len(slots))})
				}
			}
		}
		// The reference.
		cnt := make([]int32, n+1)
		for i := range slots {
			cnt[newOf[slots[i].k]+1]++
		}
		for k := 1; k <= n; k++ {
			cnt[k] += cnt[k-1]
		}
		want := make([]wallSlot, len(slots))
		for i := range slots {
			k := newOf[slots[i].k]
			want[cnt[k]] = slots[i]
			want[cnt[k]].k = k
			cnt[k]++
		}
		sortSlotsInPlace(slots, newOf, make([]int32, n+1), make([]slotKey, len(slots)))
		if !slices.Equal(slots, want) {
			t.Fatalf("trial %d: in place %v, want %v", trial, slots, want)
		}
	}
}

// A wall slot keeps its 112 bytes with the species in its padding
// (Session 27: the radius by species, read as specR[sl.spec]).
func TestWallSlotSize(t *testing.T) {
	if n := unsafe.Sizeof(wallSlot{}); n != 112 {
		t.Errorf("wallSlot is %d B, want 112", n)
	}
}
