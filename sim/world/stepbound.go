package world

import (
	"math"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// The step bound of the generic stages (S0 §2.4.7, Fig. 11): World.StableDt
// and its per-pair terms, and the one approach-speed bound of every
// integrator (ApproachDt).

// StableDt returns the largest step allowed by the contacts and the approach
// speeds (S0 §2.4.7, Fig. 11):
//   - every active contact: Δt ≤ s·2√(m_c/k_c), with the effective mass along the
//     normal and k_c = −df_n/dg at the gap predicted for the end of the step (the
//     barrier stiffens fast as the gap closes);
//   - every closing gap may close by at most Settings.Approach of itself;
//   - a pair that can reach the skin ḡ within one step already obeys the
//     stiffness bound at the skin's edge, with the smaller mass shared by
//     EntryContacts parallel contacts (a face landing flat);
//   - no body point may cross more than half the distance to a neighbour (or
//     of the skin) in one step at its current speed, nor more than ⅝ of it
//     under its current acceleration (gravity: a body at rest or at the
//     apex of a flight); a pair that can reach the skin under that
//     acceleration within its step also obeys the entry bound.
func (w *World) StableDt() float64 { return w.StableDtBelow(math.Inf(1)) }

// StableDtBelow returns min(StableDt(), limit), to the bit, for a caller
// that takes the smaller of the two anyway (explicit: at most 1.25 times
// the last step). Each term of StableDt's minimum that provably is not
// below the limit, nor below a term already known, is skipped rather than
// evaluated; a minimum does not depend on the terms above it, so the result
// is the same bits (and the same for any number of workers, a minimum
// being independent of its order). What is skipped (stepBound):
//   - the pair that set the last bound is evaluated first, so its term
//     (usually again the smallest) joins the limit;
//   - the travel and entry terms of every polyhedral pair when bounds over
//     the whole world (the fastest body, the largest acceleration, the
//     smallest skin and the lightest body) show that none of them can be
//     below that limit — then only the pairs with contacts are visited;
//   - a contact whose stiffness and approach terms are bounded below, without
//     its effective mass and velocities, by a value not below that limit.
func (w *World) StableDtBelow(limit float64) float64 {
	w.leaveSpheres()
	t0 := time.Now()
	bd := &w.bound
	sw := w.boundStart(limit)
	sk := bd.visitSk
	// The pairs to visit: all, or those with contacts (and smooth ones).
	visit := bd.visit[:0]
	if live, ok := w.livePairs(); ok && !sk.travel && !sw.smooth {
		// Commit's list of the pairs with contacts (a superset, in order).
		for _, i := range live {
			if len(w.pairs[i].prev) > 0 {
				visit = append(visit, i)
			}
		}
	} else {
		for i, e := range w.pairs {
			if visits(sk, sw, e) {
				visit = append(visit, int32(i))
			}
		}
	}
	bd.visit = visit
	w.parallelRange(len(visit), bd.visitFn(w))
	return w.boundEnd(limit, t0)
}

// visits reports whether StableDtBelow evaluates pair e: every pair when
// the travel terms count, else those with accepted contacts and, when a
// smooth body takes part, the smooth pairs.
func visits(sk skipAbove, sw stepWorld, e *pairEntry) bool {
	return sk.travel || len(e.prev) > 0 || (sw.smooth && e.smooth)
}

// boundStart is StableDtBelow up to the visit of the pairs: the bodies'
// and world's terms, the pair that set the last bound (evaluated in full
// first; its term joins the result), what the visit may skip
// (bd.visitSk, bd.visitU, bd.visitSp) and the workers' minima emptied.
// The result so far is kept in bd.dt0.
func (w *World) boundStart(limit float64) stepWorld {
	s := &w.Settings
	bd := &w.bound
	sp, sw := bd.speeds(w)
	bd.at = w.stamp()
	dt := min(s.DtMax, w.smoothTravelDt(sp))
	u := min(dt, limit)
	if bd.lastI < len(w.pairs) && w.pairs[bd.lastI] == bd.last {
		// A term of the minimum, evaluated in full: it joins the result too,
		// since the visit below may skip this pair when its terms equal u.
		d := w.pairDt(bd.last, sp, &skipNone, nil)
		u, dt = min(u, d), min(dt, d)
	}
	sk := skipAbove{u: u, travel: !sw.travelAbove(u), contacts: u < math.Inf(1) && s.Approach > 0 && w.Dt >= 0}
	nw := max(s.Workers, 1)
	if len(bd.mins) < nw {
		bd.mins = make([]workerMin, nw)
	}
	mins := bd.mins[:nw]
	for k := range mins {
		mins[k].dt, mins[k].i = math.Inf(1), -1
	}
	if sk.contacts {
		// pairDt's skip test with a tabulated stiffness: k_c·(1/m_c)·D² ≤ c.
		sk.c = 2 * s.Safety * (1 - boundSlack) / u
		sk.c *= sk.c
	}
	bd.visitSp, bd.visitSk, bd.visitU, bd.visitSw, bd.dt0 = sp, sk, u, sw, dt
	return sw
}

// boundEnd is StableDtBelow after the visit: the minimum over the
// workers' minima, the pair that gave it, the profile.
func (w *World) boundEnd(limit float64, t0 time.Time) float64 {
	bd := &w.bound
	bd.visitSp = nil
	dt := bd.dt0
	best := math.Inf(1)
	for k := range bd.mins[:max(w.Settings.Workers, 1)] {
		m := &bd.mins[k]
		if m.dt < best && m.i >= 0 {
			best, bd.lastI = m.dt, m.i
			bd.last = w.pairs[bd.lastI]
		}
		dt = min(dt, m.dt)
	}
	w.Stats.Profile.StepBound += time.Since(t0)
	return min(max(dt, w.Settings.DtMin), limit)
}

// visitPair is the visit's evaluation of pair i as worker k.
func (bd *stepBound) visitPair(w *World, k, i int) {
	m := &bd.mins[k]
	d := w.pairDt(w.pairs[i], bd.visitSp, &bd.visitSk, &m.tabs)
	if d < m.dt && d <= bd.visitU {
		m.i = i
	}
	m.dt = min(m.dt, d)
}

// visitList is the visit's evaluation of the pairs list (indices in
// w.pairs) as worker k: visitPair on each, with the worker's minimum and
// the visit's values read once.
func (bd *stepBound) visitList(w *World, k int, list []int32) {
	m := &bd.mins[k]
	sp, sk, u, pairs := bd.visitSp, &bd.visitSk, bd.visitU, w.pairs
	for _, i := range list {
		d := w.pairDt(pairs[i], sp, sk, &m.tabs)
		if d < m.dt && d <= u {
			m.i = int(i)
		}
		m.dt = min(m.dt, d)
	}
}

// own drops the pass bodies made for another World than w (they hold the
// World they were made for).
func (bd *stepBound) own(w *World) {
	if bd.fnOwner != w {
		bd.fnOwner, bd.speedsRun, bd.visitRun = w, nil, nil
	}
}

// visitFn returns the pass body of StableDtBelow's visit over the pairs
// visit[lo:hi] as worker k, which keeps its own minimum and the pair that
// gave it (made once: no allocation per call).
func (bd *stepBound) visitFn(w *World) func(k, lo, hi int) {
	bd.own(w)
	if bd.visitRun == nil {
		bd.visitRun = func(k, lo, hi int) { bd.visitList(w, k, bd.visit[lo:hi]) }
	}
	return bd.visitRun
}

// skipAbove tells pairDt which terms it may leave out, all of them provably
// not below u: the travel and entry terms unless travel, a contact's terms
// when pairDt's skip test shows them above u (tried only if contacts and
// pairDt is given the worker's stiffness tables; c = (2·Safety·(1 −
// boundSlack)/u)² is the bound of the tabulated stiffness test).
type skipAbove struct {
	u, c             float64
	travel, contacts bool
}

// skipNone leaves nothing out.
var skipNone = skipAbove{u: math.Inf(1), travel: true}

// pairDt is StableDt's bound for one candidate pair, leaving out the terms
// that sk allows to (skipNone: the pair's full bound), with tabs the
// worker's stiffness tables (nil: no contact is left out). sp holds each
// body's speed terms (bodySpeed), computed once per call of StableDt.
func (w *World) pairDt(e *pairEntry, sp []bodySpeed, sk *skipAbove, tabs *stiffTables) float64 {
	s := &w.Settings
	dt := s.DtMax
	a, b := w.Bodies()[e.A], w.Bodies()[e.B]
	p := w.Params(a.Material, b.Material)
	if e.smooth {
		return w.pairDtSmooth(e, p, sp, sk.u)
	}
	var meq float64
	if len(e.prev) > 0 {
		meq = law.EquivalentMass(a.MassOrInf(), b.MassOrInf())
	}
	var tab *stiffTable
	if sk.contacts && tabs != nil && len(e.prev) > 0 {
		if t := tabs.last; t != nil && t.p == p && t.gen == w.lawGen {
			tab = t
		} else {
			tab = tabs.of(w, p)
		}
	}
	// The contacts' skip test is written out in the loop (a call per
	// contact spilled more than the test costs); it reads the pair's
	// values where they are (a pair has one or two contacts: copies made
	// once per pair cost more than the loads).
	sa, sb := &sp[e.A], &sp[e.B]
	for k := range e.prev {
		c := &e.prev[k]
		if !c.Active() {
			continue
		}
		if tab != nil && c.Gn > 0 {
			// The contact's approach and stiffness terms are not below u
			// when bounded without its velocities and effective mass
			// (skipAbove.contacts; StableDt's terms below): the approach
			// speed is at most sab = sa.s + sb.s, since the contact points
			// lie within the bounding radii (checked), so the predicted gap
			// is at least gl = max(g − sab·Δt, (1 − Approach)·g) and k_c at
			// most the stiffness there, at most the table's entry for gl
			// (k_c falls as the gap opens: S0 eq. 49 with n1 ≥ 1, n2 < 0,
			// Linear, Hertz; stiffTable.at); 1/m_c = Σ 1/m + (r×n)·J⁻¹(r×n)
			// is at most im = Σ 1/m + jmax·|r×n|² (Gershgorin, bodySpeed);
			// with √(1+ζ_e²) + ζ_e ≤ 1 + ζ_e + ζ_e²/2 the stiffness term
			// s·2√(m_c/k_c)/(√(1+ζ_e²) + ζ_e) (S0 §2.4.7 with eq. 52's
			// dashpot) is then at least 2·Safety/(√(k·im)·(1 + ζ_e +
			// ζ_e²/2)), not below u by boundSlack when k·im·(1 + ζ_e +
			// ζ_e²/2)² ≤ sk.c = (2·Safety·(1 − boundSlack)/u)²; when that
			// fails, lawAbove evaluates the law at gl.
			gn, sab, u := c.Gn, sa.s+sb.s, sk.u
			rax, ray, raz := c.PA.X-a.X.X, c.PA.Y-a.X.Y, c.PA.Z-a.X.Z
			rbx, rby, rbz := c.PB.X-b.X.X, c.PB.Y-b.X.Y, c.PB.Z-b.X.Z
			if rax*rax+ray*ray+raz*raz <= sa.r2 && rbx*rbx+rby*rby+rbz*rbz <= sb.r2 && s.Approach*gn/sab >= u {
				// gl = min(g, max(g − sab·Δt, (1 − Approach)·g)) by plain
				// comparisons. They differ from min/max only where a term is
				// NaN: g = +Inf with Approach = 1 (k_c = 0 there, so the
				// skipped bound is above u either way; review rv2).
				gl := gn - sab*w.Dt
				if g1 := gn * (1 - s.Approach); g1 > gl {
					gl = g1
				}
				if gn < gl {
					gl = gn
				}
				if gl >= p.Normal.GBar {
					continue // k_c = 0 at every gap from gl up: no stiffness term
				}
				n := &c.N
				xa := sq3(ray*n.Z-raz*n.Y, raz*n.X-rax*n.Z, rax*n.Y-ray*n.X) // |ra × n|²
				xb := sq3(rby*n.Z-rbz*n.Y, rbz*n.X-rbx*n.Z, rbx*n.Y-rby*n.X)
				im := (sa.im + sa.jmax*xa + sb.im + sb.jmax*xb) * boundUp
				if im == 0 {
					continue // both bodies fixed: no stiffness term
				}
				ze := p.Zeta * math.Sqrt(meq*im)
				kt := math.Inf(1) // tab.at(gl), its lookup written out
				if j := math.Float64bits(gl)>>48 - tab.base; j < uint64(len(tab.k)) {
					kt = tab.k[j]
				}
				if kt != kt {
					kt = tab.fill(gl)
				}
				if d := 1 + ze*(1+0.5*ze); kt*im*d*d <= sk.c || lawAbove(p, gl, im, ze, s.Safety, u) {
					continue
				}
			}
		}
		vrel := a.VelocityAt(c.PA).Sub(b.VelocityAt(c.PB))
		ap := -vrel.Dot(c.N)
		g := c.Gn
		if ap > 0 {
			dt = min(dt, s.Approach*c.Gn/ap)
			g = max(c.Gn-ap*w.Dt, c.Gn*(1-s.Approach))
		}
		if kc := p.Normal.Stiffness(g); kc > 0 {
			if im := effMass(a, c.PA, c.N) + effMass(b, c.PB, c.N); im > 0 {
				dt = min(dt, s.Safety*criticalDt(kc, 1/im, meq, p.Zeta))
			}
		}
	}
	if !sk.travel {
		return dt
	}
	// Distance d that features must cross to reach each other, the
	// fastest relative speed v of any two body points and a bound acc of
	// their relative acceleration (travelAcc).
	var d, v, acc float64
	gbar := p.Normal.GBar
	if a.Wall >= 0 || b.Wall >= 0 {
		wb, bb, ib := a, b, e.B
		if b.Wall >= 0 {
			wb, bb, ib = b, a, e.A
		}
		wl := &w.Walls[wb.Wall]
		if wl.Planar {
			d = max(0, bb.X.Sub(wl.P).Dot(wl.N)-bb.Radius())
		}
		v = sp[ib].v + sp[ib].wr // |V| + |ω|·R
		acc = sp[ib].acc
	} else {
		d = max(0, b.X.Sub(a.X).Norm()-a.Radius()-b.Radius())
		v = a.V.Sub(b.V).Norm() + sp[e.A].wr + sp[e.B].wr
		acc = sp[e.A].acc + sp[e.B].acc
	}
	dt = min(dt, ApproachDt(0.5*max(d, gbar), v, 0))
	// Under an acceleration the travel in a step Δt is vΔt + ½·acc·Δt²
	// (velocity Verlet's drift): a body at rest or at the apex of a flight
	// (v ≈ 0) would otherwise take dt_max whatever it is, and cross the
	// whole distance in one step. The second term is kept below a quarter
	// of the distance, so a step closes at most ⅝ of it. (A limit of its own,
	// not ApproachDt(⅝·max(d, ḡ), v, acc): merging them changes the bits.)
	if acc > 0 {
		dt = min(dt, math.Sqrt(0.25*max(d, gbar)/acc)) // ½·acc·Δt² ≤ ⅛·max(d, ḡ)
	}
	if d < gbar+v*s.DtMax || d < gbar+(v+0.5*acc*dt)*dt {
		dt = min(dt, w.entryDt(e, a, b, p))
	}
	return dt
}

// bodySpeed holds the terms of one body for StableDt: v = |V|, wr = |ω|·R
// and acc = travelAcc for the travel bound; for the lower bounds of
// stepBound, s = (v + wr)·boundUp ≥ the largest speed of a point within
// √r2 of the centre, r2 = R²·(1 + 1e-9) (+Inf when ω = 0; a contact point
// may lie a rounding outside R, at a vertex that defines R), rounding
// included, im = 1/m and jmax ≥ the largest eigenvalue of J⁻¹ (both
// 0 for a fixed body, as in effMass).
type bodySpeed struct{ v, wr, acc, s, r2, im, jmax float64 }

// stepBound is what StableDt keeps between calls: the pair that set the
// last bound (evaluated first next time) and the workers' minima.
type stepBound struct {
	last  *pairEntry
	lastI int
	mins  []workerMin
	visit []int32 // indices of the pairs to visit
	parts []speedPart
	at    speedStamp // when w.speeds were computed (TravelCurrent)
	// pre: the state whose bodies' terms Commit's pass computed
	// (Commit.Bound), for the next speeds (used once).
	pre speedStamp
	// The pass bodies of speeds and of StableDtBelow's visit, made once,
	// and what the visit reads (no allocation per call).
	fnOwner             *World
	speedsRun, visitRun func(k, lo, hi int)
	visitSp             []bodySpeed
	visitSk             skipAbove
	visitSw             stepWorld
	visitU, dt0         float64
}

// speedStamp identifies the state w.speeds were computed from: the
// detection (World.gen), the step count and time and the number of bodies.
// Every evaluation moves gen, so a stamp still equal means, inside a step,
// that the bodies' state and loads are those the speeds were computed from.
type speedStamp struct {
	gen, steps uint64
	time       float64
	n          int
	ok         bool
}

// stamp returns w's current speedStamp.
func (w *World) stamp() speedStamp {
	return speedStamp{gen: w.gen, steps: uint64(w.Steps), time: w.Time, n: len(w.Bodies()), ok: true}
}

// TravelCurrent reports whether BodyTravel's values are current: the last
// StableDt or StableDtBelow computed them and no detection, step or change
// of the body count came since. It is for a caller that asks right after
// StableDtBelow in the same step, before the bodies or their loads change
// (explicit's step control); the values are then those the bodies' state
// gives, to the bit.
func (w *World) TravelCurrent() bool {
	return w.bound.at.ok && w.bound.at == w.stamp() && len(w.speeds) == len(w.Bodies())
}

// BodyTravel returns body i's travel terms as the last StableDt or
// StableDtBelow computed them: v = |V| + |ω|·R and acc = |F|/m + |J⁻¹T|·R
// (travelAcc; 0 for a fixed body), the same operations as integrate's
// travel bound. Valid only while TravelCurrent.
func (w *World) BodyTravel(i int) (v, acc float64) {
	x := &w.speeds[i]
	return x.v + x.wr, x.acc
}

// TravelFloor returns a lower bound of ApproachDt(h, v, acc) over every
// body's BodyTravel terms (v, acc) for h > 0 (NaN otherwise, or when a
// term is NaN): a caller that finds it at or above a limit knows that no
// body's travel term is below the limit without reading the bodies (the
// step control's travelDtBelow). Valid only while TravelCurrent. It is
// ApproachDt at the world's largest speed bound and acceleration, which
// are maxima over the bodies of (v + |ω|R)·boundUp ≥ v and of acc
// (stepWorld): ApproachDt's operations are each monotone under rounding
// (a larger v or acc gives a larger or equal denominator), so within each
// of its two branches the value at the maxima is at most a body's; and
// min with the branch a = 0 (h/v_max) covers a body with acc = 0 when the
// largest acc is not, since 2h/(v + √(v² + 2ah)) ≤ h/v needs √(fl(v²)) ≥ v,
// which a subnormal v² would break.
func (w *World) TravelFloor(h float64) float64 {
	if !(h > 0) {
		return math.NaN()
	}
	sw := &w.bound.visitSw
	// A NaN speed or acceleration (max carries it through) would make
	// ApproachDt +Inf: a floor above the other bodies' terms (review r3).
	if !(sw.sMax >= 0 && sw.accMax >= 0) {
		return math.NaN()
	}
	return min(ApproachDt(h, sw.sMax, sw.accMax), ApproachDt(h, sw.sMax, 0))
}

// speedPart is one worker's share of speeds: the maxima and minimum over
// its bodies, whether one was smooth, the materials of its polyhedra.
type speedPart struct {
	sMax, accMax, mMin float64
	smooth             bool
	mats               []bool
	_                  [64]byte
}

// workerMin is one worker's minimum over its pairs and the pair that gave
// it, and its stiffness tables (kept across calls), padded to its own cache
// line.
type workerMin struct {
	dt   float64
	i    int
	tabs stiffTables
	_    [16]byte
}

// stiffTable tabulates a law's stiffness k_c (law.Normal.Stiffness) at the
// lower ends of gap buckets, 16 per octave (a positive gap's exponent and
// its top four mantissa bits: the bucket's lower end is the gap with the
// other bits cleared), from 20 octaves below ḡ up to ḡ. Entries are
// computed when first read (NaN until then) and kept while the law is
// (World.lawGen). k_c falls as the gap opens (S0 eq. 49 with n1 ≥ 1,
// n2 < 0, Linear, Hertz), so k_c(g) ≤ at(g) for every gap g.
type stiffTable struct {
	p    *ContactParams
	gen  uint64
	base uint64    // bucket of k[0]
	k    []float64 // by bucket − base
}

// stiffBuckets is the number of buckets of a stiffTable: 20 octaves.
const stiffBuckets = 20 * 16

// stiffTables is one worker's tables, one per law met, and the last one
// asked for.
type stiffTables struct {
	last *stiffTable
	all  []*stiffTable
}

// of returns the table of law p (made when first needed).
func (ts *stiffTables) of(w *World, p *ContactParams) *stiffTable {
	if t := ts.last; t != nil && t.p == p && t.gen == w.lawGen {
		return t
	}
	var t *stiffTable
	for _, x := range ts.all {
		if x.p == p {
			t = x
			break
		}
	}
	if t == nil {
		t = &stiffTable{}
		ts.all = append(ts.all, t)
	}
	if t.p != p || t.gen != w.lawGen {
		t.reset(w, p)
	}
	ts.last = t
	return t
}

// reset empties t for law p at the world's current law generation.
func (t *stiffTable) reset(w *World, p *ContactParams) {
	t.p, t.gen = p, w.lawGen
	if cap(t.k) < stiffBuckets+1 {
		t.k = make([]float64, stiffBuckets+1)
	}
	t.k = t.k[:stiffBuckets+1]
	for i := range t.k {
		t.k[i] = math.NaN()
	}
	t.base = 0
	if top := math.Float64bits(p.Normal.GBar) >> 48; p.Normal.GBar > 0 && top >= stiffBuckets {
		t.base = top - stiffBuckets
	}
}

// at returns an upper bound of k_c at every gap from g up (+Inf below the
// table or for a gap that is not positive and finite): the stiffness at
// the lower end of g's bucket. (A negative, zero, subnormal, infinite or
// NaN gap has its bucket outside the table: fill.)
func (t *stiffTable) at(g float64) float64 {
	if j := math.Float64bits(g)>>48 - t.base; j < uint64(len(t.k)) {
		if k := t.k[j]; k == k { // NaN: not yet computed
			return k
		}
	}
	return t.fill(g)
}

// fill is at for an entry not yet computed or a gap outside the table.
func (t *stiffTable) fill(g float64) float64 {
	b := math.Float64bits(g) >> 48
	if !(g > 0 && g < math.Inf(1)) || b < t.base || b-t.base >= uint64(len(t.k)) {
		return math.Inf(1)
	}
	k := t.p.Normal.Stiffness(math.Float64frombits(b << 48))
	t.k[b-t.base] = k
	return k
}

// stepWorld holds the bounds over the whole world for stepBound's
// travelAbove: the fastest body (sMax of bodySpeed.s), the largest
// acceleration (accMax), the smallest skin ḡ of a law between polyhedra
// (gMin), a lower bound of every entry term (entryMin) and whether a
// smooth body takes part (then smooth pairs must be visited).
type stepWorld struct {
	sMax, accMax, gMin, entryMin float64
	smooth                       bool
}

// Margins of the lower bounds. boundUp covers the rounding of a speed
// (a norm and a few sums: some 1e-16 each) and a lever arm up to
// R·(1 + 5e-10) (bodySpeed.r2); boundSlack that of the
// stiffness and criticalDt evaluations (math.Pow within an ulp or two,
// √(1+ζ_e²) − ζ_e within 4ε·ζ_e², kept below 1e-9 by zetaMax) — a bound is
// used only when it is above u by this relative margin.
const (
	boundUp    = 1 + 1e-9
	boundSlack = 1e-6
	zetaMax    = 1e3
)

// speeds fills the bodies' terms (bodySpeed) and the world's (stepWorld),
// the bodies split over the workers (each body on its own; the world's
// terms are maxima and minima of per-worker ones: the same for any split).
// When Commit's pass has just computed the bodies' terms on the state they
// are asked for (Commit.Bound: pre is w's stamp), only the world's terms are
// left to sum; pre is used once.
func (bd *stepBound) speeds(w *World) ([]bodySpeed, stepWorld) {
	pre := bd.pre
	bd.pre.ok = false
	if !(pre.ok && pre == w.stamp() && len(w.speeds) == len(w.Bodies()) && len(bd.parts) >= max(w.Settings.Workers, 1)) {
		bd.speedsReset(w)
		w.parallelRange(len(w.Bodies()), bd.speedsFn(w))
	}
	return bd.speedsSum(w)
}

// speedsFn returns the pass body of speeds over bodies [lo, hi) as worker
// k (made once: no allocation per call).
func (bd *stepBound) speedsFn(w *World) func(k, lo, hi int) {
	bd.own(w)
	if bd.speedsRun == nil {
		bd.speedsRun = func(k, lo, hi int) {
			for i := lo; i < hi; i++ {
				bd.speedOf(w, k, i)
			}
		}
	}
	return bd.speedsRun
}

// speedsReset sizes w.speeds and the workers' parts for a speeds pass and
// empties the parts.
func (bd *stepBound) speedsReset(w *World) {
	if cap(w.speeds) < len(w.Bodies()) {
		w.speeds = make([]bodySpeed, len(w.Bodies()))
	}
	w.speeds = w.speeds[:len(w.Bodies())]
	nw, nm := max(w.Settings.Workers, 1), len(w.Materials)
	if len(bd.parts) < nw {
		bd.parts = make([]speedPart, nw)
	}
	parts := bd.parts[:nw]
	for k := range parts {
		pt := &parts[k]
		if len(pt.mats) < nm {
			pt.mats = make([]bool, nm)
		}
		pt.mats = pt.mats[:nm]
		clear(pt.mats)
		pt.sMax, pt.accMax, pt.mMin, pt.smooth = 0, 0, math.Inf(1), false
	}
}

// speedOf computes body i's terms (bodySpeed) into w.speeds[i] and adds
// them to worker k's part. It reads body i only: V, ω, F, T, R, the mass
// properties, the kind and material.
func (bd *stepBound) speedOf(w *World, k, i int) {
	b, pt := w.Bodies()[i], &bd.parts[k]
	x := bodySpeed{v: b.V.Norm(), wr: b.W.Norm() * b.Radius(), acc: travelAcc(b)}
	x.s = (x.v + x.wr) * boundUp
	x.r2 = math.Inf(1)
	if b.W != (geom.Vec3{}) {
		x.r2 = b.R * b.R * (1 + 1e-9)
	}
	if !b.Fixed {
		x.im, x.jmax = b.InvMass(), b.InvInertiaBound()
		pt.mMin = min(pt.mMin, b.MassOrInf())
	}
	w.speeds[i] = x
	pt.sMax, pt.accMax = max(pt.sMax, x.s), max(pt.accMax, x.acc)
	if b.Kind == body.Polyhedral {
		pt.mats[b.Material] = true
	} else {
		pt.smooth = true
	}
}

// speedsSum is the rest of speeds once every body's terms are in: the
// world's terms from the workers' parts.
func (bd *stepBound) speedsSum(w *World) ([]bodySpeed, stepWorld) {
	sp := w.speeds[:len(w.Bodies())]
	parts := bd.parts[:max(w.Settings.Workers, 1)]
	var sw stepWorld
	mMin := math.Inf(1)
	mats := parts[0].mats
	for k := range parts {
		pt := &parts[k]
		sw.sMax, sw.accMax, mMin = max(sw.sMax, pt.sMax), max(sw.accMax, pt.accMax), min(mMin, pt.mMin)
		sw.smooth = sw.smooth || pt.smooth
		for m, on := range pt.mats {
			mats[m] = mats[m] || on
		}
	}
	sw.gMin, sw.entryMin = math.Inf(1), math.Inf(1)
	safety := w.Settings.Safety
	for i := range mats {
		for j := i; j < len(mats); j++ {
			if !mats[i] || !mats[j] {
				continue
			}
			p := w.Params(i, j)
			if p == nil || !(p.Zeta >= 0 && p.Zeta <= zetaMax) {
				sw.gMin, sw.entryMin = 0, 0
				continue
			}
			sw.gMin = min(sw.gMin, p.Normal.GBar)
			// entryDt ≥ s·2√(m/k)/(√(1+ζ_e²) + ζ_e) with m ≥ mMin/EntryContacts and
			// ζ_e = ζ√(m_eq/m) ≤ ζ√EntryContacts (m_eq ≤ the smaller mass).
			if k := p.Normal.Stiffness(p.Normal.GBar * (1 - 1e-9)); k > 0 && !math.IsInf(mMin, 0) {
				ze := p.Zeta * math.Sqrt(EntryContacts)
				e := safety * 2 * math.Sqrt(mMin/EntryContacts/k) / (math.Sqrt(1+ze*ze) + ze)
				sw.entryMin = min(sw.entryMin, e*(1-boundSlack))
			}
		}
	}
	return sp, sw
}

// travelAbove reports whether no travel or entry term of a polyhedral pair
// (pairDt's part after its contacts) can be below u: the approach term
// ½·max(d, ḡ)/v with v ≤ 2·sMax, the acceleration term √(¼·max(d, ḡ)/acc)
// with acc ≤ 2·accMax, and the entry term (≥ entryMin). The first two are
// the same operations on smaller numerators and larger denominators, so
// the rounding keeps the order.
func (sw stepWorld) travelAbove(u float64) bool {
	l1 := 0.5 * sw.gMin / (2 * sw.sMax)
	l2 := math.Sqrt(0.25 * sw.gMin / (2 * sw.accMax))
	return l1 >= u && l2 >= u && sw.entryMin >= u
}

// lawAbove reports whether the stiffness term s·2√(m_c/k_c)/(√(1+ζ_e²) +
// ζ_e) of a contact is provably not below u (by boundSlack) when its
// predicted gap is at least gl, 1/m_c at most im and ζ_e = ζ√(m_eq·im)
// (pairDt's skip test, when the tabulated stiffness did not decide): k_c
// is at most the law's stiffness at gl (k_c falls as the gap opens), so
// the term is at least s·2√(1/(im·k_c(gl)))/(√(1+ζ_e²) + ζ_e).
func lawAbove(p *ContactParams, gl, im, ze, safety, u float64) bool {
	kc := p.Normal.Stiffness(gl)
	if kc == 0 {
		return true // k_c = 0 at every gap from gl up: no stiffness term
	}
	l := safety * 2 * math.Sqrt(1/(im*kc)) / (math.Sqrt(1+ze*ze) + ze)
	return l*(1-boundSlack) >= u
}

// sq3 is x² + y² + z² (geom.Vec3.Norm2's operations).
func sq3(x, y, z float64) float64 { return x*x + y*y + z*z }

// entryDt is the stiffness bound at the skin's edge of StableDt for pair e
// (+Inf where it does not apply): s·Δt_c of the barrier's stiffness just
// inside ḡ on the lighter body's mass shared by EntryContacts contacts. It
// depends on the masses, the law and the safety factor only, so it is kept
// in the pair and evaluated again only when one of them changed (the same
// value to the bit).
func (w *World) entryDt(e *pairEntry, a, b *body.Body, p *ContactParams) float64 {
	ma, mb := a.MassOrInf(), b.MassOrInf()
	s := w.Settings.Safety
	if e.entryGen == w.lawGen && e.entryMA == ma && e.entryMB == mb && e.entrySafety == s && e.entryP == p {
		return e.dtEntry
	}
	dt := math.Inf(1)
	m := min(ma, mb) / EntryContacts
	if kc := p.Normal.Stiffness(p.Normal.GBar * (1 - 1e-9)); kc > 0 && !math.IsInf(m, 0) {
		dt = s * criticalDt(kc, m, law.EquivalentMass(ma, mb), p.Zeta)
	}
	e.dtEntry, e.entryGen, e.entryMA, e.entryMB, e.entrySafety, e.entryP = dt, w.lawGen, ma, mb, s, p
	return dt
}

// travelAcc bounds the acceleration of any point of body b from its last
// evaluated load: |F|/m + |J⁻¹T|·R (a fixed body: 0).
func travelAcc(b *body.Body) float64 {
	if b.Fixed {
		return 0
	}
	return b.F.Norm()*b.InvMass() + b.MulInvInertia(b.T).Norm()*b.Radius()
}

// ApproachDt is the one approach-speed step bound of every integrator: the
// largest Δt for which a point moving at speed v with acceleration a covers
// at most the distance h,
//
//	vΔt + ½aΔt² ≤ h  ⇒  Δt = 2h / (v + √(v² + 2ah))   (Δt = h/v when a = 0),
//
// +Inf when v = a = 0. It is kinematics (velocity Verlet's drift,
// Δt·(v + ½Δt·a)), not an equation of the papers; what it protects is:
// no contact is missed between detections — a point may not cross the
// contact skin ḡ or its Verlet skin unseen (S0 §2.5, the night owls of S0
// §2.6 are the ones that did; S1 §2.3 detects once per DEM step; S3 eq.
// (10) asks for no penetration, which CD only sees at contact candidates).
// The integrators differ in h, v and a only: StableDt's pairs (h = ½·max(d,
// ḡ), a = 0; its acceleration term is a separate limit, see pairDt), the
// free polyhedra's travel bound (integrate travelDt: h = reach·skin), the
// sphere path (h = 0.1·R_min), newmark's crossing guard (h a fraction of
// the clearance or skin, a = 0) and cd (h = ½·Approach·reach, a = 2|g|,
// reach 0.1·R for smooth bodies).
func ApproachDt(h, v, a float64) float64 {
	if a == 0 {
		if v > 0 {
			return h / v
		}
		return math.Inf(1)
	}
	if s := v + math.Sqrt(v*v+2*a*h); s > 0 {
		return 2 * h / s
	}
	return math.Inf(1)
}

// criticalDt is the stability limit of explicit integration of a spring k on
// an effective mass m with the viscous damping of S0 eq. (52), whose
// coefficient c = 2ζ√(k·m_eq) uses the equivalent translational mass m_eq:
// Δt_c = (2/ω)(√(1+ζ_e²) − ζ_e), ω = √(k/m), ζ_e = c/(2√(k·m)). Without damping
// it is S0's 2√(m_c/k_c) (§2.4.7); a dashpot on a light contact lowers it.
func criticalDt(k, m, meq, zeta float64) float64 {
	ze := zeta * math.Sqrt(meq/m)
	return 2 * math.Sqrt(m/k) * (math.Sqrt(1+ze*ze) - ze)
}

// EntryContacts is how many parallel contacts the entry bound of StableDt
// assumes share the lighter body's mass (a cube landing on a face has four,
// each with rotational effective mass below m).
const EntryContacts = 8

// effMass returns 1/m_eff contribution of body b for a unit impulse along n at
// point p: 1/m + (r×n)·J⁻¹(r×n).
func effMass(b *body.Body, p, n geom.Vec3) float64 {
	if b.Fixed {
		return 0
	}
	rn := b.Q.InvRotate(p.Sub(b.X).Cross(n)) // body frame
	return b.InvMass() + rn.Dot(b.IBodyInv().MulV(rn))
}
