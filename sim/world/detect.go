package world

import (
	"math"
	"slices"
	"sync/atomic"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/sq"
)

// pairEntry is a candidate body pair (A < B) with its contacts of the current
// trial evaluation (cur) and of the last accepted step (prev).
type pairEntry struct {
	// What pairPass reads for every candidate pair at every step comes
	// first (with the cache's own such fields), on the entry's first
	// cache lines.
	A, B     int32
	smooth   bool    // a sphere or superquadric takes part (smooth.go)
	stale    bool    // the cache was rebuilt this evaluation
	nightOwl bool    // the pair joined the candidates during the step
	gbar     float64 // pairGBar: ḡ of the pair's materials, valid while gbarGen == World.lawGen
	gbarGen  uint64
	cur      []contact.Contact
	cache    contact.Cache // second-level list of feature pairs (S0 §2.5)
	prev     []contact.Contact
	gen      uint64 // the evaluation that last listed this pair

	Shift  geom.Vec3 // B is evaluated at X_B + Shift (periodic image; zero otherwise)
	mid    geom.Vec3 // last superquadric midway point (S1 §2.3 warm start)
	hasMid bool
	sepAx  bool // the last separation test found the axes apart (sq.SeparatedOrdered)

	sm *smoothPair // smooth pair state kept across steps (smooth.go); nil until needed

	// Cached Hookean Δt bound (pairDtSmooth), valid while springGen ==
	// World.lawGen and the safety factor and the bodies' masses (MassOrInf:
	// fixed or free) are those it was computed with.
	dtSpring, springSafety, springMA, springMB float64
	springGen                                  uint64

	// pairDtSmooth's bound at the least overlap (Hertz) and what it was
	// computed from (as for the entry bound below).
	dtFloor, floorMA, floorMB, floorSafety float64
	floorGen                               uint64
	floorP                                 *ContactParams

	// The entry bound of StableDt (entryDt) and what it was computed from.
	dtEntry, entryMA, entryMB, entrySafety float64
	entryGen                               uint64
	entryP                                 *ContactParams
}

// pairKey identifies a candidate pair with its periodic image.
type pairKey struct {
	a, b   int32
	sx, sy float64
}

// stageDetect is solver stage 1 (S0 §2.5, §2.4.2–2.4.4): place every body,
// update the candidate pairs (Verlet list over inflated bounding spheres plus
// body–wall pairs) and run the narrow phase on every candidate pair in
// parallel; withLaws runs stage 2 (lawsPair, dt as for stageLaws) on each
// pair right after its narrow phase, in the same pass. It reports the
// number of night-owl contacts: active contacts in pairs that were not
// candidates when the step started. Its steps, in order: placeBodies,
// bodyPairs, wallPairs, pairPass. move, when not nil, runs on every body
// right before it is placed, in the same pass (Eval.Move); its share of
// the pass is left out of Profile.Place.
func (w *World) stageDetect(withLaws bool, dt float64, move func(i int)) (nightOwls int) {
	w.leaveSpheres()
	prof := &w.Stats.Profile
	t0 := time.Now()
	moved := w.placeBodies(move)
	t1 := time.Now()
	prof.Place += t1.Sub(t0) - moved
	gmax := w.MaxGap()
	if w.skin == 0 {
		w.skin = w.chooseSkin(gmax)
	}
	w.bodyPairs(gmax)
	w.gen++
	w.wallPairs(gmax)
	t2 := time.Now()
	prof.Broad += t2.Sub(t1)
	nightOwls = w.pairPass(withLaws, dt)
	return nightOwls
}

// placeBodies runs move (when not nil) on every body, wraps periodic
// bodies into the cell and poses every body (contact.Posed: world vertices
// and box of polyhedra, the box of smooth bodies), resizing the poses when
// the bodies changed: each body in turn on one worker, one pass over the
// bodies. It returns move's share of the pass's wall time.
func (w *World) placeBodies(move func(i int)) (moved time.Duration) {
	if len(w.posed) != len(w.Bodies) {
		w.posed = make([]contact.Posed, len(w.Bodies))
		w.wallPair = nil
		w.verlet.Invalidate()
	}
	w.placing()
	d := w.detectFns()
	d.move, d.periodic = move, w.Periodic.On()
	var first func(_, lo, hi int)
	if move != nil || d.periodic {
		first = d.first
	}
	t0 := time.Now()
	var spent [3]time.Duration
	w.stagesPass(len(w.Bodies), [3]func(worker, lo, hi int){first, d.place, nil}, &spent)
	d.move = nil
	if move != nil {
		if tot := spent[0] + spent[1]; tot > 0 {
			moved = time.Duration(float64(time.Since(t0)) * float64(spent[0]) / float64(tot))
		}
	}
	return moved
}

// bodyPairs updates the body–body candidates from the Verlet list over the
// movable bodies (and their periodic images) and starts w.pairs with them.
// On a list rebuild, a pair that stays a candidate keeps its entry (its
// feature list and history).
func (w *World) bodyPairs(gmax float64) {
	w.centers, w.radii, w.movable = w.centers[:0], w.radii[:0], w.movable[:0]
	for i, b := range w.Bodies {
		if b.Wall >= 0 {
			continue
		}
		w.centers = append(w.centers, b.X)
		w.radii = append(w.radii, b.Radius()+gmax/2)
		w.movable = append(w.movable, i)
	}
	nm := len(w.movable)
	if w.Periodic.On() {
		w.addGhosts(gmax)
	}
	rebuilt, cand := w.verlet.Update(w.centers, w.radii, w.skin)
	if rebuilt {
		// The maps are kept from one rebuild to the next, cleared: a
		// rebuild allocates nothing once they have grown (only lookups
		// read them, never their order).
		d := w.detectFns()
		if d.old == nil {
			d.old, d.seen = make(map[pairKey]*pairEntry, len(w.bbPairs)), make(map[pairKey]bool)
		}
		old, seen := d.old, d.seen
		clear(seen)
		for _, e := range w.bbPairs {
			old[pairKey{e.A, e.B, e.Shift.X, e.Shift.Y}] = e
		}
		w.bbPairs = w.bbPairs[:0]
		for _, c := range cand {
			i, j, shift, ok := w.candidatePair(c, nm)
			if !ok {
				continue
			}
			a, b := int32(w.movable[i]), int32(w.movable[j])
			if a == b {
				continue
			}
			if a > b {
				a, b, shift = b, a, shift.Neg()
			}
			if w.Bodies[a].Fixed && w.Bodies[b].Fixed {
				continue
			}
			key := pairKey{a, b, shift.X, shift.Y}
			if seen[key] {
				continue
			}
			seen[key] = true
			e := old[key]
			if e == nil {
				e = w.newCandidate(a, b, shift, isSmooth(w.Bodies[a]) || isSmooth(w.Bodies[b]))
			}
			w.bbPairs = append(w.bbPairs, e)
		}
		clear(old) // the entries dropped are not kept alive
	}
	w.pairs = append(w.pairs[:0], w.bbPairs...)
}

// newCandidate returns the entry of a pair (a, b) that joins the
// candidates (bodyPairs, wallPairs): a night owl once the run has started.
// It is the detection's one allocation in a steady step, made only when
// the candidates change (a pair's entry is never reused for another pair:
// pairLeases compares entries by address).
func (w *World) newCandidate(a, b int32, shift geom.Vec3, smooth bool) *pairEntry {
	return &pairEntry{A: a, B: b, Shift: shift, nightOwl: w.Steps > 0, smooth: smooth}
}

// wallPairs appends the body–wall candidates to w.pairs: inflated AABB
// overlap, every step (walls are few). A body that left a wall's box loses
// its history with that wall.
func (w *World) wallPairs(gmax float64) {
	w.sizeWallPairs()
	for wi := range w.Walls {
		wl := &w.Walls[wi]
		if !wl.Enabled {
			continue
		}
		wb := wl.Body
		wbox := w.posed[wb].Box.Inflate(gmax + w.skin)
		for i, b := range w.Bodies {
			if b.Fixed || !w.posed[i].Box.Overlaps(wbox) {
				if e := w.wallPair[wi][i]; e != nil {
					e.prev = e.prev[:0]
				}
				continue
			}
			e := w.wallPair[wi][i]
			if e == nil {
				a, bb := int32(i), int32(wb)
				if a > bb {
					a, bb = bb, a
				}
				e = w.newCandidate(a, bb, geom.Vec3{}, isSmooth(b))
				w.wallPair[wi][i] = e
			}
			e.gen = w.gen
			w.pairs = append(w.pairs, e)
		}
	}
}

// pairPass runs, per pair in one parallel pass over w.pairs (stagesPass),
// the second level — rebuild the feature list if stale (S0 §2.5),
// computing the boxes of the features near the other body only —, the
// narrow phase, and with laws the interface laws. Each pair writes only its
// own entry, so the result does not depend on the number of workers. The
// pass's wall time is shared out among the cache, narrow and laws rows of
// the profile in proportion to the workers' time in each. The workers also
// count, in integers (so in any order), the rebuilt lists, the night-owl
// contacts (active contacts of pairs that joined the candidates during the
// step; those pairs are candidates from now on), which it returns, and
// reversed normals (World.flipped).
func (w *World) pairPass(withLaws bool, dt float64) (nightOwls int) {
	t2 := time.Now()
	d := w.detectFns()
	d.sqFail.Store(0)
	pairs := w.pairs
	nw := max(w.Settings.Workers, 1)
	if len(w.scratch) < nw {
		w.scratch = make([]paddedScratch, nw)
	}
	for k := range w.scratch {
		w.scratch[k].tally = passTally{}
	}
	n := len(pairs)
	w.leases.ready(w, n)
	act, actN := w.leases.act[:n], w.leases.actN[:n]
	lv := &w.curLive
	if cap(lv.buf) < n {
		lv.buf, lv.cnt, lv.next = make([]int32, n), make([]int32, n), make([]int32, n)
	}
	buf, cnt, next := lv.buf[:n], lv.cnt[:n], lv.next[:n]
	d.dt = dt
	var laws func(_, lo, hi int)
	if withLaws {
		laws = d.laws
	}
	var spent [3]time.Duration // cache, narrow, laws: worker time
	w.stagesPass(len(pairs), [3]func(worker, lo, hi int){d.cache, d.narrow, laws}, &spent)
	prof := &w.Stats.Profile
	if tot := spent[0] + spent[1] + spent[2]; tot > 0 {
		wall := time.Since(t2)
		prof.Cache += time.Duration(float64(wall) * float64(spent[0]) / float64(tot))
		prof.Laws += time.Duration(float64(wall) * float64(spent[2]) / float64(tot))
		prof.Narrow += wall - time.Duration(float64(wall)*float64(spent[0])/float64(tot)) -
			time.Duration(float64(wall)*float64(spent[2])/float64(tot))
	}
	w.curPairs = w.curPairs[:0] // the batches' pairs with contacts, in pair order
	lz := &w.leases
	lz.vis = lz.vis[:0] // the visited pairs, in pair order, for Commit
	for lo := 0; lo < n; lo = int(next[lo]) {
		for _, i := range buf[lo:cnt[lo]] {
			w.curPairs = append(w.curPairs, pairs[i])
		}
		lz.vis = append(lz.vis, act[lo:actN[lo]]...)
	}
	lz.visGen, lz.visN, lz.visOK = w.gen, n, true
	w.Stats.SQFailures += d.sqFail.Load()
	prof.Evaluations++
	prof.Pairs += int64(len(pairs))
	w.flipped = false
	for k := range w.scratch {
		tl := &w.scratch[k].tally
		prof.Rebuilds += tl.rebuilds
		w.leases.held += tl.leased
		nightOwls += tl.nightOwls
		w.flipped = w.flipped || tl.flip
	}
	return nightOwls
}

// detectPass holds the pass bodies of placeBodies and pairPass, made once
// for owner (detectFns: no allocation per step; they read the pass's
// state from the World and from these fields), and bodyPairs' maps.
type detectPass struct {
	owner *World
	// placeBodies: first runs move (when not nil) and wraps periodic
	// bodies, place poses them.
	move         func(i int)
	periodic     bool
	first, place func(_, lo, hi int)
	// pairPass's stages and what they read besides the World: the laws' dt
	// and the count of failed superquadric contact searches.
	cache, narrow, laws func(worker, lo, hi int)
	dt                  float64
	sqFail              atomic.Int64
	// bodyPairs' rebuild: the entries before it, the keys met (kept,
	// cleared: no allocation once grown).
	old  map[pairKey]*pairEntry
	seen map[pairKey]bool
}

// detectFns returns w's detectPass with its pass bodies made.
func (w *World) detectFns() *detectPass {
	d := &w.detect
	if d.owner == w {
		return d
	}
	d.owner = w
	d.old, d.seen = nil, nil // a copy's maps are its original's
	d.first = func(_, lo, hi int) {
		move, periodic := d.move, d.periodic
		for i := lo; i < hi; i++ {
			if move != nil {
				move(i)
			}
			if b := w.Bodies[i]; periodic && !b.Fixed {
				b.X = w.Periodic.wrap(b.X)
			}
		}
	}
	d.place = func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			w.placeOne(i)
		}
	}
	d.cache = func(worker, lo, hi int) {
		lz := &w.leases
		pairs, posed, recs, act, actN := w.pairs, w.posed, lz.recs, lz.act, lz.actN
		trav, u, on := lz.trav[:len(posed)], lz.u[:2*len(posed)], !lz.off
		sc := &w.scratch[worker]
		if hi <= lo {
			return
		}
		// The batch's pairs to visit, act[lo:m]: all but those on a lease
		// that holds (an empty list, not stale: pairLeases, nothing to do),
		// found in one walk before the visits.
		var m int
		if on {
			m = lo + unleased(pairs[:hi], recs[:hi], trav, u, lo, act[lo:hi])
		} else {
			for i := lo; i < hi; i++ {
				act[i] = int32(i)
			}
			m = hi
		}
		for _, i := range act[lo:m] {
			e, r := pairs[i], &recs[i]
			if r.e != e {
				r.e, r.a, r.b = e, e.A, e.B
				r.l.Revoke()
			}
			e.stale = false
			if e.smooth {
				continue
			}
			pa, pb := &posed[e.A], &posed[e.B]
			g := w.pairGBar(e)
			if e.cache.Stale(pa, pb, g) {
				e.stale = true
				sc.tally.rebuilds++
				e.cache.Build(pa, pb, g, w.featureSkin(g), &sc.Scratch)
			} else if e.cache.Empty() && e.cache.Grant(pa, pb, &r.l) {
				r.weigh(lz.wt)
			}
		}
		actN[lo] = int32(m)
		sc.tally.leased += int64(hi - m)
	}
	d.narrow = func(worker, lo, hi int) {
		pairs, posed, act, actN := w.pairs, w.posed, w.leases.act, w.leases.actN
		buf, cnt, next := w.curLive.buf, w.curLive.cnt, w.curLive.next
		tl := &w.scratch[worker].tally
		tl.smoothBatch = false
		m := lo           // the batch's pairs with contacts go to buf[lo:m]
		var visit []int32 // the batch's pairs that the cache stage visited
		if hi > lo {
			visit = act[lo:actN[lo]]
		}
		for _, i := range visit {
			e := pairs[i]
			if e.smooth {
				tl.smoothBatch = true
				if w.narrowSmooth(e) {
					d.sqFail.Add(1)
				}
			} else if e.cache.Empty() { // most candidate pairs: nothing listed, nothing found
				e.cur = e.cur[:0]
			} else {
				g := w.pairGBar(e)
				e.cur = contact.Detect(&posed[e.A], &posed[e.B], g, &e.cache, e.prev, e.cur[:0])
			}
			if len(e.cur) > 0 {
				for i := range e.cur {
					c := &e.cur[i]
					if e.nightOwl && c.Active() {
						tl.nightOwls++
					}
					if c.Flip {
						tl.flip = true
					}
				}
				buf[m] = i
				m++
			}
			e.nightOwl = false // it is a candidate from now on
		}
		if hi > lo {
			cnt[lo], next[lo] = int32(m), int32(hi)
		}
	}
	d.laws = func(worker, lo, hi int) {
		pairs, buf, cnt, dt := w.pairs, w.curLive.buf, w.curLive.cnt, d.dt
		if w.scratch[worker].tally.smoothBatch || hi <= lo {
			for _, e := range pairs[lo:hi] {
				if e.smooth || len(e.cur) > 0 {
					w.lawsPair(e, dt, true)
				}
			}
			return
		}
		// No smooth pair in the batch: its pairs with contacts, which
		// narrow listed in pair order.
		for _, i := range buf[lo:cnt[lo]] {
			w.lawsPair(pairs[i], dt, true)
		}
	}
	return d
}

// pairLeases lets pairPass leave alone, at no more than a few loads per
// step, the candidate pairs whose feature lists are empty and not stale
// (most of them: ≈ 78% on the tetrapod collapses): the narrow stage would
// find no contact there, and the cache stage rebuild nothing.
//
// recs is aligned with w.pairs: recs[i] holds the lease (contact.Lease) of
// the entry e it was granted for, with e's bodies. The cache stage visits
// pair i as before unless recs[i].e is pairs[i] and its lease holds for the
// bodies' travel (contact.Travel, copied into trav once per pass); it grants
// a lease to a visited pair whose cache is empty and that Stale found not
// stale, so the pair's rebuilds are decided exactly as without leases (a
// lease that holds proves Stale's answer false; one that fails sends the
// pair to Stale). A pair left alone needs nothing from the narrow stage
// either: its cur is empty (the narrow stage emptied it when the lease was
// granted, Commit swaps in an empty prev, no other code adds contacts to a
// polyhedral pair) and nightOwl false (set only at the entry's creation),
// and stale false (granted only when not stale). A lease is revoked by any
// change of its cache (contact.Cache.Build, Invalidate, SetState), so a
// rebuild outside the pass (EachFeatureCache) ends it; every lease is
// dropped when the laws change (pairGBar's ḡ: lawGen) or the poses are
// made anew (their travel sums restart). Entries are compared by address:
// recs keeps its entries alive, so a new entry cannot take an old one's.
type pairLeases struct {
	recs []pairLease
	trav []contact.Travel // the bodies' travel, this pass
	// wt holds each body's two weights of the leases' weighted test
	// (contact.Lease.SetWeights), fixed with recs: wt[2i] for a body whose
	// turn counts by its own size, wt[2i+1] for the one whose turn moves
	// the other (weigh); u the weighted travel (contact.Travel.Weigh)
	// by the same index, this pass.
	wt, u  []float64
	posed  *contact.Posed // &w.posed[0] of the leases
	lawGen uint64         // w.lawGen of the leases
	// act[lo:actN[lo]] lists the pairs of the batch [lo, hi) that the cache
	// stage visited, for the narrow stage.
	act, actN []int32
	held      int64 // pairs left alone, over all passes
	// vis lists, in pair order, the pairs the last pass visited (every
	// other pair has cur and prev empty, nightOwl false), valid while w.gen
	// is visGen and w.pairs has visN pairs (visOK: a pass ran).
	vis    []int32
	visGen uint64
	visN   int
	visOK  bool
	off    bool // tests: every pair visited, as without leases
}

// pairLease is one pair's lease (88 bytes; what the weighted test reads
// first): fa and fb index the bodies' weighted travel (pairLeases.u) with
// the weights of the lease's test.
type pairLease struct {
	e      *pairEntry
	fa, fb int32
	a, b   int32
	l      contact.Lease
}

// weigh gives r's lease, just granted, its weighted test with the weights
// wt (pairLeases.wt) of its bodies in their roles: the light weight for the
// body whose turn counts by its own size (B, or A for a swapped lease), the
// heavy one for the other.
func (r *pairLease) weigh(wt []float64) {
	fa, fb := 2*r.a+1, 2*r.b
	if r.l.Swapped() {
		fa, fb = 2*r.a, 2*r.b+1
	}
	r.fa, r.fb = fa, fb
	r.l.SetWeights(wt[fa], wt[fb])
}

// unleased writes into act, in order, the indices i ≥ lo of the pairs that
// are not on a lease that holds, and returns their count: the pass's walk
// over the leased pairs, one loop for a whole batch (no call per pair to
// visit) that keeps its few values in registers. A lease's weighted test
// (contact.Lease.Fast: one sum of the bodies' weighted travel u) decides
// most pairs; Holds, on the travel itself, the others. Deciding a batch's
// pairs before visiting any gives the same answers as deciding each when
// the visits reach it: a visit changes only its own pair's record and
// cache, and a lease revoked meanwhile through a record that another
// pair's cache still points to (bodyPairs moved that pair) was revoked
// with its proof intact (its own cache unchanged).
func unleased(pairs []*pairEntry, recs []pairLease, trav []contact.Travel, u []float64, lo int, act []int32) int {
	recs = recs[:len(pairs)]
	m := 0
	for i := lo; i < len(pairs); i++ {
		if r := &recs[i]; r.e == pairs[i] {
			t := r.l.Weighted()
			if u[r.fa]+u[r.fb] < t {
				continue
			}
			if t == t && r.l.Holds(trav[r.a], trav[r.b]) { // not revoked (NaN), and Holds
				continue
			}
		}
		act[m] = int32(i)
		m++
	}
	return m
}

// holds reports whether the pass leaves pair e alone on its lease r for
// its bodies' travel ta and tb, as unleased decides it, and whether the
// weighted test decided it (tests).
func (lz *pairLeases) holds(r *pairLease, e *pairEntry, ta, tb contact.Travel) (held, fast bool) {
	if r.e != e {
		return false, false
	}
	if r.l.Fast(ta.Weigh(lz.wt[r.fa]) + tb.Weigh(lz.wt[r.fb])) {
		return true, true
	}
	return r.l.Holds(ta, tb), false
}

// ready readies the leases for a pass over n pairs: every lease dropped
// when the laws or the poses changed (a new, zeroed slice: the caches'
// pointers to the old one revoke nothing that is read), the bodies'
// travel copied. It returns the leases and the travel.
func (lz *pairLeases) ready(w *World, n int) ([]pairLease, []contact.Travel) {
	var p0 *contact.Posed
	if len(w.posed) > 0 {
		p0 = &w.posed[0]
	}
	if cap(lz.recs) < n || lz.posed != p0 || lz.lawGen != w.lawGen || len(lz.wt) != 2*len(w.posed) {
		lz.recs = make([]pairLease, max(n, len(lz.recs)))
		lz.posed, lz.lawGen = p0, w.lawGen
		lz.weigh(w)
	}
	lz.recs = lz.recs[:n]
	if cap(lz.act) < n {
		lz.act, lz.actN = make([]int32, n), make([]int32, n)
	}
	if cap(lz.trav) < len(w.posed) {
		lz.trav = make([]contact.Travel, len(w.posed))
	}
	tr := lz.trav[:len(w.posed)]
	wt, u := lz.wt[:2*len(tr)], lz.u[:2*len(tr)]
	worn := false
	for i := range tr {
		t := w.posed[i].Travel()
		worn = worn || t.Worn()
		tr[i] = t
		u[2*i], u[2*i+1] = t.Weigh(wt[2*i]), t.Weigh(wt[2*i+1])
	}
	if worn {
		// A body's travel nears the count above which no lease is
		// granted (contact.Travel.Worn): every body's travel restarts
		// from zero and every lease is dropped (its counts are those
		// before), as when the poses are made anew.
		for i := range w.posed {
			w.posed[i].RestartTravel()
		}
		clear(tr)
		clear(u)
		lz.recs = make([]pairLease, len(lz.recs))
	}
	return lz.recs, tr
}

// weigh sets the bodies' weights of the leases' weighted test, for leases
// granted from now on (contact.Lease.SetWeights: a lease whose ka or kb is
// above them gets no weighted test). A lease's coefficients are 1.01·R·(1 +
// 1e-9) for the moving body's turn (B's, or A's for a swapped lease;
// contact.Cache.Grant), R its radius, and (d₀ + margin + 1.01·R)·(1 + 1e-9)
// for the other's: its light weight wt[2i] is the first, computed as Grant
// does; for its heavy weight wt[2i+1], d₀, the centre distance of a
// candidate pair, is at most the two radii + gmax plus the Verlet skin twice
// (bodyPairs), and the margin 2ḡ ≤ 2·gmax (featureSkin), so with R̄ the
// largest polyhedron among the movable bodies it is (R_i + 2.01·R̄ +
// 3·gmax + 2·skin)·(1 + 1e-6). The weights only set how often the weighted
// test decides: a lease it does not cover is decided by Holds.
func (lz *pairLeases) weigh(w *World) {
	n := 2 * len(w.posed)
	if cap(lz.wt) < n {
		lz.wt, lz.u = make([]float64, n), make([]float64, n)
	}
	lz.wt, lz.u = lz.wt[:n], lz.u[:n]
	rmax := 0.0
	for _, b := range w.Bodies {
		if b.Wall < 0 && b.Kind == body.Polyhedral {
			rmax = max(rmax, b.Poly().Radius)
		}
	}
	gmax := w.MaxGap()
	for i, b := range w.Bodies {
		lz.wt[2*i], lz.wt[2*i+1] = 0, 0 // no weighted test
		if b.Kind != body.Polyhedral || b.Poly() == nil {
			continue
		}
		r := b.Poly().Radius
		lz.wt[2*i] = 1.01 * r * (1 + 1e-9)
		lz.wt[2*i+1] = (r + 2.01*rmax + 3*gmax + 2*w.skin) * (1 + 1e-6)
	}
}

// pairGBar returns the skin ḡ of pair e's material pair, kept in the entry
// while the laws stay as they are (World.lawGen).
func (w *World) pairGBar(e *pairEntry) float64 {
	if e.gbarGen != w.lawGen || e.gbarGen == 0 {
		e.gbar = w.Params(w.Bodies[e.A].Material, w.Bodies[e.B].Material).Normal.GBar
		e.gbarGen = w.lawGen
	}
	return e.gbar
}

// place poses every body (placeOne), the bodies split over the workers.
func (w *World) place() {
	w.placing()
	w.parallel(len(w.Bodies), func(_, i int) { w.placeOne(i) })
}

// placing readies the poses for placeOne: the superquadrics' prepared
// shapes sized to the bodies, the poses marked current (posedOld).
func (w *World) placing() {
	w.posedOld = false
	if len(w.sqPrep) != len(w.Bodies) {
		w.sqPrep = make([]sq.Prepared, len(w.Bodies))
	}
}

// placeOne poses body i: world vertices and face normals of a polyhedron
// (contact.Posed), the box of a smooth body.
func (w *World) placeOne(i int) {
	b := w.Bodies[i]
	if b.Kind == body.Polyhedral {
		w.posed[i].Update(b.Poly(), b.X, b.Q, b.Fixed)
	} else {
		w.posed[i].X, w.posed[i].Q, w.posed[i].Fixed = b.X, b.Q, b.Fixed
		w.posed[i].Box = w.placeSmooth(i, b)
	}
}

// VerletSkin returns the skin of the world's Verlet list: the one in use,
// or the one the next detection will choose.
func (w *World) VerletSkin() float64 {
	if w.skin > 0 {
		return w.skin
	}
	return w.chooseSkin(w.MaxGap())
}

// chooseSkin picks the Verlet skin: large enough that lists are rebuilt
// rarely, small enough that few far pairs are tested.
func (w *World) chooseSkin(gmax float64) float64 {
	rmin := math.Inf(1)
	for _, b := range w.Bodies {
		if b.Wall < 0 && b.Radius() < rmin {
			rmin = b.Radius()
		}
	}
	if math.IsInf(rmin, 1) {
		rmin = 1
	}
	return math.Max(4*gmax, 0.2*rmin)
}

// featureSkin is the margin of the second-level (feature-pair) lists: a
// pair's list is rebuilt when one body has moved this far relative to the other.
func (w *World) featureSkin(gbar float64) float64 { return 2 * gbar }

// wallPairsOf returns the pair entries of wall i.
func (w *World) wallPairsOf(i int) []*pairEntry {
	if i >= len(w.wallPair) {
		return nil
	}
	var out []*pairEntry
	for _, e := range w.wallPair[i] {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}

// passTally is what one worker counted in pairPass.
type passTally struct {
	rebuilds  int64 // lists rebuilt
	leased    int64 // pairs left alone on a lease (pairLeases)
	nightOwls int   // night-owl contacts
	flip      bool  // a reversed normal
	// smoothBatch: the batch the worker's narrow stage last ran holds a
	// smooth pair (its laws stage then walks every pair of the batch).
	smoothBatch bool
}

// addGhosts appends the periodic images of movable bodies near the seams to
// the broad-phase centres. The images' order is fixed between list rebuilds;
// when the set of imaged bodies changes, the Verlet list is rebuilt.
func (w *World) addGhosts(gmax float64) {
	rmax := 0.0
	for _, r := range w.radii {
		rmax = math.Max(rmax, r)
	}
	band := 2*rmax + gmax + w.skin
	nm := len(w.movable)
	prev := w.ghosts
	w.ghosts = w.ghostBuf[:0]
	var shifts []geom.Vec3
	for k := 0; k < nm; k++ {
		shifts = w.Periodic.images(w.centers[k], band, shifts[:0])
		for _, s := range shifts {
			w.ghosts = append(w.ghosts, ghost{int32(k), s})
		}
	}
	if !slices.Equal(prev, w.ghosts) {
		w.verlet.Invalidate()
	}
	w.ghostBuf = prev[:0]
	for _, g := range w.ghosts {
		w.centers = append(w.centers, w.centers[g.k].Add(g.shift))
		w.radii = append(w.radii, w.radii[g.k])
	}
}

// candidatePair maps a Verlet candidate over the nm movable bodies and their
// periodic ghosts (indices ≥ nm) to two movable indices i, j and the shift of
// j's image relative to i; ok is false for a pair of two ghosts.
func (w *World) candidatePair(c [2]int32, nm int) (i, j int, shift geom.Vec3, ok bool) {
	i, j = int(c[0]), int(c[1])
	if i >= nm && j >= nm {
		return 0, 0, shift, false
	}
	if i >= nm {
		i, j = j, i
	}
	if j >= nm {
		g := w.ghosts[j-nm]
		j, shift = int(g.k), g.shift
	}
	return i, j, shift, true
}
