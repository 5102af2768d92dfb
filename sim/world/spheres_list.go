package world

import (
	"math"
	"math/bits"
	"slices"
	"sort"
	"unsafe"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
)

// nChunks is the fixed number of pair ranges of an evaluation: each range's
// energy is summed on its own and the ranges in order, whatever the number
// of workers, so the reported energies do not depend on it either.
const nChunks = 8

// updateList is the broad phase of stageDetect on the trial state: the
// Verlet list over the sphere centres (and their periodic images) with the
// world's skin, turned into the sphere list when it was rebuilt, with the
// friction history and the flags of every pair that stays. The wall slots
// are rebuilt with it. Drift has made Verlet.Update's displacement test
// when it could (and set the forces to the weights).
func (s *Spheres) updateList() {
	w := s.w
	S := s.tr.L
	test := s.drift
	s.drift = driftTest{}
	if test.keep {
		if s.wallStale {
			s.buildSlots(w.verlet.Ref(), w.skin)
		}
		return
	}
	if !test.ran {
		if s.rotShared() { // the trial's moments only (rotShare): acc keeps its own
			s.tr.R = append([]sphere.Rot(nil), s.tr.R...)
		}
		kin, spec := s.kin, s.spec[:len(S)]
		if s.tr.R == nil { // no rotational array: every T is +0 (spheres_rotnone.go)
			for k := range S {
				S[k].F = kin[spec[k]].Weight
			}
		} else {
			R := s.tr.R[:len(S)]
			for k := range S {
				S[k].F, R[k].T = kin[spec[k]].Weight, geom.Vec3{}
			}
		}
	}
	reordered := false
	if test.ran && s.wantReorder() {
		// The list is rebuilt now (the displacement test failed): renumber first.
		s.reorder()
		reordered = true
		S = s.tr.L // renumbered
		// The old list in merge order, into its spare array (the
		// storage of its Fn), before the grid writes the candidates
		// there (spareCand: the array the old pairs leave).
		old := &s.lists[s.cur]
		s.sortOld(old, old)
	}
	centers, radii := s.tr.X[:len(S)], s.rad // the centres of S
	if w.Periodic.On() {
		w.centers = append(w.centers[:0], centers...)
		w.radii = append(w.radii[:0], s.rad...)
		w.movable = w.movable[:0]
		for _, i := range s.idx {
			w.movable = append(w.movable, int(i))
		}
		w.addGhosts(s.gmax)
		centers, radii = w.centers, w.radii
	}
	rebuilt, cand := s.verletUpdate(centers, radii)
	s.listed, s.skin = true, w.skin
	switch {
	case rebuilt && !w.Periodic.On():
		s.rebuildParts(cand)
	case rebuilt:
		s.rebuildPairs(cand, reordered)
		s.finishList()
		s.buildSlots(w.verlet.Ref()[:len(S)], w.skin)
	case s.wallStale:
		s.buildSlots(w.verlet.Ref()[:len(S)], w.skin)
	}
}

// rebuildParts is rebuildPairs, finishList and buildSlots for a world
// without periodic images: the candidates in rebuildSplit ranges, each
// merged with the old list from its own start (a binary search in the
// merge order) and given its step-size classes, and the wall slots beside
// them, on the crew when the passes are split (else one after the other).
// Each range writes its own pairs and lists its own night owls, fresh
// pairs and classes, joined in range order: the list, its history and its
// derived tables are those of rebuildPairs and finishList, whatever the
// number of workers.
func (s *Spheres) rebuildParts(cand [][2]int32) {
	rb := &s.rb
	s.pairsBegin(cand)
	if rb.job == nil {
		rb.job = func(_, lo, hi int) {
			for part := lo; part < hi; part++ {
				if part == 0 {
					s.buildSlots(s.w.verlet.Ref()[:len(s.tr.L)], s.w.skin)
					continue
				}
				if part > rebuildSplit { // the reference's largest |coordinate| by range (refMaxParts)
					s.refMaxPart(part - rebuildSplit - 1)
					continue
				}
				p := part - 1
				n := len(s.rb.cand)
				s.pairsRange(&s.rb.part[p], p*n/rebuildSplit, (p+1)*n/rebuildSplit)
			}
		}
	}
	if s.passes() {
		// With the reference's largest |coordinate| (maxAbsRef's ranges),
		// which the inner list and the displacement bound read next: one
		// fork–join fewer a build (spheres_refmax.go).
		s.disp.ref = s.w.verlet.Ref() // maxAbsRef's argument (Drift, innerUpdate)
		s.forkCosted(costRebuild, rebuildSplit+1+nChunks, rb.job)
		s.refMaxJoin()
	} else {
		rb.job(0, 1, rebuildSplit+1)
		rb.job(0, 0, 1)
	}
	s.pairsEnd()
}

// rebuildSplit is the number of candidate ranges of a rebuild: the chunks
// of the new list (nChunks), so that a range lists the cross pairs of the
// parts of its chunk (pairsRange, evalParts).
const rebuildSplit = nChunks

// rebuildState is rebuildParts' work in progress.
type rebuildState struct {
	cand [][2]int32
	job  func(worker, lo, hi int)
	part [rebuildSplit]rebuildPart
	// allNew: a first build (no old list): every candidate new, hence
	// fresh, and no range lists its fresh pairs (spheres_fresh_first.go).
	allNew bool
	// freshFirst: the fresh pairs are the list's 0 … freshFirst−1, s.fresh
	// empty (a first build's, until the next StableDt or finishList); 0
	// else (spheres_fresh_first.go).
	freshFirst int
	// noOldFresh: the old list had no fresh pair (every flag false): the
	// merge reads no old flag (spheres_fresh_none.go).
	noOldFresh bool
	// touchRot: the build's touches rotate (spheres_touch_rot.go): the new
	// list's Touch is the old PrevTouch's room, cleared by pairsEnd.
	touchRot bool
	// rim: the lock of the rim entries a split evaluation's parts make
	// (spheres_rim_entry.go).
	rim rimLock
	// buildSlots' scratch, kept between builds: the spheres whose box
	// meets some wall's along the wall's thinnest axis, and the walls by
	// that axis.
	slotHit  []slotHit
	slotAxis [3][]slotAxisWall
	so       oldSort   // sortOld's split (spheres_sortold_split.go)
	oc       orderCode // the renumbering's box and codes split (spheres_order_split.go)
	// refMaxFolds: builds whose fork–join also took the reference's
	// largest |coordinate| (spheres_refmax.go; tests).
	refMaxFolds int
	undo        slotUndo // the wall slots' acceptance in the kick pass (spheres_slots_undo.go)
}

// slotHit is a sphere k whose box meets, along their thinnest axis, the
// boxes of the walls of on's bits m.
type slotHit struct {
	k int32
	m uint64
}

// slotAxisWall is a wall's box along its thinnest axis, and its bit.
type slotAxisWall struct {
	lo, hi float64
	bit    uint64
}

// rebuildPart is one candidate range's results.
type rebuildPart struct {
	owl, fresh []int32 // night owls, fresh pairs (list indices, ascending)
	cls        []int32 // the step-size classes met, in order (repeats dropped)
	miss       []int32 // the species pairs without a class yet (sa·nspec + sb, sa ≤ sb), in order (repeats dropped)
	// cross[q]: the range's pairs whose higher sphere is part q's and lower
	// an earlier part's (Spheres.parts; ascending), kept for the
	// evaluations until the next rebuild.
	cross [nChunks][]int32
	ex    *mergeExtra // the extras' state (pairsRange), kept between builds
	_     [64]byte
}

// pairsBegin prepares the new list for the candidates (rebuildParts).
func (s *Spheres) pairsBegin(cand [][2]int32) {
	rb := &s.rb
	old := &s.lists[s.cur]
	nl := &s.lists[1-s.cur]
	nl.TakeScratch(old)
	s.rotateTouch(old, nl) // two arrays of touches, not three (spheres_touch_rot.go)
	nl.P = asPairs(cand)   // its array (verletUpdate's SetOut: old's Fn's), or the grid's when it outgrew it
	// The new list's Fn in the array of old's pairs: the merge reads them
	// and nothing writes Fn before the next evaluation (spareCand).
	nl.Fn = floatsOf(old.P[:0:cap(old.P)])
	s.resizeList(nl, len(cand), false)
	rb.cand = cand
	// No fresh pair (the last StableDt took them all): every old flag is
	// false, the merge reads none and writes the new flags over them, in
	// one array (spheres_fresh_none.go).
	rb.noOldFresh = s.freshCount() == 0
	rb.allNew = len(old.P) == 0 // spheres_fresh_first.go
	if rb.noOldFresh {
		s.isFresh, s.freshBuf = resize(s.isFresh, len(cand)), nil
	} else {
		oldFresh := s.isFresh
		s.isFresh = resize(s.freshBuf, len(cand))
		s.freshBuf = oldFresh
	}
	if s.dt.bySpec == nil { // else the pairs keep no class (dtTables.classOf)
		s.dt.cls = resize(s.dt.cls, len(cand))
	}
	// The parts of a split evaluation (evalParts): part q owns the spheres
	// whose rows start in chunk q, from the one after the lower sphere of
	// the chunk's first pair's predecessor (the candidates are sorted by
	// lower, then higher sphere: the pairs of the new list, one for one).
	np := len(cand)
	for q := range nChunks {
		c, m := q*np/nChunks, int32(0)
		if c > 0 {
			m = cand[c-1][0] + 1
		}
		at := c
		for at < np && cand[at][0] < m { // the chunk's head: the row of sphere m−1
			at++
		}
		s.parts[q], s.partAt[q] = m, at
	}
	s.parts[nChunks], s.partAt[nChunks] = int32(len(s.idx)), np
}

// pairsRange builds the pairs of the candidates c0…c1−1 as rebuildPairs
// does (non-periodic), with their step-size classes. The old list is in
// (lower, higher) order (sortOld after a renumbering): the merge's cursor
// compares one key a pair, pairKey64 of the old pair against the
// candidate's, and passes a pair once it is carried. A pair carried over
// keeps its orientation (I the body of lower index: every list is oriented
// so, and a renumbering keeps it), its class and its law, so only a new
// pair compares its bodies' indices and looks up their species and
// materials.
//
// The candidates go in blocks of mergeBlock, each in short passes (few
// values live in each loop: Go's registers hold them): the old pair of
// each candidate (mergeKeys), the cross pairs, the pairs with their last
// touch, fresh flags and night owls (carry), then, when the world has
// them, the per-pair extras (classes, laws, friction history, step-size
// classes; mergeExtras). One species with one law and no friction history
// has no extras: its one step-size class is written after the merge.
func (s *Spheres) pairsRange(pt *rebuildPart, c0, c1 int) {
	rb := &s.rb
	old := &s.lists[s.cur]
	nl := &s.lists[1-s.cur]
	cand := rb.cand
	pt.owl, pt.fresh, pt.cls, pt.miss = pt.owl[:0], pt.fresh[:0], pt.cls[:0], pt.miss[:0]
	for q := range pt.cross {
		pt.cross[q] = pt.cross[q][:0]
	}
	if c0 >= c1 {
		return
	}
	oldP := old.P
	nold := len(oldP)
	mr := merger{
		oldP: oldP, oldTouch: old.PrevTouch[:nold], oldFresh: s.oldFreshFlags(nold),
		idx: s.idx, parts: &s.parts, end: s.parts[1],
		owls: s.w.Steps > 0, owl: pt.owl, fresh: pt.fresh, cross: &pt.cross,
	}
	if nold == 0 { // every pair is new (the first build): fresh, and a night owl after the first step
		mr.allNew = true // fresh all: listed by pairsEnd at once (spheres_fresh_first.go)
		if mr.owls {
			mr.owl = slices.Grow(mr.owl, c1-c0)
		}
	}
	// The merge's start: the first old pair at or after the first candidate.
	k0 := pairKey64(cand[c0][0], cand[c0][1])
	mr.po = sort.Search(nold, func(x int) bool {
		return oldKey(oldP[x]) >= k0
	})
	if s.pairCls != nil && !rb.touchRot {
		clear(nl.Touch[c0:c1]) // setPair's (else pairsEnd's: spheres_touch_rot.go)
	}
	// The loop writes only the new list's arrays, the fresh flags and the
	// classes of the pairs c0…c1−1.
	P, prevTouch, isFresh := nl.P[c0:c1], nl.PrevTouch[c0:c1], s.isFresh[c0:c1]
	cr := cand[c0:c1]
	ex := s.mergeExtras(pt, old, nl)
	for b0 := 0; b0 < len(cr); b0 += mergeBlock {
		b1 := min(b0+mergeBlock, len(cr))
		kos := mr.ko[:b1-b0]
		mr.po = mergeKeys(cr[b0:b1], oldP, mr.po, kos)
		mr.crossPairs(cr[b0:b1], c0+b0)
		mr.carry(cr[b0:b1], P[b0:b1], prevTouch[b0:b1], isFresh[b0:b1], kos, c0+b0)
		if ex != nil {
			ex.block(s, kos, c0+b0, c0+b1)
		}
	}
	pt.owl, pt.fresh = mr.owl, mr.fresh
	if ex == nil && s.dt.bySpec != nil {
		// One species pair (class key 0): its step-size class, met.
		if cl := s.dt.bySpec[0]; cl < 0 {
			pt.miss = append(pt.miss, 0)
		} else {
			pt.cls = append(pt.cls, cl)
		}
	}
}

// merger is pairsRange's merge: the old list (pairs in (lower, higher)
// order, last touches, fresh flags), the cursor in it, the part of the
// lower sphere and its end, the night owls, fresh pairs and cross pairs
// listed, and the old pairs of a block of candidates.
type merger struct {
	oldP               []sphere.Pair
	oldTouch, oldFresh []bool // of oldP's length
	idx                []int32
	parts              *[nChunks + 1]int32
	cross              *[nChunks][]int32
	po, lp             int
	end                int32
	owls               bool
	allNew             bool // no old list: the fresh pairs not listed (every one)
	owl, fresh         []int32
	ko                 [mergeBlock]int32
}

// mergeKeys finds the old pair of each candidate of cr, from the old
// list's pair po on: kos[i] is its index in oldP, −1 for a new pair. Both
// are in increasing key order: one key compare an old pair, the cursor
// passing a carried pair (the next candidate's key is higher). It returns
// the cursor.
func mergeKeys(cr [][2]int32, oldP []sphere.Pair, po int, kos []int32) int {
	kos = kos[:len(cr)]
	ow := pairWords(oldP)
	for i := range cr {
		kn := pairKey64(cr[i][0], cr[i][1]) // spheres only, no images; lo < hi
		ko := int32(-1)
		for po < len(ow) {
			x := ow[po]
			kq := min(x, bits.RotateLeft64(x, 32)) // oldKey(oldP[po])
			if kq < kn {
				po++
				continue
			}
			if kq == kn {
				ko = int32(po)
				po++
			}
			break
		}
		kos[i] = ko
	}
	return po
}

// pairWords is the pairs P as words (the same bytes): a pair of spheres
// (I, J ≥ 0) is I<<32 | J or J<<32 | I (by the byte order), and the
// smaller of the word and its halves swapped (bits.RotateLeft64(x, 32)) is
// the one whose upper half is the lower sphere: oldKey's pairKey64(min,
// max). One load and a rotate a pair, no compares of halves. The array
// must be 8-byte aligned where unaligned 64-bit loads fault (every list's
// array is a whole allocation of its own: aligned).
func pairWords(P []sphere.Pair) []uint64 {
	if len(P) == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(P))), len(P))
}

// crossPairs lists the cross pairs among the candidates cr, the new list's
// pairs n0, n0+1, …: those whose higher sphere's part is not the lower
// one's (that part evaluates them too).
func (mr *merger) crossPairs(cr [][2]int32, n0 int) {
	parts, lp, end := mr.parts, mr.lp, mr.end
	for i, cn := range cr {
		lo, hi := cn[0], cn[1]
		for lo >= end {
			lp++
			end = parts[lp+1]
		}
		if hi >= end {
			q := lp + 1
			for hi >= parts[q+1] {
				q++
			}
			mr.cross[q] = append(mr.cross[q], int32(n0+i))
		}
	}
	mr.lp, mr.end = lp, end
}

// carry writes the candidates cr, the new list's pairs n0, n0+1, …, their
// old pairs in kos: their pairs P (in place of cr: the same array), last
// touches prevTouch and fresh flags isFresh. A carried pair is the old one
// (its orientation), with its touch and flag; a new pair is oriented from
// the body of lower index, untouched, fresh and, after the first step, a
// night owl.
func (mr *merger) carry(cr [][2]int32, P []sphere.Pair, prevTouch, isFresh []bool, kos []int32, n0 int) {
	m := len(cr)
	P, prevTouch, isFresh, kos = P[:m], prevTouch[:m], isFresh[:m], kos[:m]
	oldP := mr.oldP
	nold := len(oldP)
	if mr.oldFresh == nil { // no old pair fresh (spheres_fresh_none.go)
		oldTouch := mr.oldTouch[:nold]
		for i, ko := range kos { // the carried pairs
			if ko >= 0 {
				P[i] = oldP[ko]
				prevTouch[i] = oldTouch[ko]
				isFresh[i] = false
			}
		}
	} else {
		oldTouch, oldFresh := mr.oldTouch[:nold], mr.oldFresh[:nold]
		for i, ko := range kos { // the carried pairs
			if ko >= 0 {
				P[i] = oldP[ko]
				prevTouch[i] = oldTouch[ko]
				isFresh[i] = oldFresh[ko]
			}
		}
	}
	fresh := mr.fresh
	for i, ko := range kos { // the new pairs, and the fresh ones
		if ko >= 0 {
			if isFresh[i] {
				fresh = append(fresh, int32(n0+i))
			}
			continue
		}
		a, b := cr[i][0], cr[i][1]
		if mr.idx[a] > mr.idx[b] {
			a, b = b, a
		}
		P[i] = sphere.Pair{I: a, J: b}
		prevTouch[i] = false
		isFresh[i] = true
		if !mr.allNew {
			fresh = append(fresh, int32(n0+i))
		}
		if mr.owls {
			mr.owl = append(mr.owl, int32(n0+i))
		}
	}
	mr.fresh = fresh
}

// mergeBlock is the number of candidates of a block of pairsRange's
// passes (their old pairs: 4 bytes each, in the merger on the stack).
const mergeBlock = 512

// mergeExtra is pairsRange's state for the per-pair extras of a world
// with several species pairs, several laws, friction history or a class
// per pair: the lists and the last step-size class met.
type mergeExtra struct {
	pt          *rebuildPart
	old, nl     *sphere.List
	table       bool
	lastC, last int32
	lastMiss    int32 // the last species pair listed in pt.miss
}

// mergeExtras returns pt's extras state for a range, or nil when
// the world has none: one species pair (pairCls of one class), one law,
// no friction history.
func (s *Spheres) mergeExtras(pt *rebuildPart, old, nl *sphere.List) *mergeExtra {
	if len(s.pairCls) == 1 && nl.Law == nil && nl.PrevHist == nil && nl.CI == nil {
		return nil
	}
	if pt.ex == nil {
		pt.ex = new(mergeExtra)
	}
	ex := pt.ex
	*ex = mergeExtra{pt: pt, old: old, nl: nl, table: s.pairCls != nil, lastC: -1, last: -1, lastMiss: -1}
	return ex
}

// block writes the extras of the new pairs n0…n1−1 (their old pairs in
// kos, −1 for a new pair): a carried pair's class and law are the old pair's (the species
// and laws change only with a new build, whose list importGeneric writes),
// a new pair's from its spheres' species and materials (setPair's work);
// the friction history; the step-size classes met (dtTables.pairs: the
// pairs keep none, dtTables.classOf), looked up when the ordered species
// pair changes (the unordered pair may not have: then the same class, not
// listed again), and the species pairs without a class yet.
func (ex *mergeExtra) block(s *Spheres, kos []int32, n0, n1 int) {
	old, nl, pt := ex.old, ex.nl, ex.pt
	ns := int32(len(s.rep))
	spec, mat, lawOf, nmat := s.spec, s.mat, s.lawOf, s.nmat
	bySpec := s.dt.bySpec
	for n := n0; n < n1; n++ {
		ko := kos[n-n0]
		var c int32 // the species pair's class key sa·ns + sb
		if ko >= 0 && ex.table {
			if nl.CI != nil { // else one class: c = 0
				c = old.CI[ko]
				nl.CI[n] = c
			}
			if nl.Law != nil {
				nl.Law[n] = old.Law[ko]
			}
		} else {
			a, b := nl.P[n].I, nl.P[n].J // oriented by the merge
			c = spec[a]*ns + spec[b]
			if ex.table {
				if nl.CI != nil {
					nl.CI[n] = c
				}
				if nl.Law != nil {
					nl.Law[n] = lawOf[int(mat[a])*nmat+int(mat[b])]
				}
			} else {
				s.setPair(nl, n, a, b)
			}
		}
		if ko >= 0 && nl.PrevHist != nil {
			nl.PrevHist[n] = old.PrevHist[ko]
		}
		if bySpec != nil && c != ex.lastC {
			cl := bySpec[c] // either order
			if cl < 0 {
				sa, sb := c/ns, c%ns
				if key := min(sa, sb)*ns + max(sa, sb); key != ex.lastMiss {
					pt.miss = append(pt.miss, key)
					ex.lastMiss = key
				}
			} else if cl != ex.last {
				pt.cls = append(pt.cls, cl)
			}
			ex.last, ex.lastC = cl, c
		}
	}
}

// The layout asCand and asPairs assume: each line fails to compile when
// an offset or a size differs.
var (
	_ = [1]struct{}{}[unsafe.Sizeof(sphere.Pair{})-8]
	_ = [1]struct{}{}[unsafe.Offsetof(sphere.Pair{}.J)-4]
)

// asCand is P's array as empty candidates of the grid ([2]int32{I, J}:
// the same bytes), all of its room.
func asCand(P []sphere.Pair) [][2]int32 {
	if cap(P) == 0 {
		return nil
	}
	return unsafe.Slice((*[2]int32)(unsafe.Pointer(unsafe.SliceData(P))), cap(P))[:0]
}

// asPairs is the candidates c as pairs {I: c[0], J: c[1]} (the same bytes).
func asPairs(c [][2]int32) []sphere.Pair {
	if cap(c) == 0 {
		return nil
	}
	return unsafe.Slice((*sphere.Pair)(unsafe.Pointer(unsafe.SliceData(c))), cap(c))[:len(c)]
}

// pairKey64 is the merge key of the pair of spheres lo < hi: the pairs in
// (lower, higher) order are in increasing key order.
func pairKey64(lo, hi int32) uint64 { return uint64(uint32(lo))<<32 | uint64(uint32(hi)) }

// oldKey is pairKey64 of an oriented pair (I may be the higher sphere).
func oldKey(p sphere.Pair) uint64 { return pairKey64(min(p.I, p.J), max(p.I, p.J)) }

// pairsEnd joins the ranges' results: the night owls, the fresh pairs, the
// chunks and the step-size classes (finishList's).
func (s *Spheres) pairsEnd() {
	rb := &s.rb
	s.cur = 1 - s.cur
	l := &s.lists[s.cur]
	np := len(rb.cand)
	l.Truncate(np, false)
	// The idle list's pairs are the new list's Fn's storage (spareCand).
	s.lists[1-s.cur].P = pairsOf(l.Fn[:0:cap(l.Fn)])
	s.endTouchRot(l) // (spheres_touch_rot.go)
	rb.cand = nil
	// The joined lists made to size at once (the first build's fresh
	// pairs are all of them: append's growth made ≈ 5× their bytes).
	took := s.takeFirstFresh(np) // the first build's: every pair, no list (spheres_fresh_first.go)
	nOwl, nFresh := 0, 0
	for p := range rb.part {
		nOwl += len(rb.part[p].owl)
		nFresh += len(rb.part[p].fresh)
	}
	s.owl = slices.Grow(s.owl[:0], nOwl)
	if !took {
		s.fresh = slices.Grow(s.fresh[:0], nFresh)
	}
	for p := range rb.part {
		pt := &rb.part[p]
		s.owl = append(s.owl, pt.owl...)
		if !took {
			s.fresh = append(s.fresh, pt.fresh...)
		}
		pt.owl, pt.fresh = spare(pt.owl), spare(pt.fresh)
	}
	s.csrStale, s.partsOK = true, true
	for c := range nChunks + 1 {
		s.chunk[c] = c * np / nChunks
	}
	t := &s.dt
	if t.bySpec == nil { // a class a pair (many species): the serial pass
		t.pairs(s)
		return
	}
	// The classes the ranges met, and those of the species pairs new to
	// the list, made in the order they first appear in the list (the
	// ranges' in range order: dtTables.pairs' order; a pair made by an
	// earlier range is found).
	ns := int32(len(s.rep))
	t.hookeMin, t.allHooke = inf, true
	for p := range rb.part {
		pt := &rb.part[p]
		for _, key := range pt.miss {
			t.meet(t.specClass(s, key/ns, key%ns))
		}
		for _, c := range pt.cls {
			t.meet(c)
		}
	}
}

// rebuildPairs turns the Verlet candidates into the sphere list exactly as
// stageDetect turns them into pair entries (images resolved, A < B, each
// key once), carrying the history of every pair already listed; a new pair
// is a night-owl candidate (after the first step) and takes the travel
// bound of the step size once (fresh). Each pair is oriented from the body
// of lower index (I) to the other (J), as the generic pair entries; the list
// is sorted by the spheres' numbers (lower, higher), and so is the old list
// for the merge, unless the spheres were just renumbered (reordered). The
// caller then runs finishList.
func (s *Spheres) rebuildPairs(cand [][2]int32, reordered bool) {
	w := s.w
	old := &s.lists[s.cur]
	nl := &s.lists[1-s.cur]
	nm := len(s.idx)
	periodic := w.Periodic.On()
	nl.TakeScratch(old)
	if sameArray(nl.P, nl.Fn) { // the idle pairs are old's Fn's storage (spareCand): P its own
		nl.P = nil
	}
	s.resizeList(nl, len(cand), periodic)
	if periodic {
		if s.carry == nil {
			s.carry, s.seenKey = map[pairKey]int32{}, map[pairKey]bool{}
		}
		clear(s.carry)
		clear(s.seenKey)
		for k := range old.P {
			var sh geom.Vec3
			if old.Shift != nil {
				sh = old.Shift[k]
			}
			s.carry[pairKey{old.P[k].I, old.P[k].J, sh.X, sh.Y}] = int32(k)
		}
	}
	s.owl = s.owl[:0]
	// The old pairs in merge order, by (lower, higher) sphere number: their
	// own order, unless the spheres were just renumbered (then sorted, with
	// their fresh flags: before isFresh is handed over, as in pairsBegin).
	if reordered && !periodic {
		s.sortOld(old, nl)
	}
	oldFresh := s.isFresh
	s.isFresh = s.freshBuf[:0]
	s.freshBuf = oldFresh
	n, po, shifted := 0, 0, false
	nold := int32(len(old.P))
	for _, c := range cand {
		var a, b int32
		var shift geom.Vec3
		if periodic {
			i, j, sh, ok := w.candidatePair(c, nm)
			if !ok {
				continue
			}
			a, b, shift = int32(i), int32(j), sh
		} else {
			a, b = c[0], c[1] // spheres only, no images
		}
		if a == b {
			continue
		}
		if s.idx[a] > s.idx[b] { // periodic worlds keep body order: a > b
			a, b, shift = b, a, shift.Neg()
		}
		ko := int32(-1)
		if periodic {
			key := pairKey{a, b, shift.X, shift.Y}
			if s.seenKey[key] {
				continue
			}
			s.seenKey[key] = true
			if k, ok := s.carry[key]; ok {
				ko = k
			}
			if shift != (geom.Vec3{}) {
				shifted = true
			}
			nl.Shift[n] = shift
		} else {
			// Both lists are sorted by (lower, higher): merge.
			kn := pairKey64(min(a, b), max(a, b))
			for ; int32(po) < nold; po++ {
				if kq := oldKey(old.P[po]); kq >= kn {
					if kq == kn {
						ko = int32(po)
					}
					break
				}
			}
		}
		s.setPair(nl, n, a, b)
		if ko >= 0 {
			nl.PrevTouch[n] = old.PrevTouch[ko]
			if nl.PrevHist != nil {
				nl.PrevHist[n] = old.PrevHist[ko]
			}
			s.isFresh = append(s.isFresh, oldFresh[ko])
		} else {
			nl.PrevTouch[n] = false
			if w.Steps > 0 {
				s.owl = append(s.owl, int32(n))
			}
			s.isFresh = append(s.isFresh, true)
		}
		n++
	}
	nl.Truncate(n, shifted)
	s.cur = 1 - s.cur
}

// sortOld puts the pairs of old — P, Law, CI, PrevTouch, PrevHist — and their
// fresh flags (s.isFresh) in (lower, higher) sphere order after a
// renumbering, so that the merge reads the old list in order. The rest of
// old (a per-pair Class) is not read by the merge and is left as it was:
// old is the rebuild's buffer afterwards. nl is the list whose Fn and Touch
// storage the scatter writes: old itself before the grid's search
// (updateList: the old pairs then lie in old's Fn's storage, the spare
// array, and the candidates go to the array they left, spareCand), or the
// new list, sized for the candidates (resizeList, after TakeScratch: the
// periodic path's rebuildPairs, which is never renumbered).
//
// A counting sort by the lower sphere scatters each pair with its last
// touch and fresh flag, in one pass over the old list in its order, into
// arrays the rebuild does not read: the storage of nl's Fn and Touch (each
// evaluation writes them before any read; the merge clears nl.Touch only
// after this) and s.freshBuf; then each row (a lower sphere's pairs, a few)
// is sorted by the higher sphere in place. The sorted arrays become old's
// and the old ones take their places (nl.Fn, nl.Touch, s.freshBuf): no
// array is allocated while the storage suffices. The keys are distinct, so
// the order is the one any sort by (lower, higher) gives: the order of the
// in-place permutation by cycles this replaces (Session 23: its cycles chased
// one dependent random load after another over 3 M pairs, 6.5% of the CPU
// of the 10⁶ box), and the merge's result is the same. The extras (Law, CI,
// PrevHist: worlds with several laws or classes, or friction) follow by
// cycles along the same order (ord).
func (s *Spheres) sortOld(old, nl *sphere.List) {
	n := len(s.idx)
	P, touch, fresh := old.P, old.PrevTouch[:len(old.P)], s.isFresh[:len(old.P)]
	nold := len(P)
	fb := nl.Fn[:0:cap(nl.Fn)]
	if cap(fb) < nold {
		fb = make([]float64, 0, nold+nold/4)
	}
	P2 := pairsOf(fb)[:nold]
	// The row ends by lower sphere, in fb's room beyond the scattered
	// pairs (dead as they are: a quarter of the pairs, when the grid gave
	// the room, holds them at ≈ 3 pairs a sphere), else in an array of
	// their own (Session 24 kept them in the pairs' step-size classes,
	// which a pair no longer has: dtTables.classOf).
	room := fb[nold:cap(fb)]
	T2 := resize(nl.Touch[:0:cap(nl.Touch)], nold)
	F2, noFresh := s.sortFreshRoom(old, nold) // spheres_fresh_none.go
	extras := old.Law != nil || old.CI != nil || old.PrevHist != nil
	var ord []int32
	if extras {
		ord = make([]int32, nold) // rare (several laws or classes, friction): not kept
	}
	// On the crew when the passes split (spheres_sortold_split.go: the
	// same arrays), its counts a range in room as well.
	if s.passes() {
		s.rb.so.split(s, room, P, touch, fresh, P2, T2, F2, ord)
	} else {
		sortOldSerial(rowEnds(room, n+1), P, touch, fresh, P2, T2, F2, ord)
	}
	// The arrays trade places.
	nc := len(nl.Fn)
	nl.Fn = resize(floatsOf(P[:0:cap(P)]), nc)
	nl.Touch = resize(old.PrevTouch[:0], nc)
	old.P, old.PrevTouch = P2, T2
	if !noFresh {
		s.isFresh, s.freshBuf = F2, s.isFresh
	} // else every flag false, in place: F2 the idle list's room again
	if extras {
		permuteOld(old, ord)
	}
}

// sortOldSerial is sortOld's sort on one worker: a counting sort of P by
// the lower sphere into P2, T2, F2 (and ord: each pair's index in P, when
// not nil), the row ends in cnt (one more than the spheres), then each row
// sorted by the higher sphere.
func sortOldSerial(cnt []int32, P []sphere.Pair, touch, fresh []bool, P2 []sphere.Pair, T2, F2 []bool, ord []int32) {
	n := len(cnt) - 1
	rowStarts(P, cnt)
	for q, p := range P {
		lo := min(p.I, p.J)
		at := cnt[lo]
		cnt[lo]++
		P2[at], T2[at], F2[at] = p, touch[q], fresh[q]
		if ord != nil {
			ord[at] = int32(q)
		}
	}
	// Each row by the higher sphere (cnt[k] is now the end of row k).
	sortOldRows(P2, T2, F2, ord, cnt, 0, n, 0)
}

// sortOldRows sorts the rows k0…k1−1 of sortOld's scattered pairs (row k
// ends at ends[k], row k0 starts at start) by the higher sphere, their
// touches, fresh flags and old indices (ord, when not nil) along.
func sortOldRows(P2 []sphere.Pair, T2, F2 []bool, ord []int32, ends []int32, k0, k1 int, start int32) {
	for k := k0; k < k1; k++ {
		end := ends[k]
		switch {
		case end-start > 32:
			r := oldRow{P2[start:end], T2[start:end], F2[start:end], nil}
			if ord != nil {
				r.ord = ord[start:end]
			}
			sort.Sort(r)
		case end-start > 1 && ord != nil:
			r := oldRow{P2[start:end], T2[start:end], F2[start:end], ord[start:end]}
			for x := 1; x < r.Len(); x++ {
				for y := x; y > 0 && r.Less(y, y-1); y-- {
					r.Swap(y, y-1)
				}
			}
		case end-start > 1:
			insertRow(P2[start:end], T2[start:end], F2[start:end])
		}
		start = end
	}
}

// rowStarts sets cnt[k] (len n+1 for n spheres) to the number of pairs of
// P whose lower sphere is below k: row k's start in (lower, higher) order.
func rowStarts(P []sphere.Pair, cnt []int32) {
	clear(cnt)
	for _, p := range P {
		cnt[min(p.I, p.J)+1]++
	}
	for k := 1; k < len(cnt); k++ {
		cnt[k] += cnt[k-1]
	}
}

// rowEnds returns n int32 in the storage of the floats f when they hold
// them, else new ones (contents unspecified).
func rowEnds(f []float64, n int) []int32 {
	if 2*len(f) < n {
		return make([]int32, n)
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(f))), n)
}

// insertRow sorts a short row of sortOld's scattered pairs by the higher
// sphere, their touches and flags along (insertion by shifting).
func insertRow(P []sphere.Pair, touch, fresh []bool) {
	touch, fresh = touch[:len(P)], fresh[:len(P)]
	for x := 1; x < len(P); x++ {
		p, t, f := P[x], touch[x], fresh[x]
		h := max(p.I, p.J)
		y := x
		for ; y > 0 && max(P[y-1].I, P[y-1].J) > h; y-- {
			P[y], touch[y], fresh[y] = P[y-1], touch[y-1], fresh[y-1]
		}
		P[y], touch[y], fresh[y] = p, t, f
	}
}

// oldRow is a row of sortOld's scattered old pairs with their last
// touches, fresh flags and (with extras) old indices, sorted by the higher
// sphere.
type oldRow struct {
	P     []sphere.Pair
	touch []bool
	fresh []bool
	ord   []int32
}

func (r oldRow) Len() int { return len(r.P) }
func (r oldRow) Less(x, y int) bool {
	return max(r.P[x].I, r.P[x].J) < max(r.P[y].I, r.P[y].J)
}
func (r oldRow) Swap(x, y int) {
	r.P[x], r.P[y] = r.P[y], r.P[x]
	r.touch[x], r.touch[y] = r.touch[y], r.touch[x]
	r.fresh[x], r.fresh[y] = r.fresh[y], r.fresh[x]
	if r.ord != nil {
		r.ord[x], r.ord[y] = r.ord[y], r.ord[x]
	}
}

// permuteOld puts old's Law, CI and PrevHist in the order ord (position x
// takes old pair ord[x]), in place along the cycles of ord (ord is spent:
// −1 where done).
func permuteOld(old *sphere.List, ord []int32) {
	laws, ci, hist := old.Law, old.CI, old.PrevHist
	for x := range ord {
		if ord[x] < 0 {
			continue
		}
		var h law.FrictionState
		if hist != nil {
			h = hist[x]
		}
		var li, c int32
		if laws != nil {
			li = laws[x]
		}
		if ci != nil {
			c = ci[x]
		}
		y := int32(x)
		for {
			z := ord[y]
			ord[y] = -1
			if z == int32(x) {
				break
			}
			if hist != nil {
				hist[y] = hist[z]
			}
			if laws != nil {
				laws[y] = laws[z]
			}
			if ci != nil {
				ci[y] = ci[z]
			}
			y = z
		}
		if hist != nil {
			hist[y] = h
		}
		if laws != nil {
			laws[y] = li
		}
		if ci != nil {
			ci[y] = c
		}
	}
}

// pairsOf is f's array as pairs (the same bytes: 8 each, no pointers), all
// of its room; floatsOf the converse. sortOld trades the storage of a
// list's pairs and of its normal forces.
func pairsOf(f []float64) []sphere.Pair {
	if cap(f) == 0 {
		return nil
	}
	return unsafe.Slice((*sphere.Pair)(unsafe.Pointer(unsafe.SliceData(f))), cap(f))[:0]
}

func floatsOf(p []sphere.Pair) []float64 {
	if cap(p) == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(p))), cap(p))[:0]
}

// resizeList prepares l for n pairs with the arrays this world's laws need.
func (s *Spheres) resizeList(l *sphere.List, n int, shifted bool) {
	l.Resize(n, shifted, len(s.laws) > 1, !s.hooke)
	l.ResizeCI(n, len(s.pairCls) > 1)
	if s.pairCls == nil {
		l.Class = resize(l.Class, n)
	}
}

// setPair sets pair k between spheres a < b: its class (the species pair's,
// or its own) and law.
func (s *Spheres) setPair(l *sphere.List, k int, a, b int32) {
	li := s.lawOf[int(s.mat[a])*s.nmat+int(s.mat[b])]
	c := int32(k)
	if s.pairCls != nil {
		c = s.spec[a]*int32(len(s.rep)) + s.spec[b]
	} else {
		l.Class[k] = sphere.NewPairClass(s.r[a], s.r[b], s.specs[s.spec[a]].mass, s.specs[s.spec[b]].mass, s.laws[li].GammaN)
	}
	l.SetPair(k, a, b, c)
	if l.Law != nil {
		l.Law[k] = li
	}
	l.Touch[k] = false
}

// finishList derives what depends on the whole list: the list of fresh
// pairs, the chunks and the step-size classes. The incident pairs of every
// sphere (csr) are left to the first split evaluation that needs them: one
// worker never does.
func (s *Spheres) finishList() {
	l := &s.lists[s.cur]
	s.csrStale, s.partsOK = true, false
	s.fresh, s.rb.freshFirst = s.fresh[:0], 0
	for k, f := range s.isFresh {
		if f {
			s.fresh = append(s.fresh, int32(k))
		}
	}
	np := len(l.P)
	for c := range nChunks + 1 {
		s.chunk[c] = c * np / nChunks
	}
	s.dt.pairs(s)
}

// buildSlots lists the sphere–wall pairs that can become candidates while no
// sphere is farther than margin from its centre ref: those whose sphere box,
// inflated by margin, meets the wall's candidate box. A slot is deep when the
// foot of the centre lies on the wall at more than the margin from its rim,
// so that it stays on the wall until the next rebuild. The state of every
// slot already listed is kept.
func (s *Spheres) buildSlots(ref []geom.Vec3, margin float64) {
	w := s.w
	n := len(s.idx)
	old, oldH := s.slots, s.hists
	s.slots, s.slotsOld = s.slotsOld[:0], old
	s.hists, s.histsOld = s.histsOld[:0], oldH
	s.slotStart = sized(s.slotStart, n+1) // one a sphere, whose number is known: no room of a quarter (1 MB at 10⁶)
	// The candidate boxes of the enabled walls, in wall order, at hand, with
	// what the deep test reads of each (its triangles and rim, in the world
	// frame: the same values onSurface and rimDistance compute each time).
	on := s.slotWalls[:0]
	for i := range s.planes {
		s.wallOn[i] = w.Walls[i].Enabled
		if s.wallOn[i] {
			var sw slotWall
			if len(on) < cap(on) {
				sw = on[:len(on)+1][len(on)] // reuse its triangles' and edges' storage
			}
			sw.set(&s.planes[i], int32(i))
			on = append(on, sw)
		}
	}
	s.slotWalls = on
	s.wallStale = false
	po := 0
	reach := margin*(1+1e-9) + 1e-15
	// add lists the slot of sphere k and wall on[o] when their boxes
	// overlap (the sphere's box: its centre x ± (r + margin)).
	add := func(k int, o int) {
		x := ref[k]
		sw := &on[o]
		h := geom.V(s.r[k]+margin, s.r[k]+margin, s.r[k]+margin)
		box := contact.AABB{Min: x.Sub(h), Max: x.Add(h)}
		if !box.Overlaps(sw.box) {
			return
		}
		wi := int(sw.wall)
		pl := &s.planes[wi]
		for po < len(old) && (old[po].k < int32(k) || old[po].k == int32(k) && old[po].wall < int32(wi)) {
			po++
		}
		sl := wallSlot{hist: noHist, pHist: noHist}
		if po < len(old) && old[po].k == int32(k) && old[po].wall == int32(wi) {
			sl = old[po]
		}
		sl.k, sl.wall = int32(k), int32(wi)
		sl.law = s.lawOf[int(s.mat[k])*s.nmat+pl.body.Material]
		p := &s.laws[sl.law]
		// The slot's entries of s.hists: kept (the same order), or
		// made when some law of the world has friction or rolling
		// resistance (s.moms) — also for a slot whose own law has none
		// now: Accept then keeps the tangential history a frictionless
		// law leaves, as the generic stages do, until the friction
		// comes back (review r3: a g–w law edited to μ = 0 and back).
		if nb := int32(len(s.hists)); sl.pHist != noHist {
			b := sl.pHist &^ 1
			s.hists = append(s.hists, oldH[b], oldH[b+1])
			sl.hist, sl.pHist = nb+sl.hist-b, nb+sl.pHist-b
		} else if s.moms {
			s.hists = append(s.hists, slotHist{}, slotHist{})
			sl.hist, sl.pHist = nb, nb
		}
		sl.simple, sl.kn, sl.damp, sl.limit = simple(p), p.Kn, s.specs[s.spec[k]].mass*p.GammaN, p.LimitDamping
		sl.seen = s.seen[wi*n+k]
		sl.swap = pl.bi < s.idx[k]
		d := x.Sub(pl.P).Dot(pl.N)
		foot := x.AddScaled(-d, pl.N)
		sl.deep = sw.onSurface(foot) && sw.rimDistance(foot) > reach
		sl.cls = s.dt.wallClass(s, k, wi)
		s.slots = append(s.slots, sl)
	}
	if len(on) > 64 {
		for k := range n {
			s.slotStart[k] = int32(len(s.slots))
			for o := range on {
				add(k, o)
			}
		}
		s.slotStart[n] = int32(len(s.slots))
		return
	}
	// The spheres against the walls' boxes along each wall's thinnest
	// axis (most spheres are off a wall along its normal): a sphere's
	// box x ± (r + margin) meets the wall's along it; the walls of a
	// hit in wall order (its bits), each then tested on the three axes
	// (add). The slots are those of every sphere against every wall in
	// turn, in the same order; their number is bounded by the hits'
	// bits, so the slots and their histories are made to size at once.
	ax := &s.rb.slotAxis
	for a := range ax {
		ax[a] = ax[a][:0]
	}
	for o := range on {
		sw := &on[o]
		ax[sw.axis] = append(ax[sw.axis], slotAxisWall{lo: sw.lo, hi: sw.hi, bit: 1 << o})
	}
	hits, nh := slotHits(ref[:n], s.r[:n], margin, ax, s.rb.slotHit[:0])
	s.rb.slotHit = hits
	s.slots = slices.Grow(s.slots, nh)
	if s.moms || len(oldH) > 0 {
		s.hists = slices.Grow(s.hists, 2*nh)
	}
	k0, st := 0, s.slotStart[:n+1]
	for _, ht := range hits {
		k := int(ht.k)
		for at := int32(len(s.slots)); k0 <= k; k0++ {
			st[k0] = at
		}
		for m := ht.m; m != 0; m &= m - 1 {
			add(k, bits.TrailingZeros64(m))
		}
	}
	for at := int32(len(s.slots)); k0 <= n; k0++ {
		st[k0] = at
	}
}

// slotHits appends to hits each sphere (centre ref[k], radius r[k]) whose
// box x ± (r + margin) meets, along their axis, the boxes of some walls of
// ax (by axis: 0 x, 1 y, 2 z), with their bits, and returns the hits and
// their number of bits. A sphere whose centre lies inside the clear box
// (slotClear: no wall within reach along any axis) has none and is passed
// over on six comparisons; the others are tested wall by wall.
func slotHits(ref []geom.Vec3, r []float64, margin float64, ax *[3][]slotAxisWall, hits []slotHit) ([]slotHit, int) {
	r = r[:len(ref)]
	lo, hi := slotClear(ref, r, margin, ax)
	nh := 0
	for k := range ref {
		x := &ref[k]
		if x.X > lo.X && x.X < hi.X && x.Y > lo.Y && x.Y < hi.Y && x.Z > lo.Z && x.Z < hi.Z {
			continue
		}
		hh := r[k] + margin
		if m := axisBits(x.X, hh, ax[0]) | axisBits(x.Y, hh, ax[1]) | axisBits(x.Z, hh, ax[2]); m != 0 {
			hits = append(hits, slotHit{int32(k), m})
			nh += bits.OnesCount64(m)
		}
	}
	return hits, nh
}

// axisBits returns the bits of the walls ws whose box along their axis
// meets [v − hh, v + hh] (v the centre's coordinate on that axis): the
// test v − hh ≤ hi and lo ≤ v + hh of buildSlots' boxes.
func axisBits(v, hh float64, ws []slotAxisWall) (m uint64) {
	for i := range ws {
		if v-hh <= ws[i].hi && ws[i].lo <= v+hh {
			m |= ws[i].bit
		}
	}
	return m
}

// slotClear returns a box (lo, hi) whose interior holds no centre that
// axisBits finds a wall for: on each axis, the gap between the walls'
// zones [lo − h, hi + h] (h the largest r + margin) that holds the
// centres' mean, each zone widened by 10⁻¹² of its size and place (far
// more than the rounding of v ± hh and of the bounds: a centre strictly
// inside the gap has v − hh > hi or v + hh < lo for every wall, exactly);
// an empty box (lo ≥ hi on an axis) when the mean is in a zone or not a
// number.
func slotClear(ref []geom.Vec3, r []float64, margin float64, ax *[3][]slotAxisWall) (lo, hi geom.Vec3) {
	if len(ref) == 0 {
		return lo, hi
	}
	var sum geom.Vec3
	rmax := 0.0
	for k := range ref {
		sum = sum.Add(ref[k])
		rmax = max(rmax, r[k])
	}
	h := rmax + margin
	mean := sum.Scale(1 / float64(len(ref)))
	var l, u [3]float64
	for a := range ax {
		c := mean.Idx(a)
		gl, gu := math.Inf(-1), math.Inf(1)
		for _, w := range ax[a] {
			eps := 1e-12 * (math.Abs(w.lo) + math.Abs(w.hi) + h)
			zl, zu := w.lo-h-eps, w.hi+h+eps
			switch {
			case !(c == c) || c >= zl && c <= zu: // the mean in the zone: no gap
				gl, gu = 0, 0
			case zu < c:
				gl = max(gl, zu)
			default:
				gu = min(gu, zl)
			}
			if gl >= gu {
				break
			}
		}
		l[a], u[a] = gl, gu
	}
	return geom.V(l[0], l[1], l[2]), geom.V(u[0], u[1], u[2])
}

// slotWall is an enabled wall as buildSlots tests it: its candidate box,
// and for the deep test its surface's triangles and rim in the world
// frame, with the differences that onSurface and rimDistance take of them.
type slotWall struct {
	box    contact.AABB
	wall   int32
	axis   int     // the box's thinnest axis (0: x, 1: y, 2: z)
	lo, hi float64 // the box along it
	tris   []slotTri
	rim    []slotEdge
}

// slotTri is a triangle a, b, c of a wall's surface with b − a, c − b,
// a − c and its normal (b − a) × (c − a), as onSurface computes them.
type slotTri struct{ a, b, c, ba, cb, ac, n geom.Vec3 }

// slotEdge is a rim segment from p0 along ab, l2 = |ab|², as rimDistance
// computes them.
type slotEdge struct {
	p0, ab geom.Vec3
	l2     float64
}

// set makes sw wall wi's (plane pl) at the wall's present pose.
func (sw *slotWall) set(pl *plane, wi int32) {
	sw.box, sw.wall, sw.axis = pl.box, wi, 0
	ext := pl.box.Max.Sub(pl.box.Min)
	if ext.Y < ext.Idx(sw.axis) {
		sw.axis = 1
	}
	if ext.Z < ext.Idx(sw.axis) {
		sw.axis = 2
	}
	sw.lo, sw.hi = pl.box.Min.Idx(sw.axis), pl.box.Max.Idx(sw.axis)
	wb := pl.body
	poly := wb.Poly()
	sw.tris = sw.tris[:0]
	for _, f := range poly.Faces {
		a, b, c := wb.ToWorld(poly.Verts[f.V[0]]), wb.ToWorld(poly.Verts[f.V[1]]), wb.ToWorld(poly.Verts[f.V[2]])
		sw.tris = append(sw.tris, slotTri{a: a, b: b, c: c, ba: b.Sub(a), cb: c.Sub(b), ac: a.Sub(c), n: b.Sub(a).Cross(c.Sub(a))})
	}
	sw.rim = sw.rim[:0]
	for _, e := range pl.edges {
		ab := e[1].Sub(e[0])
		sw.rim = append(sw.rim, slotEdge{p0: e[0], ab: ab, l2: ab.Norm2()})
	}
}

// onSurface is onSurface(wall body, p) on the wall's triangles at hand:
// whether p, in the wall's plane, falls inside one of them.
func (sw *slotWall) onSurface(p geom.Vec3) bool {
	for i := range sw.tris {
		t := &sw.tris[i]
		if t.ba.Cross(p.Sub(t.a)).Dot(t.n) >= 0 && t.cb.Cross(p.Sub(t.b)).Dot(t.n) >= 0 && t.ac.Cross(p.Sub(t.c)).Dot(t.n) >= 0 {
			return true
		}
	}
	return false
}

// rimDistance is rimDistance(p, the plane's edges) on the rim at hand.
func (sw *slotWall) rimDistance(p geom.Vec3) float64 {
	d2 := math.Inf(1)
	for i := range sw.rim {
		e := &sw.rim[i]
		t := 0.0
		if e.l2 > 0 {
			t = min(1, max(0, p.Sub(e.p0).Dot(e.ab)/e.l2))
		}
		d2 = min(d2, p.Sub(e.p0.AddScaled(t, e.ab)).Norm2())
	}
	return math.Sqrt(d2)
}

// spareCand is the array a rebuild writes its candidates to (Grid.Pairs
// through Verlet.SetOut), all of its room: the storage of the current
// list's Fn. A world without periodic images keeps two arrays of 8 bytes
// a pair, not three (Session 24: 24 MB at 10⁶ spheres): the list's pairs
// and its normal forces, whose storage is dead from the rebuild's decision
// to the next evaluation (Fn is read only where Touch or PrevTouch is set,
// after an Accept: an evaluation writes the touching pairs' Fn first, and
// no reader runs between a rebuild and the next Accept). A
// rebuild turns the candidates into the new list's pairs in place
// (pairsRange) and gives the new list's Fn the old pairs' array, which the
// merge reads and leaves (pairsBegin); the idle list's pairs are that
// storage too (pairsEnd), as the renumbering's scratch (orderScratch).
// After a renumbering sortOld has scattered the old pairs to that storage
// and given the old list's Fn the array they left (updateList): the
// candidates then go there.
func (s *Spheres) spareCand() [][2]int32 {
	fn := s.lists[s.cur].Fn
	return asCand(pairsOf(fn[:0:cap(fn)]))
}

// sameArray reports whether the pairs P and the floats f start at the
// same address (one array seen two ways).
func sameArray(P []sphere.Pair, f []float64) bool {
	return cap(P) > 0 && cap(f) > 0 && unsafe.Pointer(unsafe.SliceData(P)) == unsafe.Pointer(unsafe.SliceData(f))
}

// verletUpdate is the world's Verlet upkeep (broad.Verlet.Update) with the
// grid searching a sphere pack in parts on the crew when the passes split
// (the same pairs); the grid's Fork is cleared on the way out, also when a
// pass panics, so that the generic path never searches on the sphere
// path's crew.
func (s *Spheres) verletUpdate(centers []geom.Vec3, radii []float64) (rebuilt bool, cand [][2]int32) {
	w := s.w
	if s.passes() {
		if s.gridFork == nil {
			s.gridFork = s.fork // two-ended: the grid's six phases per build differ in items and cost (review r4)
		}
		w.verlet.Grid.Fork = s.gridFork
		defer func() { w.verlet.Grid.Fork = nil }()
	}
	if !w.Periodic.On() {
		// The candidates in the idle list's pairs: the rebuild turns
		// candidate k into pair k in place (pairsBegin, pairsRange), and
		// no second array of the pairs is kept (24 MB at 10⁶ spheres).
		w.verlet.SetOut(s.spareCand())
	}
	return w.verlet.Update(centers, radii, w.skin)
}
