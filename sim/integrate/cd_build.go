package integrate

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/cd"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// cdScratch holds the solver's view of the world for one step.
type cdScratch struct {
	bodies   []cd.Body
	contacts []cd.Contact
	row      []int          // per EachContact visit: the solver contact, or −1
	keys     []cdKey        // per solver contact
	normal   []geom.Vec3    // per solver contact: unit normal B → A used by the solver
	point    []geom.Vec3    // per solver contact: the point where the force acts
	shift    []geom.Vec3    // per solver contact: B's periodic image shift
	rev      map[cdKey]bool // polyhedron contacts whose normal is reversed this step
}

// build converts the world's bodies (world-frame inertia, external loads) and
// its committed active contacts into a cd.System. The gap gradient B is built
// from contact points and normals (S3 eq. 15), so every body kind works.
func (x *CD) build(w *world.World) (*cd.System, error) {
	s := &x.sc
	s.bodies = s.bodies[:0]
	for _, b := range w.Bodies() {
		cb := cd.Body{Fixed: b.Fixed, X: b.X, Q: b.Q}
		if !b.Fixed {
			J := b.InertiaWorld() // S0 eq. (15)
			cb.Mass, cb.Inertia, cb.V, cb.W, cb.F = b.Mass(), J, b.V, b.W, b.F
			// Euler's equations, J ω̇ = T − ω × Jω (S0 §2.3): the gyroscopic
			// moment enters the step explicitly as an external torque.
			cb.T = b.T.Sub(b.W.Cross(J.MulV(b.W)))
		}
		s.bodies = append(s.bodies, cb)
	}
	// The reversed (penetrated) polyhedron contacts of the previous step.
	x.rev, s.rev = s.rev, x.rev
	if s.rev == nil {
		s.rev = make(map[cdKey]bool)
	}
	clear(s.rev)
	s.contacts, s.row, s.keys = s.contacts[:0], s.row[:0], s.keys[:0]
	s.normal, s.point, s.shift = s.normal[:0], s.point[:0], s.shift[:0]
	w.EachContact(func(a, b int, c *contact.Contact) {
		ct, ok := x.convert(w, a, b, c)
		if !ok {
			s.row = append(s.row, -1)
			return
		}
		s.row = append(s.row, len(s.contacts))
		s.contacts = append(s.contacts, ct)
		s.keys = append(s.keys, cdKey{a, b, c.Key})
		s.normal = append(s.normal, ct.N)
		s.point = append(s.point, ct.P)
		s.shift = append(s.shift, ct.ShiftB)
	})
	return cd.NewSystem(s.bodies, s.contacts)
}

// convert returns the solver contact of one world contact, or false when the
// contact is suppressed, joins two fixed bodies or has no usable normal.
//
// Polyhedron contacts (S0) carry the unsigned gap |PA − PB| inside the skin
// ḡ; vertex–face contacts get the signed gap along the face normal, the
// others their normal and gap reversed while penetrated (S0 §2.4.5), and all
// are driven to Margin·ḡ rather than 0. Contacts involving
// a smooth body (sphere, superquadric) carry gap = −overlap and are driven to
// an overlap of Overlap × the smaller radius. See effectiveGap for the
// condition the solver enforces.
func (x *CD) convert(w *world.World, a, b int, c *contact.Contact) (cd.Contact, bool) {
	ba, bb := w.Bodies()[a], w.Bodies()[b]
	if !c.Active() || (ba.Fixed && bb.Fixed) {
		return cd.Contact{}, false
	}
	p := w.Params(ba.Material, bb.Material)
	smooth := ba.Kind != body.Polyhedral || bb.Kind != body.Polyhedral
	n, gap := c.N, c.Gn
	// target is the gap the contact is driven to; below floor it counts as
	// penetrated and is pushed back out.
	var target, floor float64
	if smooth {
		target = -x.Overlap * min(curvatureRadius(ba), curvatureRadius(bb))
		floor = target
	} else {
		if c.Kind == snap.VF {
			// Vertex–face: the face's outward normal gives the signed gap
			// (S0 eq. 64–66), negative once the vertex is behind the face.
			if c.Swap { // the face belongs to A: the normal B → A is minus it
				n = ba.Q.Rotate(ba.Poly().Faces[c.FA].N).Neg()
			} else {
				n = bb.Q.Rotate(bb.Poly().Faces[c.FB].N)
			}
			gap = c.PA.Sub(c.PB).Dot(n)
		} else {
			// Edge–edge, vertex–edge, vertex–vertex: detection flags the
			// step at which the normal reverses (S0 §2.4.5); the contact
			// stays reversed (penetrated) until its normal reverses again.
			key := cdKey{a, b, c.Key}
			if !c.New && x.rev[key] != c.Flip {
				n, gap = n.Neg(), -gap
				x.sc.rev[key] = true
			}
		}
		if p != nil {
			target = x.Margin * p.Normal.GBar
		}
	}
	geoGap := gap
	gap = x.effectiveGap(gap, target, floor)
	if l := n.Norm(); !(math.Abs(l-1) < 1e-6) || math.IsNaN(gap) || !c.PA.IsFinite() || !c.PB.IsFinite() {
		return cd.Contact{}, false
	}
	ct := cd.Contact{A: a, B: b, P: c.Point(), N: n, Gap: gap, K: 1, Law: x.CompatLaw,
		ShiftB: imageShift(w, bb, c.PB)}
	// Coulomb cone: smooth contacts have the smooth law's single μ, polyhedron
	// contacts S0's μ_s and μ_d (sim/cd/friction.go: μ_s while sticking, μ_d
	// once sliding).
	if p != nil && !x.Frictionless {
		if smooth && p.HasSmooth {
			ct.MuS, ct.MuD = p.Smooth.Mu, p.Smooth.Mu
		} else if !smooth {
			ct.MuS, ct.MuD = p.Friction.MuS, p.Friction.MuD
		}
		ct.Slid = x.slid[cdKey{a, b, c.Key}]
	}
	if smooth && p != nil && p.HasSmooth {
		k, l := smoothStiffness(&p.Smooth, ba, bb)
		if k > 0 && !math.IsInf(k, 0) {
			ct.K = k
		}
		if x.MaterialLaw {
			ct.Law = l
		}
	}
	if !smooth && p != nil && p.HasPoly {
		ct.K = polyStiffness(&p.Normal, geoGap)
	}
	if x.Stiffness != nil {
		if k := x.Stiffness(w, a, b, c); k > 0 && !math.IsInf(k, 0) {
			ct.K = k
		}
	}
	return ct, true
}

// smoothStiffness returns the relative stiffness k̃ of a smooth contact law,
// f = k̃ c^{p−1} (S3 eq. 31, 34): the elastic force of the law at unit
// overlap (k_n for Hooke, k_n√R_eff for LAMMPS Hertz, 4/3 Y*√R* for Hertz
// from the material), and the matching compatibility law. R_eff combines the
// bodies' radii in series, a plane or polyhedron counting as flat (a
// superquadric uses its bounding radius).
func smoothStiffness(s *law.Smooth, a, b *body.Body) (float64, cd.Law) {
	reff := law.Reduced(curvatureRadius(a), curvatureRadius(b))
	if math.IsInf(reff, 1) {
		reff = 1
	}
	k := s.Normal(1, 0, 1, reff).Fn
	if s.Model == law.HookeLAMMPS {
		return k, cd.Hookean
	}
	return k, cd.Hertzian
}

// polyStiffness returns the relative stiffness k̃ of a polyhedron contact
// at gap g (S3 eq. 35): the tangent k_c = −df_n/dg of its normal law (S0 eq.
// 49–51, law.Normal.Stiffness), with g kept inside the skin, in
// [10⁻³ḡ, ḡ(1 − 10⁻³)], where the tangent is finite and positive. Contacts of
// one law at the same gap get the same k̃; a law with ε1 scaled by s (ε2, c2
// follow, S0 eq. 51) gets s times it.
func polyStiffness(n *law.Normal, g float64) float64 {
	g = min(max(g, 1e-3*n.GBar), (1-1e-3)*n.GBar)
	k := n.Stiffness(g)
	if !(k > 0) || math.IsInf(k, 0) {
		return 1
	}
	return k
}

// curvatureRadius is the radius a body contributes to R_eff (+Inf: flat).
func curvatureRadius(b *body.Body) float64 {
	if b.Kind == body.Polyhedral || !(b.R > 0) {
		return math.Inf(1)
	}
	return b.R
}

// imageShift returns the periodic shift of the image of b that carries the
// surface point p: the multiple of the period along each periodic direction
// nearest to p − X_b (a body is much smaller than the period). Walls and
// non-periodic worlds give zero.
func imageShift(w *world.World, b *body.Body, p geom.Vec3) geom.Vec3 {
	var s geom.Vec3
	per := &w.Periodic
	if !per.On() || b.Wall >= 0 {
		return s
	}
	d := p.Sub(b.X)
	if l := per.Hi.X - per.Lo.X; per.X && l > 0 {
		s.X = l * math.Round(d.X/l)
	}
	if l := per.Hi.Y - per.Lo.Y; per.Y && l > 0 {
		s.Y = l * math.Round(d.Y/l)
	}
	return s
}

// effectiveGap returns the gap Φ handed to the solver, which enforces
// v_n ≥ −Φ/Δt (S3 eq. 16), for a contact at signed gap g with target gap
// gt and penetration floor gf ≤ gt:
//   - g ≥ gt: Φ = g − gt, the contact may close exactly to its target;
//   - gf ≤ g < gt (inside a polyhedron's margin): Φ = 0, it may not close
//     further but is not pushed apart either (no energy is injected);
//   - g < gf (penetrated): Φ = (g − gf)·Δt/Δt₀ with Δt₀ the nominal step,
//     so that a step shortened by the approach cap does not turn the
//     penetration into a violent push-out (S3's −Φ/Δt over Δt₀).
func (x *CD) effectiveGap(g, gt, gf float64) float64 {
	switch {
	case g >= gt:
		return g - gt
	case g >= gf:
		return 0
	}
	return (g - gf) * x.dtRatio
}
