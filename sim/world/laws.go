package world

import (
	"sync/atomic"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/snap"
)

// Solver stage 2, the interface laws of every active contact — normal
// barrier/penalty force (S0 eq. 49–51), viscous damping with the compressive
// clamp (eq. 52–53) and Coulomb stick/slip friction (eq. 54–57) — runs pair
// by pair (lawsPair): in stageDetect's pass right after each pair's narrow
// phase (Evaluate), or after each pair's refresh (Eval.Fixed). dt is the
// time since the previous accepted evaluation (the tangential displacement
// increment is the relative velocity times dt). Each pair only writes its
// own contacts, so the stage runs in parallel deterministically.

// lawsPair is stage 2 for one pair; energy says whether to fill Contact.Epot.
func (w *World) lawsPair(e *pairEntry, dt float64, energy bool) {
	a, b := w.Bodies()[e.A], w.Bodies()[e.B]
	p := w.Params(a.Material, b.Material)
	if e.smooth {
		w.lawsSmooth(e, a, b, p, dt)
		return
	}
	ma, mb := a.MassOrInf(), b.MassOrInf()
	meq := law.EquivalentMass(ma, mb) // S0 eq. (52), once for the pair's contacts
	nl := &p.Normal
	for k := range e.cur {
		c := &e.cur[k]
		if !c.Active() {
			c.Fn, c.Ft, c.Epot = 0, geom.Vec3{}, 0
			continue
		}
		gn := c.Gn
		fn, kc, en := nl.Eval(gn, energy) // S0 eq. (49), its −d/dg and its integral
		vrel := a.VelocityAt(c.PA).Sub(b.VelocityAt(c.PB))
		gnDot := vrel.Dot(c.N) // > 0 separating
		var fd float64
		if w.dampLag { // S0 eq. (52), lagged (damplag.go)
			fd = w.dashpot(c, p, ma, mb, gnDot, dt)
		} else if fd = law.DampingEq(p.Zeta, kc, meq, gnDot); fd != 0 && p.DampBand > 0 { // S0 eq. (52), k at the current gap (dashpotAt with s = 1, written out)
			fd = dampRamp(p, gn, fd)
		}
		c.Fn = law.NormalTotal(fn, fd)
		vt := vrel.Sub(c.N.Scale(gnDot))
		c.Ft = p.Friction.UpdateStick(&c.Fric, c.N, vt.Scale(dt), vt, c.Fn, w.stickForce(c)) // S0 eq. (54)–(57) (damplag.go)
		if energy {
			c.Epot = en + p.Friction.Potential(&c.Fric)
		}
	}
}

// stageAccumulate is solver stage 3: gravity, external loads at time t, and
// the contact forces, summed into each body's force and moment in a fixed
// order (pairs in list order), so the sum is independent of the worker count.
// It reports a body with a non-finite force or moment. With two or more
// workers and neither loads nor bonds, each body's force and moment start
// from gravity in the accumulation's pass (accumulateRange) rather than
// in a serial walk over the bodies first: the same values.
func (w *World) stageAccumulate(pairs []*pairEntry, t float64) (nonFinite bool) {
	w.initInPass = max(w.Settings.Workers, 1) > 1 && len(w.Bodies()) >= parallelMin && len(w.Loads) == 0 && len(w.Bonds) == 0
	if !w.initInPass {
		w.ExternalForces(t)
	} else {
		w.LoadValues = w.LoadValues[:0]
		for i := range w.Walls {
			w.Walls[i].Force = geom.Vec3{}
		}
	}
	nonFinite = w.accumulateContacts(pairs)
	w.initInPass = false
	return nonFinite
}

// ExternalForces sets every body's force and moment to gravity, the external
// loads at time t and the bond forces — everything but contacts. Contact
// dynamics (integrate.CD) calls it after DetectContacts.
func (w *World) ExternalForces(t float64) {
	for _, b := range w.Bodies() {
		b.F, b.T = geom.Vec3{}, geom.Vec3{}
		if !b.Fixed {
			b.F = w.Gravity.Scale(b.Mass())
		}
	}
	if cap(w.LoadValues) < len(w.Loads) {
		w.LoadValues = make([]LoadValue, len(w.Loads))
	}
	w.LoadValues = w.LoadValues[:len(w.Loads)]
	for i := range w.Loads {
		l := &w.Loads[i]
		f, m := l.Apply(w.Bodies()[l.Body], t)
		w.LoadValues[i] = LoadValue{f, m}
	}
	for i := range w.Walls {
		w.Walls[i].Force = geom.Vec3{}
	}
	w.accumulateBonds()
}

// accumulateContacts adds the contact forces of the current evaluation, pair
// by pair in the order of pairs (w.pairs, or a subset in the same order
// that holds every pair with contacts: pairPass's curPairs). With one
// worker it walks the pairs; with more, the bodies are split into one
// range per worker (contactSums.split) and each worker walks all the pairs
// in order, adding the contacts of those of its bodies, so every body's
// and wall's sum takes the same terms in the same order: the same bits for
// any worker count. It reports a body with a non-finite force or moment
// (checked by the workers as each range is done).
func (w *World) accumulateContacts(pairs []*pairEntry) (nonFinite bool) {
	nw := max(w.Settings.Workers, 1)
	if nw == 1 || len(w.Bodies()) < parallelMin {
		t0 := time.Now()
		for _, e := range pairs {
			if len(e.cur) > 0 {
				w.accumulatePair(e, true, true)
			}
		}
		bad := w.nonFinite()
		if w.sums.then != nil {
			w.afterSums(0, 0, len(w.Bodies()))
		}
		if len(w.Bodies()) >= parallelMin { // what the workers share when there are more
			w.Stats.Profile.Parallel += time.Since(t0)
		}
		return bad
	}
	s := &w.sums
	if k, ok := w.nested(); ok { // inside a pass: inline, on that worker
		s.size(len(w.Bodies()))
		bad := w.accumulateRange(pairs, 0, len(w.Bodies()))
		if s.then != nil {
			w.afterSums(k, 0, len(w.Bodies()))
		}
		return bad
	}
	s.plan(len(w.Bodies()), nw)
	s.pairs = pairs
	s.bad.Store(false)
	if s.stats { // the statistics' contact sums start where sumStats's do
		s.tally = contactTally{pc: 0.0 + w.bondEnergy()}
	}
	t0 := time.Now()
	w.forkJoin(nw, nw, 1, s.rangeFn(w))
	w.Stats.Profile.Parallel += time.Since(t0)
	s.pairs = nil
	s.nextOK = true
	if s.stats {
		s.gen = w.gen + 1
	}
	return s.bad.Load()
}

// rangeFn returns the pass body of accumulateContacts on two or more
// workers (made once for w: no allocation per call): batch k is body
// range k, summed by accumulateRange over s.pairs.
func (s *contactSums) rangeFn(w *World) func(_, k, _ int) {
	if s.run == nil || s.owner != w {
		s.owner = w
		s.run = func(_, k, _ int) {
			lo, hi := int(s.bounds[k]), int(s.bounds[k+1])
			if w.accumulateRange(s.pairs, lo, hi) {
				s.bad.Store(true)
			}
			if s.then != nil { // range k is summed: its bodies' own terms (part k)
				w.afterSums(k, lo, hi)
			}
			if k == 0 { // range 0's extra work (it is shorter by its weight)
				if s.stats { // the statistics' contact sums; the bodies' terms of range 0
					s.tally.add(s.pairs)
					s.tally.kin, s.tally.pg = w.sumBodyTerms(0, 0, lo, hi)
					s.tally.upTo = hi
				}
				// The next pass's ranges, from this one's counts' predecessor.
				s.next = s.boundsOf(s.next, s.old, len(s.old), len(s.bounds)-1)
			}
		}
	}
	return s.run
}

// accumulateRange adds the active contacts of pairs, in pair order, to the
// bodies [lo, hi) (a body of the range on either side of a pair; a wall's
// force with its body), counts each body's contact sides for the next
// split and reports a body of the range with a non-finite force or moment.
// With w.initInPass it first sets the range's forces and moments as
// ExternalForces does without loads and bonds (gravity).
func (w *World) accumulateRange(pairs []*pairEntry, lo, hi int) (nonFinite bool) {
	if w.initInPass {
		for _, b := range w.Bodies()[lo:hi] {
			b.F, b.T = geom.Vec3{}, geom.Vec3{}
			if !b.Fixed {
				b.F = w.Gravity.Scale(b.Mass())
			}
		}
	}
	sides := w.sums.sides[lo:hi]
	clear(sides)
	for _, e := range pairs {
		a, b := int(e.A)-lo, int(e.B)-lo
		inA, inB := uint(a) < uint(hi-lo), uint(b) < uint(hi-lo)
		if !inA && !inB || len(e.cur) == 0 {
			continue
		}
		n := int32(w.accumulatePair(e, inA, inB))
		if inA {
			sides[a] += n
		}
		if inB {
			sides[b] += n
		}
	}
	for _, b := range w.Bodies()[lo:hi] {
		if !b.F.IsFinite() || !b.T.IsFinite() {
			nonFinite = true
		}
	}
	return nonFinite
}

// accumulatePair adds the active contacts of pair e, in order, to body A's
// force and moment (inA) and to body B's (inB), each contact to A before B,
// and to the force of the wall whose body that is; it returns the number
// of active contacts. The force on A is f = Fn·n + Ft at PA (S0 eq. 39,
// 53–56; a smooth pair's at the contact point, with the rolling moment M);
// B takes −f at PB (a smooth pair's at the contact point, B at its image).
// It is the one home of a contact's force on its bodies: f is found once
// per contact and the bodies once per pair. A polyhedral pair's sums are
// body.ApplyForceAt's operations in the same order (F += f, T += r × f;
// for B with −f), written out: the same bits, without a call per contact
// side (ApplyForceAt's inline cost is over the compiler's budget). B's
// sums drop the negation: x + (−y) is x − y by IEEE 754's definition,
// and r_y·(−f_z) − r_z·(−f_y) is r_z·f_y − r_y·f_z to the bit (a product's
// rounding is symmetric in sign), for every finite f.
func (w *World) accumulatePair(e *pairEntry, inA, inB bool) (active int) {
	a, b := w.Bodies()[e.A], w.Bodies()[e.B]
	if e.smooth {
		return w.accumulateSmooth(e, a, b, inA, inB)
	}
	for k := range e.cur {
		c := &e.cur[k]
		if !c.Active() {
			continue
		}
		active++
		// f = c.N.Scale(c.Fn).Add(c.Ft), on A. Every product is rounded
		// (float64(x*y)): Go may fuse x*y ± z into one FMA on FMA targets
		// (arm64 fuses subtraction too), and fused or not the result must
		// not depend on where the compiler put this code (the one-worker
		// loop or accumulateRange) nor on whether B's side is written with
		// the negation (docs/ARCHITECTURE.md, "Determinism and fused
		// multiply-adds"). On amd64 v1 the conversions change nothing.
		fx, fy, fz := float64(c.N.X*c.Fn)+c.Ft.X, float64(c.N.Y*c.Fn)+c.Ft.Y, float64(c.N.Z*c.Fn)+c.Ft.Z
		if inA { // a.ApplyForceAt(f, c.PA)
			rx, ry, rz := c.PA.X-a.X.X, c.PA.Y-a.X.Y, c.PA.Z-a.X.Z
			F, T := &a.F, &a.T
			F.X, F.Y, F.Z = F.X+fx, F.Y+fy, F.Z+fz
			T.X, T.Y, T.Z = T.X+(float64(ry*fz)-float64(rz*fy)), T.Y+(float64(rz*fx)-float64(rx*fz)), T.Z+(float64(rx*fy)-float64(ry*fx))
			if a.Wall >= 0 {
				wf := &w.Walls[a.Wall].Force
				wf.X, wf.Y, wf.Z = wf.X-fx, wf.Y-fy, wf.Z-fz
			}
		}
		if inB { // b.ApplyForceAt(f.Neg(), c.PB): x + (−y) is x − y and a·(−y) − b·(−z) is b·z − a·y, exactly
			rx, ry, rz := c.PB.X-b.X.X, c.PB.Y-b.X.Y, c.PB.Z-b.X.Z
			F, T := &b.F, &b.T
			F.X, F.Y, F.Z = F.X-fx, F.Y-fy, F.Z-fz
			T.X, T.Y, T.Z = T.X+(float64(rz*fy)-float64(ry*fz)), T.Y+(float64(rx*fz)-float64(rz*fx)), T.Z+(float64(ry*fx)-float64(rx*fy))
			if b.Wall >= 0 {
				wf := &w.Walls[b.Wall].Force
				wf.X, wf.Y, wf.Z = wf.X+fx, wf.Y+fy, wf.Z+fz
			}
		}
	}
	return active
}

// accumulateSmooth is accumulatePair for a smooth pair e of bodies a, b:
// the force at the contact point (B at its image) and the rolling moment.
func (w *World) accumulateSmooth(e *pairEntry, a, b *body.Body, inA, inB bool) (active int) {
	for k := range e.cur {
		c := &e.cur[k]
		if !c.Active() {
			continue
		}
		active++
		f := c.N.Scale(c.Fn).Add(c.Ft) // on A
		p := c.Point()
		if w.ptLag.on { // the accepted contact's point carried with the bodies (pointlag.go)
			if pa, pb, ok := w.pointLagAt(e, a, b, c); ok {
				p = geom.Lerp(pa, pb, 0.5)
			}
		}
		if inA {
			a.F, a.T = a.F.Add(f), a.T.Add(p.Sub(a.X).Cross(f)).Add(c.M)
			if a.Wall >= 0 {
				w.Walls[a.Wall].Force = w.Walls[a.Wall].Force.Sub(f)
			}
		}
		if inB {
			b.F, b.T = b.F.Sub(f), b.T.Sub(p.Sub(b.X.Add(e.Shift)).Cross(f)).Sub(c.M)
			if b.Wall >= 0 {
				w.Walls[b.Wall].Force = w.Walls[b.Wall].Force.Add(f)
			}
		}
	}
	return active
}

// contactSums splits the bodies into one contiguous range per worker for
// accumulateContacts: bounds[k]:bounds[k+1] is worker range k, chosen so
// that the ranges hold about as much work: the active contact sides at the
// last accumulation (sides, per body, counted by the workers) plus a weight
// per body (bodyWeight, bodyWeightThen). Which worker sums a body does not
// change its sum.
type contactSums struct {
	sides  []int32
	bounds []int32
	// The ranges are planned one pass ahead, off the caller (plan): range
	// 0 of a pass sets next from old, the counts of the pass before (sides
	// and old alternate), for the next pass when its nextKey holds.
	old, next []int32
	nextKey   splitKey
	nextOK    bool
	// The pass (run, made once for owner) and what it reads and reports:
	// the pairs to sum, a body with a non-finite sum.
	pairs []*pairEntry
	bad   atomic.Bool
	owner *World
	run   func(_, k, _ int)
	// then: Eval.Then, run after the sums (nil: none).
	then func(i int)
	// stats: range 0 also sums the statistics' contact terms over every
	// pair into tally (Evaluate with Then on two or more workers), which
	// Commit's Below hands to sumStats while gen is w.gen+1.
	stats bool
	tally contactTally
	gen   uint64
}

// splitKey is what a pass's ranges depend on besides the counts: the
// bodies, the workers and the extra work of range 0 and of each body.
type splitKey struct {
	n, nw       int
	then, stats bool
}

// size readies the counts for n bodies (none yet when n changed).
func (s *contactSums) size(n int) {
	if len(s.sides) != n || len(s.old) != n {
		s.sides, s.old = make([]int32, n), make([]int32, n)
		s.nextOK = false
	}
}

// plan sets bounds for a pass on n bodies and nw workers — the ones the
// last pass planned when they are for the same key, else split's from the
// last counts — and readies the pass to count into the other buffer
// while its range 0 plans the next one. Any split gives the same sums.
func (s *contactSums) plan(n, nw int) {
	s.size(n)
	key := splitKey{n, nw, s.then != nil, s.stats}
	if s.nextOK && s.nextKey == key && len(s.next) == nw+1 {
		s.bounds, s.next = s.next, s.bounds
	} else {
		s.split(n, nw)
	}
	s.nextOK, s.nextKey = false, key
	s.sides, s.old = s.old, s.sides
}

// contactTally is the statistics' part that range 0 sums in the
// accumulation's pass: Stats.PotentialContact's sum (pc: 0, the bonds'
// energy, then each active contact's Epot in pair order — sumStats's
// operations in its order, so the same bits), the contacts, the
// suppressed ones and the active ones by kind, and the body sums' prefix.
type contactTally struct {
	pc                   float64
	contacts, suppressed int
	byKind               [snap.NumContactKinds]int
	// kin, pg: the statistics' body sums over the bodies [0, upTo) (range
	// 0's, after its bodies' terms), which sumStats carries on.
	kin, pg float64
	upTo    int
}

// add adds the contacts of pairs (in pair order: each pair's evaluated
// list, which Commit makes the accepted one unchanged) to t, the sums in
// locals as in sumStats.
func (t *contactTally) add(pairs []*pairEntry) {
	pc, contacts, suppressed, byKind := t.pc, t.contacts, t.suppressed, t.byKind
	for _, e := range pairs {
		cs := e.cur
		contacts += len(cs)
		for k := range cs {
			c := &cs[k]
			if !c.Active() {
				suppressed++
				continue
			}
			byKind[c.Kind]++
			pc += c.Epot
		}
	}
	t.pc, t.contacts, t.suppressed, t.byKind = pc, contacts, suppressed, byKind
}

// afterSums runs, for bodies [lo, hi) whose sums are complete, Eval.Then,
// the statistics' terms and the step bound's (its part k), in the order of
// Commit's pass with Stats and Bound.
func (w *World) afterSums(k, lo, hi int) {
	then := w.sums.then
	for i := lo; i < hi; i++ {
		then(i)
		w.bodyTerm(i)
		w.bound.speedOf(w, k, i)
	}
}

// bodyWeight is a body's weight in split, in contact sides, with and
// without Eval.Then: with it, each body's range also runs the closing half
// kick, the statistics' and the step bound's terms (afterSums, ≈ 860
// instructions a body on the collapse against ≈ 65 for a contact side of
// accumulatePair), without it only gravity and the finite test.
const (
	bodyWeight     = 1
	bodyWeightThen = 13
)

// tallyShare is the statistics' contact sums' weight in split: a contact
// side's sum in accumulatePair is ≈ 65 instructions and the tally's walk
// ≈ 21 a contact (two sides), a sixth of the sides in instructions, but the
// walk loads every contact and takes about twice that in time (the
// collapse's crew traces, each range timed run first and run second: range
// 0 was 2.5 µs longer with a sixth), so a third. planShare: range 0's
// planning of the next pass (boundsOf, ≈ 23 instructions a body) weighs a
// third of a side per body.
const (
	tallyShare = 3
	planShare  = 3
)

// split sets bounds for n bodies and nw ranges, each body weighing its
// contact sides plus bodyWeightThen when s.then is set (bodyWeight when not);
// with s.stats range 0 also runs the statistics' contact sums (contactTally),
// weighing tallyShare of the contact sides, and takes that much less of the
// bodies.
func (s *contactSums) split(n, nw int) {
	if len(s.sides) != n {
		s.sides = make([]int32, n) // no counts yet: as many bodies per range
	}
	s.bounds = s.boundsOf(s.bounds, s.sides, n, nw)
}

// boundsOf returns dst (grown to nw+1) set to split's bounds from the
// counts sides of n bodies; range 0 also weighs its extra work (the
// statistics' contact sums with s.stats, the next pass's planning on two
// or more workers).
func (s *contactSums) boundsOf(dst, sides []int32, n, nw int) []int32 {
	wb := int64(bodyWeight)
	if s.then != nil {
		wb = bodyWeightThen
	}
	if cap(dst) < nw+1 {
		dst = make([]int32, nw+1)
	}
	dst = dst[:nw+1]
	total, all := int64(n)*wb, int64(0)
	for _, c := range sides {
		all += int64(c)
	}
	total += all
	k, acc := 1, int64(0)
	if s.stats { // range 0's extra work, counted before its first body
		acc = all / tallyShare
	}
	if nw > 1 {
		acc += int64(n) / planShare
	}
	total += acc
	for i, c := range sides {
		acc += int64(c) + wb
		for k < nw && acc*int64(nw) >= total*int64(k) {
			dst[k] = int32(i + 1)
			k++
		}
	}
	for ; k <= nw; k++ {
		dst[k] = int32(n)
	}
	dst[0] = 0
	return dst
}

// The solver stages, in the order a step runs them (docs/ARCHITECTURE.md
// "One step"):
//
//  1. detect (detect.go stageDetect): place every body (contact.Posed) →
//     broad phase (the Verlet list of body pairs, body–wall pairs by AABB)
//     → lists (each pair's second-level feature list, contact.Cache, rebuilt
//     only when stale; S0 §2.5) → narrow phase (the local contact problems,
//     the hierarchy, matching by key with the accepted contacts; S0 §2.4,
//     §3.6), pair by pair on the workers;
//  2. laws (lawsPair): normal force, damping and friction of each active
//     contact (S0 eq. 49–57; law.Smooth for smooth pairs), run on each pair
//     right after its narrow phase, in detect's pass over the pairs;
//  3. accumulate (stageAccumulate): gravity, loads, bonds and the contact
//     forces summed into the bodies in pair order (the same bits for any
//     worker count);
//  4. integrate: the integrator's own update (package integrate), which
//     may evaluate many times per step (implicit integrators, at trial
//     states) or reject the evaluation and retry;
//  5. commit (commit): the evaluated contacts become the accepted ones, the
//     history the next step matches against, and the pairs holding them
//     are listed (livePairs).
//
// Two entry points run the world's stages: Evaluate (stages 1–3; 2–3 on
// the last contacts with Eval.Fixed) and Commit (stage 5); DetectContacts
// runs stages 1 and 5 for an integrator that computes the contact forces
// itself (contact dynamics). Their options fuse an integrator's per-body
// work, the statistics and the step bound into the stages' own passes over
// the bodies and the pairs — fewer fork–joins, the same bits as running
// each separately.

// Eval says what one Evaluate fuses into the stages' passes. The zero
// value is a plain evaluation, stages 1–3 at the current state. Fixed
// excludes Move and Then (Evaluate panics on the combination).
type Eval struct {
	// Move, when not nil, runs on every body i in detect's placing pass,
	// right before body i is placed (explicit's checkpoint and
	// kick–drift), so a drift costs no pass over the bodies of its own:
	// the result is that of running Move on every body and then
	// Evaluate, to the bit. Move must read and write body i only (and
	// data of the caller's own indexed by i). Its share of the pass is not
	// counted in Profile.Place.
	Move func(i int)
	// Then, when not nil, runs on every body i in accumulate's pass as
	// soon as its force and moment are summed, followed by the body's
	// terms of the statistics and of the step bound (as Commit's pass
	// computes them with Stats and Bound) — but only when the evaluation
	// met neither a reversed normal nor a night owl (EvalResult.Ran).
	// Then must read and write body i only. A caller that accepts the
	// evaluation (Bad false, no night owls) commits it with Commit's
	// Below, which takes these terms; one that rejects it puts the bodies
	// back itself (a non-finite sum is found in the same pass, after Then
	// has run).
	Then func(i int)
	// Fixed runs stages 2–3 only, at the current state, on the contacts
	// of the last evaluation: each active contact's points, normal and
	// gap are recomputed for its key at the bodies' poses
	// (contact.Refresh), but the candidate pairs, the contact keys and
	// the active set stay as the last evaluation found them (no broad
	// phase, no list upkeep, no narrow-phase search; smooth pairs are
	// detected anew; only pairs with contacts are visited; Contact.Epot
	// keeps its value; NightOwls is 0). At the state of that evaluation it
	// gives the same forces, to the bit. Implicit integrators use it for
	// finite-difference Jacobian–vector products, whose states differ
	// from the evaluated one by tiny amounts: a contact set that changed
	// within the difference would only add a jump. In periodic worlds, or
	// before any evaluation, it is a plain evaluation.
	Fixed bool
}

// EvalResult is what one Evaluate found.
type EvalResult struct {
	// NightOwls counts the night-owl contacts: active contacts in pairs
	// that were not candidates when the step started (S0 §2.6).
	NightOwls int
	// Bad reports a contact that flipped its normal (a penetration, S0
	// §2.4.5) or a body with a non-finite force or moment.
	Bad bool
	// Ran reports that Eval.Then ran on every body (with its statistics'
	// and step bound's terms), for Commit's Below.
	Ran bool
}

// Evaluate runs detect → laws → accumulate (stages 1–3) at the current
// state and time t, with what o fuses into them. dt is the time since the
// last accepted evaluation (0 at start): the tangential displacement
// increment of friction is the relative velocity times dt.
func (w *World) Evaluate(t, dt float64, o Eval) EvalResult {
	w.ptLag.dt = dt // the carried point's gate (pointlag.go)
	if o.Fixed {
		if o.Move != nil || o.Then != nil {
			panic("world: Evaluate with Eval.Fixed takes neither Move nor Then (it places no body and commits to no step)")
		}
		return EvalResult{Bad: w.evaluateFixed(t, dt)}
	}
	var r EvalResult
	g0, lv := w.gen, &w.live
	clean := lv.wallsGen == g0+1 && !(w.sph != nil && w.sph.owns)
	r.NightOwls = w.stageDetect(true, dt, o.Move) // stages 1 and 2 in one pass over the pairs
	if clean && w.gen == g0+1 {                   // this detection alone moved gen on (wallsClean)
		lv.wallsGen = w.gen + 1
	}
	prof := &w.Stats.Profile
	t1 := time.Now()
	r.Ran = o.Then != nil && !w.flipped && r.NightOwls == 0
	w.sums.gen = 0
	if r.Ran {
		w.bodyTerms()
		w.bound.speedsReset(w)
		w.sums.then, w.sums.stats = o.Then, true
	}
	nonFinite := w.stageAccumulate(w.curPairs, t)
	w.sums.then, w.sums.stats = nil, false
	if r.Ran {
		w.thenGen = w.gen + 1
	}
	r.Bad = w.flipped || nonFinite // the flips as counted by the detection pass
	prof.Accumulate += time.Since(t1)
	return r
}

// evaluateFixed is Evaluate with Eval.Fixed: stages 2–3 on the contacts of
// the last evaluation, their geometry refreshed. It reports Bad.
func (w *World) evaluateFixed(t, dt float64) (bad bool) {
	if w.Periodic.On() || len(w.posed) != len(w.Bodies()) {
		return w.Evaluate(t, dt, Eval{}).Bad
	}
	w.leaveSpheres()
	if len(w.placed) != len(w.Bodies()) {
		w.placed = make([]contact.Placement, len(w.Bodies()))
	}
	for i, b := range w.Bodies() {
		if b.Kind == body.Polyhedral {
			w.placed[i] = contact.Placement{Poly: b.Poly(), X: b.X, R: b.Q.Mat()}
		}
	}
	w.posedOld = true        // the bodies moved; w.posed is that of the last detection
	if w.fixedGen != w.gen { // the pairs with contacts (smooth ones may gain some)
		w.fixedGen = w.gen
		w.fixedPairs = w.fixedPairs[:0]
		for _, e := range w.pairs {
			if e.smooth || len(e.cur) > 0 {
				w.fixedPairs = append(w.fixedPairs, e)
			}
		}
	}
	pairs := w.fixedPairs
	prof := &w.Stats.Profile
	t0 := time.Now()
	var sqFail atomic.Int64
	w.parallel(len(pairs), func(_, i int) { // geometry, then laws (Epot: that of the last Evaluate)
		e := pairs[i]
		if e.smooth {
			if w.narrowSmooth(e) {
				sqFail.Add(1)
			}
		} else {
			contact.Refresh(&w.placed[e.A], &w.placed[e.B], e.cur, e.prev)
		}
		w.lawsPair(e, dt, false)
	})
	w.Stats.SQFailures += sqFail.Load()
	t1 := time.Now()
	prof.Laws += t1.Sub(t0)
	bad = w.badEvaluation(pairs, w.stageAccumulate(pairs, t))
	prof.Accumulate += time.Since(t1)
	return bad
}

// badEvaluation reports a reversed contact normal (a penetration, S0
// §2.4.5) in the last evaluation, or nonFinite (a non-finite force, as
// stageAccumulate found).
func (w *World) badEvaluation(pairs []*pairEntry, nonFinite bool) (bad bool) {
	for _, e := range pairs {
		for k := range e.cur {
			if e.cur[k].Flip {
				bad = true
			}
		}
	}
	return bad || nonFinite
}

// nonFinite reports a body with a non-finite force or moment.
func (w *World) nonFinite() bool {
	for _, b := range w.Bodies() {
		if !b.F.IsFinite() || !b.T.IsFinite() {
			return true
		}
	}
	return false
}

// DetectContacts runs stage 1 alone (no laws, no forces) and commits its
// contacts (stage 5), for integrators that compute contact forces
// themselves (contact dynamics): afterwards EachContact visits contacts
// with points, normals and gaps; Fn and Ft keep whatever the caller
// writes. It returns the number of night-owl contacts.
func (w *World) DetectContacts() (nightOwls int) {
	nightOwls = w.stageDetect(false, 0, nil)
	w.commit(nil, false, false)
	return nightOwls
}

// Commit says what one World.Commit fuses into stage 5's pass (the pairs'
// swap, then the bodies). The zero value commits the contacts alone.
// Below excludes Move and Bound and needs Stats (Commit panics otherwise).
type Commit struct {
	// Move, when not nil, runs on every body i in the pass (explicit's
	// closing half kick): the result is that of running Move on every
	// body and then committing, to the bit. Move must read and write body
	// i only.
	Move func(i int)
	// Stats is UpdateStats, each body's terms of the statistics computed
	// in the pass right after its Move: the same bits, one pass fewer.
	Stats bool
	// Bound computes each body's terms of the step bound (StableDt's
	// per-body speeds and acceleration bound, which read only body i's V,
	// ω, F and T after Move) in the pass, right after its statistics'
	// terms, for the next StableDt or StableDtBelow: that call then skips
	// its own pass over the bodies (one fork–join fewer), with the same
	// bits. The terms are used once, and only while the detection, the
	// step count, the time and the bodies are those of the commit (the
	// caller moves Time and Steps on before Commit, not between it and
	// the step bound).
	Bound bool
	// Below, when not 0, is StableDtBelow(Below) after the commit, and
	// Commit returns it. After an Evaluate whose Then ran (EvalResult.Ran),
	// with Time and Steps moved on since, the bodies' terms of the
	// statistics and of the step bound come from that pass and the step
	// bound's visit of the pairs runs in the commit's pass, each pair
	// evaluated right after its contacts became the accepted ones — two
	// passes over the pairs and one over the bodies fewer, the same bits.
	// Without such an evaluation it is Commit{Stats: true} and then
	// StableDtBelow(Below).
	Below float64
}

// Commit is stage 5: it accepts the last evaluation — its contacts become
// the history the next step matches against, and the pairs holding them
// are listed for the readers of the accepted contacts (UpdateStats,
// StableDtBelow) — with what o fuses into its pass. It returns the step
// bound when o.Below is not 0, else 0.
func (w *World) Commit(o Commit) (stepBound float64) {
	if o.Below != 0 {
		if o.Move != nil || o.Bound || !o.Stats {
			panic("world: Commit with Below needs Stats and takes neither Move nor Bound (the move and the bodies' terms belong in Eval.Then)")
		}
		return w.commitBelow(o.Below)
	}
	w.commit(o.Move, o.Stats, o.Bound)
	if o.Stats {
		w.sumStats()
	}
	return 0
}

// commitBelow is Commit with Stats and Below = limit.
func (w *World) commitBelow(limit float64) float64 {
	if w.thenGen != w.gen+1 || w.sph != nil && w.sph.owns {
		w.commit(nil, true, false)
		w.sumStats()
		return w.StableDtBelow(limit)
	}
	w.thenGen = 0
	bd := &w.bound
	bd.pre = w.stamp()
	// The pair that set the last bound is evaluated before the pass, on its
	// accepted contacts: they are swapped in for boundStart and back (its
	// old accepted list, emptied, is what the pass's swap then leaves in
	// cur, as it would have).
	var first *pairEntry
	if bd.lastI < len(w.pairs) && w.pairs[bd.lastI] == bd.last {
		first = bd.last
		first.prev, first.cur = first.cur, first.prev[:0]
	}
	t0 := time.Now()
	w.boundStart(limit)
	if first != nil {
		first.prev, first.cur = first.cur, first.prev
	}
	lv := &w.live
	lv.visit = true
	w.commit(nil, false, false)
	lv.visit = false
	if s := &w.sums; s.gen == w.gen+1 { // the accumulation's pass summed the contacts
		s.gen = 0
		w.sumStatsWith(&s.tally)
	} else {
		w.sumStats()
	}
	return w.boundEnd(limit, t0)
}

// commit is stage 5 (Commit), running move (when not nil) and, with stats, bodyTerm
// and, with speeds, the step bound's body terms on every body in the same
// pass.
func (w *World) commit(move func(i int), stats, speeds bool) {
	w.leaveSpheres()
	w.histStale = false
	n, lv := len(w.pairs), &w.live
	// The pairs to swap: those the last pass visited when it ran on these
	// pairs and nothing since added contacts (w.gen unchanged) — a pair it
	// left alone on a lease has cur and prev empty and nightOwl false
	// (pairLeases), which the swap leaves as they are —, else every pair.
	// The step bound's visit of every pair (travel) or of the smooth ones
	// walks them all.
	lv.vis = nil
	if lz := &w.leases; lz.visGen == w.gen && lz.visN == n && lz.visOK &&
		!(lv.visit && (w.bound.visitSk.travel || w.bound.visitSw.smooth)) {
		lv.vis = lz.vis
		n = len(lz.vis)
	}
	if cap(lv.buf) < n {
		lv.buf, lv.cnt, lv.next = make([]int32, n), make([]int32, n), make([]int32, n)
	}
	lv.buf, lv.cnt, lv.next = lv.buf[:n], lv.cnt[:n], lv.next[:n]
	nb := 0 // items [0, n) are pairs, [n, n+nb) bodies
	if move != nil || stats || speeds {
		nb = len(w.Bodies())
	}
	if stats {
		w.bodyTerms()
	}
	if speeds {
		w.bound.speedsReset(w)
	}
	lv.n, lv.move, lv.stats, lv.speeds = n, move, stats, speeds
	// The bodies (a kick and the statistics' terms: some 20 times a pair's
	// cost) come last, where the batches are small (runPass): first, they
	// would all fall in the first batch and keep one worker busy while the
	// other swapped the pairs and waited.
	w.parallelRange(n+nb, lv.commitFn(w))
	lv.move = nil
	buf, cnt, next := lv.buf, lv.cnt, lv.next
	lv.idx = lv.idx[:0]
	for lo := 0; lo < n; lo = int(next[lo]) { // the batches in pair order
		lv.idx = append(lv.idx, buf[lo:cnt[lo]]...)
	}
	lv.gen = w.gen + 1
	if speeds {
		w.bound.pre = w.stamp()
	}
	// Wall pairs that dropped out of the candidate set lose their history,
	// unless they have already (livePairs.wallsGen).
	if lv.wallsGen == w.gen+1 {
		return
	}
	for wi := range w.wallPair {
		for _, e := range w.wallPair[wi] {
			if e != nil && e.gen != w.gen {
				e.prev = e.prev[:0]
			}
		}
	}
	lv.wallsGen = w.gen + 1
}

// commitFn returns the pass body of commit over its items [lo, hi) as
// worker k (made once for w: no allocation per call): the pairs' swap of
// the current and accepted contacts, then the bodies' move, statistics'
// and step bound's terms as lv asks.
func (lv *livePairs) commitFn(w *World) func(k, lo, hi int) {
	if lv.commitRun != nil && lv.owner == w {
		return lv.commitRun
	}
	lv.owner = w
	lv.commitRun = func(k, lo, hi int) {
		n := lv.n
		if plo, phi := lo, min(hi, n); phi > plo { // the batch's pairs, each alone
			buf := lv.buf
			m := plo                       // the batch's pairs with contacts go to buf[plo:m]
			if vis := lv.vis; vis != nil { // items are positions in vis
				pairs := w.pairs
				for _, i := range vis[plo:phi] {
					e := pairs[i]
					e.prev, e.cur = e.cur, e.prev[:0]
					e.nightOwl = false
					if len(e.prev) > 0 {
						buf[m] = i
						m++
					}
				}
			} else {
				for i, e := range w.pairs[plo:phi] {
					e.prev, e.cur = e.cur, e.prev[:0]
					e.nightOwl = false
					if len(e.prev) > 0 {
						buf[m] = int32(plo + i)
						m++
					}
				}
			}
			if lv.visit { // Commit's Below: the step bound's visit of the batch's pairs (visits)
				bd := &w.bound
				if bd.visitSk.travel || bd.visitSw.smooth {
					for i, e := range w.pairs[plo:phi] {
						if visits(bd.visitSk, bd.visitSw, e) {
							bd.visitPair(w, k, plo+i)
						}
					}
				} else { // the pairs with accepted contacts
					bd.visitList(w, k, buf[plo:m])
				}
			}
			lv.cnt[plo], lv.next[plo] = int32(m), int32(phi)
		}
		move, stats, speeds := lv.move, lv.stats, lv.speeds
		for i := max(lo, n) - n; i < hi-n; i++ {
			if move != nil {
				move(i)
			}
			if stats {
				w.bodyTerm(i)
			}
			if speeds {
				w.bound.speedOf(w, k, i)
			}
		}
	}
	return lv.commitRun
}

// livePairs lists, in pair order, the indices in w.pairs of the pairs whose
// accepted contact list (prev) is not empty, as Commit left them, so that
// the readers of the accepted contacts right after a step (UpdateStats,
// StableDtBelow) walk ≈ 1100 pairs rather than every candidate (≈ 5500 on
// the 300-tetrapod collapse). It holds every such pair while gen = w.gen+1:
// everything that rebuilds w.pairs or adds accepted contacts (detection,
// RestoreHistory, the sphere path's export) moves w.gen on; what only
// empties lists (SetWallEnabled) leaves a superset, which readers skip
// over as the full walk would.
type livePairs struct {
	idx []int32 // the pairs with contacts, in order
	gen uint64  // w.gen+1 of the Commit that built idx (0: never)
	// Commit's workers: a batch [lo, hi) of pairs writes its pairs with
	// contacts to buf[lo:cnt[lo]] and next[lo] = hi.
	buf, cnt, next []int32
	// What commit's pass (commitRun, made once for owner) does: n pairs
	// (w.pairs[:n], or the pairs vis lists when not nil), then the bodies
	// with move, the statistics' terms, the step bound's.
	n             int
	vis           []int32
	move          func(i int)
	stats, speeds bool
	visit         bool // Commit's Below: the step bound's visit of each pair
	// wallsGen is w.gen+1 while every wall pair not listed by generation
	// w.gen has an empty accepted list (0: not known). Commit's walk over
	// the wall pairs makes it so; a detection run by Evaluate keeps it so
	// when it held before and nothing else moved w.gen on (a restore, the
	// sphere path's export; nor did the sphere path own the pairs): its
	// wallPairs empties the list of every enabled wall's pair it does not
	// list, and a disabled wall's pairs were emptied by SetWallEnabled and
	// are never listed. Commit's swap only writes listed pairs.
	wallsGen  uint64
	owner     *World
	commitRun func(k, lo, hi int)
}

// livePairs returns the indices of the pairs that may have accepted
// contacts (a superset of those that do, in pair order) and true, or false
// when the list is out of date and every pair must be walked.
func (w *World) livePairs() ([]int32, bool) {
	if w.live.gen != w.gen+1 || (w.sph != nil && w.sph.owns) {
		return nil, false
	}
	return w.live.idx, true
}
