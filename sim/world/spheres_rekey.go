package world

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
)

// A live edit on the sphere path without the generic round trip (issue
// #16, memory per sphere; docs/performance.md, "Session 26: a live edit on
// a large sphere world").
//
// An edit of the laws (lawGen), the materials, the safety factor or
// gravity changes the sphere path's key (spheresKey): its tables must be
// derived again. The round trip did that by handing the history over to
// the generic stages (export: a ~900-byte pair entry and its accepted
// contact for every listed pair, 275 MB at 10⁵ spheres), building the
// tables (build) and taking the history back (importGeneric). While the
// set of bodies stays as it was and the world still qualifies, rekey does
// the same in place: the list keeps its pairs and their history, and only
// what importGeneric would write differently from what the list holds is
// written — the pairs' classes and laws (setPair), the friction history of
// a law that gains it (zero, as the round trip's contacts without one
// carry), the fresh flags (a pair is fresh unless its Hookean class's
// spring bound was taken: export's springGen, importGeneric's test). The
// wall pairs go the round trip's way (their entries, one per sphere a wall
// has seen, are few), and the spheres are put back in body order as export
// leaves them (restoreOrder; the next list build renumbers them): the
// same bits as the round trip, whatever the edit.

// rekeyOff makes every key change take the round trip (tests compare the
// two ways); rekeyPendOff only a change before the Accept that follows an
// in-place one (rekeyPending).
var rekeyOff, rekeyPendOff bool

// rekeyOK reports whether the key's change can be made in place (rekey):
// the path holds an accepted history (owns, valid), the bodies and walls
// are the ones the tables were built for, and the world still qualifies
// (what build checks: every movable body a sphere with mass, every wall
// fixed and planar, a smooth law for every pair of a sphere's material
// with a material in use; no loads, bonds or NoSpherePath). Otherwise the
// round trip is taken: it is correct, and rare.
func (s *Spheres) rekeyOK() bool {
	w := s.w
	k := w.spheresKey()
	// Before an Accept since the last in-place key change (not valid), the
	// history is its pending note (rekeyPending); lawGen 0 would make the
	// fresh test read a reused entry's springSafety: the round trip.
	pend := !s.valid && s.rkPend != nil && w.lawGen != 0 && !rekeyPendOff
	if rekeyOff || !s.ok || !s.owns || !(s.valid || pend) || s.restored.bodies != nil ||
		k.bodies != s.key.bodies || k.walls != s.key.walls || k.periodic != s.key.periodic ||
		len(w.Loads) > 0 || len(w.Bonds) > 0 || w.Settings.NoSpherePath || w.DefaultParams() == nil {
		return false
	}
	nb := w.NumBodies()
	if len(s.sidx) != nb || len(s.planes) != len(w.Walls) || !pend && len(s.isFresh) != len(s.lists[s.cur].P) {
		return false
	}
	nmat := len(w.Materials)
	used, sphereMat := make([]bool, nmat), make([]bool, nmat)
	for i := range nb {
		b := w.BodyRec(i)
		if b.Material < 0 || b.Material >= nmat {
			return false
		}
		used[b.Material] = true
		if b.Wall >= 0 {
			if !b.Fixed || b.Wall >= len(w.Walls) || !w.Walls[b.Wall].Planar || s.sidx[i] >= 0 {
				return false
			}
			continue
		}
		if b.Kind != body.Sphere || b.Fixed || !(b.Mass() > 0) || s.sidx[i] < 0 {
			return false
		}
		sphereMat[b.Material] = true
	}
	for ma := range nmat {
		if !sphereMat[ma] {
			continue
		}
		for mb := range nmat {
			if used[mb] {
				if p := w.Params(ma, mb); p == nil || !p.HasSmooth {
					return false
				}
			}
		}
	}
	return true
}

// rekey is export, build and importGeneric for a key change that leaves
// the bodies as they were (rekeyOK), without a generic pair entry for the
// listed pairs: the list's arrays are the history throughout.
func (s *Spheres) rekey() {
	w := s.w
	s.rekeys++
	// A world's sphere blocks whose state is the path's (after its first
	// Accept) stay virtual: the round trip made their records here
	// (materialize, the accepted state written as syncBodies writes it)
	// for the next Drift to read; acc holds what it would read (virtRekey).
	virt := s.virt && !w.blockCentres()
	s.syncBodies()
	if !s.valid {
		s.rekeyPending(virt) // a second change before an Accept
		return
	}

	// What export writes into each pair's entry and importGeneric reads
	// back: whether the pair is fresh (springGen and springSafety, set to
	// the world's when its class is Hookean and its bound taken), its
	// shift, and the friction history of its accepted contact (the list's,
	// or zero when the list keeps none).
	l := &s.lists[s.cur]
	np := len(l.P)
	s.rkPend = s.pendOf(l)
	for k := range np { // in place: build reads no fresh flag
		c := &s.dt.classes[s.dt.classOf(l, k)]
		s.isFresh[k] = !(c.hooke && !s.isFresh[k])
	}
	// pairContact's Fric is PrevHist's when the list has Ft (else zero);
	// Resize may hand PrevHist another buffer (Accept swaps the two).
	var prevHist []law.FrictionState
	if l.Ft != nil {
		prevHist = l.PrevHist
	}
	var shift []geom.Vec3
	for k := range l.Shift {
		if l.Shift[k] != (geom.Vec3{}) {
			shift = l.Shift // Resize drops it: kept here
			break
		}
	}

	// export's tail: the wall pairs, and the spheres in body order.
	s.owns = false
	w.pairs = append(w.pairs[:0], w.bbPairs...)
	s.exportWalls()
	s.rkPend.walls = append([]*pairEntry(nil), w.pairs[len(w.bbPairs):]...)
	s.restoreOrder()

	s.buildVirt(virt)

	// importGeneric on the list as it stands: the same pairs in the same
	// order (restoreOrder renumbered them as build numbers the spheres).
	l = &s.lists[s.cur]
	s.resizeList(l, np, shift != nil)
	for k := range np {
		s.setPair(l, k, l.P[k].I, l.P[k].J)
		if shift != nil {
			l.Shift[k] = shift[k]
		}
		if l.PrevHist != nil && l.PrevTouch[k] {
			var h law.FrictionState // read before the write: the arrays may be one
			if prevHist != nil {
				h = prevHist[k]
			}
			l.PrevHist[k] = h
		}
	}
	s.finishList()
	s.owl = s.owl[:0]
	s.importWalls()
}

// rekeyPend is what the round trip's export would have left in the
// generic pair entries of the listed pairs at an in-place key change,
// kept until the next Accept: the history the generic stages find when
// the path is left before then (a failed step, a look at the contacts;
// export: pendExport). By listed pair, in the list's order: its bodies
// (and shift, periodic worlds), its step-size class when export states
// its spring bound (a Hookean class whose bound was taken; −1: none),
// whether it touched; the accepted contact of each pair that touched.
// 13 bytes a listed pair and a contact a touching one, not a 900-byte
// entry a pair; dropped by the next releaseGeneric.
type rekeyPend struct {
	ab     [][2]int32
	shift  []geom.Vec3
	cls    []int32
	spring []float64 // the bound of each class
	touch  []bool
	prev   []contact.Contact // of the pairs that touched, in list order
	lawGen uint64
	safety float64
	walls  []*pairEntry // the wall pairs export added to w.pairs
}

// pendOf states list l's pairs as export would (before build).
func (s *Spheres) pendOf(l *sphere.List) *rekeyPend {
	w := s.w
	np := len(l.P)
	p := &rekeyPend{ab: make([][2]int32, np), cls: make([]int32, np), touch: make([]bool, np),
		lawGen: w.lawGen, safety: w.Settings.Safety}
	if l.Shift != nil {
		p.shift = append([]geom.Vec3(nil), l.Shift[:np]...)
	}
	for _, c := range s.dt.classes {
		p.spring = append(p.spring, c.spring)
	}
	for k := range np {
		p.ab[k] = [2]int32{s.idx[l.P[k].I], s.idx[l.P[k].J]}
		p.cls[k] = -1
		if c := s.dt.classOf(l, k); s.dt.classes[c].hooke && !s.isFresh[k] {
			p.cls[k] = c
		}
		if l.PrevTouch[k] {
			p.touch[k] = true
			p.prev = append(p.prev, s.pairContact(k))
		}
	}
	return p
}

// pendExport makes the generic entries of the listed pairs the round
// trip's export made at the in-place key change (s.rkPend): the path is
// left before an Accept made its arrays the history again. The entries
// kept since (not plain: releaseGeneric) are reused by key, as export
// reuses them; w.pairs is the pairs, then the wall pairs.
func (s *Spheres) pendExport() {
	w := s.w
	p := s.rkPend
	s.rkPend = nil
	old := make(map[pairKey]*pairEntry, len(w.bbPairs))
	for _, e := range w.bbPairs {
		old[pairKey{e.A, e.B, e.Shift.X, e.Shift.Y}] = e
	}
	w.bbPairs = w.bbPairs[:0]
	var slab []pairEntry
	j := 0
	for k, ab := range p.ab {
		var sh geom.Vec3
		if p.shift != nil {
			sh = p.shift[k]
		}
		e := old[pairKey{ab[0], ab[1], sh.X, sh.Y}]
		if e == nil {
			if len(slab) == 0 {
				slab = make([]pairEntry, min(handChunk, len(p.ab)-k))
			}
			e = &slab[0]
			slab = slab[1:]
			e.A, e.B, e.smooth, e.Shift = ab[0], ab[1], true, sh
		}
		e.prev, e.cur, e.nightOwl, e.stale, e.hasMid = e.prev[:0], e.cur[:0], false, false, false
		if p.touch[k] {
			e.prev = append(e.prev, p.prev[j])
			j++
		}
		e.springGen = 0
		if c := p.cls[k]; c >= 0 {
			e.dtSpring, e.springGen, e.springSafety = p.spring[c], p.lawGen, p.safety
		}
		w.bbPairs = append(w.bbPairs, e)
	}
	w.pairs = append(append(w.pairs[:0], w.bbPairs...), p.walls...)
}

// virtBefore readies a virtual world's state for build (rekey): acc holds
// the accepted state (Accept may have left it in tr: trAcc, which build
// forgets; Drift would swap the two), the state a Drift reads from the
// records after the round trip's materialize. build keeps the spheres
// virtual (virtKeep: virtualOK). It returns acc's rotational states
// (nil: none), which build may drop.
func (s *Spheres) virtBefore() []sphere.Rot {
	if s.trAcc {
		s.tr.States, s.acc = s.acc, s.tr.States
		s.trAcc = false
	}
	s.virtKeep = true
	return s.acc.R
}

// virtAfter completes build on a virtual world (rekey) as the records
// would: a rotational array made anew (friction switched on) gets each
// sphere's q from its block's template (what the records hold while no
// array is kept: ω = T = +0 and q the template's); an array build dropped
// (no moment and nothing turning any more: rotNone) leaves q to the
// records, which are made then (materialize, with ω, T and q of rot, as
// syncBodies wrote them before the round trip's build), unless rot holds
// what a sphere without the array reads anyway (templateRot).
func (s *Spheres) virtAfter(rot []sphere.Rot) {
	w := s.w
	s.virtKeep = false
	if !s.virt {
		return
	}
	switch {
	case rot == nil && s.acc.R != nil:
		for _, bl := range w.blocks {
			for k := range bl.count {
				s.acc.R[s.sidx[bl.first+k]] = sphere.Rot{Q: bl.rec.Q}
			}
		}
	case rot != nil && s.acc.R == nil && !s.templateRot(rot):
		w.materialize()
		for k, b := range s.body {
			b.W, b.T, b.Q = rot[k].W, rot[k].T, rot[k].Q
		}
	}
}

// templateRot reports whether every rotational state of rot (sphere
// order) is what a virtual sphere without the array reads (fillState):
// ω = T = +0 and q its block's template's, to the bit.
func (s *Spheres) templateRot(rot []sphere.Rot) bool {
	same := func(a, b geom.Quat) bool {
		return math.Float64bits(a.W) == math.Float64bits(b.W) && math.Float64bits(a.X) == math.Float64bits(b.X) &&
			math.Float64bits(a.Y) == math.Float64bits(b.Y) && math.Float64bits(a.Z) == math.Float64bits(b.Z)
	}
	for _, bl := range s.w.blocks {
		for k := range bl.count {
			r := &rot[s.sidx[bl.first+k]]
			if nonZeroBits(r.W) || nonZeroBits(r.T) || !same(r.Q, bl.rec.Q) {
				return false
			}
		}
	}
	return true
}

// rekeyPending is rekey for a key change made before the Accept that
// follows an in-place one (rekeyOK: not valid, rkPend): two live edits in
// a row (the window's panel, a scene's events at one instant), or an edit
// after a rebuilt but unaccepted step. The round trip (session 26 review
// r1 F2) materialized a world of sphere blocks and made the generic entry
// of every listed pair from the note (export: pendExport), then built the
// tables and imported those entries (importGeneric). The history is still
// the note's, whatever the list did since (a rebuild without an Accept):
// here build runs as there and the list is made from the note as
// importGeneric makes it from the entries — its pairs in the note's
// order, whether each touched and its accepted contact's friction history,
// and fresh unless the note states its spring bound for this lawGen and
// safety factor (pendExport's springGen, importGeneric's test). The note
// is kept: it is still what the generic stages would find before the
// next Accept (a third change, a hand-over).
func (s *Spheres) rekeyPending(virt bool) {
	w := s.w
	p := s.rkPend
	// export's way when nothing was accepted (pendExport, with the entries
	// left unmade): w.pairs the listed pairs' entries and the wall pairs',
	// the Verlet list invalidated, the spheres in body order.
	s.owns = false
	w.pairs = append(append(w.pairs[:0], w.bbPairs...), p.walls...)
	w.verlet.Invalidate()
	s.restoreOrder()

	s.buildVirt(virt)

	// importGeneric on the note (importOrder does nothing: rekeyOK wants
	// no restored order).
	l := &s.lists[s.cur]
	shifted := false
	for _, sh := range p.shift {
		if sh != (geom.Vec3{}) {
			shifted = true
			break
		}
	}
	s.resizeList(l, len(p.ab), shifted)
	s.isFresh = s.isFresh[:0]
	j := 0
	for k, ab := range p.ab {
		s.setPair(l, k, s.sidx[ab[0]], s.sidx[ab[1]])
		if shifted {
			l.Shift[k] = p.shift[k]
		}
		l.PrevTouch[k] = p.touch[k]
		if p.touch[k] {
			if l.PrevHist != nil {
				l.PrevHist[k] = p.prev[j].Fric
			}
			j++
		}
		s.isFresh = append(s.isFresh, !(p.cls[k] >= 0 && p.lawGen == w.lawGen && p.safety == w.Settings.Safety))
	}
	s.finishList()
	s.owl = s.owl[:0]
	s.importWalls()
	s.rkPend = p
}

// buildVirt runs build, a block world's (virt) rotational states carried
// through it (virtBefore, virtAfter): the rekey's and rekeyPending's build.
func (s *Spheres) buildVirt(virt bool) {
	var rot []sphere.Rot
	if virt {
		rot = s.virtBefore()
	}
	s.build()
	if virt {
		s.virtAfter(rot)
	}
}
