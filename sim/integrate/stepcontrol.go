package integrate

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// Per-integrator step control. Each integrator sizes its own steps from the
// world's contact laws whenever it steps, so that it is accurate on a scene
// whatever integrator the scene's step settings were chosen for (the scene,
// the command line or the window may select it). The scene's dt_max and
// dt_min stay the bounds.

// lawDt returns World.StableDt evaluated with the step fraction safety in
// place of the scene's Settings.Safety: Δt ≤ safety·2√(m_c/k_c) over the
// active contacts at their predicted gap (S0 §2.4.7; for the barrier law
// k_c = −df_n/dg of S0 eq. 49, for smooth contacts the tangent of the
// spring–dashpot), a gap may close by at most Settings.Approach of itself in
// a step, and a pair still apart may close at most half its distance (or the
// skin) per step — no tunnelling. Bounded by the scene's dt_min and dt_max,
// and by limit (World.StableDtBelow: min(StableDt, limit) to the bit, terms
// that cannot go below limit left out; +Inf: none).
func lawDt(w *world.World, safety, limit float64) float64 {
	s := w.Settings.Safety
	w.Settings.Safety = safety
	dt := w.StableDtBelow(limit)
	w.Settings.Safety = s
	return dt
}

// Conservative reports whether every contact law of w is undamped: no
// dashpot (ζ = 0 of S0 eq. 52, γ_n = γ_t = 0 or e = 1 of the smooth laws)
// and no friction. Total energy must then be conserved, and the implicit
// integrators add the accuracy controls that keep it.
func Conservative(w *world.World) bool {
	n := len(w.Materials)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			p := w.Params(a, b)
			if p == nil {
				continue
			}
			if p.HasPoly && (p.Zeta != 0 || p.Friction.MuS != 0 || p.Friction.MuD != 0) {
				return false
			}
			if p.HasSmooth {
				sm := p.Smooth
				if sm.GammaN != 0 || sm.GammaT != 0 || sm.Mu != 0 || sm.MuRoll != 0 || (sm.E != 0 && sm.Restitution < 1) {
					return false
				}
			}
		}
	}
	return true
}

// Step fractions of the contact period 2π/ω_c the integrators keep to:
// Δt ≤ fraction·2√(m_c/k_c), i.e. ω_cΔt ≤ 2·fraction (S0 §2.4.7). The
// fractions for conservative scenes are set by the energy criterion of
// S0 ex. 1 (total energy within 2% of m·g·h on cube drops,
// TestMatrixCubeDrops); on damped scenes a coarser bound keeps the step
// stable and the barrier resolved.
const (
	// variationalSafety: α = ½ (S2 eq. 28, the implicit midpoint rule) is
	// symplectic and second order; its energy error over an impact scales
	// as (ω_cΔt)² (cube-drop-d: 2.0% of m·g·h at 0.15, 0.7% at 0.1; dropped
	// from 0.2 m: 1.8% at 0.1).
	variationalSafety = 0.07
	// variational1Safety: α = 0 (S2, first order) is explicit in the
	// conservative forces (symplectic Euler). With a step that varies
	// within an impact (as the barrier's stiffness demands) its energy
	// error per impact is first order, ∝ ω_cΔt (cube-drop-a: +1.7% of the
	// energy at 0.01, +0.25% at 0.002; the fixed 0.1 ms step of the scene
	// gave +1531%: ω_cΔt > 2 deep in the barrier), so it needs a small
	// fraction.
	variational1Safety = 0.002
	// variational1Energy, variational1Rate: α = 0 on conservative scenes
	// also bounds the energy error of its steps (firstOrderDt): the offset
	// to this fraction of each body's energy scale, the accumulating loss
	// to this fraction of it per second (cube-drop-a with --dt 0.1:
	// 4.7% of m·g·h lost in 0.5 s without the rate bound).
	variational1Energy, variational1Rate = 0.002, 0.01
	// variationalDamped: both orders on damped scenes, ω_cΔt ≤ 1 (α = 0 is
	// stable to ω_cΔt < 2, its dashpot being implicit).
	variationalDamped = 0.5
	// newmarkOmegaDt, newmarkApproach: the accuracy guidelines of Newmark
	// (Newmark.OmegaDt, Newmark.Approach) used on conservative scenes when
	// none are set (TestNewmarkCubeDropEnergy: energy between impacts within
	// 1% of m·g·h).
	newmarkOmegaDt, newmarkApproach = 0.7, 0.2
	// newmarkSmoothOmegaDt: OmegaDt on conservative scenes with spheres or
	// superquadrics. With S0's β = 0.3 ≠ ¼ (S0 §2.2, eq. 20–21) Newmark
	// conserves a modified energy, E + (β − ¼)·O((ω_cΔt)²) of the contact
	// energy; a linear smooth spring takes the whole impact at the ω_cΔt of
	// its steps, and steps that change size within it (entry, the deepest
	// point, exit) leave that term behind: a ball bouncing on a Hookean
	// floor at dt_max 0.1 gained 2% of m·g·h per bounce at 0.7
	// (TestMatrixSmoothDrops).
	newmarkSmoothOmegaDt = 0.25
)

// hasSmooth reports whether w has a movable sphere or superquadric.
func hasSmooth(w *world.World) bool {
	for _, b := range w.Bodies() {
		if b.Kind != body.Polyhedral && !b.Fixed && b.Wall < 0 {
			return true
		}
	}
	return false
}

// firstOrderDt bounds the step of a first-order scheme (S2 α = 0:
// symplectic Euler, explicit in the conservative forces) by its energy
// error. Under a constant force such as gravity every step loses
// ½m|g|²Δt² (a loss that accumulates: ½Δt·m|g|² per unit time); under any
// force the energy is off by an offset ½Δt(F·v + T·ω) that varies with the
// state and with Δt (S2: first order). For each movable body, with its
// energy scale E = ½mv² + ½ω·Jω + m·|g|·R (R: bounding radius), the loss is
// kept below rate·E per second and the offset below frac·E. F and T are
// those of the last evaluation.
func firstOrderDt(w *world.World, frac, rate float64) float64 {
	dt := math.Inf(1)
	g := w.Gravity.Norm()
	for _, b := range w.Bodies() {
		if b.Fixed || !(b.Mass() > 0) {
			continue
		}
		e := b.KineticEnergy() + b.Mass()*g*b.R
		if !(e > 0) {
			continue
		}
		if g > 0 {
			dt = min(dt, 2*rate*e/(b.Mass()*g*g)) // ½Δt·m|g|² ≤ rate·E
		}
		if p := math.Abs(b.F.Dot(b.V)) + math.Abs(b.T.Dot(b.W)); p > 0 {
			dt = min(dt, 2*frac*e/p) // ½Δt|F·v + T·ω| ≤ frac·E
		}
	}
	return dt
}

// tangentDt bounds Δt·ω_t ≤ 2·safety over the active contacts with a
// tangential spring — ε_t of S0 eq. (54) for polyhedra, k_t of the smooth
// laws — with ω_t = √(k_t·(1/m_t)) and 1/m_t an upper bound of the inverse
// mass of both bodies along any tangent at the contact, Σ 1/m + |r|²·tr J⁻¹.
// An integrator explicit in positions (S2 α = 0) integrates this spring
// explicitly: past ω_tΔt = 2 it is unstable (a block tipping on an edge,
// whose rotational effective mass is small, blew up at ω_nΔt = 0.74).
func tangentDt(w *world.World, safety float64) float64 {
	dt := math.Inf(1)
	w.EachContact(func(a, b int, c *contactT) {
		if !c.Active() {
			return
		}
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		p := w.Params(ba.Material, bb.Material)
		kt := p.Friction.EpsT
		if ba.Kind != body.Polyhedral || bb.Kind != body.Polyhedral {
			kt = p.Smooth.Kt
		}
		if !(kt > 0) {
			return
		}
		im := 0.0
		for _, x := range []struct {
			b *body.Body
			p geom.Vec3
		}{{ba, c.PA}, {bb, c.PB}} {
			if x.b.Fixed {
				continue
			}
			j := x.b.IBodyInv()
			im += x.b.InvMass() + x.p.Sub(x.b.X).Norm2()*(j[0][0]+j[1][1]+j[2][2])
		}
		if im > 0 {
			dt = min(dt, 2*safety/math.Sqrt(kt*im)) // Δt ≤ safety·2/ω_t
		}
	})
	return dt
}

// travelDt bounds the step so that no point of a movable polyhedral body
// without a contact candidate travels more than half the Verlet skin
// (World.VerletSkin) in it: vΔt + ½aΔt² ≤ skin/2 with v = |v| + |ω|R and
// a = |F|/m + |J⁻¹T|·R from the last evaluation (velocity Verlet's drift,
// Δt·(v + ½Δt·F/m)). A body with no candidate pair is farther than the skin
// from every neighbour and wall, so World.StableDt (candidate pairs only)
// does not bound it, and under gravity nothing else kept a step of dt_max
// from carrying it through a wall (cube-drop-c with dt_max 0.1 fell 49 mm
// in its first step; cube-drop-a, variational, passed through the ground
// from the apex of a bounce; newmark, a cube dropped 0.2 m). Once within
// the skin a body is a candidate and its pairs' bounds take over. Smooth
// bodies keep their own travel bound (World.StableDt, the sphere path).
func travelDt(w *world.World, reach float64) float64 {
	dt := math.Inf(1)
	var cand []bool
	for i, b := range w.Bodies() {
		if b.Fixed || b.Wall >= 0 || b.Kind != body.Polyhedral || !(b.Mass() > 0) {
			continue
		}
		if cand == nil {
			cand = make([]bool, len(w.Bodies()))
			w.EachCandidatePair(func(a, b int) { cand[a], cand[b] = true, true })
		}
		if cand[i] {
			continue
		}
		dt = min(dt, travelTerm(b, reach*w.VerletSkin()))
	}
	return dt
}

// travelTerm is travelDt's bound for body b: the root of ½aΔt² + vΔt = h.
func travelTerm(b *body.Body, h float64) float64 {
	r := b.Radius()
	v := b.V.Norm() + b.W.Norm()*r
	a := b.F.Norm()*b.InvMass() + b.MulInvInertia(b.T).Norm()*r
	return world.ApproachDt(h, v, a)
}

// travelDtBelow returns min(travelDt(w, reach), limit), to the bit. It
// first looks for a body whose term is below the limit; without one, no
// body's term can change the minimum and travelDt's walk over the
// candidate pairs (which bodies have one) is not needed. Right after
// World.StableDtBelow (explicit's step control) the bodies' speed and
// acceleration terms are those it computed (World.TravelCurrent, World.BodyTravel: the same
// operations on the same state, so the same bits) and the search is a
// serial pass over them, skipped when the world's bound of those terms
// (World.TravelFloor) is not below the limit; otherwise the terms are
// computed, the bodies split over the world's workers.
func travelDtBelow(w *world.World, reach, limit float64) float64 {
	h := reach * w.VerletSkin()
	below := false
	if w.TravelCurrent() {
		if w.TravelFloor(h) >= limit { // no body's term below the limit: the walk would find none
			return limit
		}
		for i, b := range w.Bodies() {
			if b.Fixed || b.Wall >= 0 || b.Kind != body.Polyhedral || !(b.Mass() > 0) {
				continue
			}
			v, a := w.BodyTravel(i)
			if !(world.ApproachDt(h, v, a) >= limit) {
				below = true
				break
			}
		}
	} else {
		var anyBelow atomic.Bool
		w.Parallel(len(w.Bodies()), func(i int) {
			b := w.Bodies()[i]
			if b.Fixed || b.Wall >= 0 || b.Kind != body.Polyhedral || !(b.Mass() > 0) {
				return
			}
			if !(travelTerm(b, h) >= limit) {
				anyBelow.Store(true)
			}
		})
		below = anyBelow.Load()
	}
	if below {
		return min(travelDt(w, reach), limit)
	}
	return limit
}

// tunnelFactor returns 1, or the fraction of the step just taken to retry
// with when a body passed through a wall or a neighbour within it: its
// centre crossed an enabled planar wall's plane from the bodies' side, or
// the relative path of two body centres (start → end, straight) came
// within the smaller bounding radius of each other while both ends are
// clear of the bounding spheres. A step that ends in contact is the
// contact guards' business; this catches the steps that jump wholly past
// (newmark: a cube dropped 0.2 m crossed the ground in one step of dt_max
// 0.1 and was never a contact candidate). start holds the bodies' states
// at the start of the step (checkpoint.states); sc is scratch.
//
// The pairs are swept along x at the start of the step: a pair whose start
// centres are more than cut = (R_max + 2 D_max)(1 + 10⁻⁴) apart in x (R_max
// the largest bounding radius, D_max the largest centre displacement) is
// skipped, since its relative path stays at least |r0| − |D_i − D_j| >
// R_max apart — exactly the pairs for which the test below cannot fire (the
// factor covers the round-off of the norms), and the result is a minimum,
// so it does not depend on the order of the pairs.
func tunnelFactor(w *world.World, start []body.State, sc *tunnelScratch) float64 {
	if w.Periodic.On() {
		return tunnelPeriodic(w, start)
	}
	g := 1.0
	for i, b := range w.Bodies() {
		if b.Fixed || b.Wall >= 0 || i >= len(start) {
			continue
		}
		g = tunnelWalls(w, b, start[i].X, b.X, g)
	}
	// The bodies of the pair test (not walls), sorted by start x.
	sc.idx = sc.idx[:0]
	rmax, dmax := 0.0, 0.0
	finite := true
	for j, o := range w.Bodies() {
		if o.Wall >= 0 || j >= len(start) {
			continue
		}
		if !start[j].X.IsFinite() || !o.X.IsFinite() {
			finite = false
		}
		rmax = max(rmax, o.Radius())
		dmax = max(dmax, o.X.Sub(start[j].X).Norm())
		sc.idx = append(sc.idx, int32(j))
	}
	if !finite { // no order to sweep in: every pair
		for a := range sc.idx {
			for c := a + 1; c < len(sc.idx); c++ {
				g = tunnelPair(w, start, int(sc.idx[a]), int(sc.idx[c]), g)
			}
		}
		return g
	}
	slices.SortFunc(sc.idx, func(p, q int32) int { return cmp.Compare(start[p].X.X, start[q].X.X) })
	cut := (rmax + 2*dmax) * (1 + 1e-4)
	for a, ia := range sc.idx {
		xa := start[ia].X.X
		for _, ic := range sc.idx[a+1:] {
			if start[ic].X.X-xa > cut {
				break
			}
			i, j := int(ia), int(ic)
			if j < i {
				i, j = j, i
			}
			g = tunnelPair(w, start, i, j, g)
		}
	}
	return g
}

// tunnelWalls is tunnelFactor's test of a movable body b against the planar
// walls over its path x0 → x1: g, or less when the centre crossed a wall's
// plane (retry with half the part of the path before the plane).
func tunnelWalls(w *world.World, b *body.Body, x0, x1 geom.Vec3, g float64) float64 {
	for k := range w.Walls {
		wl := &w.Walls[k]
		if !wl.Enabled || !wl.Planar {
			continue
		}
		s0, s1 := x0.Sub(wl.P).Dot(wl.N), x1.Sub(wl.P).Dot(wl.N)
		if s0 > 0 && s1 < 0 {
			g = min(g, max(0.5*max(s0-b.Radius(), 0)/(s0-s1), 0.01))
		}
	}
	return g
}

// tunnelPeriodic is tunnelFactor in a periodic world: detection wraps the
// bodies into the cell, so a body's path is its start plus the shortest
// image of its displacement, and a pair's relative position is the
// shortest image of the difference of the starts (Periodic.Validate makes
// the period exceed twice the interaction range, so at most one image of a
// partner can be near). Every pair is tested (periodic scenes are small).
func tunnelPeriodic(w *world.World, start []body.State) float64 {
	p := &w.Periodic
	g := 1.0
	for i, b := range w.Bodies() {
		if b.Fixed || b.Wall >= 0 || i >= len(start) {
			continue
		}
		x0 := start[i].X
		g = tunnelWalls(w, b, x0, x0.Add(p.MinImage(b.X.Sub(x0))), g)
	}
	for i, b := range w.Bodies() {
		if b.Wall >= 0 || i >= len(start) {
			continue
		}
		di := p.MinImage(b.X.Sub(start[i].X))
		for j := i + 1; j < len(w.Bodies()) && j < len(start); j++ {
			o := w.Bodies()[j]
			if o.Wall >= 0 || (b.Fixed && o.Fixed) {
				continue
			}
			r0 := p.MinImage(start[i].X.Sub(start[j].X))
			r1 := r0.Add(di).Sub(p.MinImage(o.X.Sub(start[j].X)))
			g = tunnelRel(b, o, r0, r1, g)
		}
	}
	return g
}

// tunnelScratch is tunnelFactor's scratch: the indices of the bodies it sweeps.
type tunnelScratch struct{ idx []int32 }

// tunnelPair is tunnelFactor's test of bodies i < j (j not a wall): g, or
// less when either of them is movable and the relative path of their
// centres came within the smaller bounding radius while both ends are clear
// of the bounding spheres. A fixed body may have either index: a movable
// body passing through a fixed obstacle listed before it is guarded too.
func tunnelPair(w *world.World, start []body.State, i, j int, g float64) float64 {
	b, o := w.Bodies()[i], w.Bodies()[j]
	if (b.Fixed && o.Fixed) || b.Wall >= 0 {
		return g
	}
	return tunnelRel(b, o, start[i].X.Sub(start[j].X), b.X.Sub(o.X), g)
}

// tunnelRel is the pair test of tunnelPair on the relative position of the
// centres at the step's start (r0) and end (r1).
func tunnelRel(b, o *body.Body, r0, r1 geom.Vec3, g float64) float64 {
	rs := b.Radius() + o.Radius()
	if r0.Norm() < rs || r1.Norm() < rs {
		return g // touching at an end: the contact guards see it
	}
	d := r1.Sub(r0)
	dd := d.Norm2()
	if !(dd > 0) {
		return g
	}
	u := min(max(-r0.Dot(d)/dd, 0), 1) // closest approach along the path
	if r0.AddScaled(u, d).Norm() < min(b.Radius(), o.Radius()) {
		g = min(g, max(0.5*u, 0.01))
	}
	return g
}
