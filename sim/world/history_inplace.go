package world

import (
	"slices"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
)

// HistoryStreamInPlace is HistoryStream without the hand-over: while the
// sphere path holds the contact history it states the pairs from its flat
// arrays as they would be after the hand-over (Spheres.export) — the same
// History and PairStates, in the same order, but for a rim slot's contacts,
// which it keeps (export replaces them by the slot's facet contact: a
// fault, TestHandOverKeepsRim) — without making the ~900-byte
// generic pair entry of every listed pair (350 MB at 10⁵ spheres, 3.5 GB
// at 10⁶: the peak of a run's last final.json). The sphere path keeps the
// history. Unlike HistoryStream's, the PairState given to f (and what it
// points to) is f's only during the call: one is reused for every pair
// (at 10⁶ spheres 3·10⁶ pairs made garbage the collector scanned the world
// for). Otherwise (the generic stages hold it, nothing accepted yet, a
// wall-pair table not sized to the world) it is HistoryStream.
func (w *World) HistoryStreamInPlace() (h *History, n int, each func(f func(*PairState) error) error) {
	s := w.sph
	if s == nil || !s.owns || !s.valid || len(s.sidx) != w.NumBodies() || len(s.planes) != len(w.Walls) {
		return w.HistoryStreamShared()
	}
	s.syncBodies()
	// Unlike the hand-over (export's restoreOrder puts the spheres back in
	// body order and invalidates the list), the spheres stay in spatial
	// order: the file says which (sphere_order) and keeps the list's
	// reference in that order, so that a restart continues as this run.
	h = w.historyHead(true)
	if s.ordered {
		h.SphereOrder = &SphereOrder{At: s.orderedAt, Bodies: slices.Clone(s.idx)}
	}
	l := &s.lists[s.cur]
	// The pair entries export would reuse by key: only those with state
	// beyond what export writes (a superquadric's, a polyhedron's cache).
	old := map[pairKey]*pairEntry{}
	for _, e := range w.bbPairs {
		if e.hasMid || e.sm != nil || e.sepAx || !e.cache.Empty() {
			old[pairKey{e.A, e.B, e.Shift.X, e.Shift.Y}] = e
		}
	}
	// The wall-pair table as export leaves it: export makes an entry
	// (wallEntry) for every pair seen and every candidate slot, sizing the
	// table first (sizeWallPairs: a table or row not of the world's size
	// is made anew, empty); else the table stays as it is.
	creates := s.anySeen()
	for i := range s.slots {
		creates = creates || s.slots[i].cand && int(s.slots[i].wall) < len(s.planes)
	}
	rows := len(w.wallPair)
	if creates {
		rows = len(w.Walls)
	}
	rowLen := func(wi int) int {
		if creates {
			return w.NumBodies()
		}
		return len(w.wallPair[wi])
	}
	entryAt := func(wi, i int) *pairEntry {
		if creates && (len(w.wallPair) != len(w.Walls) || len(w.wallPair[wi]) != w.NumBodies()) {
			return nil
		}
		return w.wallPair[wi][i]
	}
	// wallEntry reports whether export leaves an entry of wall wi and body
	// i, and fills tmp with it and whether it is a candidate: its prev in
	// buf's storage (never the entry's own: the world is not changed).
	wallEntry := func(wi, i int, tmp *pairEntry, buf []contact.Contact) (ok, cand bool) {
		e := entryAt(wi, i)
		k := -1
		if i < len(s.sidx) {
			k = int(s.sidx[i])
		}
		if k < 0 { // not a sphere: export leaves it alone
			if e == nil {
				return false, false
			}
			*tmp = *e
			tmp.prev = append(buf[:0], e.prev...)
			return true, false
		}
		seen := s.seenAt(wi, k)
		if e == nil {
			*tmp = pairEntry{smooth: true}
		} else {
			*tmp = *e
		}
		tmp.prev = append(buf[:0], tmp.prev...)
		exists := e != nil || seen
		if seen {
			if sl := s.slotOf(k, wi); sl == nil || !sl.pRim {
				tmp.prev = tmp.prev[:0]
			}
		}
		for j := s.slotAt(k); j < len(s.slots) && int(s.slots[j].k) == k; j++ {
			sl := &s.slots[j]
			if int(sl.wall) != wi || !sl.cand {
				continue
			}
			exists, cand = true, true
			// A rim slot's accepted contacts (edges, corners and the
			// facet: sq.Surface) are its entry's prev, kept above; the
			// slot's own fields hold a facet contact only. Stating
			// one over them (as export still does) lost the rim
			// contact's friction history: a restart took it as New.
			if sl.pTouch && !sl.pRim {
				tmp.prev = append(tmp.prev[:0], s.slotContact(sl))
			}
		}
		return exists, cand
	}
	n = len(l.P)
	var tmp pairEntry
	var buf []contact.Contact
	for wi := range rows {
		for i := range rowLen(wi) {
			if ok, _ := wallEntry(wi, i, &tmp, buf); ok {
				n++
			}
			buf = tmp.prev
		}
	}
	each = func(f func(*PairState) error) error {
		var tmp pairEntry
		var buf []contact.Contact
		var ps PairState // reused: f's only during the call
		var sc pairScratch
		for k := range l.P {
			a, b := s.idx[l.P[k].I], s.idx[l.P[k].J]
			var shift geom.Vec3
			if l.Shift != nil {
				shift = l.Shift[k]
			}
			if e := old[pairKey{a, b, shift.X, shift.Y}]; e != nil {
				tmp = *e
			} else {
				tmp = pairEntry{A: a, B: b, Shift: shift, smooth: true}
			}
			tmp.prev = buf[:0]
			if l.PrevTouch[k] {
				tmp.prev = append(tmp.prev, s.pairContact(k))
			}
			buf = tmp.prev
			tmp.springGen = 0
			if c := &s.dt.classes[s.dt.classOf(l, k)]; c.hooke && !s.isFresh[k] {
				tmp.dtSpring, tmp.springGen, tmp.springSafety = c.spring, w.lawGen, w.Settings.Safety
			}
			w.fillPairState(&ps, &sc, &tmp, a, b, -1, false)
			if err := f(&ps); err != nil {
				return err
			}
		}
		for wi := range rows {
			for i := range rowLen(wi) {
				ok, cand := wallEntry(wi, i, &tmp, buf)
				buf = tmp.prev
				if !ok {
					continue
				}
				w.fillPairState(&ps, &sc, &tmp, int32(i), int32(w.Walls[wi].Body), wi, cand)
				if err := f(&ps); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return h, n, each
}
