package integrate

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// The crossing guard of the Newmark integrator. Newton–Raphson only sees
// the end of a step: a body point that crosses a neighbour's skin and
// surface within one step meets no contact force and is not detected (a
// vertex behind a face is a contact only when its key had one before,
// S0 §2.4.5). So, after the solve (guardFactor), every candidate pair must
// pass one of two tests:
//
//   - its points approached each other by at most guardFrac of the larger of
//     their clearance and the skin ḡ: a point outside the skin cannot have
//     reached the surface;
//   - for polyhedra: the relative motion is within the reach of the pair's
//     second-level feature lists (everything that came within that distance
//     is listed, contact.Cache.Reach; the lists are rebuilt at the end of the
//     step if needed, 3ḡ) and no listed vertex–face or edge–edge pair crossed
//     along the straight-line sweep of the step (contact.Cache.Crossed).
//
// Before the solve, the step is sized so that at the start-of-step
// velocities no pair approaches by more than approachFrac of the larger of
// clearance and skin, or for polyhedra sweepFrac skins (approachDt).
//
// The clearance is that of the bounding spheres, which is negative for
// non-convex bodies whose spheres overlap far from contact (tetrapods 20 to
// 150 skins apart on the collapse). For two polyhedra (no wall) whose pair
// would limit the step, approachDt certifies a larger clearance instead
// (separation: the pair's feature lists built at the start poses with the
// needed reach are empty), and the first test after the solve accepts a
// relative motion up to guardFrac of it (Newmark.cleared).
//
// The approach of two rigid bodies is bounded through their relative rigid
// motion: the displacement (or velocity) of the points of A in B's frame is
// affine in the point, so its largest norm over A is attained at a vertex of
// A, and the distance of any point of A from B's surface changes by at most
// that much (the same holds with A and B exchanged; the smaller bound
// holds). Smooth bodies, which have no vertices, fall back to the bound
// |Δu_A − Δu_B| + θ_A R_A + θ_B R_B over the bounding radii.

// approachFrac is the fraction of max(clearance, skin) a pair may close at
// the start-of-step velocities when the swept test does not apply.
const approachFrac = 0.5

// sweepFrac is the motion, in skins, that a pair of polyhedra may make in
// one step at the start-of-step velocities: beyond guardFrac of the skin the
// step is checked by the swept crossing test, which reaches up to 3 skins
// (ḡ + the 2ḡ margin of the feature lists).
const sweepFrac = 2.7

// guardFrac is the fraction of max(clearance, skin) by which a pair may close
// in one accepted step without the swept test.
const guardFrac = 0.9

// nmGuard is a candidate pair whose bodies must not jump the contact skin.
type nmGuard struct {
	a, b   int // body indices; b may be a wall
	d0     float64
	gbar   float64
	planar bool
	n      geom.Vec3 // plane normal towards the bodies (planar walls)
	poly   bool      // both are polyhedra (or a polyhedron and a wall)
	// sep: d0 may be sharpened by separation (two polyhedral bodies, no
	// wall); cleared once tried.
	sep bool
}

// affine is the rigid motion p ↦ M p + t of a body over a step.
type affine struct {
	M geom.Mat3
	t geom.Vec3
}

func (m affine) apply(p geom.Vec3) geom.Vec3 { return m.M.MulV(p).Add(m.t) }

// prepareGuard lists the guard pairs from the candidates of the last
// accepted evaluation and records the start-of-step world vertices of the
// polyhedra (walls included).
func (n *Newmark) prepareGuard(w *world.World) {
	nb := len(w.Bodies())
	if cap(n.vOff) < nb+1 {
		n.vOff = make([]int, nb+1)
	}
	n.vOff = n.vOff[:nb+1]
	n.gv = n.gv[:0]
	for i, b := range w.Bodies() {
		n.vOff[i] = len(n.gv)
		if b.Kind != body.Polyhedral || b.Poly() == nil {
			continue
		}
		for _, v := range b.Poly().Verts {
			n.gv = append(n.gv, b.ToWorld(v))
		}
	}
	n.vOff[nb] = len(n.gv)

	n.guard = n.guard[:0]
	if n.cleared == nil {
		n.cleared = map[[2]int]float64{}
	}
	clear(n.cleared)
	w.EachCandidatePair(func(a, b int) {
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		g := nmGuard{a: a, b: b, gbar: w.Params(ba.Material, bb.Material).Normal.GBar}
		if ba.Wall >= 0 { // keep the wall second
			g.a, g.b = b, a
			ba, bb = bb, ba
		}
		g.poly = ba.Kind == body.Polyhedral && bb.Kind == body.Polyhedral && ba.Poly() != nil && bb.Poly() != nil
		g.sep = g.poly && ba.Wall < 0 && bb.Wall < 0
		if !g.poly {
			// Smooth bodies have no skin: allow a tenth of the smaller radius,
			// the explicit integrator's bound for them.
			r := ba.Radius()
			if bb.Wall < 0 {
				r = min(r, bb.Radius())
			}
			g.gbar = 0.1 * r
		}
		if bb.Wall >= 0 && w.Walls[bb.Wall].Planar {
			wl := &w.Walls[bb.Wall]
			g.planar, g.n = true, wl.N
			g.d0 = ba.X.Sub(wl.P).Dot(wl.N) - ba.Radius()
			if vs := n.verts(g.a); len(vs) > 0 { // lowest vertex above the plane
				lo := math.Inf(1)
				for _, v := range vs {
					lo = min(lo, v.Sub(wl.P).Dot(wl.N))
				}
				g.d0 = lo
			}
		} else {
			g.d0 = bb.X.Sub(ba.X).Norm() - ba.Radius() - bb.Radius()
		}
		n.guard = append(n.guard, g)
	})
}

// verts returns the start-of-step world vertices of body i (none for
// smooth bodies).
func (n *Newmark) verts(i int) []geom.Vec3 { return n.gv[n.vOff[i]:n.vOff[i+1]] }

// approachDt bounds the step so that, at the start-of-step velocities, no
// body point approaches a candidate neighbour by more than approachFrac of
// the skin or of the clearance. It returns the bound when it is below dt,
// else dt: a pair whose cheap speed bound (speedBound) already allows the
// running minimum is not visited vertex by vertex.
func (n *Newmark) approachDt(w *world.World, dt float64) float64 {
	for i := range n.guard {
		g := &n.guard[i]
		ub := n.speedBound(w, *g)
		if ub <= 0 || n.approachLim(g) >= 1.001*ub*dt {
			continue // approachSpeed ≤ ub: this pair allows dt
		}
		s := n.approachSpeed(w, *g)
		if g.sep && n.approachLim(g) < 1.001*s*dt {
			// The pair would limit the step: certify a larger clearance
			// (separation) and test again.
			g.sep = false
			if d := n.separation(w, g.a, g.b, 1.001*s*dt/approachFrac); d > g.d0 {
				g.d0 = d
				n.cleared[[2]int{g.a, g.b}] = d
			}
		}
		dt = min(dt, world.ApproachDt(n.approachLim(g), s, 0))
	}
	return dt
}

// approachLim is how far the pair may close in one step at its start-of-step
// speed: approachFrac of the larger of its clearance and the skin, and for
// polyhedra at least sweepFrac skins (the swept test's reach).
func (n *Newmark) approachLim(g *nmGuard) float64 {
	lim := approachFrac * max(g.d0, g.gbar)
	if g.poly {
		lim = max(lim, sweepFrac*g.gbar)
	}
	return lim
}

// separation returns a certified lower bound on the distance between the
// polyhedra a and b at the start of the step, trying want first: the
// second-level lists of the pair built at the start-of-step poses with
// reach want (contact.Cache.Build, asked by contact.AnyWithin, which stops
// at the first pair and stores no list: every feature pair — vertex–face,
// edge–edge, vertex–edge, vertex–vertex — closer than the reach is listed,
// by lower bounds of its distance) are empty when no point of one surface
// is within want of the other: the surfaces are then at least want apart,
// which is all the guard needs (it bounds how far the surfaces close within
// the step, as the swept test does; a body wholly inside another, which only
// a hand-made state can give, has surfaces apart too). If the lists at want
// are not empty it tries half of it, and returns 0 when neither is clear or
// the shorter reach is below the swept test's (sweepFrac skins, which
// approachDt allows anyway).
func (n *Newmark) separation(w *world.World, a, b int, want float64) float64 {
	ba, bb := w.Bodies()[a], w.Bodies()[b]
	if ba.Poly() == nil || bb.Poly() == nil {
		return 0
	}
	gbar := w.Params(ba.Material, bb.Material).Normal.GBar
	n.sepA.Update(ba.Poly(), n.startX(w, a), n.startQ(w, a), ba.Fixed)
	n.sepB.Update(bb.Poly(), n.startX(w, b), n.startQ(w, b), bb.Fixed)
	for _, d := range [2]float64{want, want / 2} {
		if d <= sweepFrac*gbar/approachFrac {
			break
		}
		if !contact.AnyWithin(&n.sepA, &n.sepB, d, &n.sepScratch) {
			return d
		}
	}
	return 0
}

// speedBound bounds approachSpeed through the bounding radii: the velocity of
// a point p of A relative to B is v_A − v_B + ω_A×(p − x_A) − ω_B×(p − x_B),
// with |p − x_A| ≤ R_A for A's points and |p − x_B| ≤ R_B for B's.
func (n *Newmark) speedBound(w *world.World, g nmGuard) float64 {
	a, b := w.Bodies()[g.a], w.Bodies()[g.b]
	if g.planar {
		return max(0, -a.V.Dot(g.n)) + a.W.Norm()*a.Radius()
	}
	va, vb := n.verts(g.a), n.verts(g.b)
	if len(va) == 0 || (len(vb) == 0 && !b.Fixed) {
		return math.Inf(1) // approachSpeed's own bound applies: no shortcut
	}
	om := a.W.Sub(b.W).Norm()
	dv := a.V.Sub(b.V)
	sa := dv.Sub(b.W.Cross(a.X.Sub(b.X))).Norm() + om*a.Radius() // A's points
	if len(vb) == 0 {
		return sa
	}
	sb := dv.Add(a.W.Cross(b.X.Sub(a.X))).Norm() + om*b.Radius() // B's points
	return min(sa, sb)
}

// approachSpeed bounds the rate at which the pair's distance can shrink at
// the start-of-step velocities.
func (n *Newmark) approachSpeed(w *world.World, g nmGuard) float64 {
	a, b := w.Bodies()[g.a], w.Bodies()[g.b]
	va, vb := n.verts(g.a), n.verts(g.b)
	if g.planar {
		if len(va) == 0 {
			return max(0, -a.V.Dot(g.n)) + a.W.Norm()*a.Radius()
		}
		s := 0.0
		for _, p := range va {
			s = max(s, -a.VelocityAt(p).Dot(g.n))
		}
		return s
	}
	if len(va) == 0 || (len(vb) == 0 && !b.Fixed) {
		return a.V.Sub(b.V).Norm() + a.W.Norm()*a.Radius() + b.W.Norm()*b.Radius()
	}
	// Velocity of a point p of A relative to B: c + Ω×p.
	om := a.W.Sub(b.W)
	c := a.V.Sub(b.V).Sub(a.W.Cross(a.X)).Add(b.W.Cross(b.X))
	sa := 0.0
	for _, p := range va {
		sa = max(sa, c.Add(om.Cross(p)).Norm2())
	}
	sa = math.Sqrt(sa)
	if len(vb) == 0 {
		return sa
	}
	sb := 0.0
	for _, p := range vb {
		sb = max(sb, c.Add(om.Cross(p)).Norm2())
		if sb >= sa*sa {
			return sa
		}
	}
	return math.Sqrt(sb)
}

// guardFactor checks the converged step (see above) and returns 1 when it
// passes, else the factor by which to cut it.
func (n *Newmark) guardFactor(w *world.World) float64 {
	n.motions(w)
	f := 1.0
	for _, g := range n.guard {
		if g.poly {
			continue // below, with the feature lists of the end state
		}
		app := n.approach(w, g)
		lim := guardFrac * max(g.d0, g.gbar)
		if app > lim {
			f = min(f, 0.5*lim/app)
		}
	}
	// The candidate pairs of polyhedra, in parallel: the factor is a
	// minimum over pairs, so it does not depend on the order.
	np := w.FeaturePairs()
	nw := max(w.Settings.Workers, 1)
	if len(n.gs) < nw {
		n.gs = make([]guardScratch, nw)
	}
	for k := range n.gs {
		n.gs[k].f, n.gs[k].crossings = 1, 0
	}
	w.ParallelRangeWorker(np, func(k, lo, hi int) {
		gs := &n.gs[k]
		for i := lo; i < hi; i++ {
			a, b, fp, ok := w.FeaturePairAt(i, k)
			if ok {
				n.guardPair(w, a, b, &fp, gs)
			}
		}
	})
	for k := range n.gs {
		f = min(f, n.gs[k].f)
		n.Counts.Crossings += n.gs[k].crossings
	}
	return f
}

// planarPass reports whether a body whose vertices were all above a planar
// wall at the start approached the plane by at most guardFrac of the larger
// of its clearance and the skin: sliding along the plane does not count.
func (n *Newmark) planarPass(w *world.World, a, b int, gbar float64) bool {
	ba, bb := w.Bodies()[a], w.Bodies()[b]
	if ba.Wall >= 0 {
		a, b, ba, bb = b, a, bb, ba
	}
	if bb.Wall < 0 || !w.Walls[bb.Wall].Planar || ba.Fixed {
		return false
	}
	d0 := n.clearance(w, a, b)
	if !(d0 > 0) {
		return false
	}
	nrm, m := w.Walls[bb.Wall].N, n.mot[a]
	app := 0.0
	for _, p := range n.verts(a) {
		app = max(app, -m.apply(p).Sub(p).Dot(nrm))
	}
	return app <= guardFrac*max(d0, gbar)
}

// clearance is the start-of-step distance of the bounding spheres of a and
// b, or of a body's lowest vertex above a planar wall.
func (n *Newmark) clearance(w *world.World, a, b int) float64 {
	ba, bb := w.Bodies()[a], w.Bodies()[b]
	if ba.Wall >= 0 {
		a, b, ba, bb = b, a, bb, ba
	}
	if bb.Wall >= 0 && w.Walls[bb.Wall].Planar {
		wl := &w.Walls[bb.Wall]
		lo := math.Inf(1)
		for _, v := range n.verts(a) {
			lo = min(lo, v.Sub(wl.P).Dot(wl.N))
		}
		return lo
	}
	return n.startX(w, b).Sub(n.startX(w, a)).Norm() - ba.Radius() - bb.Radius()
}

// startQ is body i's orientation at the start of the step.
func (n *Newmark) startQ(w *world.World, i int) geom.Quat {
	if k := n.kOf[i]; k >= 0 {
		return n.nb[k].q0
	}
	return w.Bodies()[i].Q
}

// startX is body i's centre of mass at the start of the step.
func (n *Newmark) startX(w *world.World, i int) geom.Vec3 {
	if k := n.kOf[i]; k >= 0 {
		return n.nb[k].x0
	}
	return w.Bodies()[i].X
}

// motions sets n.mot to every body's rigid motion from the start of the
// step to the current (trial) state, and n.turnOf to each body's turn.
func (n *Newmark) motions(w *world.World) {
	if cap(n.mot) < len(w.Bodies()) {
		n.mot = make([]affine, len(w.Bodies()))
	}
	n.mot = n.mot[:len(w.Bodies())]
	for i := range n.mot {
		n.mot[i] = affine{M: geom.Identity()}
	}
	n.turnOf = resize(n.turnOf, len(w.Bodies()))
	clear(n.turnOf)
	for k := range n.nb {
		bd := &n.nb[k]
		b := w.Bodies()[bd.i]
		M := b.Q.Mat().Mul(bd.q0.Mat().T()) // R1 R0ᵀ
		n.mot[bd.i] = affine{M: M, t: b.X.Sub(M.MulV(bd.x0))}
		n.turnOf[bd.i] = n.turn(bd.i)
	}
}

// approach bounds how much the pair's distance shrank over the trial step.
func (n *Newmark) approach(w *world.World, g nmGuard) float64 {
	ma, mb := n.mot[g.a], n.mot[g.b]
	va, vb := n.verts(g.a), n.verts(g.b)
	if g.planar {
		if len(va) == 0 {
			return max(0, -n.disp(g.a).Dot(g.n)) + n.turn(g.a)
		}
		app := 0.0
		for _, p := range va {
			app = max(app, -ma.apply(p).Sub(p).Dot(g.n))
		}
		return app
	}
	if len(va) == 0 || (len(vb) == 0 && !w.Bodies()[g.b].Fixed) {
		return n.disp(g.a).Sub(n.disp(g.b)).Norm() + n.turn(g.a) + n.turn(g.b)
	}
	// A's points in B's start frame: p ↦ M_Bᵀ(M_A p + t_A − t_B).
	rel := affine{M: mb.M.T().Mul(ma.M), t: mb.M.TMulV(ma.t.Sub(mb.t))}
	sa := 0.0
	for _, p := range va {
		sa = max(sa, rel.apply(p).Sub(p).Norm2())
	}
	if len(vb) == 0 {
		return math.Sqrt(sa)
	}
	// B's points in A's start frame: the inverse motion.
	inv := affine{M: rel.M.T(), t: rel.M.TMulV(rel.t).Scale(-1)}
	sb := 0.0
	for _, p := range vb {
		sb = max(sb, inv.apply(p).Sub(p).Norm2())
		if sb >= sa {
			return math.Sqrt(sa)
		}
	}
	return math.Sqrt(sb)
}

// disp is body i's trial displacement of the centre of mass.
func (n *Newmark) disp(i int) geom.Vec3 {
	if k := n.kOf[i]; k >= 0 {
		return n.nb[k].u
	}
	return geom.Vec3{}
}

// turn bounds the displacement of body i's points by its trial rotation.
func (n *Newmark) turn(i int) float64 {
	if k := n.kOf[i]; k >= 0 {
		bd := &n.nb[k]
		return geom.RotVecFromRodrigues(bd.alpha).Norm() * bd.radius
	}
	return 0
}

// guardScratch is one worker's state in guardFactor's pass over pairs: its
// vertex buffers, its running factor and its count of crossings.
type guardScratch struct {
	sa1, sb1  []geom.Vec3 // a body's vertices moved by the relative step
	f         float64
	crossings int64
	_         [64]byte
}

// guardPair checks candidate pair (a, b) of guardFactor, lowering gs.f
// where the pair's relative motion may have crossed a surface.
func (n *Newmark) guardPair(w *world.World, a, b int, fp *world.FeaturePair, gs *guardScratch) {
	ba, bb := w.Bodies()[a], w.Bodies()[b]
	if ba.Fixed && bb.Fixed {
		return
	}
	gbar := w.Params(ba.Material, bb.Material).Normal.GBar
	lim := guardFrac * max(n.clearance(w, a, b), gbar)
	if n.disp(a).Sub(n.disp(b)).Norm()+n.turnOf[a]+n.turnOf[b] <= lim || n.planarPass(w, a, b, gbar) {
		return // the bounding-radius bound already passes
	}
	a0, b0 := n.verts(a), n.verts(b)
	// A's vertices seen from B (p ↦ M_Bᵀ(M_A p + t_A − t_B)), and B's from A.
	ma, mb := n.mot[a], n.mot[b]
	rel := affine{M: mb.M.T().Mul(ma.M), t: mb.M.TMulV(ma.t.Sub(mb.t))}
	inv := affine{M: rel.M.T(), t: rel.M.TMulV(rel.t).Scale(-1)}
	gs.sa1, gs.sb1 = gs.sa1[:0], gs.sb1[:0]
	da, db := 0.0, 0.0
	for _, p := range a0 {
		q := rel.apply(p)
		gs.sa1 = append(gs.sa1, q)
		da = max(da, q.Sub(p).Norm2())
	}
	for _, p := range b0 {
		q := inv.apply(p)
		gs.sb1 = append(gs.sb1, q)
		db = max(db, q.Sub(p).Norm2())
	}
	d := math.Sqrt(min(da, db))
	if d <= lim || d <= guardFrac*n.cleared[[2]int{a, b}] {
		// Within the clearance: no point of either body can have
		// reached the other's surface.
		return
	}
	reach := fp.Reach()
	if d > reach {
		reach = fp.Rebuild()
	}
	switch {
	case d > reach:
		gs.f = min(gs.f, 0.5*reach/d)
	case fp.Cache().Crossed(ba.Poly(), bb.Poly(), a0, gs.sa1, b0, gs.sb1):
		gs.crossings++
		gs.f = min(gs.f, 0.5)
	}
}
