package world

import (
	"slices"
	"sync/atomic"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/broad"
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
	gmax := w.MaxGap()
	if w.skin == 0 {
		w.skin = w.chooseSkin(gmax)
	}
	moved, broadT := w.placeBodies(move, gmax)
	t1 := time.Now()
	prof.Place += t1.Sub(t0) - moved - broadT
	prof.Broad += broadT
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
// bodies. The walls' bodies go first, on the caller, so that the same
// pass can run the broad phase's per-body part on every body (broadPrep:
// its centre and radius for the Verlet list and its displacement test,
// its box against the walls' boxes), which bodyPairs and wallPairs then
// take in body order. It returns move's share of the pass's wall time and
// the broad phase's.
func (w *World) placeBodies(move func(i int), gmax float64) (moved, broadT time.Duration) {
	if len(w.posed) != len(w.Bodies()) {
		w.posed = make([]contact.Posed, len(w.Bodies()))
		w.wallPair = nil
		w.verlet.Invalidate()
	}
	w.placing()
	p := w.broadFns()
	p.move, p.periodic, p.gmax = move, w.Periodic.On(), gmax
	p.ready(w)
	var first func(_, lo, hi int)
	if move != nil || p.periodic {
		first = p.first
	}
	bp := p.broad
	if p.off {
		bp = nil
	}
	t0 := time.Now()
	var spent [3]time.Duration
	w.stagesPass(len(w.Bodies()), [3]func(worker, lo, hi int){first, p.place, bp}, &spent)
	p.move = nil
	if tot := spent[0] + spent[1] + spent[2]; tot > 0 {
		wall := float64(time.Since(t0))
		moved = time.Duration(wall * float64(spent[0]) / float64(tot))
		broadT = time.Duration(wall * float64(spent[2]) / float64(tot))
	}
	p.need, p.d1, p.d2, p.fused = false, 0, 0, true
	for k := range w.scratch {
		tl := &w.scratch[k].broad
		p.need = p.need || tl.need
		p.d1, p.d2 = broad.KeepTwoLargest(p.d1, p.d2, tl.d1)
		p.d1, p.d2 = broad.KeepTwoLargest(p.d1, p.d2, tl.d2)
		p.fused = p.fused && !tl.bad
	}
	p.fused = p.fused && !p.off
	return moved, broadT
}

// broadPrep is the broad phase's per-body part, run in placeBodies' pass
// right after each batch of bodies is placed, and the pass's bodies (made
// once for owner, broadFns: no allocation per step). Each body writes only
// its own slots: its centre and radius (w.centers, w.radii at its index
// among the movable bodies) and which walls' inflated boxes its box meets
// (mask, its entries of w.wallPair made or their history dropped as
// wallPairs did); each batch runs the Verlet list's displacement test on
// its bodies (broad.Verlet.Test), kept per worker (whether one needs a
// rebuild, the two largest displacements: neither depends on the order).
// So bodyPairs and wallPairs list the same candidates in the same order
// as when they gathered and tested serially (the same bits).
type broadPrep struct {
	owner        *World
	first, place func(_, lo, hi int) // move and wrap; place (the walls' bodies are placed already)
	broad        func(worker, lo, hi int)
	move         func(i int)
	periodic     bool
	gmax         float64
	slot         []int32 // body i's index in w.movable (−1: a wall's body), for nb bodies
	nb           int
	pre          []bool         // body i is a wall's body, placed by ready
	walls        []int          // the enabled walls, in order
	wbox         []contact.AABB // their bodies' boxes inflated by gmax + skin
	mask         []uint64       // body i's box meets the inflated box of walls[k]: bit k
	wallsOn      bool           // mask is filled (at most 64 enabled walls)
	need, fused  bool           // the pass's test found a rebuild needed; its slots are valid
	off          bool           // tests: the serial gather, test and wall loop, as before
	d1, d2       float64        // the two largest squared displacements the pass found
}

// broadTally is what one worker's share of broadPrep found.
type broadTally struct {
	need, bad bool    // a body needs a list rebuild; a body's slot is wrong (a wall that is none, or back)
	d1, d2    float64 // the two largest squared displacements
}

// broadFns returns w's broadPrep with its pass bodies made.
func (w *World) broadFns() *broadPrep {
	p := &w.bp
	if p.owner == w {
		return p
	}
	*p = broadPrep{owner: w} // a copy's slices are its original's
	p.first = func(_, lo, hi int) {
		move, periodic, pre := p.move, p.periodic, p.pre
		for i := lo; i < hi; i++ {
			if pre[i] {
				continue
			}
			if move != nil {
				move(i)
			}
			if b := w.Bodies()[i]; periodic && !b.Fixed {
				b.X = w.Periodic.wrap(b.X)
			}
		}
	}
	p.place = func(_, lo, hi int) {
		pre := p.pre
		for i := lo; i < hi; i++ {
			if !pre[i] {
				w.placeOne(i)
			}
		}
	}
	p.broad = func(worker, lo, hi int) { p.run(w, &w.scratch[worker].broad, lo, hi) }
	return p
}

// run is the broad phase's part of the bodies [lo, hi) (broadPrep), tallied in tl.
func (p *broadPrep) run(w *World, tl *broadTally, lo, hi int) {
	slot, half := p.slot[lo:hi], p.gmax/2
	klo, khi := int32(-1), int32(-1) // the movable bodies' slots: consecutive
	for j, b := range w.Bodies()[lo:hi] {
		k := slot[j]
		if (b.Wall >= 0) != (k < 0) {
			tl.bad = true
		} else if k >= 0 {
			if klo < 0 {
				klo = k
			}
			khi = k + 1
			w.centers[k], w.radii[k] = b.X, b.Radius()+half
		}
	}
	if klo >= 0 && !tl.bad {
		need, d1, d2 := w.verlet.Test(w.centers, w.radii, int(klo), int(khi))
		tl.need = tl.need || need
		tl.d1, tl.d2 = broad.KeepTwoLargest(tl.d1, tl.d2, d1)
		tl.d1, tl.d2 = broad.KeepTwoLargest(tl.d1, tl.d2, d2)
	}
	if !p.wallsOn {
		return
	}
	mask, bodies, posed := p.mask[lo:hi], w.Bodies()[lo:hi], w.posed[lo:hi]
	clear(mask)
	for j, wi := range p.walls {
		row, box, bit := w.wallPair[wi][lo:hi], p.wbox[j], uint64(1)<<j
		for i, b := range bodies {
			e := row[i]
			if b.Fixed || !posed[i].Box.Overlaps(box) {
				if e != nil {
					e.prev = e.prev[:0]
				}
				continue
			}
			mask[i] |= bit
			if e == nil {
				a, bb := int32(lo+i), int32(w.Walls[wi].Body)
				if a > bb {
					a, bb = bb, a
				}
				row[i] = w.newCandidate(a, bb, geom.Vec3{}, isSmooth(b))
			}
		}
	}
}

// ready readies the pass of placeBodies on the caller: each body's slot
// among the movable bodies (kept while the bodies are the same; a body
// whose slot is wrong sends bodyPairs back to its serial gather), the
// walls' bodies moved, wrapped and placed, the enabled walls' inflated
// boxes, the workers' tallies cleared.
func (p *broadPrep) ready(w *World) {
	n := len(w.Bodies())
	w.passWorkers(n) // every worker's scratch, also for a pass nested in a batch
	if p.nb != n || len(p.slot) != n {
		p.slot = slices.Grow(p.slot[:0], n)[:n]
		w.movable = w.movable[:0]
		for i, b := range w.Bodies() {
			p.slot[i] = -1
			if b.Wall < 0 {
				p.slot[i] = int32(len(w.movable))
				w.movable = append(w.movable, i)
			}
		}
		p.nb = n
	}
	nm := len(w.movable)
	if cap(w.centers) < nm {
		w.centers, w.radii = make([]geom.Vec3, nm), make([]float64, nm)
	}
	w.centers, w.radii = w.centers[:nm], w.radii[:nm]
	if len(p.pre) != n {
		p.pre, p.mask = make([]bool, n), make([]uint64, n)
	}
	clear(p.pre)
	w.sizeWallPairs()
	p.walls, p.wbox = p.walls[:0], p.wbox[:0]
	for wi := range w.Walls {
		wb := w.Walls[wi].Body
		if !p.pre[wb] {
			p.pre[wb] = true
			if p.move != nil {
				p.move(wb)
			}
			if b := w.Bodies()[wb]; p.periodic && !b.Fixed {
				b.X = w.Periodic.wrap(b.X)
			}
			w.placeOne(wb)
		}
		if w.Walls[wi].Enabled {
			p.walls = append(p.walls, wi)
			p.wbox = append(p.wbox, w.posed[wb].Box.Inflate(p.gmax+w.skin))
		}
	}
	p.wallsOn = len(p.walls) <= 64
	for k := range w.scratch {
		w.scratch[k].broad = broadTally{}
	}
}

// bodyPairs updates the body–body candidates from the Verlet list over the
// movable bodies (and their periodic images) and starts w.pairs with them.
// On a list rebuild, a pair that stays a candidate keeps its entry (its
// feature list and history).
func (w *World) bodyPairs(gmax float64) {
	p := &w.bp
	tested := 0
	if p.fused { // placeBodies' pass gathered and tested the movable bodies
		tested = len(w.movable)
	} else {
		p.nb = -1 // the slots are wrong: made anew at the next placement
		w.centers, w.radii, w.movable = w.centers[:0], w.radii[:0], w.movable[:0]
		for i, b := range w.Bodies() {
			if b.Wall >= 0 {
				continue
			}
			w.centers = append(w.centers, b.X)
			w.radii = append(w.radii, b.Radius()+gmax/2)
			w.movable = append(w.movable, i)
		}
	}
	nm := len(w.movable)
	if w.Periodic.On() {
		w.addGhosts(gmax)
	}
	rebuilt, cand := w.verlet.UpdateTested(w.centers, w.radii, w.skin, tested, p.need, p.d1, p.d2)
	if rebuilt {
		// The pairs before the rebuild by key, then the keys met
		// (pairTable: the same answers as a map, only looked up, never
		// walked: the order of the candidates is cand's).
		t := &w.detectFns().pairs
		t.reset(len(w.bbPairs) + len(cand))
		for _, e := range w.bbPairs {
			t.find(e.A, e.B, e.Shift.X, e.Shift.Y).e = e // a later entry of a key replaces an earlier one
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
			if w.Bodies()[a].Fixed && w.Bodies()[b].Fixed {
				continue
			}
			s := t.find(a, b, shift.X, shift.Y)
			if s.seen {
				continue
			}
			s.seen = true
			if s.e == nil {
				s.e = w.newCandidate(a, b, shift, isSmooth(w.Bodies()[a]) || isSmooth(w.Bodies()[b]))
			}
			w.bbPairs = append(w.bbPairs, s.e)
		}
		t.done() // the entries dropped are not kept alive
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
	if p := &w.bp; p.fused && p.wallsOn && len(p.mask) == len(w.Bodies()) {
		// placeBodies' pass tested every body against the enabled walls.
		p.fused = false
		for j, wi := range p.walls {
			bit, row := uint64(1)<<j, w.wallPair[wi]
			for i, m := range p.mask {
				if m&bit != 0 {
					e := row[i]
					e.gen = w.gen
					w.pairs = append(w.pairs, e)
				}
			}
		}
		return
	}
	w.bp.fused = false
	for wi := range w.Walls {
		wl := &w.Walls[wi]
		if !wl.Enabled {
			continue
		}
		wb := wl.Body
		wbox := w.posed[wb].Box.Inflate(gmax + w.skin)
		for i, b := range w.Bodies() {
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

// detectPass holds the pass bodies of pairPass, made once
// for owner (detectFns: no allocation per step; they read the pass's
// state from the World and from these fields), and bodyPairs' table.
type detectPass struct {
	owner *World
	// pairPass's stages and what they read besides the World: the laws' dt
	// and the count of failed superquadric contact searches.
	cache, narrow, laws func(worker, lo, hi int)
	dt                  float64
	sqFail              atomic.Int64
	// bodyPairs' rebuild: the entries before it, the keys met (kept,
	// emptied: no allocation once grown).
	pairs pairTable
}

// detectFns returns w's detectPass with its pass bodies made.
func (w *World) detectFns() *detectPass {
	d := &w.detect
	if d.owner == w {
		return d
	}
	d.owner = w
	d.pairs = pairTable{} // a copy's slots are its original's
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
		m := lo            // the batch's pairs with contacts go to buf[lo:m]
		var visit []int32  // the batch's pairs that the cache stage visited
		var scr sq.Scratch // the batch's superquadric solver state (on the stack, cleared once a batch)
		if hi > lo {
			visit = act[lo:actN[lo]]
		}
		for _, i := range visit {
			e := pairs[i]
			if e.smooth {
				tl.smoothBatch = true
				if w.narrowSmoothIn(e, &scr) {
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
	for _, b := range w.Bodies() {
		if b.Wall < 0 && b.Kind == body.Polyhedral {
			rmax = max(rmax, b.Poly().Radius)
		}
	}
	gmax := w.MaxGap()
	for i, b := range w.Bodies() {
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
		e.gbar = w.Params(w.Bodies()[e.A].Material, w.Bodies()[e.B].Material).Normal.GBar
		e.gbarGen = w.lawGen
	}
	return e.gbar
}

// place poses every body (placeOne), the bodies split over the workers.
func (w *World) place() {
	w.placing()
	w.parallel(len(w.Bodies()), func(_, i int) { w.placeOne(i) })
}

// placing readies the poses for placeOne: the superquadrics' prepared
// shapes sized to the bodies, the poses marked current (posedOld).
func (w *World) placing() {
	w.posedOld = false
	if len(w.sqPrep) != len(w.Bodies()) {
		w.sqPrep = make([]sq.Prepared, len(w.Bodies()))
	}
}

// placeOne poses body i: world vertices and face normals of a polyhedron
// (contact.Posed), the box of a smooth body.
func (w *World) placeOne(i int) {
	b := w.Bodies()[i]
	if b.Kind == body.Polyhedral {
		w.posed[i].Update(b.Poly(), b.X, b.Q, b.Fixed)
	} else {
		w.posed[i].X, w.posed[i].Q, w.posed[i].Fixed = b.X, b.Q, b.Fixed
		w.posed[i].Box = w.placeSmooth(i, b)
	}
}

// VerletSkin returns the skin of the world's Verlet list: the one in use,
// or the one the next detection will choose (on the sphere path, the one
// World.Spheres chooses as it builds the path).
func (w *World) VerletSkin() float64 {
	if w.skin > 0 {
		return w.skin
	}
	if w.Spheres() != nil && w.skin > 0 {
		return w.skin
	}
	return w.chooseSkin(w.MaxGap())
}

// chooseSkin picks the Verlet skin of the generic stages: the user's
// (Settings.Skin) if set, else large enough that lists are rebuilt
// rarely, small enough that few far pairs are tested. The sphere path
// chooses with sphereSkin (skin.go).
func (w *World) chooseSkin(gmax float64) float64 {
	if w.Settings.Skin > 0 {
		return w.Settings.Skin
	}
	return max(4*gmax, 0.2*w.minRadius())
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
//
// The shifts are Periodic.images', written out per body on scalars (the
// same band tests and shifts in the same order, no slices): most bodies
// lie away from the seams and cost four comparisons. The ghosts are
// compared with the last step's, and their centres and radii appended, as
// they are made.
func (w *World) addGhosts(gmax float64) {
	rmax := 0.0
	for _, r := range w.radii {
		rmax = max(rmax, r)
	}
	band := 2*rmax + gmax + w.skin
	nm := len(w.movable)
	prev := w.ghosts
	gh := w.ghostBuf[:0]
	p := &w.Periodic
	// images' bounds and shifts (per call there; the same values)
	lx, ly := p.Hi.X-p.Lo.X, p.Hi.Y-p.Lo.Y
	loX, hiX, loY, hiY := p.Lo.X+band, p.Hi.X-band, p.Lo.Y+band, p.Hi.Y-band
	same := true
	for k, x := range w.centers[:nm] {
		var sx, sy [3]float64 // images' sx, sy: 0 first, then +l, −l as the bands hold
		nx, ny := 1, 1
		if p.X {
			if x.X < loX {
				sx[nx] = lx
				nx++
			}
			if x.X > hiX {
				sx[nx] = -lx
				nx++
			}
		}
		if p.Y {
			if x.Y < loY {
				sy[ny] = ly
				ny++
			}
			if x.Y > hiY {
				sy[ny] = -ly
				ny++
			}
		}
		if nx == 1 && ny == 1 {
			continue
		}
		r := w.radii[k]
		for _, a := range sx[:nx] {
			for _, b := range sy[:ny] {
				if a != 0 || b != 0 {
					g := ghost{int32(k), geom.V(a, b, 0)}
					if same {
						same = len(gh) < len(prev) && prev[len(gh)] == g
					}
					gh = append(gh, g)
					// the ghost's centre and radius, in the ghosts' order
					// (the range above reads the movable bodies' centres only)
					w.centers = append(w.centers, x.Add(g.shift))
					w.radii = append(w.radii, r)
				}
			}
		}
	}
	w.ghosts = gh
	if !same || len(gh) != len(prev) {
		w.verlet.Invalidate()
	}
	w.ghostBuf = prev[:0]
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
