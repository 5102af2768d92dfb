package world

import (
	"math"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// EachTrialContact calls f for every contact of the last evaluation (the
// trial state of Evaluate, before Commit), active or suppressed, in a
// deterministic order. Implicit integrators read it to estimate contact
// tangents within a Newton iteration; after Commit use EachContact.
func (w *World) EachTrialContact(f func(a, b int, c *contact.Contact)) {
	w.leaveSpheres()
	for _, e := range w.pairs {
		for k := range e.cur {
			f(int(e.A), int(e.B), &e.cur[k])
		}
	}
}

// EachCandidatePair calls f for every body pair (a < b) that the last
// detection kept as a contact candidate (Verlet list and wall pairs).
func (w *World) EachCandidatePair(f func(a, b int)) {
	w.leaveSpheres()
	for _, e := range w.pairs {
		f(int(e.A), int(e.B))
	}
}

// EachFeatureCache calls f for every candidate pair of polyhedra (walls
// included) of the last evaluation with the pair's second-level feature
// cache (FeaturePair). Implicit integrators use it to check a step for
// crossings (contact.Cache.Crossed). p is valid only during the call.
func (w *World) EachFeatureCache(f func(a, b int, p *FeaturePair)) {
	w.leaveSpheres()
	if w.posedOld {
		w.place()
	}
	p := &FeaturePair{w: w}
	for _, e := range w.pairs {
		if e.smooth {
			continue
		}
		p.e = e
		f(int(e.A), int(e.B), p)
	}
}

// FeaturePair is one candidate pair of polyhedra of EachFeatureCache, at
// the poses of the last evaluation.
type FeaturePair struct {
	w *World
	e *pairEntry
	k int // the worker whose scratch Rebuild uses (FeaturePairAt)
}

// Cache is the pair's second-level feature cache.
func (p *FeaturePair) Cache() *contact.Cache { return &p.e.cache }

// Reach is the cache's reach at the evaluated poses (contact.Cache.Reach):
// every feature pair closer than it is listed.
func (p *FeaturePair) Reach() float64 {
	return p.e.cache.Reach(&p.w.posed[p.e.A], &p.w.posed[p.e.B])
}

// Rebuild rebuilds the pair's cache at the evaluated poses and returns its
// new reach (ḡ + margin); detection results do not change.
func (p *FeaturePair) Rebuild() float64 {
	w, e := p.w, p.e
	pa, pb := &w.posed[e.A], &w.posed[e.B]
	g := w.Params(w.Bodies()[e.A].Material, w.Bodies()[e.B].Material).Normal.GBar
	e.cache.Build(pa, pb, g, w.featureSkin(g), &w.scratch[p.k].Scratch)
	return e.cache.Reach(pa, pb)
}

// ContactTangents calls f, in EachTrialContact's order, for every active
// contact of the last evaluation (Evaluate, with Eval.Fixed or without, at step dt) with
// the linearisation of its law at fixed geometry: dg = ∂f_A/∂g_n at fixed
// relative velocity and dv = ∂f_A/∂v, v the velocity of A's contact point
// relative to B's, at fixed gap, where f_A = f_n·n + f_t is the force on A.
// It is the consistent derivative of lawsPair's force (S0 eq. 49–57):
//   - the elastic normal force, ∂f_n/∂g = −k_c with k_c = −df_n/dg (S0
//     §2.4.7, eq. 49–51);
//   - the dashpot f_d = c·ġ_n of eq. (52), c = 2ζ√(k m_eq)·r with the
//     band's ramp r: ∂/∂ġ_n = c and, where c is taken at the current gap,
//     ∂/∂g = c'·ġ_n with c' = c·k'/(2k) + 2ζ√(k m_eq)·r' (law.Normal.
//     StiffnessSlope); with the lagged coefficient (SetDampLag) c is fixed
//     over the step, and a contact new in the step with the entry fraction
//     s < 1 has f_d = c(g)·(ḡ − g)/Δt·sign ġ_n (a closing contact that is
//     not new, f_d = c(g_0)·(ḡ − g)/Δt·sign ġ_n: World.DashpotAt);
//   - the compressive clamp of eq. (53): no normal derivative where it acts;
//   - Coulomb friction (law.Friction.StickTangent, eq. 54–56), with the
//     tangential increment Δg_t = v_t·Δt of lawsPair, so ∂/∂v collects
//     ε_t·Δt and c_t, and the sliding force's ∂/∂f_n.
//
// The changes of n, of the contact points and of the friction history's
// rotation with the bodies' motion (the geometric terms) are the caller's.
// It returns false, without calling f, when a pair holds a sphere or a
// superquadric (their laws, S1, are not linearised here).
func (w *World) ContactTangents(dt float64, f func(a, b int, c *contact.Contact, dg geom.Vec3, dv geom.Mat3)) bool {
	np, ok := w.TangentPairs()
	if !ok {
		return false
	}
	for i := 0; i < np; i++ {
		e := w.pairs[i]
		a, b := int(e.A), int(e.B)
		w.PairContactTangents(i, dt, func(c *contact.Contact, dg geom.Vec3, dv geom.Mat3) { f(a, b, c, dg, dv) })
	}
	return true
}

// TangentPairs returns the number of pairs of the last evaluation, the
// index space of TrialPair and PairContactTangents (in EachTrialContact's
// order), and false when a pair with contacts holds a sphere or a
// superquadric (ContactTangents). Call it before those two, outside any
// parallel pass.
func (w *World) TangentPairs() (int, bool) {
	w.leaveSpheres()
	for _, e := range w.pairs {
		if e.smooth && len(e.cur) > 0 {
			return 0, false
		}
	}
	return len(w.pairs), true
}

// TrialPair returns pair i's bodies (a < b as stored) and its contacts of
// the last evaluation, active or suppressed (TangentPairs' index).
func (w *World) TrialPair(i int) (a, b int, cs []contact.Contact) {
	e := w.pairs[i]
	return int(e.A), int(e.B), e.cur
}

// PairContactTangents calls f for each active contact of pair i
// (TangentPairs' index) with the linearisation of its law, in the order
// and with the values of ContactTangents. It writes nothing of the World,
// so different pairs may be handled concurrently.
func (w *World) PairContactTangents(i int, dt float64, f func(c *contact.Contact, dg geom.Vec3, dv geom.Mat3)) {
	e := w.pairs[i]
	if len(e.cur) == 0 {
		return
	}
	a, b := w.Bodies()[e.A], w.Bodies()[e.B]
	p := w.Params(a.Material, b.Material)
	ma, mb := a.MassOrInf(), b.MassOrInf()
	for k := range e.cur {
		c := &e.cur[k]
		if !c.Active() {
			continue
		}
		vrel := a.VelocityAt(c.PA).Sub(b.VelocityAt(c.PB))
		gnDot := vrel.Dot(c.N)
		fn := p.Normal.Force(c.Gn)
		fd := w.dashpot(c, p, ma, mb, gnDot, dt)
		var dFdg, dFdgd float64 // ∂f_n/∂g, ∂f_n/∂ġ_n of the total normal force
		if !math.IsInf(fn, 1) && fn-fd >= 0 {
			dFdg = -p.Normal.Stiffness(c.Gn) // S0 §2.4.7
			ddg, ddgd := w.dashpotTangent(c, p, ma, mb, gnDot, dt)
			dFdg -= ddg
			dFdgd = -ddgd
		}
		Fn := law.NormalTotal(fn, fd)
		st := law.FrictionState{}
		if !c.New {
			for i := range e.prev {
				if e.prev[i].Key == c.Key {
					st = e.prev[i].Fric
					break
				}
			}
		}
		vt := vrel.Sub(c.N.Scale(gnDot))
		_, dV, dFn := p.Friction.StickTangent(st, c.N, vt.Scale(dt), vt, dt, Fn, w.stickForce(c))
		dir := c.N.Add(dFn) // ∂f_A/∂f_n: the normal force and the sliding friction
		dg := dir.Scale(dFdg)
		// dv = ∂f_t/∂ġ_t (tangential, StickTangent) + dir⊗(∂f_n/∂ġ_n·n).
		nd := c.N.Scale(dFdgd)
		da := [3]float64{dir.X, dir.Y, dir.Z}
		dv := dV
		for i := 0; i < 3; i++ {
			dv[i][0] += da[i] * nd.X
			dv[i][1] += da[i] * nd.Y
			dv[i][2] += da[i] * nd.Z
		}
		f(c, dg, dv)
	}
}

// dashpotTangent returns the derivatives ∂f_d/∂g and ∂f_d/∂ġ_n of the
// signed dashpot force of dashpot (S0 eq. 52) as ContactTangents states.
func (w *World) dashpotTangent(c *contact.Contact, p *ContactParams, ma, mb, gnDot, dt float64) (dg, dgd float64) {
	g, s := c.Gn, 1.0
	if w.dampLag {
		g, s = w.DashpotAt(c, p.Normal.GBar, gnDot, dt)
	}
	k := p.Normal.Stiffness(g)
	cd := law.Damping(p.Zeta, k, ma, mb, 1) // c = 2ζ√(k m_eq), S0 eq. (52)
	if cd == 0 || math.IsInf(cd, 0) || math.IsNaN(cd) {
		return 0, 0
	}
	r, dr := 1.0, 0.0
	if p.DampBand > 0 {
		r, dr = law.DampingRamp(g, p.Normal.GBar, p.DampBand)
	}
	// d(c·r)/dg at a coefficient taken at the current gap: c' = c·k'/(2k).
	dcr := cd*dr + cd*r*p.Normal.StiffnessSlope(g)/(2*k)
	switch {
	case s < 1 && w.dampLag && !c.New: // lagged coefficient, entry fraction: f_d = c(g_0)·r(g_0)·(ḡ − g)/Δt·sign ġ_n
		return -cd * r * math.Copysign(1, gnDot) / dt, 0
	case w.dampLag && !c.New: // the coefficient at the start-of-step gap: fixed
		return 0, cd * r
	case s < 1: // entry fraction: f_d = c(g)·r(g)·(ḡ − g)/Δt·sign ġ_n
		sg := math.Copysign(1, gnDot)
		return (dcr*(p.Normal.GBar-g) - cd*r) * sg / dt, 0
	}
	return dcr * gnDot, cd * r // the coefficient at the current gap
}
