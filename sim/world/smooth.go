package world

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/sphere"
	"grainlab/sim/sq"
)

// Smooth pairs are body pairs where at least one body is a sphere or a
// superquadric. Their narrow phase returns at most one contact per pair of
// surface features (particle–particle: one; particle–wall: one per wall
// facet, edge or vertex), stored with Kind snap.SQ and Gn the signed gap
// (negative = overlap). Their law is law.Smooth.

// isSmooth reports whether b is a sphere or a superquadric.
func isSmooth(b *body.Body) bool { return b.Kind != body.Polyhedral }

// poseOf returns the superquadric pose of b, shifted by s (periodic image).
func poseOf(b *body.Body, s geom.Vec3) sq.Pose { return sq.Pose{X: b.X.Add(s), Q: b.Q} }

// smoothBox returns the world AABB of a smooth body.
func smoothBox(b *body.Body) contact.AABB {
	if b.Kind == body.Sphere {
		r := geom.V(b.R, b.R, b.R)
		return contact.AABB{Min: b.X.Sub(r), Max: b.X.Add(r)}
	}
	// The oriented bounding box (S1 §2.2: half-lengths a, b, c) rotated into
	// the world: a cheap, slightly loose box for the candidate search. Its
	// half-widths are Σ_j |A_ij|·ext_j with A = A(q) (S1 eq. 4), the entries
	// of geom.Quat.Mat written out on scalars (the same operations, the same
	// bits; no 3×3 matrix built per body and step).
	w, x, y, z := b.Q.W, b.Q.X, b.Q.Y, b.Q.Z
	ea, eb, ec := b.SQ().A, b.SQ().B, b.SQ().C
	hx := math.Abs(1-2*(y*y+z*z))*ea + math.Abs(2*(x*y-w*z))*eb + math.Abs(2*(x*z+w*y))*ec
	hy := math.Abs(2*(x*y+w*z))*ea + math.Abs(1-2*(x*x+z*z))*eb + math.Abs(2*(y*z-w*x))*ec
	hz := math.Abs(2*(x*z-w*y))*ea + math.Abs(2*(y*z+w*x))*eb + math.Abs(1-2*(x*x+y*y))*ec
	h := geom.Vec3{X: hx, Y: hy, Z: hz}.Min(geom.V(b.R, b.R, b.R))
	return contact.AABB{Min: b.X.Sub(h), Max: b.X.Add(h)}
}

// prepareSQ keeps w.sqPrep[i], the prepared shape of superquadric b (body
// i), up to date: recomputed only when the shape changed, and placed at
// the body's pose (its rotation matrix once per body and step). It returns
// the half-widths of the placed shape's world box (Prepared.HalfWidths,
// weighed in the same call as the placement: Prepared.PlaceHalfWidths).
// Called per body in the parallel placement (each call writes its own
// entry).
func (w *World) prepareSQ(i int, b *body.Body) geom.Vec3 {
	q := &w.sqPrep[i]
	if !q.For(b.SQ()) {
		w.reprepareSQ(i, b)
	}
	return q.PlaceHalfWidths(b.X, b.Q)
}

// reprepareSQ prepares w.sqPrep[i] anew from b's shape: prepareSQ's rare
// path, out of line so that prepareSQ keeps no Prepared temporary (a
// kilobyte) on its stack.
//
//go:noinline
func (w *World) reprepareSQ(i int, b *body.Body) { w.sqPrep[i] = b.SQ().Prepare() }

// placeSmooth places smooth body i (b) for the detection: its prepared
// shape (prepareSQ) and its world box, which for a superquadric reads the
// rotation matrix that the placement forms (the same box as smoothBox, to
// the bit, without forming A(q) a second time).
func (w *World) placeSmooth(i int, b *body.Body) contact.AABB {
	if b.Kind != body.Superquadric {
		return smoothBox(b)
	}
	h := w.prepareSQ(i, b).Min(geom.V(b.R, b.R, b.R))
	return contact.AABB{Min: b.X.Sub(h), Max: b.X.Add(h)}
}

// placedSQ returns the prepared shape of body i (b, or a copy of it at a
// trial state) when the world's was prepared from b's shape and placed at
// b's pose, else nil. Between a placement and the next move of the bodies
// (!posedOld, as for the polyhedra's w.posed) that holds for every world
// superquadric, without comparing shapes and poses (spheres are not
// prepared: a sphere–superquadric pair prepares both anew, placedPair).
func (w *World) placedSQ(i int32, b *body.Body) *sq.Prepared {
	if !w.posedOld && b.Kind == body.Superquadric && int(i) < len(w.sqPrep) && w.Bodies()[i] == b {
		return &w.sqPrep[i]
	}
	if q := w.preparedSQ(i, b); q != nil && q.At(b.X, b.Q) {
		return q
	}
	return nil
}

// preparedSQ returns the prepared shape of body i (b, or a copy of it at a
// trial state) when the world's was prepared from b's shape, else nil.
func (w *World) preparedSQ(i int32, b *body.Body) *sq.Prepared {
	if int(i) < len(w.sqPrep) && w.sqPrep[i].For(b.SQ()) {
		return &w.sqPrep[i]
	}
	return nil
}

// narrowSmooth is the narrow phase of a smooth pair (S1 §2.3–2.4, S2 §2.2).
// It reports whether a superquadric solve missed its tolerance.
func (w *World) narrowSmooth(e *pairEntry) (failed bool) { return w.narrowSmoothIn(e, nil) }

// narrowSmoothIn is narrowSmooth with the midway-point solver's working
// state in sc (sq.Scratch; nil: a fresh one per solve), kept by the caller
// across the pairs of a batch: the same bits.
func (w *World) narrowSmoothIn(e *pairEntry, sc *sq.Scratch) (failed bool) {
	a, b := w.Bodies()[e.A], w.Bodies()[e.B]
	e.cur = e.cur[:0]
	switch {
	case a.Wall >= 0 || b.Wall >= 0:
		w.narrowSmoothWall(e, a, b)
	case a.Kind == body.Sphere && b.Kind == body.Sphere:
		xb := b.X.Add(e.Shift)
		ov, n, p, ok := sphere.SphereSphere(a.X, xb, a.R, b.R) // S2 §2.2: δ = r_a + r_b − |x_a − x_b|
		if ok {
			e.addSmooth(0, 0, p.AddScaled(-0.5*ov, n), p.AddScaled(0.5*ov, n), n, -ov)
		}
	case isSmooth(a) && isSmooth(b):
		// Cheap rejection: bounding spheres apart.
		if a.X.Sub(b.X.Add(e.Shift)).Norm() > a.R+b.R {
			e.hasMid = false
			return false
		}
		// The warm start is kept in A's body frame, so that it follows the
		// pair's common motion; the shapes' constants and rotation matrices
		// come from the per-body cache (prepareSQ, placedSQ).
		var warm *geom.Vec3
		if e.hasMid {
			warm = &e.mid
		}
		// A pair apart last step is first tested for a separating plane
		// (with the normal at its last midway point): no midway point
		// needed. The shapes come placed per body (prepareSQ) when those
		// are current, else sqPairPosed.
		var qa, qb *sq.Prepared
		if !w.posedOld && a.Kind == body.Superquadric && b.Kind == body.Superquadric && int(max(e.A, e.B)) < len(w.sqPrep) {
			qa, qb = &w.sqPrep[e.A], &w.sqPrep[e.B] // placedSQ's first case: a, b are the world's bodies
		} else {
			qa, qb = w.placedSQ(e.A, a), w.placedSQ(e.B, b)
		}
		placed := qa != nil && qb != nil
		if placed && len(e.prev) == 0 {
			// The plane found last time still separates while B's
			// motion in A's frame stays below its margin (sq.SepCert).
			sm := e.smoothState()
			if sm.sepGen == w.lawGen && sm.sep.Holds(qa, qb, e.Shift) {
				return false
			}
			sep, byAxes := sq.SeparationPlaced(qa, qb, e.Shift, warm, e.sepAx, &sm.sep)
			e.sepAx = byAxes
			if sep {
				sm.sepGen = w.lawGen
				return false
			}
			sm.sep, sm.sepGen = sq.SepCert{}, 0
		}
		var r sq.ContactResult // after the separation tests: most pairs end there
		if placed {
			sm := e.smoothState()
			if warm == nil || sm.chordGen != w.lawGen {
				sm.chord.Reset()
			}
			sm.chordGen = w.lawGen
			sq.ContactPlacedScratch(w.sqOpts(), qa, qb, e.Shift, warm, &sm.chord, sc, &r) // S1 eq. (19)–(24)
		} else if w.sqPairPosed(e, a, b, warm, &r) {
			return false
		}
		if !r.Converged {
			e.hasMid = false
			return true
		}
		e.mid, e.hasMid = r.Local, true
		if r.InContact {
			e.addSmooth(0, 0, r.PA, r.PB, r.Normal, r.Gap)
		}
	default:
		// A smooth body against a polyhedron: its surface's facets, convex
		// edges and corners (sq.SurfaceContacts).
		w.narrowSmoothSurface(e, a, b)
	}
	w.matchSmooth(e)
	return false
}

// smoothPair is what a smooth pair keeps across steps beyond pairEntry's
// fields: the separating plane of a pair apart (sep, valid while sepGen ==
// World.lawGen: shapes and laws unchanged) and pairDtSmooth's lower bound
// of its Hertz term (hi*).
type smoothPair struct {
	sep    sq.SepCert
	sepGen uint64

	// The pair's Newton Jacobian of its last midway-point solve
	// (sq.ContactPlacedChord), valid while chordGen == World.lawGen.
	chord    sq.Chord
	chordGen uint64

	// Below overlap dHi and relative speed vHi the pair's spring bound is
	// not below dtHi, nor its travel term below trav/v (pairDtSmooth);
	// valid for the law, masses and safety factor it was computed with.
	dtHi, dHi, vHi, trav, hiMA, hiMB, hiSafety float64
	hiGen                                      uint64
	hiP                                        *ContactParams
}

// smoothState returns e's smoothPair, allocated on first use (by the one
// worker that handles the pair).
func (e *pairEntry) smoothState() *smoothPair {
	if e.sm == nil {
		e.sm = new(smoothPair)
	}
	return e.sm
}

// sqPairPosed is the narrow phase of two smooth bodies a and b (not both
// spheres) when their shapes are not placed per body (Eval.Fixed's trial
// states; spheres against superquadrics): the separation test of a pair
// apart in the last step, then the midway point into r, with the shapes
// prepared (or prepared anew) at the bodies' poses and the warm start warm
// in A's body frame (nil for none); the same queries as the placed ones, to
// rounding. It reports a separated pair (r unset).
func (w *World) sqPairPosed(e *pairEntry, a, b *body.Body, warm *geom.Vec3, r *sq.ContactResult) (sep bool) {
	qa, qb := w.preparedSQ(e.A, a), w.preparedSQ(e.B, b)
	if qa == nil || qb == nil {
		qa, qb = preparedPair(a, b)
	}
	pa, pb := poseOf(a, geom.Vec3{}), poseOf(b, e.Shift)
	var wp *geom.Vec3
	if warm != nil {
		x := pa.ToWorld(*warm)
		wp = &x
	}
	if len(e.prev) == 0 {
		s, byAxes := sq.SeparatedOrdered(qa, pa, qb, pb, wp, e.sepAx)
		e.sepAx = byAxes
		if s {
			return true
		}
	}
	*r = sq.ContactPrepared(w.sqOpts(), qa, pa, qb, pb, wp) // S1 eq. (19)–(24); Local in A's frame
	return false
}

// preparedPair returns a and b's shapes prepared anew: the rare case that
// the world's are stale (a shape changed since the last placement) or
// absent (spheres).
func preparedPair(a, b *body.Body) (*sq.Prepared, *sq.Prepared) {
	p := [2]sq.Prepared{a.SQ().Prepare(), b.SQ().Prepare()}
	return &p[0], &p[1]
}

// narrowSmoothSurface is the contact of a smooth body with the triangulated
// surface of a polyhedron or a non-planar wall: at most one contact per
// facet, convex edge or corner (Voronoi regions), keyed by the feature id.
// a and b are the pair's bodies (or copies at a trial state).
func (w *World) narrowSmoothSurface(e *pairEntry, a, b *body.Body) {
	pb, sb, swap := a, b, false // particle, surface body
	shift := e.Shift            // of B
	if !isSmooth(a) {
		pb, sb, swap = b, a, true
	}
	surf := w.surfaceOf(sb.Poly())
	if surf == nil {
		return
	}
	pp, ps := poseOf(pb, geom.Vec3{}), poseOf(sb, geom.Vec3{})
	if swap {
		pp = poseOf(pb, shift) // the particle is B
	} else {
		ps = poseOf(sb, shift)
	}
	var buf [8]sq.SurfaceContact
	for _, c := range pb.SQ().SurfaceContacts(pp, surf, ps, 0, buf[:0]) {
		if !(c.Gap < 0) {
			continue
		}
		e.addSurfaceContact(swap, c.Feature, c.PA, c.PB, c.Normal, c.Gap)
	}
}

// surfaceOf returns the contact surface of a polyhedron (built once, shared).
func (w *World) surfaceOf(p *shape.Polyhedron) *sq.Surface {
	if s, ok := w.surfaces.Load(p); ok {
		return s.(*sq.Surface)
	}
	s, err := sq.NewSurface(p)
	if err != nil {
		s = nil // an unusable surface has no smooth contacts (Check reports it)
	}
	act, _ := w.surfaces.LoadOrStore(p, s)
	return act.(*sq.Surface)
}

// narrowSmoothWall handles a smooth body against a wall; a and b are the
// pair's bodies (or copies at a trial state).
func (w *World) narrowSmoothWall(e *pairEntry, a, b *body.Body) {
	swap := false
	pb, wb := a, b // particle, wall
	if a.Wall >= 0 {
		pb, wb, swap = b, a, true
	}
	wl := &w.Walls[wb.Wall]
	if !wl.Planar {
		// Triangulated walls: facets, convex (open) edges and corners.
		w.narrowSmoothSurface(e, a, b)
		return
	}
	d := pb.X.Sub(wl.P).Dot(wl.N) // signed distance of the centre from the plane
	foot := pb.X.AddScaled(-d, wl.N)
	// A wall is one-sided: a body whose centre is behind the plane is pushed
	// back out only if it came from the front, i.e. touched the wall at the
	// last accepted step. One first seen behind it is on the back side (under
	// a funnel's rim, below a plate) and touches at most the rim.
	back := d < 0 && len(e.prev) == 0
	if !w.Periodic.On() && pb.Kind == body.Sphere && !back {
		// Fast path: a sphere whose centre projects inside the wall touches
		// its facet only (S2 §2.2 geometry); near the rim, sq.Surface below.
		if onSurface(wb, foot) {
			if d < pb.R {
				e.addSurfaceContact(swap, 0, pb.X.AddScaled(-pb.R, wl.N), foot, wl.N, d-pb.R)
			}
			return
		}
	}
	if !w.Periodic.On() {
		// A planar wall of finite extent: its facet and its rim edges and
		// corners (sq.Surface), so that grains roll over the edge of a plate
		// (the orifice of a hopper). Facets are one-sided; a body whose centre
		// lies behind the plane (a trial state of an implicit integrator, a
		// deep penetration) falls back to the analytic plane contact below.
		w.narrowSmoothSurface(e, a, b)
		if len(e.cur) > 0 || d >= 0 || back || !onSurface(wb, foot) {
			return
		}
	} else if back {
		return
	}
	// The analytic plane contact (S1 eq. 30–34), kept where its point lies on
	// the wall (or on its periodic image).
	var pa, pw, n geom.Vec3
	var gap float64
	if pb.Kind == body.Sphere {
		ov, nn, _, _ := sphere.SpherePlane(pb.X, pb.R, wl.P, wl.N)
		n, gap = nn, -ov
		pa = pb.X.AddScaled(-pb.R, n)
		pw = pa.AddScaled(ov, n)
	} else {
		r := sq.PlaneContact(pb.SQ(), poseOf(pb, geom.Vec3{}), wl.P, wl.N) // S1 eq. (30)–(34)
		pa, pw, n, gap = r.PA, r.PB, r.Normal, r.Gap
	}
	if gap < 0 && (onSurface(wb, pw) || w.Periodic.On() && onSurface(wb, w.Periodic.wrap(pw))) {
		e.addSurfaceContact(swap, 0, pa, pw, n, gap)
	}
}

// addSurfaceContact appends a contact of the pair's smooth body with a wall
// or polyhedron surface: pp on the particle, ps on the surface, n the unit
// normal from the surface to the particle, feature the surface's feature id.
// swap says the surface body is A: the contact is then stated from A's side
// (normal from B to A, as every contact).
func (e *pairEntry) addSurfaceContact(swap bool, feature int32, pp, ps, n geom.Vec3, gap float64) {
	if swap {
		e.addSmooth(feature, 0, ps, pp, n.Neg(), gap)
	} else {
		e.addSmooth(0, feature, pp, ps, n, gap)
	}
}

// addSmooth appends smoothContact(fa, fb, pa, pb, n, gap) to e.cur, written
// in place (a contact is ~250 bytes: no temporary built and copied per
// contact and step).
func (e *pairEntry) addSmooth(fa, fb int32, pa, pb, n geom.Vec3, gap float64) {
	k := len(e.cur)
	if k < cap(e.cur) {
		e.cur = e.cur[:k+1]
	} else {
		e.cur = append(e.cur, contact.Contact{})
	}
	c := &e.cur[k]
	*c = contact.Contact{} // cleared in place, then the fields of smoothContact
	c.Key = contact.Key{Kind: snap.SQ, FA: fa, FB: fb}
	c.PA, c.PB, c.N, c.Gn, c.New = pa, pb, n, gap, true
}

// smoothContact returns a new smooth contact (Kind SQ) between features fa, fb.
func smoothContact(fa, fb int32, pa, pb, n geom.Vec3, gap float64) contact.Contact {
	return contact.Contact{Key: contact.Key{Kind: snap.SQ, FA: fa, FB: fb}, PA: pa, PB: pb, N: n, Gn: gap, New: true}
}

// matchSmooth carries the friction history of e.prev over to e.cur by key.
func (w *World) matchSmooth(e *pairEntry) {
	for i := range e.cur {
		c := &e.cur[i]
		for j := range e.prev {
			if e.prev[j].Key == c.Key {
				c.Fric, c.New = e.prev[j].Fric, false
				break
			}
		}
	}
}

// radiusMethod maps the scene-file name to the sq method (S1 eq. 38–40).
func radiusMethod(s string) sq.RadiusMethod {
	switch s {
	case "gaussian":
		return sq.RadiusGauss
	case "volume":
		return sq.RadiusVolume
	}
	return sq.RadiusMean
}

// effectiveRadius returns R_eff of a smooth contact (S1 eq. 38; spheres: r_a r_b/(r_a + r_b)).
func (w *World) effectiveRadius(e *pairEntry, a, b *body.Body, p *law.Smooth, c *contact.Contact) float64 {
	return w.effectiveRadiusAt(e, a, b, p, c.PA, c.PB)
}

// effectiveRadiusAt is effectiveRadius with the contact's points pa on A
// and pb on B given (the carried point's, pointlag.go).
func (w *World) effectiveRadiusAt(e *pairEntry, a, b *body.Body, p *law.Smooth, pa, pb geom.Vec3) float64 {
	if !w.posedOld && a.Kind == body.Superquadric && b.Kind == body.Superquadric && int(max(e.A, e.B)) < len(w.sqPrep) &&
		w.Bodies()[e.A] == a && w.Bodies()[e.B] == b {
		// both placed (placedSQ's first case, checked once for the pair);
		// A's point needs no shift (x − 0 = x exactly)
		m := radiusMethod(p.Radius)
		ra := w.sqPrep[e.A].RadiusAt(m, pa, p.CapQ, a.RVol())              // S1 eq. (39)–(40)
		rb := w.sqPrep[e.B].RadiusAt(m, pb.Sub(e.Shift), p.CapQ, b.RVol()) // S1 eq. (39)–(40)
		return law.Reduced(ra, rb)                                         // S1 eq. (38)
	}
	ra, rb := w.radiusAt(e.A, a, pa, geom.Vec3{}, p), w.radiusAt(e.B, b, pb, e.Shift, p)
	return law.Reduced(ra, rb) // S1 eq. (38)
}

// radiusAt returns the particle radius of body i (b, or a copy of it) at
// world surface point x (+Inf for walls and polyhedra).
func (w *World) radiusAt(i int32, b *body.Body, x, shift geom.Vec3, p *law.Smooth) float64 {
	switch b.Kind {
	case body.Sphere:
		return b.R
	case body.Superquadric:
		if q := w.placedSQ(i, b); q != nil {
			return q.RadiusAt(radiusMethod(p.Radius), x.Sub(shift), p.CapQ, b.RVol()) // S1 eq. (39)–(40)
		}
		return b.SQ().CurvatureRadiusRV(radiusMethod(p.Radius), poseOf(b, shift).ToLocal(x), p.CapQ, b.RVol())
	}
	return math.Inf(1)
}

// lawsSmooth evaluates law.Smooth on the contacts of a smooth pair: normal
// spring–dashpot on the overlap, tangential spring with dashpot and Coulomb
// cap on the accumulated tangential displacement (history). a and b are the
// pair's bodies (or copies at a trial state).
func (w *World) lawsSmooth(e *pairEntry, a, b *body.Body, p *ContactParams, dt float64) {
	if len(e.cur) > 0 { // most candidate pairs of a falling or settling bed have none
		w.lawsSmoothContacts(e, a, b, p, dt)
	}
}

// lawsSmoothContacts is lawsSmooth for a pair with contacts (lawsSmooth
// itself is small enough to be inlined into the laws stage's pair loop).
func (w *World) lawsSmoothContacts(e *pairEntry, a, b *body.Body, p *ContactParams, dt float64) {
	meff := law.EquivalentMass(a.MassOrInf(), b.MassOrInf())
	xb := b.X.Add(e.Shift)
	for k := range e.cur {
		c := &e.cur[k]
		pt, pa, pb := c.Point(), c.PA, c.PB
		if w.ptLag.on { // the accepted contact's point carried with the bodies (pointlag.go)
			if qa, qb, ok := w.pointLagAt(e, a, b, c); ok {
				pa, pb = qa, qb
				pt = geom.Lerp(pa, pb, 0.5)
			}
		}
		vrel := a.V.Add(a.W.Cross(pt.Sub(a.X))).Sub(b.V.Add(b.W.Cross(pt.Sub(xb))))
		vn := vrel.Dot(c.N) // > 0 separating
		reff := 0.0         // the Hookean law does not use it
		if p.Smooth.Model != law.HookeLAMMPS || p.Smooth.MuRoll > 0 {
			reff = w.effectiveRadiusAt(e, a, b, &p.Smooth, pa, pb)
		}
		nf := p.Smooth.Normal(-c.Gn, vn, meff, reff)
		c.Fn, c.Epot, c.M = nf.Fn, nf.Epot, geom.Vec3{}
		if p.Smooth.Mu > 0 { // frictionless (S2 §3): no tangential history at all
			vt := vrel.Sub(c.N.Scale(vn))
			fr := law.Friction{MuS: p.Smooth.Mu, MuD: p.Smooth.Mu, EpsT: nf.Kt, CT: nf.Ct}
			c.Ft = fr.Update(&c.Fric, c.N, vt.Scale(dt), vt, math.Abs(c.Fn)) // μ|F_n|, as LAMMPS gran/*/history
			c.Epot += fr.Potential(&c.Fric)
		} else {
			c.Ft = geom.Vec3{}
		}
		if p.Smooth.MuRoll > 0 {
			c.M = law.RollingTorque(a.W.Sub(b.W), c.N, p.Smooth.MuRoll*reff*math.Abs(c.Fn))
		}
	}
}

// pairDtSmooth is StableDt's bound for a smooth pair: every contact (and a
// pair about to touch, at the overlap its approach speed would reach) obeys
// Δt ≤ s·Δt_c of its spring–dashpot with the effective mass along the normal;
// no point may travel more than a tenth of the smaller radius per step.
// Spring stiffness and dashpot come in closed form from the law (no calls
// per contact beyond a square root), since this runs for every pair and step.
// As pairDt's polyhedral terms, a Hertz pair's terms are left out (the
// result is then dt_max) when a lower bound kept from an earlier step
// (the Hertz skip, below) shows them all not below u; sp holds StableDt's speed terms
// per body (bodySpeed). With u = +Inf nothing is left out.
func (w *World) pairDtSmooth(e *pairEntry, p *ContactParams, sp []bodySpeed, u float64) float64 {
	s := &w.Settings
	dt := s.DtMax
	a, b := w.Bodies()[e.A], w.Bodies()[e.B]
	ma, mb := a.MassOrInf(), b.MassOrInf()
	if p.Smooth.Model == law.HookeLAMMPS && e.springGen == w.lawGen && e.springSafety == s.Safety &&
		e.springMA == ma && e.springMB == mb {
		// A linear spring: the bound depends on the masses only and is kept
		// until a law or a shape changes; the travel bound is per body
		// (smoothTravelDt).
		return min(dt, e.dtSpring)
	}
	// The fastest relative motion of two surface points: |v_A − v_B| +
	// |ω_A|R_A + |ω_B|R_B (the travel term's and the impact overlap's v;
	// |ω|R is bodySpeed.wr, the same product).
	v := a.V.Sub(b.V).Norm() + sp[e.A].wr + sp[e.B].wr
	if sm := e.sm; sm != nil && u < math.Inf(1) && sm.hiGen == w.lawGen && sm.hiGen != 0 && sm.hiP == p &&
		sm.hiMA == ma && sm.hiMB == mb && sm.hiSafety == s.Safety && sm.dtHi*(1-boundSlack) >= u && v <= sm.vHi &&
		(!(v > 0) || sm.trav/v*(1-boundSlack) >= u) && deepestBelow(e.prev, sm.dHi) {
		return dt // every term not below u (the Hertz skip, below)
	}
	var rmin, reff float64
	switch {
	case a.Wall >= 0:
		rmin, reff = b.R, b.R
	case b.Wall >= 0:
		rmin, reff = a.R, a.R
	default:
		rmin, reff = min(a.R, b.R), law.Reduced(a.R, b.R)
	}
	if v > 0 {
		dt = min(dt, 0.1*rmin/v)
	}
	meq := law.EquivalentMass(ma, mb)
	if math.IsInf(meq, 0) {
		return dt
	}
	if p.Smooth.Model == law.HookeLAMMPS {
		e.dtSpring, e.springGen, e.springSafety = w.springDt(a, b, meq, &p.Smooth, 0, 0), w.lawGen, s.Safety
		e.springMA, e.springMB = ma, mb
		return min(dt, e.dtSpring)
	}
	// The stiffest state this pair can reach this step: its deepest current
	// overlap or the overlap of an elastic impact at the current speed.
	delta := 0.0
	for k := range e.prev {
		delta = max(delta, -e.prev[k].Gn)
	}
	least := 1e-3 * reff       // smoothSpring's least overlap
	floor := max(delta, least) // below which the impact overlap cannot change the bound
	d := max(delta, impactOverlapAbove(&p.Smooth, meq, reff, v, floor))
	w.keepHertzBound(e, p, a, b, ma, mb, meq, reff, rmin, max(d, least), v, u)
	if d <= least {
		// The bound at the least overlap depends on the masses, the law,
		// the shapes and the safety factor only: kept per pair until one of
		// them changes (most pairs of a bed are apart or touch lightly); the
		// same value to the bit.
		if e.floorGen != w.lawGen || e.floorGen == 0 || e.floorMA != ma || e.floorMB != mb || e.floorSafety != s.Safety || e.floorP != p {
			e.dtFloor = w.springDt(a, b, meq, &p.Smooth, d, reff)
			e.floorGen, e.floorMA, e.floorMB, e.floorSafety, e.floorP = w.lawGen, ma, mb, s.Safety, p
		}
		return min(dt, e.dtFloor)
	}
	return min(dt, w.springDt(a, b, meq, &p.Smooth, d, reff))
}

// hertzHeadroom is the factor by which keepHertzBound's overlap exceeds
// the pair's present one: the kept bound is then 1.5^(−1/4) ≈ 0.90 of the
// present spring term (k ∝ δ^(1/2)) and holds while the overlap grows by
// up to half.
const hertzHeadroom = 1.5

// The Hertz skip of pairDtSmooth: every term of a Hertz pair's bound is
// provably not below u, from the bound sm kept at an earlier step
// (keepHertzBound), when the law, masses and safety factor are those it was
// kept for; the deepest overlap of the pair's contacts is at most dHi and
// the pair's relative speed v (pairDtSmooth's, the same bits) at most vHi,
// so that the impact overlap is at most dHi as well; the spring term
// s·Δt_c, which falls as the overlap grows (Hertz: k ∝ δ^(1/2), the
// dashpot's ζ constant or growing, the tangential k_t ∝ δ^(1/2)), is then at
// least its value dtHi at dHi; and the travel term 0.1·r_min/v is trav/v.
// Both are used only when above u by boundSlack (rounding of the closed
// forms). The speed is the pair's relative one, not a sum of the bodies'
// speeds: grains falling together (the dynamic phase of a settling bed)
// have relative speeds far below their own, which the impact and travel
// terms see. (Written out in pairDtSmooth: it runs for most pairs of every
// step.)

// deepestBelow reports whether no contact of cs overlaps by more than d
// (−Gn ≤ d; false for a NaN gap).
func deepestBelow(cs []contact.Contact, d float64) bool {
	for k := range cs {
		if !(-cs[k].Gn <= d) {
			return false
		}
	}
	return true
}

// keepHertzBound keeps in e's smoothPair the lower bound the Hertz skip reads
// (the spring term at hertzHeadroom times the overlap d the pair's bound
// took now, and the largest speed whose impact overlap stays below that),
// unless the one kept is valid and covers d and v, or a new one would
// not lift it above u. Everything passed is as pairDtSmooth computed it.
func (w *World) keepHertzBound(e *pairEntry, p *ContactParams, a, b *body.Body, ma, mb, meq, reff, rmin, d, v, u float64) {
	sm := e.smoothState()
	valid := sm.hiGen == w.lawGen && sm.hiGen != 0 && sm.hiP == p && sm.hiMA == ma && sm.hiMB == mb && sm.hiSafety == w.Settings.Safety
	dHi := hertzHeadroom * d
	if valid && d <= sm.dHi && v <= sm.vHi && !(dHi < sm.dHi && sm.dtHi*(1-boundSlack) < u) {
		return
	}
	sm.dHi, sm.dtHi, sm.trav = dHi, w.springDt(a, b, meq, &p.Smooth, dHi, reff), 0.1*rmin
	sm.vHi = impactSpeed(&p.Smooth, meq, reff, dHi) * (1 - 1e-9)
	sm.hiGen, sm.hiP, sm.hiMA, sm.hiMB, sm.hiSafety = w.lawGen, p, ma, mb, w.Settings.Safety
}

// impactSpeed is the inverse of impactOverlap for the Hertz laws: the
// relative speed v at which an elastic impact reaches overlap delta,
// ½ m v² = (2/5) h δ^(5/2) (+Inf where impactOverlap is 0 at every speed).
func impactSpeed(p *law.Smooth, m, reff, delta float64) float64 {
	h := hertzFactor(p, reff)
	if !(h > 0) || math.IsInf(m, 0) {
		return math.Inf(1)
	}
	return math.Sqrt(0.8 * h * delta * delta * math.Sqrt(delta) / m)
}

// hertzFactor returns h of the Hertz laws' F = h δ^(3/2) at effective
// radius reff (0 for other laws).
func hertzFactor(p *law.Smooth, reff float64) float64 {
	switch p.Model {
	case law.HertzLAMMPS:
		return p.Kn * math.Sqrt(reff)
	case law.HertzMaterial:
		return 4.0 / 3.0 * p.E / (2 * (1 - p.Nu*p.Nu)) * math.Sqrt(reff) // 4/3 Y* √R
	}
	return 0
}

// springDt is the explicit stability bound s·Δt_c of the spring–dashpot of
// law p at overlap delta between bodies a and b.
func (w *World) springDt(a, b *body.Body, meq float64, p *law.Smooth, delta, reff float64) float64 {
	k, c, kt := smoothSpring(p, delta, meq, reff)
	if !(k > 0) {
		return math.Inf(1)
	}
	// A contact far from a centre has an effective mass along the normal
	// below m_eq; take at most half the lighter mass.
	m := min(meq, min(a.MassOrInf(), b.MassOrInf())/2)
	zeta := c / (2 * math.Sqrt(k*m))
	sn := w.Settings.Safety
	if c == 0 {
		sn = min(sn, UndampedSafety)
	}
	dt := sn * 2 * math.Sqrt(m/k) * (math.Sqrt(1+zeta*zeta) - zeta)
	// The tangential spring acts on the translational and rotational inertia
	// together: its effective mass 1/(1/m + R²/I_min) is far below m for a
	// contact at the tip of an elongated or flat particle.
	if kt > 0 {
		mt := 1 / (tangentialInvMass(a) + tangentialInvMass(b))
		dt = min(dt, w.Settings.Safety*2*math.Sqrt(mt/kt))
	}
	return dt
}

// UndampedSafety caps the step fraction s of springDt's normal bound
// Δt ≤ s·2√(m/k) for a contact without a dashpot. Such a contact must give
// back the energy it took, and an explicit step loses or gains some at the
// step the overlap begins and at the one it ends (the force switches on and
// off within a step), an error that grows with ω·Δt. With the default
// s = 0.2 (ω·Δt = 0.28 at m/2) a ball bouncing on a Hookean floor at
// dt_max 0.1 drifted by −1.4% of m·g·h in four bounces (superquadric
// cube: −1.5%); at s = 0.1 by up to 0.76% (dt_max 0.001), at s = 0.07
// by at most 0.12% in eight bounces over dt_max 3e-4 … 0.1
// (TestMatrixSmoothDrops).
const UndampedSafety = 0.07

// tangentialInvMass returns 1/m + R²/I_min of body b (0 for a fixed body),
// the largest inverse mass a tangential force at distance R can meet.
func tangentialInvMass(b *body.Body) float64 {
	if b.Fixed {
		return 0
	}
	imax := max(b.IBodyInv()[0][0], b.IBodyInv()[1][1], b.IBodyInv()[2][2])
	return b.InvMass() + b.R*b.R*imax
}

// smoothSpring returns the normal stiffness dF/dδ, the normal dashpot
// coefficient (N·s/m) and the tangential stiffness of law p at overlap delta
// (at least a thousandth of R_eff, so that a Hertzian contact about to form
// is not taken as infinitely soft), in closed form (law.Smooth.Stiffness).
func smoothSpring(p *law.Smooth, delta, meff, reff float64) (k, c, kt float64) {
	if p.Model == law.HookeLAMMPS {
		return p.Kn, meff * p.GammaN, p.Kt
	}
	return p.Stiffness(max(delta, 1e-3*reff), meff, reff)
}

// impactOverlap estimates the largest overlap of an elastic impact at
// relative speed v: ½ m v² = V(δ) with V = k δ²/2 (Hooke) or (2/5)·h·δ^{5/2}
// (Hertz, F = h δ^{3/2}).
func impactOverlap(p *law.Smooth, m, reff, v float64) float64 {
	return impactOverlapAbove(p, m, reff, v, 0)
}

// impactOverlapAbove is impactOverlap, or 0 when that overlap is at most
// floor (then the caller's bound does not depend on it; no root taken).
func impactOverlapAbove(p *law.Smooth, m, reff, v, floor float64) float64 {
	if !(v > 0) || math.IsInf(m, 0) {
		return 0
	}
	if p.Model == law.HookeLAMMPS {
		return v * math.Sqrt(m/p.Kn)
	}
	h := hertzFactor(p, reff)
	if !(h > 0) {
		return 0
	}
	x := 1.25 * m * v * v / h // δ^{5/2}
	if f2 := floor * floor; x*x <= f2*f2*floor {
		return 0 // δ ≤ floor
	}
	return math.Exp(0.4 * math.Log(x)) // ½ m v² = (2/5) h δ^{5/2}
}

// onSurface reports whether the world point p, lying in the plane of the
// planar wall body w, falls inside one of its triangles (walls have finite extent).
func onSurface(w *body.Body, p geom.Vec3) bool {
	poly := w.Poly()
	for _, f := range poly.Faces {
		a, b, c := w.ToWorld(poly.Verts[f.V[0]]), w.ToWorld(poly.Verts[f.V[1]]), w.ToWorld(poly.Verts[f.V[2]])
		n := b.Sub(a).Cross(c.Sub(a))
		if b.Sub(a).Cross(p.Sub(a)).Dot(n) >= 0 && c.Sub(b).Cross(p.Sub(b)).Dot(n) >= 0 && a.Sub(c).Cross(p.Sub(c)).Dot(n) >= 0 {
			return true
		}
	}
	return false
}

// smoothTravelDt bounds the step so that no sphere or superquadric travels
// more than 5% of its radius (points on it: |v| + |ω|R), so that a pair's
// relative motion stays within a tenth of the larger radius per step; and
// so that its acceleration adds at most as much again (accTravelDt).
// sp holds StableDt's speed terms per body (bodySpeed: |v|, |ω|R and
// travelAcc, computed once per call).
func (w *World) smoothTravelDt(sp []bodySpeed) float64 {
	dt := math.Inf(1)
	accR := 0.0
	for i, b := range w.Bodies() {
		if b.Kind == body.Polyhedral || b.Fixed {
			continue
		}
		if v := sp[i].v + sp[i].wr; v > 0 { // |v| + |ω|R
			dt = min(dt, ApproachDt(0.05*b.R, v, 0))
		}
		if a := sp[i].acc; a > 0 {
			accR = max(accR, a/b.R)
		}
	}
	return min(dt, accTravelDt(accR))
}

// accTravelDt is the acceleration part of smoothTravelDt, given the largest
// ratio |a|/R over the smooth bodies (a of travelAcc, R the bounding radius):
// ½·|a|·Δt² ≤ 0.025·R, the drift of velocity Verlet under the last load
// (x + vΔt + ½aΔt²). Velocity alone left a body at rest or at the apex of a
// flight with a step of dt_max: a ball 5 cm above the ground fell through
// it in one step of 0.1 s (4.9 cm), and large steps near the apex changed
// the phase at which the next impact began. It bites only where the speed
// bound 0.05·R/|v| leaves a step above √(0.05·R/|a|) — near rest under a
// load, or with dt_max far above the scale of the motion.
func accTravelDt(accR float64) float64 {
	if !(accR > 0) {
		return math.Inf(1)
	}
	return math.Sqrt(0.05 / accR) // ½·a·Δt² ≤ 0.025·R
}

// sqOptions are the midway-point solver options of the world: a residual
// of 1e-8 particle sizes, so that in a bed at rest the previous step's point
// is usually accepted without a Newton iteration (S1 §3.1); the overlap comes
// from the contact-line intersections (S1 eq. 36–37) and is insensitive to
// the point to first order.
var sqOptions = sq.Options{Tol: 1e-8, MaxIter: 60}
