package world

import (
	"fmt"
	"math"
	"unsafe"

	"grainlab/sim/sphere"
)

// SetMaxClassSpecies sets the largest number of species whose sphere pair
// classes are tabulated and returns the old value (tests).
func SetMaxClassSpecies(n int) int {
	old := maxClassSpecies
	maxClassSpecies = n
	return old
}

// PairClassTable reports whether the sphere path of w tabulates its pair
// classes by species pair (tests).
func PairClassTable(w *World) bool { return w.Spheres().pairCls != nil }

// SphereArrays describes the memory of the sphere path of w (tests): the
// number of spheres, the least and largest capacity of its arrays of one
// entry a sphere, and whether the spheres are renumbered.
func SphereArrays(w *World) (n, minCap, maxCap int, ordered bool) {
	s := w.Spheres()
	n = len(s.idx)
	caps := []int{cap(s.tr.L), cap(s.tr.X), cap(s.acc.L), cap(s.rad),
		cap(s.spec)}
	for _, r := range [][]sphere.Rot{s.tr.R, s.acc.R} {
		if r != nil || !s.rotNone { // absent while nothing turns (rotNone): no bytes
			caps = append(caps, cap(r))
		}
	}
	minCap, maxCap = caps[0], caps[0]
	for _, c := range caps {
		minCap, maxCap = min(minCap, c), max(maxCap, c)
	}
	return n, minCap, maxCap, s.ordered
}

// SpherePartsReady reports whether the next split evaluation of the sphere
// path of w goes by parts of spheres (evalParts) rather than by stored pair
// forces gathered per sphere (tests).
func SpherePartsReady(w *World) bool {
	s := w.Spheres()
	return s.partsOK && s.hooke && s.lists[s.cur].Shift == nil
}

// SphereCrossPairs returns how many pairs of the sphere list cross between
// the parts of a split evaluation (tests).
func SphereCrossPairs(w *World) (n int) {
	s := w.Spheres()
	for p := range s.rb.part {
		for q := range s.rb.part[p].cross {
			n += len(s.rb.part[p].cross[q])
		}
	}
	return n
}

// SphereSlotsByDefinition checks every wall slot of the sphere path of w
// against the definitions buildSlots applies (tests): deep when the foot of
// the Verlet reference centre on the wall lies on the wall's surface
// (onSurface of the wall body) at more than the rebuild margin from its rim
// (the distance to the nearest rim segment, by the segment's own formula),
// and the step-size class that of the (species, wall) key. It returns the
// number of slots and of deep ones, and the first disagreement; and that
// the slots are those of the spheres whose box meets a wall's, in order.
func SphereSlotsByDefinition(w *World) (slots, deep int, err error) {
	s := w.Spheres()
	ref := w.verlet.Ref()
	reach := w.skin*(1+1e-9) + 1e-15
	for i := range s.slots {
		sl := &s.slots[i]
		pl := &s.planes[sl.wall]
		x := ref[sl.k]
		foot := x.AddScaled(-x.Sub(pl.P).Dot(pl.N), pl.N)
		d2 := math.Inf(1)
		for _, e := range pl.edges {
			ab := e[1].Sub(e[0])
			t := 0.0
			if l2 := ab.Norm2(); l2 > 0 {
				t = min(1, max(0, foot.Sub(e[0]).Dot(ab)/l2))
			}
			d2 = min(d2, foot.Sub(e[0].AddScaled(t, ab)).Norm2())
		}
		want := onSurface(pl.body, foot) && math.Sqrt(d2) > reach
		if sl.deep != want {
			return i, deep, fmt.Errorf("slot %d (sphere %d, wall %d): deep %v, by definition %v", i, sl.k, sl.wall, sl.deep, want)
		}
		if c, ok := s.dt.wallOf[[2]int32{s.spec[sl.k], sl.wall}]; !ok || c != sl.cls {
			return i, deep, fmt.Errorf("slot %d (sphere %d, wall %d): class %d, of its key %d (%v)", i, sl.k, sl.wall, sl.cls, c, ok)
		}
		if sl.deep {
			deep++
		}
	}
	// The slots themselves: sphere k and enabled wall wi, in (k, wi)
	// order, exactly when the sphere's box x ± (r + skin) overlaps the
	// wall's candidate box on the three axes.
	at, n := 0, len(s.idx)
	for k := range n {
		if s.slotAt(k) != at {
			return at, deep, fmt.Errorf("sphere %d: slots from %d, want %d", k, s.slotAt(k), at)
		}
		x, h := ref[k], s.rOf(k)+w.skin
		for wi := range s.planes {
			b := s.planes[wi].box
			if !s.wallOn[wi] || !(x.X-h <= b.Max.X && b.Min.X <= x.X+h && x.Y-h <= b.Max.Y && b.Min.Y <= x.Y+h &&
				x.Z-h <= b.Max.Z && b.Min.Z <= x.Z+h) {
				continue
			}
			if at >= len(s.slots) || s.slots[at].k != int32(k) || s.slots[at].wall != int32(wi) {
				return at, deep, fmt.Errorf("slot %d: not sphere %d's against wall %d", at, k, wi)
			}
			at++
		}
	}
	if at != len(s.slots) || s.slotAt(n) != at {
		return at, deep, fmt.Errorf("%d slots (end %d), by definition %d", len(s.slots), s.slotAt(n), at)
	}
	return len(s.slots), deep, nil
}

// SphereSpecies returns the species of each sphere of w's sphere path, in
// body order (tests).
func SphereSpecies(w *World) []int32 {
	s := w.Spheres()
	out := make([]int32, 0, len(s.idx))
	for i := range w.Bodies() {
		if k := s.sidx[i]; k >= 0 {
			out = append(out, s.spec[k])
		}
	}
	return out
}

// WallSlotSize is the size in bytes of a wall slot (tests).
const WallSlotSize = unsafe.Sizeof(wallSlot{})

// SlotHists describes the friction side of the wall slots of w (tests): the
// number of slots, of those with entries in s.hists, and of entries, and
// whether every slot with entries owns two (2j, 2j+1) no other slot does.
func SlotHists(w *World) (slots, with, entries int, owned bool) {
	s := w.Spheres()
	owner := make([]int, len(s.hists))
	owned = true
	for i := range s.slots {
		sl := &s.slots[i]
		if (sl.hist == noHist) != (sl.pHist == noHist) {
			owned = false
		}
		if sl.pHist == noHist {
			continue
		}
		with++
		b := sl.pHist &^ 1
		if sl.hist&^1 != b || int(b)+1 >= len(s.hists) || owner[b] != 0 {
			owned = false
			continue
		}
		owner[b], owner[b+1] = i+1, i+1
	}
	return len(s.slots), with, len(s.hists), owned
}

// SpareScratch returns the room the sphere path's spare list (the rebuild
// buffer) holds in the arrays a rebuild does not carry (tests: none since
// session 16, sphere.List.TakeScratch).
func SpareScratch(w *World) (room int) {
	l := &w.Spheres().lists[1-w.Spheres().cur]
	return cap(l.Touch) + cap(l.Fn) + cap(l.FP) + cap(l.TPA) + cap(l.TPB) + cap(l.Delta) + cap(l.Ft) + cap(l.M) + cap(l.Epot)
}

// PairArrays returns the arrays of w's sphere list's pairs and normal
// forces and of the idle list's pairs (tests: spareCand's two arrays).
func PairArrays(w *World) (p, fn, idle unsafe.Pointer) {
	s := w.Spheres()
	l, il := &s.lists[s.cur], &s.lists[1-s.cur]
	return unsafe.Pointer(unsafe.SliceData(l.P)), unsafe.Pointer(unsafe.SliceData(l.Fn)), unsafe.Pointer(unsafe.SliceData(il.P))
}

// CandidatesInList reports whether the Verlet list of w's sphere path
// lives in the array of the sphere list's pairs (verletUpdate's SetOut:
// no second array of the pairs kept), and that array (tests).
func CandidatesInList(w *World) (shared bool, array unsafe.Pointer) {
	s := w.Spheres()
	P, c := s.lists[s.cur].P, w.verlet.Pairs()
	array = unsafe.Pointer(unsafe.SliceData(P))
	return len(P) > 0 && array == unsafe.Pointer(unsafe.SliceData(c)), array
}
