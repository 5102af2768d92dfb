package world

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// No rotational array while nothing turns (issue #16, memory per sphere).
//
// While rotation is still in a world whose laws make no moment (rotStill,
// !moms: Session 20's one shared array, rotShare), that one array holds
// ω = +0, T = +0 and an unturned q for every sphere: 80 bytes a sphere (80 MB
// at 10⁶) that say nothing the bodies do not. When moreover each q is its
// body's Q (qBody), Accept drops the array altogether (rotNone: acc.R and
// tr.R nil) and every reader takes ω = T = +0 and q = s.body[k].Q for
// sphere k. The bodies' Q stays right meanwhile: lazy bodies are not
// written by the steps, and SyncBodies writes the same Q back.
//
// The array comes back (rotMake: the shared array, filled from the bodies'
// Q with ω = T = +0, exactly what it held when dropped) at the first pass
// that would write it: a Drift that does not take the rotational skip (acc
// read from the bodies, a sphere turning) or runs under laws with moments
// (friction edited on), an evaluation without a Drift (the start, a list
// build's clear) or under a law that is not frictionless Hooke, an Accept
// outside the skip; and, after the evaluation, when a wall slot's general
// contact (the rim, rounding) left a moment: the slots of a range note the
// moments of their spheres aside (pendRot, one list a chunk: the parts run
// on several workers) and pendApply writes them into the array that
// rotMake brings back, the bits the slots would have left there. From then
// on the shared array's rules (rotSplit, rotReset) hold as before.
//
// qBody: each q of the rotational states equals its body's Q. True after
// the integrator's start filled the trial state from the bodies
// (TrialFromBodies) and after a Drift that read the bodies and found every ω
// and T +0 (q then stays); false after a Drift that may have turned a
// sphere (not skipping, not found all +0).

// rotPend is a moment a wall slot left on sphere k while the rotational
// array was absent, for pendApply.
type rotPend struct {
	k   int32
	rot sphere.Rot
}

// rotDrop drops the rotational arrays (rotNone) when Accept leaves
// rotation still in a world without moments and each q is its body's.
// Otherwise the two share one array (rotShare).
func (s *Spheres) rotDrop() {
	if s.rotNone {
		return
	}
	if s.qBody && s.lazy && len(s.acc.R) == len(s.idx) && len(s.tr.R) == len(s.idx) && !(s.virt && s.vTurn) {
		s.acc.R, s.tr.R = nil, nil
		s.rotNone = true
		return
	}
	s.rotShare()
}

// rotMake brings the rotational array back when it is absent: one array
// shared by acc and tr, ω = T = +0 and q the bodies' Q.
func (s *Spheres) rotMake() {
	if !s.rotNone {
		return
	}
	r := make([]sphere.Rot, len(s.idx))
	for k := range r {
		r[k].Q = s.bodyQ(k)
	}
	s.acc.R, s.tr.R = r, r
	s.rotNone = false
	s.vTurn = s.virt
}

// pendRot returns where a wall slot of chunk c (one worker's range, in
// sphere order) adds its moment to sphere k while the rotational array is
// absent: the entry of k if it is chunk c's last (the sphere's earlier
// slot), else a new one with ω = T = +0 and q its body's.
func (s *Spheres) pendRot(c int, k int32) *sphere.Rot {
	p := s.pend[c]
	if n := len(p); n > 0 && p[n-1].k == k {
		return &p[n-1].rot
	}
	s.pend[c] = append(p, rotPend{k: k, rot: sphere.Rot{Q: s.bodyQ(int(k))}})
	return &s.pend[c][len(p)].rot
}

// pendApply brings the rotational array back when a wall slot noted a
// moment that is not +0 (pendRot; a slot that left +0 changes nothing:
// the absent array's T is +0) and writes the noted moments into it; it
// returns whether it did.
func (s *Spheres) pendApply() bool {
	any := false
	for c := range s.pend {
		for i := range s.pend[c] {
			if nonZeroBits(s.pend[c][i].rot.T) {
				any = true
			}
		}
		if !any {
			s.pend[c] = s.pend[c][:0]
		}
	}
	if !any {
		return false
	}
	s.rotMake()
	for c := range s.pend {
		for _, p := range s.pend[c] {
			s.tr.R[p.k].T = p.rot.T
		}
		s.pend[c] = s.pend[c][:0]
	}
	return true
}

// rotOf returns sphere k's ω and q in the states st (acc's or tr's): with
// the rotational array absent, +0 and its body's Q.
func (s *Spheres) rotOf(st *sphere.States, k int) (geom.Vec3, geom.Quat) {
	if st.R == nil {
		return geom.Vec3{}, s.bodyQ(k)
	}
	ro := &st.R[k]
	return ro.W, ro.Q
}

// zeroRot is the rotational state the step bound reads while the array is
// absent (ω = +0; wrOf reads nothing else). Never written.
var zeroRot sphere.Rot

// trRot returns sphere i's trial rotational state for the step bound
// (wrOf): &zeroRot while the array is absent.
func (s *Spheres) trRot(i int) *sphere.Rot {
	if s.tr.R == nil {
		return &zeroRot
	}
	return &s.tr.R[i]
}

// TrialFromBodies sets the trial state's centres, velocities, angular
// velocities and orientations to the bodies' (the integrator's start,
// before the first Evaluate); the forces and moments are Evaluate's.
// Without the rotational array (rotNone) while every body's ω is +0, only
// the centres and velocities: ω = +0 and q the bodies' already.
func (s *Spheres) TrialFromBodies() {
	tr := &s.tr
	if s.virt && !s.w.blockCentres() {
		s.w.materialize() // the bodies as of the last syncBodies: their records
	}
	var sc virtScratch
	if s.rotNone && s.bodiesStill(false) {
		for k := range s.idx {
			b := s.bodyAt(k, &sc)
			st := &tr.L[k]
			st.X, st.V = b.X, b.V
		}
		s.qBody = true
		return
	}
	s.rotMake()
	for k := range s.idx {
		b := s.bodyAt(k, &sc)
		st, ro := &tr.L[k], &tr.R[k]
		st.X, st.V, ro.W, ro.Q = b.X, b.V, b.W, b.Q
	}
	s.qBody = true
}

// chunkTerms is forceTerms of the trial states of spheres lo…hi−1 after a
// split evaluation's part (termStates: mom, a wall slot left a moment).
// When a slot's moment was noted aside (the rotational array absent:
// pendRot, written by pendApply after the parts), the part cannot sum it:
// it answers finite with an infinite magnitude, which sends forcesBad to
// its serial sum over the array (the same answer: the sum's).
func (s *Spheres) chunkTerms(lo, hi int, mom bool) (bool, float64) {
	if mom && s.tr.R == nil {
		return true, math.Inf(1)
	}
	return forceTerms(s.termStates(lo, hi, mom))
}

// bodiesStill reports whether every body of bs has ω = +0 (all bits zero)
// and, with moments, T = +0: the rotational states a Drift would read from
// them are those of rotNone (q the bodies' own).
func bodiesStill(bs []*body.Body, moments bool) bool {
	for _, b := range bs {
		if nonZeroBits(b.W) || moments && nonZeroBits(b.T) {
			return false
		}
	}
	return true
}

// rotScratch returns the rotational states of spheres b0…b1−1 while the
// array is absent, in buf: ω = T = +0, q the bodies'. finishRange's full
// pass (an Accept outside the rotational skip: the start, eager bodies)
// kicks them (ω + h·T/I = +0 again) and writes them to the bodies.
func (s *Spheres) rotScratch(buf []sphere.Rot, b0, b1 int) []sphere.Rot {
	buf = buf[:b1-b0]
	for i := range buf {
		buf[i] = sphere.Rot{Q: s.bodyQ(b0 + i)}
	}
	return buf
}

// bodyQ returns the orientation of sphere k's body: its record's, or for a
// block's sphere (virt) the template's — a block's spheres all start with
// it, and while virtual the rotational array, once made, is never dropped
// again (rotDrop), so q is the template's wherever it is absent.
func (s *Spheres) bodyQ(k int) geom.Quat {
	if s.body != nil {
		return s.body[k].Q
	}
	if w := s.w; len(w.blocks) == 1 {
		return w.blocks[0].rec.Q
	}
	return s.w.BodyRec(int(s.idx[k])).Q
}

// bodyAt returns sphere k's body: its record, or for a block's sphere
// (virt) sc filled as its record would be (fillVirtual: the block's
// centre, or the accepted state), without its name. Read only.
func (s *Spheres) bodyAt(k int, sc *virtScratch) *body.Body {
	if s.body != nil {
		return s.body[k]
	}
	return sc.at(s.w, int(s.idx[k]))
}

// bodiesStill is bodiesStill of the spheres' bodies. For a block's
// spheres: the templates' while the blocks' centres are the state, else
// those of the accepted state as syncBodies wrote them (acc: the bodies are
// read only by a Drift after a syncBodies, once Drift has made acc the
// accepted state).
func (s *Spheres) bodiesStill(moments bool) bool {
	if s.body != nil {
		return bodiesStill(s.body, moments)
	}
	w := s.w
	if w.blockCentres() {
		for _, bl := range w.blocks {
			if nonZeroBits(bl.rec.W) || moments && nonZeroBits(bl.rec.T) {
				return false
			}
		}
		return true
	}
	for k := range s.acc.R {
		if nonZeroBits(s.acc.R[k].W) || moments && nonZeroBits(s.acc.R[k].T) {
			return false
		}
	}
	return true
}
