package world

import (
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// Spatial order of the sphere path. Generated spheres come in no spatial
// order, so past a few thousand spheres the pair kernels fetch the states of
// each pair from far apart in memory and the cost per particle-step jumps
// (issue 16: +61% from 5 000 to 20 000 spheres). Like LAMMPS (atom_modify
// sort, every 1000 steps by default), the path stores its spheres in Morton
// (Z-curve) order of their centres: it renumbers them at a list rebuild when
// SphereReorderEvery steps have passed since the last renumbering, before the
// Verlet list is built, so that the list — sorted by sphere — walks the
// flat state nearly in order. The contact history goes with the pairs by
// key (the bodies of a pair); each pair keeps its orientation (I the body
// of lower index), so every pair's force has the bits it had, but a
// sphere's sum runs over its pairs in the new list order: results are not
// bit-identical to body order, and they do not depend on the number of
// workers. The passes of Drift and Accept walk the spheres in their new
// order too (their records and the accepted state are renumbered with
// them), so with lazy bodies (SetLazyBodies) a step reads memory nearly in
// order throughout; bodies written every step are then written out of
// order. Periodic worlds keep body order.
//
// Measured (docs/performance.md, "Lazy bodies", CPU time on falling
// lattices): with lazy bodies it pays, 8–9% less CPU for grainlab bench at
// 20 000 and 100 000 spheres and 2–4% for grainlab run (lazy bodies since
// its finite guard reads the flat state) at 20 000, 50 000 and 100 000; with
// the bodies written every step (the window) they are written out of order
// and it cost 5% at 50 000.

// SphereReorderMin is the smallest number of spheres the sphere path keeps
// in spatial order (tests and benchmarks lower it; math.MaxInt turns it
// off).
var SphereReorderMin = 4096

// SphereReorderEvery is the number of steps between renumberings (LAMMPS'
// default sort period; tests lower it).
var SphereReorderEvery int64 = 1000

// wantReorder reports whether the rebuild about to happen renumbers the
// spheres.
func (s *Spheres) wantReorder() bool {
	n := len(s.idx)
	if n < SphereReorderMin || s.w.Periodic.On() {
		return false
	}
	return !s.ordered || s.w.Steps-s.orderedAt >= SphereReorderEvery
}

// reorder renumbers the spheres in Morton order of their trial centres:
// the per-sphere tables, the trial state, the wall flags and slots and the
// pairs of the current list (for the merge of the coming rebuild) follow.
// The Verlet list is invalidated (its reference positions are per sphere).
func (s *Spheres) reorder() {
	S := s.tr.L
	n := len(S)
	split := s.passes() // the box and the codes in ranges on the crew (spheres_order_split.go)
	var lo, hi geom.Vec3
	var rmax float64
	if split {
		lo, hi, rmax = s.rb.oc.box(s.fork, S, s.rad)
	} else {
		lo, hi = S[0].X, S[0].X
		for k := range S {
			x := S[k].X
			lo = geom.V(min(lo.X, x.X), min(lo.Y, x.Y), min(lo.Z, x.Z))
			hi = geom.V(max(hi.X, x.X), max(hi.Y, x.Y), max(hi.Z, x.Z))
		}
		rmax = slices.Max(s.rad)
	}
	// Cells of about one sphere diameter (at most 2^21 per axis).
	cell := 2 * rmax
	ext := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	if !(cell > 0) || !(ext/cell < 1<<21) {
		cell = ext / (1<<21 - 1)
	}
	inv := 0.0
	if cell > 0 && !math.IsInf(cell, 0) {
		inv = 1 / cell
	}
	sc := s.orderScratch()
	perm := sc.i32(n) // perm[new] = old
	mark := sc.at
	codes := sc.u64(n)
	if split {
		s.rb.oc.codes(s.fork, S, codes, lo, inv)
	} else {
		mortonCodes(S, codes, lo, inv)
	}
	if split {
		s.rb.oc.mortonPerm(s.fork, codes, perm, &sc)
	} else {
		mortonPerm(codes, perm, &sc)
	}
	sc.at = mark // codes and the sort's buffer: read no more
	s.applyOrder(perm, &sc)
	s.ordered, s.orderedAt = true, s.w.Steps
}

// mortonCodes writes the Morton code of each state's centre to codes: its
// cell (of 1/inv, from lo) on each axis, interleaved.
func mortonCodes(S []sphere.Lin, codes []uint64, lo geom.Vec3, inv float64) {
	codes = codes[:len(S)]
	for k := range S {
		x := S[k].X
		q := func(v float64) uint64 {
			c := v * inv
			if !(c >= 0) {
				return 0
			}
			return min(uint64(c), 1<<21-1)
		}
		codes[k] = morton(q(x.X-lo.X), q(x.Y-lo.Y), q(x.Z-lo.Z))
	}
}

// orderScratch returns the scratch of a renumbering: the storage of the
// idle pair list's pairs (the rebuild's buffer, whose pairs are stale: the
// coming rebuild writes its candidates there, verletUpdate), grown first to
// a quarter more than the pairs of the list in use — the room the grid
// gives a list that outgrew its array, Grid.Pairs — when that holds the
// renumbering's temporaries (20 bytes a sphere at most: reorder) and the
// array is shorter (the first renumbering: the idle list has not been
// built yet). A renumbering then allocates nothing (it made ≈ 42 MB of
// garbage at 10⁶ spheres, Session 23); else its temporaries are made.
func (s *Spheres) orderScratch() orderScratch {
	n := len(s.idx)
	idle := &s.lists[1-s.cur]
	need := (20*n + 7) / 8 // words
	if cap(idle.P) < need {
		np := len(s.lists[s.cur].P)
		if np+np/4 < need {
			return orderScratch{}
		}
		idle.P = make([]sphere.Pair, 0, np+np/4)
	}
	return orderScratch{w: pairWords(idle.P[:cap(idle.P)])}
}

// orderScratch hands out a renumbering's temporaries from the words w
// (from at on), or makes them when w is short. The words are not read as
// pairs while the temporaries live.
type orderScratch struct {
	w  []uint64
	at int
}

// u64 returns n words (contents unspecified).
func (sc *orderScratch) u64(n int) []uint64 {
	if sc.at+n > len(sc.w) {
		return make([]uint64, n)
	}
	r := sc.w[sc.at : sc.at+n : sc.at+n]
	sc.at += n
	return r
}

// i32 returns n int32 (contents unspecified).
func (sc *orderScratch) i32(n int) []int32 {
	if n == 0 {
		return nil
	}
	w := sc.u64((n + 1) / 2)
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(w))), n)
}

// applyOrder renumbers the spheres: new sphere k is old sphere perm[k].
// Every per-sphere array is permuted in place along the cycles of perm
// (cycleOrder): no array is copied, so a renumbering holds no second copy
// of the spheres' state (it made one of each array, about 230 bytes a
// sphere, 203 MB of garbage at 10⁶ spheres, while the list was rebuilt).
// Its temporaries (the inverse order, the cycles) are taken from sc.
// When the passes split, the arrays are permuted on the crew, an array
// (or a few small ones) a job: the same bits.
func (s *Spheres) applyOrder(perm []int32, sc *orderScratch) {
	n := len(perm)
	newOf := sc.i32(n) // newOf[old] = new
	for k, o := range perm {
		newOf[o] = int32(k)
	}
	cyc := cycleOrder(perm, sc)
	shared := s.rotShared() // one rotational array for both (rotShare): permuted once
	// The per-sphere arrays, one a job (each job writes its own arrays:
	// the same bits in any order, on any worker), the largest first; the
	// pairs of the current list renumbered (orientation kept) in parts.
	job := func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			s.orderJob(j, cyc, newOf, shared)
		}
	}
	if s.passes() {
		s.fork(orderArrays+orderPairParts, job)
	} else {
		job(0, 0, orderArrays+orderPairParts)
	}
	// Slots: renumbered and sorted again by (sphere, wall) for buildSlots'
	// merge: a stable counting sort by the new sphere (a sphere's slots
	// stay together and in wall order), the order a stable sort by (sphere,
	// wall) gives. (slices.SortStableFunc's rotations of the 250-byte slots
	// took 1.2·10⁹ instructions at 10⁵ spheres, a fifth of a short run.)
	// The counts are kept in cyc's storage, read no more.
	// In place (spheres_slots_inplace.go), the places in slotKeys' room.
	s.slotKeys = resize(s.slotKeys, len(s.slots))
	sortSlotsInPlace(s.slots, newOf, cyc[:n+1], s.slotKeys)
	s.csrStale, s.partsOK = true, false
	s.w.verlet.Invalidate()
	s.listed = false
}

// orderJob is applyOrder's job j: permutes its arrays along the cycles cyc
// (orderArrays of them, the largest first), or renumbers by newOf part
// j − orderArrays of the current list's pairs (of orderPairParts).
func (s *Spheres) orderJob(j int, cyc, newOf []int32, shared bool) {
	n := len(newOf)
	switch j {
	case 0:
		permute(s.tr.R, cyc)
	case 1:
		// The accepted state acc follows the spheres (Drift and
		// Accept walk it in sphere order).
		if shared {
			s.acc.R = s.tr.R
		} else {
			permute(s.acc.R, cyc)
		}
	case 2:
		permute(s.tr.L, cyc)
	case 3:
		permute(s.acc.L, cyc)
	case 4:
		permute(s.tr.X, cyc)
	case 5:
		permute(s.body, cyc)
		permute(s.spec, cyc)
	case 6:
		permute(s.rad, cyc)
	case 7:
		permute(s.idx, cyc)
		for k, i := range s.idx {
			s.sidx[i] = int32(k)
		}
	case 8:
		for c := range seenCols(len(s.planes)) {
			permute(s.seen[c*n:(c+1)*n], cyc)
		}
	default:
		l := &s.lists[s.cur]
		p, np := j-orderArrays, len(l.P)
		P := l.P[p*np/orderPairParts : (p+1)*np/orderPairParts]
		for q := range P {
			P[q].I, P[q].J = newOf[P[q].I], newOf[P[q].J]
		}
	}
}

// orderArrays and orderPairParts are applyOrder's jobs: its per-sphere
// arrays in 9, the current list's pairs in 4 parts.
const orderArrays, orderPairParts = 9, 4

// cycleOrder returns the cycles of the renumbering perm (new k holds old
// perm[k]) of more than one sphere, one after the
// other, each as its first sphere x stored as ^x, then perm[x],
// perm[perm[x]], … up to the one whose perm is x: what permute walks (4
// bytes a sphere at most, room for one more), in sc's room.
func cycleOrder(perm []int32, sc *orderScratch) []int32 {
	n := len(perm)
	done := sc.u64((n + 63) / 64)
	clear(done)
	cyc := sc.i32(n + 1)[:0]
	for x := range n {
		if done[x>>6]&(1<<(x&63)) != 0 || perm[x] == int32(x) {
			continue
		}
		cyc = append(cyc, ^int32(x))
		done[x>>6] |= 1 << (x & 63)
		for y := perm[x]; y != int32(x); y = perm[y] {
			cyc = append(cyc, y)
			done[y>>6] |= 1 << (y & 63)
		}
	}
	return cyc
}

// permute renumbers v in place along the cycles cyc (cycleOrder): new k
// holds old perm[k]. Along a cycle x, y₁ = perm[x], y₂ = perm[y₁], …,
// v[x] takes v[y₁], v[y₁] takes v[y₂], …, and the last v[x]'s old value.
func permute[T any](v []T, cyc []int32) {
	if len(v) == 0 {
		return
	}
	var tmp T
	prev := int32(-1)
	for _, y := range cyc {
		if y < 0 {
			if prev >= 0 {
				v[prev] = tmp
			}
			prev = ^y
			tmp = v[prev]
			continue
		}
		v[prev] = v[y]
		prev = y
	}
	if prev >= 0 {
		v[prev] = tmp
	}
}

// restoreOrder puts the spheres back in body order (the generic stages'
// Verlet list and pair entries are in body order).
func (s *Spheres) restoreOrder() {
	if !s.ordered {
		return
	}
	perm := s.inBodyOrder()
	s.applyOrder(perm, &orderScratch{})
	s.ordered = false
}

// mortonPerm writes to perm (len(codes) entries) the spheres in increasing
// order of their Morton codes (codes[k]: sphere k's, overwritten), ties in
// sphere order: perm[new] = old. The sort's buffer is taken from sc.
// Codes below 2³² (up to 2¹⁰ cells an axis: every box of the benchmarks)
// are sorted with their sphere in one word, code<<32 | k, by sortPacked
// (8 bytes a sphere, and as many for the sort's buffer, in codes' place);
// others as orderKeys by sortKeys (16 and 16 more). The order is the same.
func mortonPerm(codes []uint64, perm []int32, sc *orderScratch) {
	var top uint64
	for _, c := range codes {
		top |= c
	}
	perm = perm[:len(codes)]
	if top < 1<<32 {
		for k, c := range codes {
			codes[k] = c<<32 | uint64(k)
		}
		codes = sortPacked(codes, 32+bits.Len64(top), sc)
		for k, c := range codes {
			perm[k] = int32(uint32(c))
		}
		return
	}
	keys := make([]orderKey, len(codes))
	for k, c := range codes {
		keys[k] = orderKey{c, int32(k)}
	}
	keys = sortKeys(keys)
	for k := range keys {
		perm[k] = keys[k].k
	}
}

// sortPacked sorts the words w, each a code above bit 32 and a sphere
// below, by their bits 32 to top−1 (the codes), stably: given the spheres
// in increasing order, the order of sortKeys (by code, then by sphere). A
// least-significant-digit radix sort by 11-bit digits, as sortKeys. It
// returns the sorted words (w or a new slice).
func sortPacked(w []uint64, top int, sc *orderScratch) []uint64 {
	const digit = 11
	if top <= 32 {
		return w // every code 0
	}
	tmp := sc.u64(len(w))
	var cnt [1 << digit]int
	for sh := 32; sh < top; sh += digit {
		clear(cnt[:])
		for _, e := range w {
			cnt[e>>sh&(1<<digit-1)]++
		}
		at := 0
		for d, c := range cnt {
			cnt[d] = at
			at += c
		}
		for _, e := range w {
			d := e >> sh & (1<<digit - 1)
			tmp[cnt[d]] = e
			cnt[d]++
		}
		w, tmp = tmp, w
	}
	return w
}

// orderKey is a sphere's place on the Morton curve.
type orderKey struct {
	key uint64
	k   int32
}

// sortKeys sorts keys by key and, among equal keys, by k, given keys in
// increasing k: a stable least-significant-digit radix sort by 11-bit
// digits over the keys' significant bits (3 passes for up to 2^11 cells per
// axis; was slices.SortFunc with a comparison through a closure, ~n log n
// calls). It returns the sorted keys (keys or a new slice).
func sortKeys(keys []orderKey) []orderKey {
	const digit = 11
	var top uint64
	for _, e := range keys {
		top |= e.key
	}
	tmp := make([]orderKey, len(keys))
	var cnt [1 << digit]int
	for sh := 0; sh < bits.Len64(top); sh += digit {
		clear(cnt[:])
		for _, e := range keys {
			cnt[e.key>>sh&(1<<digit-1)]++
		}
		at := 0
		for d, c := range cnt {
			cnt[d] = at
			at += c
		}
		for _, e := range keys {
			d := e.key >> sh & (1<<digit - 1)
			tmp[cnt[d]] = e
			cnt[d]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}

// morton interleaves the low 21 bits of x, y and z (x lowest).
func morton(x, y, z uint64) uint64 {
	return spread(x) | spread(y)<<1 | spread(z)<<2
}

// spread puts bit i of x at bit 3i.
func spread(x uint64) uint64 {
	x &= 1<<21 - 1
	x = (x | x<<32) & 0x1f00000000ffff
	x = (x | x<<16) & 0x1f0000ff0000ff
	x = (x | x<<8) & 0x100f00f00f00f00f
	x = (x | x<<4) & 0x10c30c30c30c30c3
	x = (x | x<<2) & 0x1249249249249249
	return x
}
