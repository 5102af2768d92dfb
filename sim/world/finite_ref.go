package world

import (
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// The last good state without a copy a step. A run keeps the last state
// that passed CheckFinite beside it (BodyStates); Save copied every body's
// x, q, v, ω after every step (8% of a 10⁵-sphere run). With lazy bodies
// the sphere path's accepted state already lives in a double buffer
// (Spheres.trAcc): Accept leaves the new state in tr, and acc keeps the
// one before until the next Drift swaps the two and writes the trial over
// the older one. So the state accepted at one step stays, untouched, in
// one of the two arrays through the next step — what a run that fails at
// the next step puts back. SaveRef records which array (its first element)
// and copies only the bodies the sphere path does not hold (the walls);
// Restore finds the array again and copies it then.

// SaveRef is Save for a run that calls it after every accepted step (and
// calls Restore, if at all, right after the following step or the failure
// of it, before anything else changes the world): with lazy bodies and the
// accepted state in the sphere path's trial array it copies only the
// bodies that are not spheres and a reference to the array; otherwise it
// is Save. Restore then puts back the same state Save's copy would.
func (s *BodyStates) SaveRef(w *World) {
	sp := w.lazySpheres()
	if sp == nil || !sp.trAcc || sp.acc.Len() != len(sp.idx) || sp.tr.Len() != len(sp.idx) || len(sp.idx) == 0 ||
		pendingEvents(w) {
		s.ref = nil
		s.Save(w)
		return
	}
	s.Time, s.Steps, s.Valid = w.Time, w.Steps, true
	s.ref, s.refKey, s.refN = &sp.tr.L[0], sp.key, len(sp.idx)
	// While the two arrays share their rotational one (rotShare: ω = T = +0
	// and the same q a sphere), or have none (rotNone: ω = T = +0), the next
	// step may kick ω in it (one made again by that step): the state kept
	// has ω = +0.
	s.refStill = sp.rotShared() || sp.rotNone
	if s.otherKey != sp.key || len(s.otherIdx) != w.NumBodies()-len(sp.idx) {
		s.otherKey, s.otherIdx = sp.key, s.otherIdx[:0]
		for i, k := range sp.sidx {
			if k < 0 {
				s.otherIdx = append(s.otherIdx, int32(i))
			}
		}
	}
	m := len(s.otherIdx)
	s.oX, s.oV, s.oW, s.oQ = resize(s.oX, m), resize(s.oV, m), resize(s.oW, m), resize(s.oQ, m)
	for j, i := range s.otherIdx {
		b := w.BodyRec(int(i)) // not a sphere: a record
		s.oX[j], s.oV[j], s.oW[j], s.oQ[j] = b.X, b.V, b.W, b.Q
	}
}

// pendingEvents reports whether a scene event is still to come (an event
// may change the bodies between two steps: SaveRef then copies).
func pendingEvents(w *World) bool {
	for _, ev := range w.Events {
		if !ev.Done {
			return true
		}
	}
	return false
}

// materialize turns a SaveRef's reference into Save's copy: the array it
// names (acc after the next Drift's swap, tr before it) in the sphere
// path's current order (a renumbering permutes the array and idx alike),
// then the other bodies. It clears Valid when the array is not found.
func (s *BodyStates) materialize(w *World) {
	if s.ref == nil {
		return
	}
	ref := s.ref
	s.ref = nil
	sp := w.sph
	var st sphere.States
	switch {
	case sp == nil || sp.key != s.refKey || len(sp.idx) != s.refN || len(sp.sidx) != w.NumBodies():
	case sp.acc.Len() == s.refN && &sp.acc.L[0] == ref:
		st = sp.acc
	case sp.trAcc && sp.tr.Len() == s.refN && &sp.tr.L[0] == ref:
		st = sp.tr.States
	}
	// Without the rotational array (sp.rotNone) every ω is +0 and q the
	// body's (spheres_rotnone.go).
	if st.Len() != s.refN || len(st.R) != s.refN && !(st.R == nil && sp.rotNone) {
		s.Valid = false
		return
	}
	n := w.NumBodies()
	s.X, s.V, s.W, s.Q = resize(s.X, n), resize(s.V, n), resize(s.W, n), resize(s.Q, n)
	s.Body = append(s.Body[:0], sp.idx...)
	X, V, W, Q := s.X[:s.refN], s.V[:s.refN], s.W[:s.refN], s.Q[:s.refN]
	for o := range st.L {
		a := &st.L[o]
		om, q := sp.rotOf(&st, o)
		X[o], V[o], W[o], Q[o] = a.X, a.V, om, q
		if s.refStill {
			W[o] = geom.Vec3{}
		}
	}
	m := s.refN
	for j, i := range s.otherIdx {
		s.X[m], s.V[m], s.W[m], s.Q[m] = s.oX[j], s.oV[j], s.oW[j], s.oQ[j]
		s.Body = append(s.Body, i)
		m++
	}
}
