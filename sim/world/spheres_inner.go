package world

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// innerUpdate sets the inner list of l (sphere.Inner: the pairs that can
// be within their cut-off, an ordered subsequence of the list) for the
// evaluation after a Drift whose list test was test. It is on only when
// that Drift kept the list, so that its bound D on |x_I − ref_I| + |x_J −
// ref_J| is known (test.pair: √D1 + √D2, or twice dispBound's bound), on a
// Hookean list without periodic images; the kernels then scan its pairs
// only, with the same results (the same pairs within the cut-off, in the
// same order). A level (sphere.Inner.Level: D ≤ t·Δ, Δ = skin/8) is
// selected when the pairs held no longer hold for D (sphere.Inner.Holds:
// D past the level held and, one class, past the smallest gap of the
// pairs left out) — a scan of the whole list on the reference centres,
// about the cost of a step's scan — only when D's last
// growth says it will hold for innerMinSteps steps; a level that holds
// more than a quarter of the list gives the inner list up until the next
// build
// (the falling box's lattice neighbours all lie at one gap: once D reaches
// it, every pair can touch). Otherwise the kernels scan the whole list.
func (s *Spheres) innerUpdate(l *sphere.List, test driftTest) {
	in := &l.Inner
	in.On = false
	if !innerOn || !test.keep || !s.hooke || l.Shift != nil || s.w.Periodic.On() || len(l.P) == 0 {
		in.Rel = false
		return
	}
	ref := s.w.verlet.Ref()
	if len(ref) != len(s.tr.L) || in.Dead {
		in.Rel = false
		return
	}
	d, prev := test.pair, in.Prev
	in.Prev = d
	in.Delta = s.skin / sphere.InnerLevels
	// The moving frame's bound E (relSelect) while it holds: the selection
	// holds for the smaller of D and E (a SelectLoose selection holds the
	// pairs of Select's for the same level, and more).
	in.Rel = in.Rel && !s.relTouched(l)
	e := d
	if in.Rel {
		e = min(d, in.E0+2*in.Grow)
	}
	if in.Holds(l, e) {
		in.On = true
		return
	}
	in.Rel = false
	if innerRelOn && s.relSelect(l, ref) {
		return
	}
	t := in.Level(d)
	if t < 0 {
		return
	}
	// A new level: worth its scan if D, growing as in the last step,
	// stays within it for innerMinSteps steps (D at rest: always).
	if grow := d - prev; grow > 0 && float64(t)*in.Delta-d < innerMinSteps*grow {
		return
	}
	if !s.selectLoose(nil, l, ref, nil, t, len(l.P)/innerMaxShare) {
		in.Dead = true
	}
}

// innerMaxShare: a level that holds more than 1/innerMaxShare of the list
// gives the inner list up until the next build (its scan stops there: the
// inner list's buffers hold at most that share, 12 bytes a pair).
const innerMaxShare = 4

// innerMinSteps is the number of steps a new level must be expected to
// hold for its selection (a scan of the list) to be made.
const innerMinSteps = 2

// innerOn turns the inner list on (tests turn it off to compare).
var innerOn = true

// innerRelOn turns the moving frame on (tests turn it off to compare).
var innerRelOn = true

// The moving frame (sphere.SelectLoose; docs/performance.md, "Session 23:
// the inner list in the falling frame"). On a falling box D grows with the
// fall although neighbours keep their distances, and the inner list is
// given up a few steps after each build. For any common vector c,
// |x_I − x_J| ≥ r_IJ − (|d_I − c| + |d_J − c|), d = x − ref: relSelect
// takes c and a reference speed v_c from the spheres' mean displacement
// and velocity, makes the spheres that move away from that frame (or that
// carry a contact or come near a wall, and their list neighbours) loose —
// their pairs always inner — and the tight spheres' E0 = RelBound (their
// two largest |d − c|) the bound of the selection's level. From step to
// step E0 + 2·Grow bounds the tight spheres' |d_I − c| + |d_J − c| with
// no pass over the spheres, as long as none of them meets anything:
//
//   - a sphere whose force is its weight W_s (no touching pair, no wall
//     slot within its radius: the only other forces of the sphere path)
//     has its velocity changed by (h + h')·W_s/m_s a step, the same for
//     every such sphere up to rounding (W_s/m_s is g to 2ε); so, with the
//     exact reference motion c_k = c0 + Σ dt_j·v_c,j, v_c,j = v_c +
//     Σ (h + h')·g, each tight sphere's |v − v_c| stays within U (at the
//     selection the largest computed |v_{1/2} − v_c| of the tight spheres,
//     × (1 + 2⁻³⁰): one rounding a component) plus a per-step 2⁻⁴⁹(u +
//     (h + h_last)·a) (the two kicks' roundings, ≤ 3ε each of |v| and
//     h·a, and the species' 4ε|g|(h + h_last); u ≥ |v_{1/2}| and a ≥ |F|/m,
//     |g| from Accept's species maxima as dispBound takes them: rotStill);
//   - its |d − c| then grows by at most dt·U + 2⁻⁵⁰(dt·u + XMax) a step
//     (the drift's x + dt·v rounds to ε(dt|v| + |x|) a component; XMax ≥
//     every |coordinate|: the reference's largest plus twice the skin, as
//     the list is kept), summed into Grow with a relative 2⁻³⁰;
//   - relTouched checks, before each use, that no tight sphere touched a
//     sphere in the last accepted evaluation (the inner pairs' PrevTouch:
//     the pairs left out cannot touch) and that none is within a wall's
//     reach in this one (relWalls; the selection makes the spheres near a
//     wall loose), so every evaluation since the selection (its own
//     included) left the tight spheres' forces their weights;
//   - the chain of steps is one of Drift → Evaluate → Accept with lazy
//     bodies, nothing turning (rotStill), the accepted state fresh
//     (relStep: Drift's trAcc, so no rejected trial since, no read of the
//     bodies, no live edit without SyncBodies) and no wall switched
//     (wallStale: the slots are rebuilt): otherwise Rel is dropped, and a
//     list rebuild drops it (Inner.Off). A restart or a start has no
//     Drift that kept the list (test.keep): no selection.
//
// The selection then holds the pairs within the cut-off while E0 + 2·Grow
// (or D, whichever is smaller) stays at its level (sphere.Inner.Holds), by
// SelectLoose's argument. The Verlet list's rebuild test is not touched:
// the same rebuilds, the same pairs within the cut-off, the same bits.

// relSelect selects the inner list of l in the moving frame (SelectLoose)
// at the current trial state, and reports whether it did (false: Rel and
// On off, the caller's absolute selection next).
func (s *Spheres) relSelect(l *sphere.List, ref []geom.Vec3) bool {
	in := &l.Inner
	dt := s.dtDrift
	x, tr, acc := s.tr.X, s.tr.L, s.acc.L
	n := len(x)
	if in.RelDead || !s.rotSkip || !s.lazy || n < relMin || !(dt > 0) || len(acc) != n {
		return false
	}
	in.RelDead = true  // unless it succeeds: once a list
	if s.relWait > 0 { // backing off after failed selections (relFail)
		s.relWait--
		return false
	}
	s.round.scans++ // the passes below: a step SplitAuto does not count
	// The frame: the mean displacement and velocity of the spheres whose
	// force is their weight (falling freely: the candidates for tight; any
	// c is sound, and a mean over every sphere is pulled off the free fall
	// once a bed forms, which left every sphere loose: the falling 10⁵ box
	// from step ≈ 245 on, a selection wasted at every rebuild). Fewer than
	// half of them: no frame for this list.
	// The sums by relParts ranges, joined in range order (relJob.mean):
	// the same c0 and v_c for any worker count.
	j := s.relJobOf(l)
	j.x, j.ref = x, ref
	c0, vc, free := j.mean()
	if 2*free < n {
		return false
	}
	c0, vc = c0.Scale(1/float64(free)), vc.Scale(1/float64(free))
	if relFrameShift != nil { // review r1 (tests only): any c, any v_c
		c0, vc = relFrameShift(c0, vc, in.Delta, dt)
	}
	if len(in.Loose) != n {
		in.Loose = make([]bool, n)
	}
	loose := in.Loose
	lim2 := in.Delta * in.Delta / 16                // |d − c| beyond Δ/4
	vlim2 := lim2 / (relAhead * relAhead * dt * dt) // |v − v_c| that would travel Δ/4 in relAhead steps
	// With the marks, the relTop largest e and w of the spheres left tight
	// so far (a superset of the tight set), each with a sphere that has it:
	// e as RelDisplaced computes it, w as the pass over the tight spheres
	// below computes it. A sphere of that set outside a top list has a
	// value no larger than the list's smallest (the lists take a value
	// above their smallest only, and their smallest only grows), so if at
	// least two spheres of the e list and one of the w list are still
	// tight after the marks below, the two largest e of the tight set (as
	// a multiset: RelDisplaced's e1 ≥ e2) and its largest w are the
	// largest of those still tight in the lists, and that pass is not
	// needed. Tight so far, e ≤ lim2 and w ≤ vlim2: both are numbers
	// (RelDisplaced's finite holds).
	j.c0, j.vc, j.lim2, j.vlim2, j.loose = c0, vc, lim2, vlim2, loose
	te, tw := j.marks() // in ranges (spheres_inner_split.go)
	// Near a wall (within Δ/4 of its reach, or coming to it within
	// relAhead steps); the walls must all be still (relWalls' test).
	// This rule is needed for soundness, not only for speed: relWalls does
	// not run on the selection's own evaluation, so it is what keeps a tight
	// sphere from a wall force there. The other rules (the displacement and
	// speed in the frame above, the list neighbours below) are heuristics:
	// any loose set is sound, they only keep reselections rare.
	for i := range s.planes {
		if !s.planes[i].still {
			return false
		}
	}
	for i := range s.slots {
		sl := &s.slots[i]
		pl, st := &s.planes[sl.wall], &tr[sl.k]
		d := st.X.Sub(pl.P).Dot(pl.N)
		if !(d >= s.specR[sl.spec]+in.Delta/4+relAhead*dt*max(0, -st.V.Dot(pl.N))) {
			loose[sl.k] = true
		}
	}
	// Their list neighbours too (the next to be met): marked after the scan.
	// The pairs with a loose sphere all go into the inner list: more than
	// SelectLoose's limit of them already (the neighbours only add) and it
	// would fail — given up here, before its scan.
	limit, withLoose := len(l.P)/innerMaxShare, j.neighbourPass()
	if relSplitCheck != nil {
		relSplitCheck(j, te, tw, withLoose)
	}
	if withLoose > limit {
		s.relFail()
		return false
	}
	j.markGrown()
	// The wall slots of the tight spheres, which relWalls watches.
	in.Watch = in.Watch[:0]
	for i := range s.slots {
		if !loose[s.slots[i].k] {
			in.Watch = append(in.Watch, int32(i))
		}
	}
	e1, e2, n1 := te.first2(loose)
	u2, _, n2 := tw.first2(loose)
	finite := true
	full := n1 < 2 || n2 < 1
	if full || relTopCheck {
		te1, te2, tu2 := e1, e2, u2
		if full && relTopCheck {
			relFull++
		}
		e1, e2, finite, u2 = j.tightPass()
		if !full {
			relTopChecked++
			if te1 != e1 || te2 != e2 || tu2 != u2 || !finite {
				relTopBad++
			}
		}
	}
	c := math.Inf(1)
	for k := range l.Class {
		c = min(c, math.Sqrt(l.Class[k].Cut2))
	}
	e0 := sphere.RelBound(e1, e2, 2*s.skin, c)
	u := math.Sqrt(u2) * (1 + 0x1p-30)
	if !finite || !(u <= math.MaxFloat64) {
		return false
	}
	t := in.Level(e0 + 2*innerMinSteps*dt*u)
	if t < 0 {
		return false
	}
	// The watch per wall (relWalls), from the frame at rest at the
	// selection: C = EC = Grow = 0.
	in.XMax, in.Grow = s.refMax(ref)+2*s.skin, 0
	if !s.relWallsInit(in, vc) {
		return false
	}
	if !s.selectLoose(j, l, ref, loose, t, limit) {
		s.relFail()
		return false
	}
	// The inner pairs with a tight sphere, which relTouched watches.
	in.WatchK = in.WatchK[:0]
	for j, k := range in.K {
		if p := &in.P[j]; !loose[p.I] || !loose[p.J] {
			in.WatchK = append(in.WatchK, k)
		}
	}
	in.RelDead = false
	s.relBack = 0
	in.Rel, in.E0, in.U, in.Grow, in.LastH = true, e0, u, 0, 0.5*dt
	in.RelSelects++
	return true
}

// relFrameShift (review r1, tests only) replaces the frame's c0 and v_c.
var relFrameShift func(c0, vc geom.Vec3, delta, dt float64) (geom.Vec3, geom.Vec3)

// relFail notes a selection that failed on SelectLoose's limit (the
// loose spheres' pairs are more than a quarter of the list: a bed has
// formed): the next 1, 2, 4, … up to 16 lists make none (a success
// resets it). Which lists select changes what is scanned only, never the
// pairs within the cut-off.
func (s *Spheres) relFail() {
	s.relBack = min(max(2*s.relBack, 1), 16)
	s.relWait = s.relBack
}

// relTopN is the length of relSelect's top lists (relTop).
const relTopN = 8

// relTop is a list of the relTopN largest values added (v, descending;
// 0 and index −1 where fewer were added above 0) and a sphere index
// with each.
type relTop struct {
	v [relTopN]float64
	i [relTopN]int
}

// add puts e of sphere i in the list; e > the list's smallest.
func (t *relTop) add(e float64, i int) {
	k := relTopN - 1
	for ; k > 0 && e > t.v[k-1]; k-- {
		t.v[k], t.i[k] = t.v[k-1], t.i[k-1]
	}
	t.v[k], t.i[k] = e, i+1 // stored +1: the zero value is "none"
}

// first2 returns the two largest values of the list whose spheres are not
// loose, and how many of those there are (up to two). Entries without a
// sphere (value 0) do not count.
func (t *relTop) first2(loose []bool) (a, b float64, n int) {
	for k := range t.v {
		if i := t.i[k]; i > 0 && !loose[i-1] {
			if n == 0 {
				a = t.v[k]
			} else {
				return a, t.v[k], 2
			}
			n++
		}
	}
	return a, 0, n
}

// With relTopCheck (tests; never set otherwise, so that worlds stepped
// side by side share no counter), the pass over the tight spheres runs at
// every selection, relFull counts the selections that needed it and
// relTopBad those whose top lists gave other values, of relTopChecked.
var (
	relFull, relTopChecked, relTopBad int
	relTopCheck                       bool
)

// relMin is the smallest system the moving frame is tried on (its
// selection is a pass over the spheres and one over the list).
const relMin = 2048

// relAhead: a sphere whose speed relative to the frame would carry it Δ/4
// in relAhead steps is loose at the selection.
const relAhead = 8

// relTouched reports whether a tight sphere of l's moving-frame selection
// met a sphere in the last accepted evaluation (a touching inner pair with
// a tight sphere, WatchK, in PrevTouch: the pairs left out cannot touch)
// or may meet a wall in this one (relWalls).
func (s *Spheres) relTouched(l *sphere.List) bool {
	in := &l.Inner
	if !in.Rel {
		return false
	}
	loose, pt := in.Loose, l.PrevTouch
	if len(pt) != len(l.P) || len(loose) != len(s.tr.L) {
		return true
	}
	for _, k := range in.WatchK {
		if pt[k] {
			return true
		}
	}
	return s.relWalls(in)
}

// relWalls reports whether a tight sphere may get a force from a wall
// slot at the trial state, or a wall moves. Its test is one a wall (the
// watch per wall, sphere.RelWall; relWallsInit, relWallsSet), and only
// when a wall's test fails, the test of every watched slot (relWallsSet)
// that refreshes the walls' margins.
//
// Why a wall's test suffices (the proof of the per-slot test is
// relWallsSet's). Let j be the last refresh (the selection or a later
// step whose slots all passed), k the trial state now, N the wall's unit
// normal, d_i = (X_i − P)·N the exact distance of a watched sphere's
// centre. While the tight spheres met nothing up to evaluation k − 1
// (relTouched's induction, as in relSelect's argument), Grow bounds each
// one's travel relative to the exact reference motion c: |(x_k − x_j) −
// (c_k − c_j)| ≤ Grow_k − Grow_j (Grow is a sum of per-step bounds). So
// d_k ≥ d_j + (c_k − c_j)·N − |N|(Grow_k − Grow_j), and with the frame's
// travel along N followed in floating point (relStep: C with its error
// EC, |C − (c − c_sel)·N| ≤ EC), d_k ≥ [d_j − r' − C_j − EC_j + Grow_j] +
// r' + C_k − EC_k − Grow_k, the bracket's least over the wall's slots
// being M. The test M + C_k − (Grow_k + EC_k + Slack) ≥ 2⁻⁴⁸·(|M| + |C_k|
// + Grow_k + EC_k + Slack) holds the exact M + C_k − Grow_k − EC_k above
// Slack (the roundings of this sum, ≤ 4ε of those magnitudes, inside
// 2⁻⁴⁸ = 32ε; |N| ≤ 1 + 2ε inside it too), and Slack covers M's own
// rounding at the refresh and twice δ, the rounding of a computed d
// against the exact one, plus the per-slot test's own 2⁻⁴⁰·XMax: so
// every watched slot's d computed as evalSlots computes it is at least
// r' + 2⁻⁴⁰·XMax, which is the per-slot test, passed.
func (s *Spheres) relWalls(in *sphere.Inner) bool {
	if len(in.Walls) != len(s.planes) {
		return true
	}
	for w := range in.Walls {
		rw := &in.Walls[w]
		if !rw.On {
			continue
		}
		b := in.Grow + rw.EC + rw.Slack
		if !s.planes[w].still || !(rw.M+rw.C-b >= 0x1p-48*(math.Abs(rw.M)+math.Abs(rw.C)+b)) {
			return !s.relWallsSet(in)
		}
	}
	return false
}

// relWallsInit starts the watch per wall at a selection (C = EC = Grow =
// 0, the frame's velocity vc): V = vc·N and G = g·N, each computed with
// three products and two sums, so within 3ε·Σ|v_c|·|N| < 2⁻⁵⁰·Σ|v_c|
// (|N| components ≤ 1 + ε) of the exact projections; then the margins
// (relWallsSet). It reports false if a watched slot fails the per-slot
// test.
func (s *Spheres) relWallsInit(in *sphere.Inner, vc geom.Vec3) bool {
	if cap(in.Walls) < len(s.planes) {
		in.Walls = make([]sphere.RelWall, len(s.planes))
	}
	in.Walls = in.Walls[:len(s.planes)]
	g := s.w.Gravity
	for w := range in.Walls {
		n := s.planes[w].N
		in.Walls[w] = sphere.RelWall{
			V: vc.Dot(n), EV: 0x1p-50 * (math.Abs(vc.X) + math.Abs(vc.Y) + math.Abs(vc.Z)),
			G: g.Dot(n), EG: 0x1p-50 * (math.Abs(g.X) + math.Abs(g.Y) + math.Abs(g.Z)),
		}
	}
	return s.relWallsSet(in)
}

// relWallsSet is the per-slot test and the refresh of the walls' margins:
// false (a tight sphere may touch) if a still wall's watched slot (in.Watch:
// the slots of the tight spheres, the same through the list's life, as
// the slots are made with the list) has its centre's distance d from the
// wall's plane, computed as evalSlots computes it, below r' = r + 2⁻²⁰r
// plus 2⁻⁴⁰ of the coordinates (XMax), for another rounding of d (an FMA:
// evalSlots adds no force on a still wall when d ≥ r: its fast path, and
// offPlane's), or if such a wall moves. Otherwise each wall's M becomes
// min(d − r') − C − EC + Grow over its watched slots, and Slack 2⁻⁴⁰·XMax
// + 2δ + 2⁻⁴⁸·(|min(d − r')| + |C| + EC + Grow): δ = 2⁻⁴⁶(XMax + P_max +
// r_max) bounds the rounding of a computed d (≤ 4ε·Σ|X − P| ≤ 12ε(XMax +
// P_max)) and of d − r' (≤ 2ε(|d| + 2r)); the last term the sum's
// roundings (≤ 4ε).
func (s *Spheres) relWallsSet(in *sphere.Inner) bool {
	x := 0x1p-40 * in.XMax
	for w := range in.Walls {
		in.Walls[w].On, in.Walls[w].M, in.Walls[w].Slack = false, math.Inf(1), 0
	}
	for _, i := range in.Watch {
		sl := &s.slots[i]
		pl := &s.planes[sl.wall]
		r := s.specR[sl.spec]
		d := s.tr.L[sl.k].X.Sub(pl.P).Dot(pl.N)
		if !pl.still || !(d >= r+0x1p-20*r+x) {
			return false
		}
		rw := &in.Walls[sl.wall]
		rw.On, rw.M, rw.Slack = true, min(rw.M, d-(r+0x1p-20*r)), max(rw.Slack, r)
	}
	for w := range in.Walls {
		rw := &in.Walls[w]
		if !rw.On {
			continue
		}
		p := s.planes[w].P
		delta := 0x1p-46 * (in.XMax + max(math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z)) + rw.Slack)
		m := rw.M
		rw.M = m - rw.C - rw.EC + in.Grow
		rw.Slack = x + 2*delta + 0x1p-48*(math.Abs(m)+math.Abs(rw.C)+rw.EC+in.Grow)
	}
	return true
}

// relWallsStep follows the frame's velocity and travel along each watched
// wall's normal over a Drift of dt whose kicks before it add (h + h')·g
// to the reference velocity (relSelect's argument: v_c,j = v_c + Σ(h +
// h')·g, c advances by dt·v_c,j): V += (h + h')·G, C += dt·V, with their
// errors against the exact projections — the sum h + h', the product and
// the sum each round by ε (2⁻⁵⁰ of the magnitudes covers them and the
// second-order terms), G's error EG scaled, and the errors' own roundings
// a relative 2⁻³⁰. It reports false when a bound is not finite.
func relWallsStep(in *sphere.Inner, h, dt float64) bool {
	hh := h + in.LastH
	for w := range in.Walls {
		rw := &in.Walls[w]
		if !rw.On {
			continue
		}
		v0 := rw.V
		rw.V = v0 + hh*rw.G
		rw.EV += (hh*rw.EG + 0x1p-50*(max(math.Abs(v0), math.Abs(rw.V))+hh*math.Abs(rw.G))) * (1 + 0x1p-30)
		c0 := rw.C
		rw.C = c0 + dt*rw.V
		rw.EC += (dt*rw.EV + 0x1p-50*(max(math.Abs(c0), math.Abs(rw.C))+dt*math.Abs(rw.V))) * (1 + 0x1p-30)
		if !(rw.EC <= math.MaxFloat64) || !(math.Abs(rw.C) <= math.MaxFloat64) {
			return false
		}
	}
	return true
}

// relStep follows the moving frame's bound over a Drift of dt (see above);
// chain reports that the Drift starts from the last Accept's state in the
// chain the bound needs (lazy bodies, trAcc, rotStill, accFresh).
func (s *Spheres) relStep(chain bool, dt float64) {
	in := &s.lists[s.cur].Inner
	if !in.Rel {
		return
	}
	// A wall switched since the last step (checkWalls, before the Drift):
	// the slots are rebuilt with the next evaluation, Watch is stale.
	if !chain || s.wallStale || len(s.vmax2) != len(s.kin) || !(dt > 0) {
		in.Rel = false
		return
	}
	h := 0.5 * dt
	u, a := 0.0, s.w.Gravity.Norm()
	for i, m := range s.vmax2 {
		ai := math.Sqrt(m.F2) * s.kin[i].InvM
		u, a = max(u, math.Sqrt(m.V2)+h*ai), max(a, ai)
	}
	in.U += 0x1p-49 * (u + (h+in.LastH)*a)
	in.Grow += (dt*in.U + 0x1p-50*(dt*u+in.XMax)) * (1 + 0x1p-30)
	walls := relWallsStep(in, h, dt)
	in.LastH = h
	if !walls || !(in.Grow <= math.MaxFloat64) {
		in.Rel = false
	}
}

// refMax is the largest |coordinate| of the list's reference (maxAbsRef),
// shared with dispBound's copy for the same build.
func (s *Spheres) refMax(ref []geom.Vec3) float64 {
	d, b := &s.disp, s.w.verlet.Builds()
	if !d.xmaxOK || d.xmaxB != b {
		d.xmax, d.xmaxB, d.xmaxOK = s.maxAbsRef(ref), b, true
	}
	return d.xmax
}
