package world

import (
	"math"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

var inf = math.Inf(1)

// importGeneric takes the contact history over from the generic stages: the
// candidate pairs of the last detection become the sphere list (same order,
// same history and cached bounds), the wall pairs the wall slots.
func (s *Spheres) importGeneric() {
	w := s.w
	s.importOrder() // a restart's spatial order (restart_order.go)
	l := &s.lists[s.cur]
	shifted := false
	for _, e := range w.bbPairs {
		if e.Shift != (geom.Vec3{}) {
			shifted = true
		}
	}
	s.resizeList(l, len(w.bbPairs), shifted)
	s.isFresh = s.isFresh[:0]
	for k, e := range w.bbPairs {
		a, b := s.sidx[e.A], s.sidx[e.B]
		s.setPair(l, k, a, b)
		if shifted {
			l.Shift[k] = e.Shift
		}
		l.PrevTouch[k] = len(e.prev) > 0
		if l.PrevHist != nil && len(e.prev) > 0 {
			l.PrevHist[k] = e.prev[0].Fric
		}
		s.isFresh = append(s.isFresh, !(e.springGen == w.lawGen && e.springSafety == w.Settings.Safety))
	}
	s.finishList()
	s.owl = s.owl[:0]
	s.importWalls()
}

// importWalls is importGeneric's part of the walls: the wall pair entries
// say which pairs have been candidates (seen), the slots are built from the
// list's reference (or the bodies' centres) and a slot whose entry holds
// accepted contacts keeps them there (a facet contact finds its history by
// key, a rim contact uses it). The path owns the history from here on.
func (s *Spheres) importWalls() {
	w := s.w
	n := len(s.idx)
	// Wall pairs: an entry means the pair has been a candidate.
	for wi := range s.planes {
		for k := range n {
			s.putSeen(wi, k, wi < len(w.wallPair) && len(w.wallPair[wi]) == w.NumBodies() && w.wallPair[wi][s.idx[k]] != nil)
		}
	}
	ref := w.verlet.Ref()
	if len(ref) < n {
		// The next Update rebuilds (and the slots with it); list from here
		// until then (a copy not kept: the world's centres are the generic
		// stages' buffer, 24 bytes a sphere the sphere path never reads).
		ref = make([]geom.Vec3, n)
		var sc virtScratch
		for k := range ref {
			ref[k] = s.bodyAt(k, &sc).X
		}
	}
	s.slots = s.slots[:0]
	s.buildSlots(ref[:n], w.skin)
	for i := range s.slots {
		// The accepted contacts stay in the generic entry: a facet contact
		// finds its history there by key (facetHistory), a rim contact uses it.
		sl := &s.slots[i]
		sl.pTouch, sl.pRim, sl.e = false, false, nil
		if !s.seenAt(int(sl.wall), int(sl.k)) {
			continue
		}
		if e := w.wallPair[sl.wall][s.idx[sl.k]]; len(e.prev) > 0 {
			sl.pRim, sl.e = true, e
		}
	}
	s.owns, s.valid = true, false
	s.taken = true
}

// releaseGeneric drops the generic pair entries importGeneric took the
// history from, once an Accept has made the sphere path's arrays the history
// (valid): from then on export states every listed pair from the arrays and
// reads an old entry only to reuse it by key. Reused or made anew, export
// writes the same fields (prev, cur, nightOwl, stale, hasMid, springGen and,
// with it, dtSpring and springSafety); a plainEntry holds nothing else but
// its key and smooth (true, as export makes it), so dropping it changes no
// later export, history or generic stage — only the entries stop being
// kept and scanned by the collector (a 904-byte entry a listed pair: ~350 MB
// at 10⁵ spheres after a checkpoint, marked at every later collection). The
// others (a superquadric's or polyhedron's state, cached bounds, the step
// bound's last pair) stay. w.pairs is stale while the sphere path owns the
// history (every reader leaves it first: export rebuilds it) and is emptied.
func (s *Spheres) releaseGeneric() {
	s.taken = false
	s.rkPend = nil // the arrays are the history (spheres_rekey.go)
	w := s.w
	if !s.owns || !s.valid || w.lawGen == 0 || releaseOff {
		// lawGen 0: importGeneric would read springSafety with springGen 0.
		return
	}
	kept := w.bbPairs[:0]
	for _, e := range w.bbPairs {
		if !w.plainEntry(e) {
			kept = append(kept, e)
		}
	}
	clear(w.bbPairs[len(kept):])
	w.bbPairs = kept
	clear(w.pairs)
	w.pairs = w.pairs[:0]
}

// releaseOff keeps the generic entries (tests compare the two ways).
var releaseOff bool

// plainEntry reports whether e holds nothing export does not write but its
// key (A, B, Shift) and smooth = true: a pair entry as export makes it anew,
// after export. dtSpring and springSafety are left out: export writes them
// with springGen ≠ 0, and with springGen = 0 they are read by no one
// (fillPairState and the generic bound test springGen ≠ 0 or = lawGen ≠ 0;
// importGeneric reads springSafety only when springGen = lawGen, and
// releaseGeneric requires lawGen ≠ 0).
func (w *World) plainEntry(e *pairEntry) bool {
	return e.smooth && !e.stale && !e.nightOwl && e.gbar == 0 && e.gbarGen == 0 && len(e.cur) == 0 &&
		e.cache.Empty() && e.cache.Builds == 0 && e.gen == 0 && e.mid == (geom.Vec3{}) && !e.hasMid && !e.sepAx &&
		e.sm == nil && e.springMA == 0 && e.springMB == 0 &&
		e.dtFloor == 0 && e.floorMA == 0 && e.floorMB == 0 && e.floorSafety == 0 && e.floorGen == 0 && e.floorP == nil &&
		e.dtEntry == 0 && e.entryMA == 0 && e.entryMB == 0 && e.entrySafety == 0 && e.entryGen == 0 && e.entryP == nil &&
		e != w.bound.last
}

// export gives the contact history back to the generic stages: the sphere
// list becomes the candidate pair entries (reused by key), the wall slots the
// wall pair entries, each with the contacts of the last accepted step.
func (s *Spheres) export() {
	w := s.w
	s.owns = false
	if !s.valid {
		// Nothing was accepted here: the generic history is as it was
		// (or as an in-place key change left it: pendExport), but
		// the Verlet list may have moved on without the pair entries.
		if s.rkPend != nil {
			s.pendExport()
		}
		w.verlet.Invalidate()
		s.restoreOrder()
		return
	}
	defer s.restoreOrder() // the generic stages work in body order
	l := &s.lists[s.cur]
	var old map[pairKey]*pairEntry
	if len(w.bbPairs) > 0 {
		old = make(map[pairKey]*pairEntry, len(w.bbPairs))
	}
	for _, e := range w.bbPairs {
		old[pairKey{e.A, e.B, e.Shift.X, e.Shift.Y}] = e
	}
	w.bbPairs = w.bbPairs[:0]
	// The entries made anew, and the accepted contacts of those without
	// storage, come in blocks of handChunk (one allocation each, not one
	// a pair: 384 k pairs at 10⁵ spheres). The same entries and contacts;
	// only their storage is shared (a block is freed when none of its
	// entries is referenced).
	var slab []pairEntry
	var cslab []contact.Contact
	for k := range l.P {
		key := s.listKey(l, k)
		e := old[key]
		if e == nil {
			if len(slab) == 0 {
				slab = make([]pairEntry, min(handChunk, len(l.P)-k))
			}
			e = &slab[0] // zero, as made
			slab = slab[1:]
			e.A, e.B, e.smooth = key.a, key.b, true
			if l.Shift != nil {
				e.Shift = l.Shift[k]
			}
		}
		e.prev, e.cur, e.nightOwl, e.stale, e.hasMid = e.prev[:0], e.cur[:0], false, false, false
		if l.PrevTouch[k] {
			if cap(e.prev) == 0 {
				if len(cslab) == 0 {
					cslab = make([]contact.Contact, min(handChunk, len(l.P)-k))
				}
				e.prev = cslab[:0:1] // append's own: a new array of capacity 1
				cslab = cslab[1:]
			}
			e.prev = append(e.prev, s.pairContact(k))
		}
		e.springGen = 0
		if c := &s.dt.classes[s.dt.classOf(l, k)]; c.hooke && !s.isFresh[k] {
			e.dtSpring, e.springGen, e.springSafety = c.spring, w.lawGen, w.Settings.Safety
		}
		w.bbPairs = append(w.bbPairs, e)
	}
	w.pairs = append(w.pairs[:0], w.bbPairs...)
	s.exportWalls()
}

// exportWalls is export's part of the walls: every pair seen gets its wall
// pair entry (the accepted contacts of a rim slot stay in it), every
// candidate slot's entry holds its accepted facet contact and joins
// w.pairs (after the sphere pairs) with the detection's new generation.
func (s *Spheres) exportWalls() {
	w := s.w
	n := len(s.idx)
	w.gen++
	for wi := range s.planes {
		for k := range n {
			if s.seenAt(wi, k) {
				e := w.wallEntry(wi, int(s.idx[k]))
				e.cur, e.nightOwl = e.cur[:0], false
				if sl := s.slotOf(k, wi); sl == nil || !sl.pRim {
					e.prev = e.prev[:0] // a rim slot's entry holds its contacts
				}
			}
		}
	}
	for wi := range s.planes {
		for i := range s.slots {
			sl := &s.slots[i]
			if int(sl.wall) != wi || !sl.cand {
				continue
			}
			e := w.wallEntry(wi, int(s.idx[sl.k]))
			if sl.pTouch && !sl.pRim { // a rim slot's entry holds its contacts (the edge, its friction history)
				e.prev = append(e.prev[:0], s.slotContact(sl))
			}
			e.gen = w.gen
			w.pairs = append(w.pairs, e)
		}
	}
}

// handChunk is how many pair entries (or contacts) export allocates at once.
const handChunk = 1024

// listKey is the key of pair k of list l in body indices.
func (s *Spheres) listKey(l *sphere.List, k int) pairKey {
	var sh geom.Vec3
	if l.Shift != nil {
		sh = l.Shift[k]
	}
	return pairKey{s.idx[l.P[k].I], s.idx[l.P[k].J], sh.X, sh.Y}
}

// slotOf returns the slot of sphere k and wall wi, or nil.
func (s *Spheres) slotOf(k, wi int) *wallSlot {
	for i := s.slotAt(k); i < len(s.slots) && int(s.slots[i].k) == k; i++ {
		if int(s.slots[i].wall) == wi {
			return &s.slots[i]
		}
	}
	return nil
}

// pairContact returns the accepted contact of sphere pair k as the generic
// stages state it.
func (s *Spheres) pairContact(k int) contact.Contact {
	l := &s.lists[s.cur]
	i, j := l.P[k].I, l.P[k].J
	xa, xb := s.tr.L[i].X, s.tr.L[j].X
	if l.Shift != nil {
		xb = xb.Add(l.Shift[k])
	}
	ov, n, p, _ := sphere.SphereSphere(xa, xb, s.rOf(int(i)), s.rOf(int(j))) // S2 §2.2
	c := smoothContact(0, 0, p.AddScaled(-0.5*ov, n), p.AddScaled(0.5*ov, n), n, -ov)
	c.New = !l.Touch[k] // after Accept: the step before
	c.Fn = l.Fn[k]
	if l.Ft != nil {
		c.Ft, c.M, c.Epot, c.Fric = l.Ft[k], l.M[k], l.Epot[k], l.PrevHist[k]
	} else {
		law := &s.laws[0]
		if l.Law != nil {
			law = &s.laws[l.Law[k]]
		}
		c.Epot = law.Normal(ov, 0, l.ClassOf(k).MEff, 0).Epot
	}
	return c
}

// slotContact returns the accepted facet contact of a wall slot as the
// generic stages state it (from A, the body of lower index).
func (s *Spheres) slotContact(sl *wallSlot) contact.Contact {
	x, r := s.tr.L[sl.k].X, s.rOf(int(sl.k))
	pl := &s.planes[sl.wall]
	var pp, ps, n geom.Vec3
	var gap float64
	if !s.w.Periodic.On() {
		d := x.Sub(pl.P).Dot(pl.N)
		pp, ps, n, gap = x.AddScaled(-r, pl.N), x.AddScaled(-d, pl.N), pl.N, d-r
	} else {
		ov, nn, _, _ := sphere.SpherePlane(x, r, pl.P, pl.N)
		pp = x.AddScaled(-r, nn)
		ps, n, gap = pp.AddScaled(ov, nn), nn, -ov
	}
	var c contact.Contact
	if sl.swap {
		c = smoothContact(0, 0, ps, pp, n.Neg(), gap)
	} else {
		c = smoothContact(0, 0, pp, ps, n, gap)
	}
	c.New, c.Fn, c.Epot, c.Fric = sl.pNew, sl.fn, sl.epot, s.histOf(sl.pHist)
	if sl.hist != noHist {
		c.Ft, c.M = s.hists[sl.hist].ft, s.hists[sl.hist].m
	}
	return c
}

// eachContact is EachContact while the sphere path holds the contacts: the
// sphere pairs in list order, then the walls, each wall's in body order.
func (s *Spheres) eachContact(f func(a, b int, c *contact.Contact)) {
	l := &s.lists[s.cur]
	for k := range l.P {
		if l.PrevTouch[k] {
			c := s.pairContact(k)
			f(int(s.idx[l.P[k].I]), int(s.idx[l.P[k].J]), &c)
		}
	}
	for wi := range s.planes {
		for i := range s.slots {
			sl := &s.slots[i]
			if int(sl.wall) != wi {
				continue
			}
			switch {
			case sl.pRim:
				for j := range sl.e.prev {
					f(int(sl.e.A), int(sl.e.B), &sl.e.prev[j])
				}
			case sl.pTouch:
				c := s.slotContact(sl)
				a, b := int(s.idx[sl.k]), int(s.planes[wi].bi)
				if sl.swap {
					a, b = b, a
				}
				f(a, b, &c)
			}
		}
	}
}
