package world

import (
	"math"
	"sync/atomic"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// Solver stage 2, the interface laws of every active contact — normal
// barrier/penalty force (S0 eq. 49–51), viscous damping with the compressive
// clamp (eq. 52–53) and Coulomb stick/slip friction (eq. 54–57) — runs pair
// by pair (lawsPair): in stageDetect's pass right after each pair's narrow
// phase (Evaluate), or after each pair's refresh (EvaluateFixed). dt is the
// time since the previous accepted evaluation (the tangential displacement
// increment is the relative velocity times dt). Each pair only writes its
// own contacts, so the stage runs in parallel deterministically.

// lawsPair is stage 2 for one pair; energy says whether to fill Contact.Epot.
func (w *World) lawsPair(e *pairEntry, dt float64, energy bool) {
	a, b := w.Bodies[e.A], w.Bodies[e.B]
	p := w.Params(a.Material, b.Material)
	if e.smooth {
		w.lawsSmooth(e, a, b, p, dt)
		return
	}
	ma, mb := a.MassOrInf(), b.MassOrInf()
	for k := range e.cur {
		c := &e.cur[k]
		if !c.Active() {
			c.Fn, c.Ft, c.Epot = 0, geom.Vec3{}, 0
			continue
		}
		gn := c.Gn
		fn := p.Normal.Force(gn)
		vrel := a.VelocityAt(c.PA).Sub(b.VelocityAt(c.PB))
		gnDot := vrel.Dot(c.N)                   // > 0 separating
		fd := w.dashpot(c, p, ma, mb, gnDot, dt) // S0 eq. (52) (damplag.go)
		c.Fn = law.NormalTotal(fn, fd)
		vt := vrel.Sub(c.N.Scale(gnDot))
		c.Ft = p.Friction.UpdateStick(&c.Fric, c.N, vt.Scale(dt), vt, c.Fn, w.stickForce(c)) // S0 eq. (54)–(57) (damplag.go)
		if energy {
			c.Epot = p.Normal.Potential(gn) + p.Friction.Potential(&c.Fric)
		}
	}
}

// stageAccumulate is solver stage 3: gravity, external loads at time t, and
// the contact forces, summed into each body's force and moment in a fixed
// order (pairs in list order), so the sum is independent of the worker count.
func (w *World) stageAccumulate(pairs []*pairEntry, t float64) {
	w.ExternalForces(t)
	w.accumulateContacts(pairs)
}

// ExternalForces sets every body's force and moment to gravity, the external
// loads at time t and the bond forces — everything but contacts. Contact
// dynamics (integrate.CD) calls it after DetectContacts.
func (w *World) ExternalForces(t float64) {
	for _, b := range w.Bodies {
		b.F, b.T = geom.Vec3{}, geom.Vec3{}
		if !b.Fixed {
			b.F = w.Gravity.Scale(b.Mass)
		}
	}
	if cap(w.LoadValues) < len(w.Loads) {
		w.LoadValues = make([]LoadValue, len(w.Loads))
	}
	w.LoadValues = w.LoadValues[:len(w.Loads)]
	for i := range w.Loads {
		l := &w.Loads[i]
		f, m := l.Apply(w.Bodies[l.Body], t)
		w.LoadValues[i] = LoadValue{f, m}
	}
	for i := range w.Walls {
		w.Walls[i].Force = geom.Vec3{}
	}
	w.accumulateBonds()
}

// accumulateContacts adds the contact forces of the current evaluation, pair
// by pair in the order of pairs (w.pairs, or a subset that holds every contact).
func (w *World) accumulateContacts(pairs []*pairEntry) {
	for _, e := range pairs {
		a, b := w.Bodies[e.A], w.Bodies[e.B]
		for k := range e.cur {
			c := &e.cur[k]
			if !c.Active() {
				continue
			}
			f := c.N.Scale(c.Fn).Add(c.Ft) // on A
			if e.smooth {
				// Both bodies take the force at the contact point (B at its image).
				p := c.Point()
				a.F, a.T = a.F.Add(f), a.T.Add(p.Sub(a.X).Cross(f)).Add(c.M)
				b.F, b.T = b.F.Sub(f), b.T.Sub(p.Sub(b.X.Add(e.Shift)).Cross(f)).Sub(c.M)
			} else {
				a.ApplyForceAt(f, c.PA)
				b.ApplyForceAt(f.Neg(), c.PB)
			}
			if a.Wall >= 0 {
				w.Walls[a.Wall].Force = w.Walls[a.Wall].Force.Sub(f)
			}
			if b.Wall >= 0 {
				w.Walls[b.Wall].Force = w.Walls[b.Wall].Force.Add(f)
			}
		}
	}
}

// Evaluate runs detect → laws → accumulate at the current state and time.
// dt is the time since the last accepted evaluation (0 at start). It returns
// the number of night-owl contacts and whether any contact flipped its normal
// (a penetration, S0 §2.4.5) or a force is not finite.
func (w *World) Evaluate(t, dt float64) (nightOwls int, bad bool) {
	nightOwls = w.stageDetect(true, dt) // stages 1 and 2 in one pass over the pairs
	prof := &w.Stats.Profile
	t1 := time.Now()
	w.stageAccumulate(w.pairs, t)
	bad = w.badEvaluation(w.pairs)
	prof.Accumulate += time.Since(t1)
	return nightOwls, bad
}

// EvaluateFixed runs laws → accumulate at the current state for the contacts
// of the last evaluation: each active contact's points, normal and gap are
// recomputed for its key at the bodies' poses (contact.Refresh), but the
// candidate pairs, the contact keys and the active set stay as the last
// Evaluate found them (no broad phase, no list upkeep, no narrow-phase
// search; smooth pairs are detected anew; only pairs with contacts are
// visited; Contact.Epot keeps its value). At the state of that Evaluate it
// gives the same forces, to the bit. Implicit integrators use it for
// finite-difference Jacobian–vector products, whose states differ from the
// evaluated one by tiny amounts: a contact set that changed within the
// difference would only add a jump. bad is as for Evaluate.
func (w *World) EvaluateFixed(t, dt float64) (bad bool) {
	if w.Periodic.On() || len(w.posed) != len(w.Bodies) {
		_, bad = w.Evaluate(t, dt)
		return bad
	}
	w.leaveSpheres()
	if len(w.placed) != len(w.Bodies) {
		w.placed = make([]contact.Placement, len(w.Bodies))
	}
	for i, b := range w.Bodies {
		if b.Kind == body.Polyhedral {
			w.placed[i] = contact.Placement{Poly: b.Poly, X: b.X, R: b.Q.Mat()}
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
	w.stageAccumulate(pairs, t)
	bad = w.badEvaluation(pairs)
	prof.Accumulate += time.Since(t1)
	return bad
}

// badEvaluation reports a reversed contact normal (a penetration, S0
// §2.4.5) or a non-finite force in the last evaluation.
func (w *World) badEvaluation(pairs []*pairEntry) (bad bool) {
	for _, e := range pairs {
		for k := range e.cur {
			if e.cur[k].Flip {
				bad = true
			}
		}
	}
	for _, b := range w.Bodies {
		if !b.F.IsFinite() || !b.T.IsFinite() {
			bad = true
		}
	}
	return bad
}

// DetectContacts runs stage 1 alone (no laws, no forces) and accepts its
// contacts as the current list, for integrators that compute contact forces
// themselves (contact dynamics): afterwards EachContact visits contacts with
// points, normals and gaps; Fn and Ft keep whatever the caller writes.
func (w *World) DetectContacts() (nightOwls int) {
	nightOwls = w.stageDetect(false, 0)
	w.Commit()
	return nightOwls
}

// Commit accepts the last evaluation: its contacts become the history the next
// step matches against.
func (w *World) Commit() {
	w.leaveSpheres()
	w.histStale = false
	for _, e := range w.pairs {
		e.prev, e.cur = e.cur, e.prev[:0]
		e.nightOwl = false
	}
	// Wall pairs that dropped out of the candidate set lose their history.
	for wi := range w.wallPair {
		for _, e := range w.wallPair[wi] {
			if e != nil && e.gen != w.gen {
				e.prev = e.prev[:0]
			}
		}
	}
}

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
func (w *World) StableDt() float64 {
	w.leaveSpheres()
	t0 := time.Now()
	s := w.Settings
	if cap(w.speeds) < len(w.Bodies) {
		w.speeds = make([]bodySpeed, len(w.Bodies))
	}
	sp := w.speeds[:len(w.Bodies)]
	for i, b := range w.Bodies {
		sp[i] = bodySpeed{b.V.Norm(), b.W.Norm() * b.Radius(), travelAcc(b)}
	}
	w.parallel(len(w.pairs), func(_, i int) { w.pairs[i].dtMax = w.pairDt(w.pairs[i], sp) })
	dt := min(s.DtMax, w.smoothTravelDt(sp))
	for _, e := range w.pairs {
		dt = min(dt, e.dtMax)
	}
	w.Stats.Profile.StepBound += time.Since(t0)
	return math.Max(dt, s.DtMin)
}

// pairDt is StableDt's bound for one candidate pair. sp holds each body's
// speed terms (bodySpeed), computed once per call of StableDt.
func (w *World) pairDt(e *pairEntry, sp []bodySpeed) float64 {
	s := &w.Settings
	dt := s.DtMax
	a, b := w.Bodies[e.A], w.Bodies[e.B]
	p := w.Params(a.Material, b.Material)
	if e.smooth {
		return w.pairDtSmooth(e, p)
	}
	var meq float64
	if len(e.prev) > 0 {
		meq = law.EquivalentMass(a.MassOrInf(), b.MassOrInf())
	}
	for k := range e.prev {
		c := &e.prev[k]
		if !c.Active() {
			continue
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
	if v > 0 {
		dt = min(dt, 0.5*max(d, gbar)/v)
	}
	// Under an acceleration the travel in a step Δt is vΔt + ½·acc·Δt²
	// (velocity Verlet's drift): a body at rest or at the apex of a flight
	// (v ≈ 0) would otherwise take dt_max whatever it is, and cross the
	// whole distance in one step. The second term is kept below a quarter
	// of the distance, so a step closes at most ⅝ of it.
	if acc > 0 {
		dt = min(dt, math.Sqrt(0.25*max(d, gbar)/acc)) // ½·acc·Δt² ≤ ⅛·max(d, ḡ)
	}
	if d < gbar+v*s.DtMax || d < gbar+(v+0.5*acc*dt)*dt {
		dt = min(dt, w.entryDt(e, a, b, p))
	}
	return dt
}

// bodySpeed holds the speed terms of one body for StableDt's travel bound:
// v = |V|, wr = |ω|·R and acc = travelAcc.
type bodySpeed struct{ v, wr, acc float64 }

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
	return b.F.Norm()*b.InvMass + b.MulInvInertia(b.T).Norm()*b.Radius()
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
	return b.InvMass + rn.Dot(b.IBodyInv.MulV(rn))
}
