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
	dt := min(s.DtMax, w.smoothTravelDt())
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
	return b.InvMass + rn.Dot(b.IBodyInv.MulV(rn))
}
