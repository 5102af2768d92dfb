package world

import (
	"math"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
)

// Evaluate runs stages 1–3 on the trial state (Trial) at time t, dt being
// the time since the last accepted evaluation: candidates, contacts and laws
// of every sphere pair and sphere–wall pair, then every sphere's force and
// moment — its weight, the sphere pairs in list order, the walls in wall
// order, as the generic stages sum them. It reports the night-owl contacts
// and whether a force or moment is not finite. Results do not depend on
// the number of workers: with one, forces are added pair by pair; with
// more, a frictionless Hookean list is evaluated by ranges of spheres
// (evalParts: each part adds its own spheres' pairs, those reaching in from
// earlier parts first, in pair order), and any other list stores each pair's
// force so that every sphere sums its own in pair order.
func (s *Spheres) Evaluate(t, dt float64) (owls int, bad bool) {
	return s.evaluate(t, dt, false)
}

// EvaluateKick is Evaluate, except that where Accept's kick can make the
// force test (forcesBad) itself — on one worker, or by ranges when split
// (finishSplitBad), lazy bodies, the rotational skip (every T +0), no night
// owl — it leaves the test to the
// next Accept, which then reports the answer before it commits anything:
// the step reads the trial forces once instead of twice. bad is then false.
func (s *Spheres) EvaluateKick(t, dt float64) (owls int, bad bool) {
	return s.evaluate(t, dt, true)
}

// evaluate is Evaluate; with kick, EvaluateKick.
func (s *Spheres) evaluate(t, dt float64, kick bool) (owls int, bad bool) {
	w := s.w
	tr := &s.tr
	s.beginRound() // a start's evaluation (no Drift before it) opens its own
	if w.Periodic.On() {
		for k := range tr.L {
			tr.L[k].X = w.Periodic.wrap(tr.L[k].X)
			tr.X[k] = tr.L[k].X
		}
	} else if !s.xFresh {
		tr.SyncX() // the kernels' centres (Drift copies them as it goes)
	}
	s.xFresh = false
	if s.rotNone && !s.hooke {
		s.rotMake() // the kernels write R (spheres_rotnone.go)
	}
	prof := &w.Stats.Profile // stages as the generic path names them (world.Profile)
	tb := time.Now()
	test := s.drift // updateList takes it
	s.updateList()  // the Verlet list and wall slots: Broad
	l := &s.lists[s.cur]
	s.innerUpdate(l, test)
	prof.Evaluations++
	prof.Pairs += int64(len(l.P) + len(s.slots))
	split := s.beginRound()
	s.round.evals++
	s.round.work = len(l.P) + len(s.slots)
	t0 := time.Now()
	prof.Broad += t0.Sub(tb)
	// A split evaluation's parts leave the force test to Accept's kick
	// (finishSplitBad) when the flags that badKick takes below are met but
	// for the parts' own (chunkMom) and the night owls: if these then fail
	// it, forcesBad sums serially.
	s.termsLeft = split && kick && s.lazy && s.tClear && s.hooke && (s.rotSkip || s.rotFound)
	if split {
		// The parts make rim entries under a lock (rimEntry), not in a
		// table sized here: 8 bytes a body and wall, 38 MB at 10⁶ spheres
		// and 5 walls, that no part of a box whose spheres miss the rims
		// writes (spheres_rim_entry.go).
		if s.splitPairs == nil {
			s.splitPairs, s.splitSpheres, s.splitParts = s.evalPairs, s.evalSpheres, s.evalParts
		}
		s.dtEval = dt
		if s.partsOK && s.hooke && l.Shift == nil {
			s.forkCosted(costEvalParts, nChunks, s.splitParts)
			s.sumChunks()
			owls += s.sumTouchSlots()
		} else {
			if s.csrStale {
				s.csr.Build(l, len(s.idx))
				s.csrStale = false
			}
			l.PrepareSplit()
			s.forkCosted(costEvalPairs, nChunks, s.splitPairs)
			s.forkCosted(costEvalSpheres, nChunks, s.splitSpheres)
			s.sumChunks()
			owls += s.sumSlots()
		}
	} else {
		for c := range nChunks {
			s.chunkN[c], s.chunkE[c] = s.pairChunk(l, c, dt, true)
		}
		s.sumChunks()
		clear(s.wallForce)
		o, mom := s.evalSlots(0, 0, len(s.slots), dt, true) // sphere by sphere, each sphere's in wall order
		owls += o
		for c := range nChunks {
			s.chunkMom[c] = mom && c == 0
		}
	}
	// Overlap and law are one kernel per pair: Laws (Narrow stays 0).
	prof.Laws += time.Since(t0)
	// A wall slot's moment noted while the rotational array was absent
	// goes into the array, which comes back (spheres_rotnone.go).
	s.pendApply()
	// The trial moments are +0 if Drift cleared them and neither the pairs
	// (a law with moments: not Hooke) nor a wall slot added one.
	s.tZero = s.tClear && s.hooke
	for c := range nChunks {
		s.tZero = s.tZero && !s.chunkMom[c]
	}
	s.tClear = false
	if !s.tZero {
		s.rotStill = false // a moment: R changes (a rejected trial's Drift must not skip)
	}
	for _, k := range s.owl {
		if l.Touch[k] {
			owls++
		}
	}
	s.owl = s.owl[:0] // they are candidates from now on
	// Accept's kick under the rotational skip (finish's rotOff, the same
	// flags) sums the forces as forcesBad does: in sphere order on one
	// worker, by ranges when split (finishSplitBad).
	s.badKick = kick && owls == 0 && s.lazy && s.tZero && (s.rotSkip || s.rotFound)
	if !s.badKick {
		bad = s.forcesBad(split && !s.termsLeft)
	}
	return owls, bad
}

// finishSplitBad is forcesBad's answer after a split Accept's kick
// (finish, badKick): each range c summed its terms F.X + F.Y + F.Z from
// zero in sphere order (chunkFS[c]; T is +0 under the rotational skip).
// A sum that is finite had every term finite (a NaN or an infinity stays
// in a float sum, and so does an overflow). With all of them finite, each
// term is at most 2(|F|_max + 1) in magnitude, |F|²_max the largest of
// the species' maxima of |F|² that the kick kept (vmax2: every sphere
// under the skip; (|a| + |b| + |c|)(1 + ε)² ≤ √3|F|(1 + ε)², and |F|²
// rounded from below by at most 3ε relative and 3·2⁻¹⁰⁷⁴ absolute): below
// 2¹⁰²⁰/n every partial sum of the serial sum is finite, as forcesBad's
// split rule argues. Otherwise (a range's sum not finite: a term not
// finite or an overflow; or forces that large) the serial sum answers.
// The answer is forcesBad's whatever the ranges and workers.
func (s *Spheres) finishSplitBad() bool {
	fin := true
	for _, f := range s.chunkFS {
		fin = fin && f-f == 0
	}
	if fin {
		f2 := 0.0
		for _, m := range s.vmax2 {
			f2 = max(f2, m.F2) // no NaN: Keep skips one
		}
		if 2*(math.Sqrt(f2)+1)*float64(len(s.tr.L)) < 0x1p1020 {
			return false
		}
	}
	return s.forcesBad(false)
}

// forcesBad reports whether a force or moment of the trial state is not
// finite: whether the sum over the spheres, in sphere order, of F.X + F.Y +
// F.Z + T.X + T.Y + T.Z is not (a NaN or an infinity anywhere makes it NaN
// or infinite, and so does an overflow). After a split evaluation the parts
// have tested their spheres' terms (forceTerms): a term that is not finite
// makes the sum so, and terms all finite and below 2^1020/n in magnitude
// make every partial sum finite, so the serial sum is left for the rare
// remaining case; the answer is the sum's either way.
func (s *Spheres) forcesBad(split bool) bool {
	S, R := s.tr.L, s.tr.R
	if s.tZero {
		R = nil // every T is +0: a sum with its terms added is finite iff one without is
	}
	if split {
		big := 0.0
		for c := range nChunks {
			if !s.chunkFin[c] {
				return true
			}
			big = max(big, s.chunkBig[c])
		}
		if big*float64(len(S)) < 0x1p1020 {
			return false
		}
	}
	sum := 0.0
	if R == nil {
		for k := range S {
			st := &S[k]
			sum += st.F.X + st.F.Y + st.F.Z
		}
		return sum-sum != 0
	}
	R = R[:len(S)]
	for k := range S {
		st, ro := &S[k], &R[k]
		sum += st.F.X + st.F.Y + st.F.Z + ro.T.X + ro.T.Y + ro.T.Z
	}
	return sum-sum != 0
}

// forceTerms returns whether the terms F.X + F.Y + F.Z + T.X + T.Y + T.Z of
// the states s (forcesBad's) are all finite, and if so the largest
// magnitude; with s.R nil (every T +0: the same finiteness and magnitudes),
// of F.X + F.Y + F.Z.
func forceTerms(s sphere.States) (finite bool, big float64) {
	if s.R == nil {
		for k := range s.L {
			st := &s.L[k]
			t := st.F.X + st.F.Y + st.F.Z
			if t-t != 0 {
				return false, 0
			}
			if a := math.Abs(t); a > big { // max(big, a): both finite, ≥ 0 (no NaN, no −0 to order)
				big = a
			}
		}
		return true, big
	}
	S, R := s.L, s.R[:len(s.L)]
	for k := range S {
		st, ro := &S[k], &R[k]
		t := st.F.X + st.F.Y + st.F.Z + ro.T.X + ro.T.Y + ro.T.Z
		if t-t != 0 {
			return false, 0
		}
		if a := math.Abs(t); a > big {
			big = a
		}
	}
	return true, big
}

// sumChunks sets the evaluation's contact count and energy to those of the
// sphere pairs, chunk by chunk (the wall slots add theirs in slot order).
func (s *Spheres) sumChunks() {
	s.contacts, s.epot = 0, 0
	for c := range nChunks {
		s.contacts += s.chunkN[c]
		s.epot += s.chunkE[c]
	}
}

// minParallelSpheres is the smallest system evaluated by two workers.
const minParallelSpheres = 64

// splitSureSpheres is the smallest system SplitAuto splits at every step
// without measuring (as SplitAlways): a step of 2·10⁴ spheres or more lasts
// 0.3 ms and more, against a few µs of fork–join, and the measured choice
// there took one worker for many steps on a quiet machine — the first
// steps after a switch run cold (the states in the other core's cache)
// and the step's cost jumps at list builds and as the pile settles, so
// short probes misjudge it. Quiet machine, 10⁵ box `--time 0.05`, six
// alternating rounds: the measured choice 1.5–3.7 fork–joins a step and
// 1.02–1.62 s on two workers, every step split 3.89 and 0.95–1.14 s (one
// worker 1.64–2.12 s); 20 000 box `--time 0.1`: 1.33–1.58 s against
// 1.16–1.31 s (docs/performance.md, "Session 27: two workers — large
// worlds split at every step"). On a busy machine a split step costs
// little more than one on the caller: the caller claims the items the
// helper has not (crew.go), so an absent helper delays nothing but the
// join.
const splitSureSpheres = 20000

// pairChunk evaluates the laws of the pairs of chunk c.
func (s *Spheres) pairChunk(l *sphere.List, c int, dt float64, direct bool) (int, float64) {
	lo, hi := s.chunk[c], s.chunk[c+1]
	if s.hooke {
		p := &s.laws[s.lawOf[s.matOf(0)*int32(s.nmat)+s.matOf(0)]]
		return l.Hooke(&s.tr, lo, hi, p.Kn, p.LimitDamping, direct)
	}
	return l.Smooth(&s.tr, lo, hi, s.laws, s.specR, s.spec, dt, direct)
}

// evalPairs is the first pass of a split evaluation: the laws of the pairs
// of chunks [lo, hi), their forces stored per pair.
func (s *Spheres) evalPairs(_, lo, hi int) {
	l := &s.lists[s.cur]
	for c := lo; c < hi; c++ {
		s.chunkN[c], s.chunkE[c] = s.pairChunk(l, c, s.dtEval, false)
	}
}

// evalSpheres is the second pass of a split evaluation, once every pair
// is through: the spheres of ranges [lo, hi) of nChunks each gather their
// stored pair forces in pair order and add their walls.
func (s *Spheres) evalSpheres(_, lo, hi int) {
	l := &s.lists[s.cur]
	n, dt, tr := len(s.idx), s.dtEval, &s.tr
	for c := lo; c < hi; c++ {
		mom := false
		i := s.slotAt(c * n / nChunks) // sphere k's slots: i…j−1 (spheres_slots_at.go)
		for k := c * n / nChunks; k < (c+1)*n/nChunks; k++ {
			inc := s.csr.Inc[s.csr.Start[k]:s.csr.Start[k+1]]
			if s.hooke {
				tr.L[k].F, _ = l.Gather(inc, tr.L[k].F, geom.Vec3{}, false)
			} else {
				tr.L[k].F, tr.R[k].T = l.Gather(inc, tr.L[k].F, tr.R[k].T, true)
			}
			j := s.slotsEnd(i, k)
			_, m := s.evalSlots(c, i, j, dt, false)
			mom, i = mom || m, j
		}
		s.chunkMom[c] = mom
		if !s.termsLeft {
			s.chunkFin[c], s.chunkBig[c] = s.chunkTerms(c*n/nChunks, (c+1)*n/nChunks, mom)
		}
	}
}

// evalParts is a split evaluation by spheres, in one pass (frictionless
// Hooke on a list of rebuildParts): part q of [lo, hi) adds to each of its
// spheres (Spheres.parts) the forces of its pairs in pair order — the
// cross pairs from earlier parts' rows, then its own rows (List.HookePart)
// — and then its walls, so every sphere's sum is that of a direct
// evaluation; chunk q's contact count and energy are the part's. No force
// is stored per pair and no incidence table is built: the pairs that
// cross between parts (spheres close on the Morton curve share parts) are
// evaluated twice, once for each sphere's part.
func (s *Spheres) evalParts(_, lo, hi int) {
	l := &s.lists[s.cur]
	p := &s.laws[s.lawOf[s.matOf(0)*int32(s.nmat)+s.matOf(0)]]
	for q := lo; q < hi; q++ {
		var cross [nChunks][]int32
		for r := 0; r <= q; r++ {
			cross[r] = s.rb.part[r].cross[q]
		}
		s.chunkN[q], s.chunkE[q] = l.HookePart(&s.tr, cross[:q+1], s.parts[q], s.parts[q+1],
			s.partAt[q], s.partAt[q+1], s.chunk[q], s.chunk[q+1], p.Kn, p.LimitDamping)
		a, b := s.slotAt(int(s.parts[q])), s.slotAt(int(s.parts[q+1]))
		_, mom := s.evalSlots(q, a, b, s.dtEval, false)
		s.chunkMom[q] = mom
		ts := s.touchSlots[q][:0]
		for i := a; i < b; i++ {
			if s.slots[i].touch {
				ts = append(ts, int32(i))
			}
		}
		s.touchSlots[q] = ts
		if !s.termsLeft {
			s.chunkFin[q], s.chunkBig[q] = s.chunkTerms(int(s.parts[q]), int(s.parts[q+1]), mom)
		}
	}
}

// termStates is the trial states of spheres lo…hi−1 for forceTerms: without
// R when their moments are known +0 (Drift cleared them, the pairs' law
// adds none and mom, the range's walls did not).
func (s *Spheres) termStates(lo, hi int, mom bool) sphere.States {
	st := s.tr.Slice(lo, hi)
	if s.tClear && s.hooke && !mom {
		st.R = nil
	}
	return st
}

// evalSlots evaluates wall slots [lo, hi) and adds their forces and moments
// to their spheres (of chunk c: a worker's range, whose note of moments
// pendRot keeps while the rotational array is absent). With sum (all slots, in order, after sumChunks), it
// also does sumSlots' work slot by slot and returns the night-owl contacts.
// mom reports whether a slot left its sphere's moment not +0 (the general
// facet and rim contacts add moments, rounding ones even without friction;
// the fast paths add none and do not read it: with the moments +0 before
// the slots, as Drift leaves them when the only reader, tZero and
// termStates, looks, the answer is exact).
func (s *Spheres) evalSlots(c, lo, hi int, dt float64, sum bool) (owls int, mom bool) {
	slots, S, R := s.slots[lo:hi], s.tr.L, s.specR // the radius by species (Session 27)
	fast := !s.w.Periodic.On()
	for i := 0; i < len(slots); i++ {
		if fast {
			// The slots off their plane, up to the next that is not
			// (offPlane: this loop's first case, in a loop of its own).
			if i = s.offPlane(slots, i); i == len(slots) {
				break
			}
		}
		sl := &slots[i]
		st := &S[sl.k]
		pl := &s.planes[sl.wall]
		r := R[sl.spec]
		d := st.X.Sub(pl.P).Dot(pl.N) // signed distance of the centre from the plane
		// With fast, d < r or d is not a number here: offPlane took every
		// slot off its plane (d ≥ r: only the candidate test) up to this one.
		if !(fast && sl.deep && sl.simple && pl.still && sl.seen && -r < d && d < r && (d >= 0 || sl.pTouch)) {
			var ro *sphere.Rot
			if s.tr.R != nil {
				ro = &s.tr.R[sl.k]
			} else {
				ro = s.pendRot(c, sl.k) // chunk c's note (spheres_rotnone.go)
			}
			s.evalSlot(sl, st, ro, pl, r, d, dt)
			mom = mom || nonZeroBits(ro.T)
			if sum && sl.touch {
				owls += s.sumSlot(sl)
			}
			continue
		}
		// The closed-form facet contact (narrowSmoothWall, S2 §2.2 geometry)
		// of frictionless Hooke on a resting wall: a central force; the
		// normal speed is the sphere's (ω adds nothing along the radius).
		// Within a radius of the plane and over the wall, the sphere's box
		// meets the wall's: a candidate.
		ov := -(d - r)
		vn := st.V.Dot(pl.N)
		fn := sl.kn*ov - sl.damp*vn // S2 eq. (20), law.Smooth.Normal (v_n = ġ_n)
		if sl.limit && fn < 0 {
			fn = 0 // limit_damping
		}
		fs := roundedScale(pl.N, fn)
		st.F = st.F.Add(fs)
		sl.cand, sl.touch, sl.rim, sl.owl = true, true, false, false
		sl.delta, sl.fn, sl.epot, sl.f = ov, fn, float64(0.5*sl.kn*ov*ov), fs // S2 eq. (27)
		if sum {
			s.wallForce[sl.wall] = s.wallForce[sl.wall].Add(fs)
			s.epot += sl.epot
			s.contacts++
		}
	}
	return owls, mom
}

// offPlane is evalSlots' first case — a slot off its plane (d ≥ r) in a
// world without periodic axes: the candidate test only — for slots[i:]
// until one is not off its plane, whose index it returns (len(slots) if
// none). Off the plane (d ≥ r, never behind it) evalSlot reaches neither
// the facet nor its rim, whatever the wall, the law or the history: only
// the candidate test, and nothing is added to the moment (mom). The same
// expressions in the same order as evalSlots' loop had for this case; in a
// loop of its own, the compiler keeps its values in registers (in
// evalSlots' loop, with the contact paths beside it, it spilled and
// reloaded them at every slot).
func (s *Spheres) offPlane(slots []wallSlot, i int) int {
	S, R, planes := s.tr.L, s.specR, s.planes // the radius by species (Session 27)
	for ; i < len(slots); i++ {
		sl := &slots[i]
		st := &S[sl.k]
		pl := &planes[sl.wall]
		r := R[sl.spec]
		d := st.X.Sub(pl.P).Dot(pl.N) // signed distance of the centre from the plane
		if !(d >= r) {
			return i
		}
		if s.slotCandidate(sl, st.X, pl, r) && !sl.seen {
			s.see(sl)
		}
	}
	return i
}

// slotCandidate is the start of evalSlot's general case: no contact yet,
// and the pair is a candidate (the result) when the sphere's box (centre
// x, radius r; smoothBox) meets the wall's candidate box (AABB.Overlaps);
// the caller sees a candidate not seen yet. With that, it is all of
// evalSlot for a world without periodic axes when the centre is at d ≥ r
// from the plane: neither the facet nor its rim (in the plane) is reached.
// Small enough to inline.
func (s *Spheres) slotCandidate(sl *wallSlot, x geom.Vec3, pl *plane, r float64) bool {
	sl.touch, sl.rim, sl.owl = false, false, false
	b := &pl.box
	sl.cand = x.X-r <= b.Max.X && b.Min.X <= x.X+r && x.Y-r <= b.Max.Y && b.Min.Y <= x.Y+r &&
		x.Z-r <= b.Max.Z && b.Min.Z <= x.Z+r
	return sl.cand
}

// evalSlot evaluates a wall slot (the general case of evalSlots): sl of
// sphere state st, ro at distance d from the plane of pl.
func (s *Spheres) evalSlot(sl *wallSlot, st *sphere.Lin, ro *sphere.Rot, pl *plane, r, d, dt float64) {
	w := s.w
	k := int(sl.k)
	x := st.X
	// A wall is one-sided (narrowSmoothWall): a sphere whose centre is behind
	// the plane is pushed back out only if it touched the wall at the last
	// accepted step; one first seen behind it touches at most the rim.
	back := d < 0 && !(sl.pTouch || sl.pRim && len(sl.e.prev) > 0)
	if sl.deep && -r < d && d < r && !back && !w.Periodic.On() {
		// The closed-form facet contact; a candidate (see evalSlots).
		sl.cand, sl.rim, sl.owl = true, false, false
		if !sl.seen {
			s.see(sl)
		}
		s.facet(sl, pl, k, x.AddScaled(-r, pl.N), x.AddScaled(-d, pl.N), pl.N, d-r, dt, &st.F, ro)
		return
	}
	if !s.slotCandidate(sl, x, pl, r) {
		return
	}
	if !sl.seen {
		s.see(sl)
	}
	f := &st.F
	if !w.Periodic.On() {
		if !(d < r) {
			return // neither the facet nor its rim is reached
		}
		foot := x.AddScaled(-d, pl.N)
		if !back && (sl.deep || onSurface(pl.body, foot)) {
			s.facet(sl, pl, k, x.AddScaled(-r, pl.N), foot, pl.N, d-r, dt, f, ro)
		} else {
			s.rim(sl, pl, k, dt, f, ro)
		}
		return
	}
	if back {
		return
	}
	// Periodic worlds: the analytic plane contact, kept where its point
	// lies on the wall or on its periodic image (narrowSmoothWall).
	ov, nn, _, _ := sphere.SpherePlane(x, r, pl.P, pl.N)
	if !(-ov < 0) {
		return
	}
	pa := x.AddScaled(-r, nn)
	pw := pa.AddScaled(ov, nn)
	if sl.deep || onSurface(pl.body, pw) || onSurface(pl.body, w.Periodic.wrap(pw)) {
		s.facet(sl, pl, k, pa, pw, nn, -ov, dt, f, ro)
	}
}

// see marks a slot's pair as a candidate for the first time: a night-owl
// candidate after the first step (stageDetect creates its entry now).
func (s *Spheres) see(sl *wallSlot) {
	sl.seen = true
	s.setSeen(int(sl.wall), int(sl.k))
	sl.owl = s.w.Steps > 0
}

// facet evaluates the contact of sphere k with the facet of a planar wall:
// pp on the sphere, ps on the wall, n the unit normal from the wall to the
// sphere, gap < 0. The law and the sums follow lawsSmooth and
// accumulateContacts with the pair's bodies in index order: the force added
// to *f, the moment to ro.T (ro the sphere's trial rotational state, whose
// ω the law reads).
func (s *Spheres) facet(sl *wallSlot, pl *plane, k int, pp, ps, n geom.Vec3, gap, dt float64, f *geom.Vec3, ro *sphere.Rot) {
	tr := &s.tr
	t := &ro.T
	p := &s.laws[sl.law]
	ov := -gap
	sl.touch, sl.delta = true, ov
	m := s.specs[s.spec[k]].mass // law.EquivalentMass with a wall
	if sl.simple && pl.still {
		vn := tr.L[k].V.Dot(n)
		fn := sl.kn*ov - sl.damp*vn // S2 eq. (20), law.Smooth.Normal (v_n = ġ_n)
		if sl.limit && fn < 0 {
			fn = 0 // limit_damping
		}
		fs := roundedScale(n, fn)
		*f = f.Add(fs)
		sl.fn, sl.epot, sl.f = fn, float64(0.5*sl.kn*ov*ov), fs // S2 eq. (27)
		return
	}
	h := s.facetHistory(sl)
	x, v, om := tr.L[k].X, tr.L[k].V, ro.W
	wb := pl.body
	var c sphere.ContactForce
	var fa, pt geom.Vec3
	if sl.swap { // the wall is A
		nA := n.Neg()
		pt = geom.Lerp(ps, pp, 0.5)
		c = sphere.EvalSmooth(p, nA, pt, wb.X, x, wb.V, v, wb.W, om, ov, m, inf, s.rOf(k), dt, &h)
		fa = nA.Scale(c.Fn).Add(c.Ft)
		*f = f.Sub(fa)
		*t = t.Sub(pt.Sub(x).Cross(fa)).Sub(c.M)
		sl.f = fa.Neg()
	} else {
		pt = geom.Lerp(pp, ps, 0.5)
		c = sphere.EvalSmooth(p, n, pt, x, wb.X, v, wb.V, om, wb.W, ov, m, s.rOf(k), inf, dt, &h)
		fa = n.Scale(c.Fn).Add(c.Ft)
		*f = f.Add(fa)
		*t = t.Add(pt.Sub(x).Cross(fa)).Add(c.M)
		sl.f = fa
	}
	sl.fn, sl.epot = c.Fn, c.Epot
	if sl.pHist != noHist {
		sl.hist = sl.pHist ^ 1 // the slot's entry that is not the accepted one
		s.hists[sl.hist] = slotHist{ft: c.Ft, m: c.M, h: h}
	}
}

// facetHistory returns the friction history of a slot's facet contact from
// the last accepted step (generic orientation).
func (s *Spheres) facetHistory(sl *wallSlot) law.FrictionState {
	switch {
	case sl.pTouch:
		return s.histOf(sl.pHist)
	case sl.pRim:
		for i := range sl.e.prev {
			if c := &sl.e.prev[i]; c.FA == 0 && c.FB == 0 {
				return c.Fric
			}
		}
	}
	return law.FrictionState{}
}

// rim evaluates the contacts of sphere k with the rim (edges and corners) of
// a finite planar wall, when the centre's foot is off the wall: the generic
// sq.Surface contacts of narrowSmoothSurface on the slot's pair entry, with
// the sphere at its trial state (ro its rotational state: ω and q read, the
// moments added to ro.T).
func (s *Spheres) rim(sl *wallSlot, pl *plane, k int, dt float64, f *geom.Vec3, ro *sphere.Rot) {
	w := s.w
	tr := &s.tr
	t := &ro.T
	if sl.e == nil {
		sl.e = s.rimEntry(int(sl.wall), int(s.idx[k]))
	}
	e := sl.e
	if !sl.pRim {
		e.prev = e.prev[:0]
		if sl.pTouch {
			c := smoothContact(0, 0, geom.Vec3{}, geom.Vec3{}, geom.Vec3{}, 0)
			c.Fric = s.histOf(sl.pHist)
			e.prev = append(e.prev, c)
		}
	}
	var sc virtScratch
	sb := *s.bodyAt(k, &sc) // the sphere at its trial state
	st := &tr.L[k]
	sb.X, sb.V, sb.W, sb.Q = st.X, st.V, ro.W, ro.Q
	var a, b *body.Body = &sb, pl.body
	if sl.swap {
		a, b = b, a
	}
	e.cur = e.cur[:0]
	w.narrowSmoothSurface(e, a, b)
	w.matchSmooth(e)
	w.lawsSmooth(e, a, b, w.Params(a.Material, b.Material), dt)
	x := sb.X
	for i := range e.cur {
		c := &e.cur[i]
		fa := c.N.Scale(c.Fn).Add(c.Ft) // on A
		pt := c.Point()
		if sl.swap {
			*f = f.Sub(fa)
			*t = t.Sub(pt.Sub(x).Cross(fa)).Sub(c.M)
		} else {
			*f = f.Add(fa)
			*t = t.Add(pt.Sub(x).Cross(fa)).Add(c.M)
		}
	}
	sl.rim, sl.touch = true, len(e.cur) > 0
}

// sumSlots adds the wall contacts to the counts and energies of the
// evaluation and sums the wall forces, slot by slot (each wall's in sphere
// order, as accumulateContacts). It returns the night-owl contacts.
func (s *Spheres) sumSlots() (owls int) {
	clear(s.wallForce)
	for i := range s.slots {
		if sl := &s.slots[i]; sl.touch {
			owls += s.sumSlot(sl)
		}
	}
	return owls
}

// sumTouchSlots is sumSlots after evalParts, over the touching slots the
// parts listed (in slot order: the parts are ranges of spheres), not every
// slot.
func (s *Spheres) sumTouchSlots() (owls int) {
	clear(s.wallForce)
	for q := range s.touchSlots {
		for _, i := range s.touchSlots[q] {
			owls += s.sumSlot(&s.slots[i])
		}
	}
	return owls
}

// sumSlot is sumSlots' work for one touching slot.
func (s *Spheres) sumSlot(sl *wallSlot) (owls int) {
	if sl.rim {
		for j := range sl.e.cur {
			c := &sl.e.cur[j]
			fa := c.N.Scale(c.Fn).Add(c.Ft)
			if sl.swap {
				s.wallForce[sl.wall] = s.wallForce[sl.wall].Sub(fa)
			} else {
				s.wallForce[sl.wall] = s.wallForce[sl.wall].Add(fa)
			}
			s.epot += c.Epot
		}
		s.contacts += len(sl.e.cur)
		if sl.owl {
			owls += len(sl.e.cur)
		}
		return owls
	}
	s.wallForce[sl.wall] = s.wallForce[sl.wall].Add(sl.f)
	s.epot += sl.epot
	s.contacts++
	if sl.owl {
		owls++
	}
	return owls
}

// wallEntry returns the generic pair entry of wall wi and body i, created
// when missing.
func (w *World) wallEntry(wi, i int) *pairEntry {
	w.sizeWallPairs()
	e := w.wallPair[wi][i]
	if e == nil {
		a, b := int32(i), int32(w.Walls[wi].Body)
		if a > b {
			a, b = b, a
		}
		e = &pairEntry{A: a, B: b, smooth: true}
		w.wallPair[wi][i] = e
	}
	return e
}

// sizeWallPairs sizes the wall-pair entries' table to the world's walls and
// bodies. During a split evaluation only rimEntry calls it, under its lock
// (spheres_rim_entry.go): parts making entries at once never make the table
// twice.
func (w *World) sizeWallPairs() {
	if len(w.wallPair) != len(w.Walls) {
		w.wallPair = make([][]*pairEntry, len(w.Walls))
	}
	for wi := range w.wallPair {
		if len(w.wallPair[wi]) != w.NumBodies() {
			w.wallPair[wi] = make([]*pairEntry, w.NumBodies())
		}
	}
}

// The sphere path's parallel work (the split evaluation, Drift and Accept
// on large systems, a list rebuild beside the wall slots) and the measured
// choice of splitting an evaluation.

// fork runs job(worker, lo, hi) over the parts [0, n) on the World's crew
// (crew.go: crewPass), one part per batch: a part runs on whichever worker
// claims it (the caller does every part no helper has started), so each
// part keeps its results in its own slots and the bits do not depend on
// the workers. The claims are two-ended (a guided job whose guide, n,
// keeps every claim at one part): the caller takes the parts from the
// front, the helpers from the back, so that from pass to pass — Drift's
// ranges, the evaluation's parts, Accept's ranges, the rebuild's — each
// core runs the same spheres and finds their states in its own cache.
// Claimed from one counter in order (session 16), a range of spheres went
// to either core at random at every pass, and the other core's writes had
// to cross over (with two workers; with more, the helpers interleave from
// the back). No gain was measured on a quiet machine (docs/performance.md,
// "Session 17: two workers"); it costs nothing. job is made once
// (no allocation per step). Its wall time counts in Profile.Parallel (the
// bench's serial share), as runPass's does; a fork inside a part runs
// inline on that part's worker and counts nowhere (Profile is the
// caller's alone: a helper updating it would race).
func (s *Spheres) fork(n int, job func(worker, lo, hi int)) {
	if _, ok := s.w.nested(); ok { // inside a part: inline, untimed (runPass's rule)
		s.w.crewPass(n, max(s.w.Settings.Workers, 1), 1, max(n, 1), job)
		return
	}
	t0 := time.Now()
	s.w.crewPass(n, max(s.w.Settings.Workers, 1), 1, max(n, 1), job)
	s.w.Stats.Profile.Parallel += time.Since(t0)
}

// SplitMode says how the sphere path uses two workers (Settings.Workers > 1):
// its evaluations on one worker and on two give the same bits, so the choice
// is about time only.
type SplitMode uint8

// The split modes.
const (
	// SplitAuto splits an evaluation when that has measured faster: a step
	// of a small system lasts microseconds, and on a shared machine the two
	// workers rarely run at once.
	SplitAuto SplitMode = iota
	SplitNever
	SplitAlways
)

// splitRound is the sphere path's choice for one step: Drift's pass, the
// evaluation (and a list rebuild within it) and Accept's pass are all split
// or all on the caller, and SplitAuto times the whole step. Chosen for the
// evaluation alone while Drift and Accept split whenever two workers
// could (session 17), an evaluation on the caller wrote every sphere's
// force between two passes that ran half the spheres on the helper: half
// the states crossed cores twice a step, and the choice did not see it
// (docs/performance.md, "Session 17: two workers", "Round two").
type splitRound struct {
	open   bool      // Drift or a start's evaluation began it; Accept ends it
	split  bool      // the choice
	evals  int       // evaluations in it (rejected trials: more than one)
	builds int       // the Verlet list's builds at its beginning
	scans  int       // inner list selections in it (relSelect's passes, selectLoose): not counted
	work   int       // the evaluation's listed pairs and wall slots
	t0     time.Time // its beginning
}

// beginRound opens the step's round unless one is open (the trials after a
// rejection stay in the step's) and returns its choice.
func (s *Spheres) beginRound() bool {
	r := &s.round
	if !r.open {
		w := s.w
		*r = splitRound{open: true, builds: w.verlet.Builds(), t0: time.Now()}
		mode := w.Settings.SphereSplit
		if mode == SplitAuto && len(s.idx) >= splitSureSpheres {
			mode = SplitAlways
		}
		r.split = s.choice.pick(w.Settings.Workers > 1 && len(s.idx) >= minParallelSpheres, mode)
	}
	return r.split
}

// endRound closes the round (Accept) and gives its wall time to the
// choice: only a round of one evaluation without a list rebuild or an
// inner list selection, so that the two ways' figures compare steps of the
// same work (a rejected trial would count twice; a rebuild, ~5× a step on
// the 10⁵ box every ~12 steps, weighed 1/8 in the average of the way in
// use and rarely fell in the other's probes, so the way in use looked the
// slower after each one; a selection, a scan of the list, often comes in
// the step after a rebuild: 2–5× a plain step).
func (s *Spheres) endRound() {
	r := &s.round
	if r.open {
		d, counted := time.Since(r.t0), r.evals == 1 && s.w.verlet.Builds() == r.builds && r.scans == 0
		s.choice.record(r.split, d, r.work, counted)
		if crewTracing {
			traceChoice(&s.choice, r.split, int64(d), r.work, counted)
		}
	}
	r.open = false
}

// roundedScale is v.Scale(s) with each product rounded to float64.
//
// Fused multiply-adds: the Go spec lets the compiler fuse x*y + z into one
// FMA, rounded once (GOAMD64=v3, arm64, …), and an explicit conversion
// float64(x*y) forbids it. A value that is both added where it is made and
// stored to be summed elsewhere (a wall slot's force and energy: on the
// sphere at once, into the wall's sum now or later by sumSlot) must be
// rounded before either sum, or one worker (evalSlots summing) and several
// (sumTouchSlots) would differ in their last bits. On amd64 v1 the
// conversions change nothing.
func roundedScale(v geom.Vec3, s float64) geom.Vec3 {
	return geom.Vec3{X: float64(v.X * s), Y: float64(v.Y * s), Z: float64(v.Z * s)}
}
