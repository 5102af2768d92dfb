package world

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
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
	lo, hi := b.SQ.AABB(sq.Pose{X: b.X, Q: b.Q})
	return contact.AABB{Min: lo, Max: hi}
}

// narrowSmooth is the narrow phase of a smooth pair (S1 §2.3–2.4, S2 §2.2).
// It reports whether a superquadric solve missed its tolerance.
func (w *World) narrowSmooth(e *pairEntry) (failed bool) {
	a, b := w.Bodies[e.A], w.Bodies[e.B]
	e.cur = e.cur[:0]
	switch {
	case a.Wall >= 0 || b.Wall >= 0:
		return w.narrowSmoothWall(e)
	case a.Kind == body.Sphere && b.Kind == body.Sphere:
		xb := b.X.Add(e.Shift)
		ov, n, p, ok := sphere.SphereSphere(a.X, xb, a.R, b.R) // S2 §2.2: δ = r_a + r_b − |x_a − x_b|
		if ok {
			e.cur = append(e.cur, smoothContact(0, 0, p.AddScaled(-0.5*ov, n), p.AddScaled(0.5*ov, n), n, -ov, p))
		}
	case isSmooth(a) && isSmooth(b):
		// Cheap rejection: bounding spheres apart.
		if a.X.Sub(b.X.Add(e.Shift)).Norm() > a.R+b.R {
			e.hasMid = false
			return false
		}
		var warm *geom.Vec3
		if e.hasMid {
			warm = &e.mid
		}
		r := sq.Contact(a.SQ, poseOf(a, geom.Vec3{}), b.SQ, poseOf(b, e.Shift), warm) // S1 eq. (19)–(24)
		if !r.Converged {
			e.hasMid = false
			return true
		}
		e.mid, e.hasMid = r.Point, true
		if r.InContact {
			e.cur = append(e.cur, smoothContact(0, 0, r.PA, r.PB, r.Normal, r.Gap, r.Point))
		}
	default:
		// A smooth body against a movable polyhedron: not supported yet
		// (scene.Build refuses such scenes).
	}
	w.matchSmooth(e)
	return false
}

// narrowSmoothWall handles a smooth body against a wall.
func (w *World) narrowSmoothWall(e *pairEntry) bool {
	a, b := w.Bodies[e.A], w.Bodies[e.B]
	swap := false
	pb, wb := a, b // particle, wall
	if a.Wall >= 0 {
		pb, wb, swap = b, a, true
	}
	wl := &w.Walls[wb.Wall]
	if !wl.Planar {
		return false // triangulated walls: see scene.Build
	}
	var pa, pw, n geom.Vec3
	var gap float64
	if pb.Kind == body.Sphere {
		ov, nn, _, _ := sphere.SpherePlane(pb.X, pb.R, wl.P, wl.N)
		n, gap = nn, -ov
		pa = pb.X.AddScaled(-pb.R, n)
		pw = pa.AddScaled(ov, n)
	} else {
		r := sq.PlaneContact(pb.SQ, poseOf(pb, geom.Vec3{}), wl.P, wl.N) // S1 eq. (30)–(34)
		pa, pw, n, gap = r.PA, r.PB, r.Normal, r.Gap
	}
	if gap < 0 {
		if swap { // A is the wall: normal from B (particle) to A (wall)
			e.cur = append(e.cur, smoothContact(0, 0, pw, pa, n.Neg(), gap, pa))
		} else {
			e.cur = append(e.cur, smoothContact(0, 0, pa, pw, n, gap, pa))
		}
	}
	w.matchSmooth(e)
	return false
}

func smoothContact(fa, fb int32, pa, pb, n geom.Vec3, gap float64, _ geom.Vec3) contact.Contact {
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
func (w *World) effectiveRadius(e *pairEntry, p *law.Smooth, c *contact.Contact) float64 {
	a, b := w.Bodies[e.A], w.Bodies[e.B]
	ra, rb := radiusAt(a, c.PA, geom.Vec3{}, p), radiusAt(b, c.PB, e.Shift, p)
	return law.Reduced(ra, rb) // S1 eq. (38)
}

// radiusAt returns the particle radius of b at world surface point x (+Inf for walls and polyhedra).
func radiusAt(b *body.Body, x, shift geom.Vec3, p *law.Smooth) float64 {
	switch b.Kind {
	case body.Sphere:
		return b.R
	case body.Superquadric:
		return b.SQ.CurvatureRadius(radiusMethod(p.Radius), poseOf(b, shift).ToLocal(x), p.CapQ) // S1 eq. (39)–(40)
	}
	return math.Inf(1)
}

// lawsSmooth evaluates law.Smooth on the contacts of a smooth pair: normal
// spring–dashpot on the overlap, tangential spring with dashpot and Coulomb
// cap on the accumulated tangential displacement (history).
func (w *World) lawsSmooth(e *pairEntry, p *ContactParams, dt float64) {
	a, b := w.Bodies[e.A], w.Bodies[e.B]
	meff := law.EquivalentMass(a.MassOrInf(), b.MassOrInf())
	xb := b.X.Add(e.Shift)
	for k := range e.cur {
		c := &e.cur[k]
		pt := c.Point()
		vrel := a.V.Add(a.W.Cross(pt.Sub(a.X))).Sub(b.V.Add(b.W.Cross(pt.Sub(xb))))
		vn := vrel.Dot(c.N) // > 0 separating
		nf := p.Smooth.Normal(-c.Gn, -vn, meff, w.effectiveRadius(e, &p.Smooth, c))
		c.Fn = nf.Fn
		vt := vrel.Sub(c.N.Scale(vn))
		fr := law.Friction{MuS: p.Smooth.Mu, MuD: p.Smooth.Mu, EpsT: nf.Kt, CT: nf.Ct}
		c.Ft = fr.Update(&c.Fric, c.N, vt.Scale(dt), vt, c.Fn)
		c.Epot = nf.Epot + fr.Potential(&c.Fric)
	}
}

// pairDtSmooth is StableDt's bound for a smooth pair: every contact (and a
// pair about to touch, at the overlap its approach speed would reach) obeys
// Δt ≤ s·Δt_c of its spring–dashpot with the effective mass along the normal;
// no point may travel more than a tenth of the smaller radius per step.
func (w *World) pairDtSmooth(e *pairEntry, p *ContactParams) float64 {
	s := w.Settings
	dt := s.DtMax
	a, b := w.Bodies[e.A], w.Bodies[e.B]
	meq := law.EquivalentMass(a.MassOrInf(), b.MassOrInf())
	rmin := math.Min(a.R, b.R)
	if a.Wall >= 0 {
		rmin = b.R
	} else if b.Wall >= 0 {
		rmin = a.R
	}
	va := a.V.Norm() + a.W.Norm()*a.R
	vb := b.V.Norm() + b.W.Norm()*b.R
	if v := va + vb; v > 0 {
		dt = math.Min(dt, 0.1*rmin/v)
	}
	reff := rmin
	if a.Wall < 0 && b.Wall < 0 {
		reff = law.Reduced(a.R, b.R)
	}
	check := func(delta, m float64) {
		nf := p.Smooth.Normal(delta, 0, meq, reff)
		if nf.K > 0 && m > 0 && !math.IsInf(m, 0) {
			c := smoothDashpot(&p.Smooth, delta, meq, reff)
			zeta := c / (2 * math.Sqrt(nf.K*m))
			dt = math.Min(dt, s.Safety*2*math.Sqrt(m/nf.K)*(math.Sqrt(1+zeta*zeta)-zeta))
		}
	}
	vrel := a.V.Sub(b.V).Norm() + a.W.Norm()*a.R + b.W.Norm()*b.R
	dImpact := impactOverlap(&p.Smooth, meq, reff, vrel)
	for k := range e.prev {
		c := &e.prev[k]
		im := effMass(a, c.PA, c.N) + effMass(b, c.PB, c.N)
		if im > 0 {
			check(math.Max(-c.Gn, dImpact), 1/im)
		}
	}
	// Entry: a pair that may touch within the step.
	check(math.Max(dImpact, 1e-3*reff), math.Min(a.MassOrInf(), b.MassOrInf()))
	return dt
}

// smoothDashpot returns the normal dashpot coefficient (N·s/m) at overlap delta.
func smoothDashpot(p *law.Smooth, delta, meff, reff float64) float64 {
	f0 := p.Normal(delta, 0, meff, reff).Fn
	f1 := p.Normal(delta, 1, meff, reff).Fn // unit approach speed
	return math.Max(0, f1-f0)
}

// impactOverlap estimates the largest overlap of an elastic impact at
// relative speed v (energy balance ½ m v² = V(δ)), used to bound the
// stiffness of Hertzian contacts that are about to form.
func impactOverlap(p *law.Smooth, m, reff, v float64) float64 {
	if !(v > 0) || math.IsInf(m, 0) {
		return 0
	}
	e := 0.5 * m * v * v
	// V(δ) is a power law c·δ^k: find it from two evaluations.
	d0 := 1e-6 * reff
	v0 := p.Normal(d0, 0, m, reff).Epot
	v1 := p.Normal(2*d0, 0, m, reff).Epot
	if !(v0 > 0) || !(v1 > v0) {
		return 0
	}
	k := math.Log2(v1 / v0)
	return d0 * math.Pow(e/v0, 1/k)
}
