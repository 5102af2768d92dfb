package contact

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
)

// Key identifies a contact between two sub-regions of a body pair (A, B), so
// that its friction history carries over from step to step (S0 §2.4.3).
// For VF and VE, Swap false means the vertex belongs to A and the face/edge to
// B; Swap true means the face/edge belongs to A and the vertex to B.
type Key struct {
	Kind   snap.ContactKind
	Swap   bool
	FA, FB int32
}

// Rule names the contact-hierarchy rule that suppressed a candidate.
type Rule uint8

const (
	// NoRule marks an active contact.
	NoRule Rule = iota
	// ConcaveEdge: a vertex–edge candidate on a concave edge whose vertex
	// already touches a face of that edge (S0 §3.6, Fig. 9).
	ConcaveEdge
	// EdgeFace: a vertex–edge candidate on a convex edge whose vertex already
	// touches one of the edge's faces (the face carries the vertex).
	EdgeFace
	// VertexVertex: a vertex–vertex candidate where either vertex already
	// touches a face or edge attached to the other (S0 §3.6).
	VertexVertex
	// CoplanarFace: a vertex touching two coplanar faces joined by a flat edge
	// keeps only the closer one.
	CoplanarFace
)

var ruleNames = [...]string{"", "concave-edge", "edge-face", "vertex-vertex", "coplanar-face"}

func (r Rule) String() string { return ruleNames[r] }

// Contact is one pointwise interaction between bodies A and B.
type Contact struct {
	Key
	PA, PB geom.Vec3 // contact points on A and B
	N      geom.Vec3 // unit normal from B to A: g = PA − PB = Gn·N (S0 eq. 29, 31)
	Gn     float64   // normal gap g_n = |g|

	Rule Rule // NoRule when active
	New  bool // no contact with this key in the previous step
	Flip bool // the normal reversed since the previous step: a penetration (S0 §2.4.5)
	// G0 is the gap of the contact with this key in the previous step (the
	// last committed state; valid when !New): the start-of-step gap at which
	// a lagged dashpot takes its coefficient (World.SetDampLag, S0 eq. 52).
	G0 float64
	// Fn0 is the total normal force of the contact with this key in the
	// previous step (valid when !New): the start-of-step force of the
	// lagged Coulomb test (World.SetStickLag, S0 §2.4.9).
	Fn0 float64

	// Filled by the contact laws.
	Fn   float64   // total normal force magnitude (elastic + damping), ≥ 0
	Ft   geom.Vec3 // friction force acting on A
	Fric law.FrictionState
	Epot float64   // stored energy of the normal law and the tangential spring
	M    geom.Vec3 // rolling-resistance torque on A (smooth contacts; B gets −M)
}

// Active reports whether the contact is not suppressed by the hierarchy.
func (c *Contact) Active() bool { return c.Rule == NoRule }

// Point returns the contact point used for output (midpoint of the gap vector).
func (c *Contact) Point() geom.Vec3 { return geom.Lerp(c.PA, c.PB, 0.5) }

// Scratch holds per-worker buffers so that detection does not allocate.
type Scratch struct {
	a, b nearSet
	hit  [][2]int32 // AnyWithin's first pair found
	hitD []float64
}

// Cache is the second level of the contact search of one body pair (S0 §2.5):
// the feature pairs (sub-region pairs) that lie within ḡ + Margin of each
// other, found when the cache was built. It stays valid while no point of
// one body has moved by more than Margin relative to the other, so that
// every feature pair that comes within ḡ is already listed; until then each
// step only solves the listed local problems.
type Cache struct {
	// What Stale, Detect and pairPass read for every candidate pair at
	// every step comes first, on the pair's first cache lines; the lists
	// and the build's pose after.
	built  bool
	listed bool // some feature pair is listed (Empty)
	// pend marks a restored cache (SetState) whose distances are not yet
	// known: they are found at its first placement with a proved motion
	// bound (fill).
	pend         bool
	margin, gbar float64
	trk          staleTrack
	dmin         float64    // the least of dvf … dvv (+Inf when none)
	lmin         [6]float64 // the least of each of dvf … dvv (+Inf when empty)
	skip         skipBound

	vf, fv, ee, ve, ev, vv [][2]int32 // (feature of A, feature of B)
	// dvf … dvv hold, aligned with the lists, a lower bound of each listed
	// feature pair's distance at the build (Detect's skip test, skip); 0
	// when unknown (a cache restored by SetState): never skipped.
	dvf, dfv, dee, dve, dev, dvv []float64
	refT                         geom.Vec3 // B's centre in A's frame at the build
	refQ                         geom.Quat // A⁻¹·B at the build
	refS                         geom.Vec3 // A's centre in B's frame at the build
	// Builds counts how often the cache was rebuilt.
	Builds int
	lease  *Lease // the lease granted on the cache (Grant), revoked by any change
	// swp records the last full test of Stale when A's displacement in
	// B's frame proved the cache valid (dA ≤ margin, dB above it): dA (in
	// its dB field), the angle bound and |X_B − X_A|, at the placements
	// genA, genB, for a lease with the roles of A and B exchanged (Grant).
	swp staleTrack
}

// Empty reports whether the cache lists no feature pair: Detect then finds
// no contact.
func (c *Cache) Empty() bool { return !c.listed }

// setListed records whether any list holds a feature pair (Build, SetState).
func (c *Cache) setListed() {
	c.listed = len(c.vf)+len(c.fv)+len(c.ee)+len(c.ve)+len(c.ev)+len(c.vv) > 0
}

// Invalidate forces a rebuild at the next use.
func (c *Cache) Invalidate() {
	c.revokeLease()
	c.built = false
}

// Stale reports whether the cache must be rebuilt for the current poses:
// the relative displacement of any point of one body in the other's frame,
// bounded by |Δt| + θ·R, exceeds the margin (or gbar changed). Between two
// consecutive placements of both bodies the test is usually decided without
// the poses' products, from a bound carried from the last full test
// (staleTrack); it gives the full test's answer.
func (c *Cache) Stale(a, b *Posed, gbar float64) bool {
	if !c.built || gbar != c.gbar {
		c.trk.on = false
		c.skip.ok = false
		return true
	}
	if c.pend { // a restored cache: the placements its distances will come from
		c.skip.a, c.skip.b = a, b
	}
	// Move staleTrack's bound to these poses (it needs a and b placed
	// once each since the last test: no placement missed) and see whether
	// it proves the cache valid. Written out here: this runs for every
	// candidate pair at every step.
	if s := &c.trk; s.on && a.gen == s.genA+1 && b.gen == s.genB+1 {
		s.genA, s.genB = a.gen, b.gen
		ma, mb := a.moved, b.moved
		rot := 1.01 * (ma.theta + mb.theta)
		s.dB += ma.dx + mb.dx + ma.theta*s.d + rot*b.Poly.Radius
		s.th += rot
		s.d += ma.dx + mb.dx
		if s.th <= 0.5 && s.dB <= c.margin*(1-1e-6) {
			return false // the bound for skipBound: c.trk.dB
		}
	}
	c.trk.genA, c.trk.genB = a.gen, b.gen
	c.swp.on = false
	// The products below are a.Q.Conj().Mul(b.Q), angleBound and
	// a.Q.InvRotate written out (the same operations in the same order, so
	// the same bits): this test runs for every candidate pair at every step.
	aw, ax, ay, az := a.Q.W, -a.Q.X, -a.Q.Y, -a.Q.Z // a.Q.Conj()
	bq := b.Q
	r := geom.Quat{ // a.Q.Conj().Mul(b.Q)
		W: aw*bq.W - ax*bq.X - ay*bq.Y - az*bq.Z,
		X: aw*bq.X + ax*bq.W + ay*bq.Z - az*bq.Y,
		Y: aw*bq.Y - ax*bq.Z + ay*bq.W + az*bq.X,
		Z: aw*bq.Z + ax*bq.Y - ay*bq.X + az*bq.W,
	}
	pw, px, py, pz := c.refQ.W, -c.refQ.X, -c.refQ.Y, -c.refQ.Z // refQ.Conj()
	dx := pw*r.X + px*r.W + py*r.Z - pz*r.Y                     // vec(refQ⁻¹·r), as in angleBound
	dy := pw*r.Y - px*r.Z + py*r.W + pz*r.X
	dz := pw*r.Z + px*r.Y - py*r.X + pz*r.W
	th := thetaBound(math.Sqrt(dx*dx + dy*dy + dz*dz))
	// a.Q.InvRotate(v) = Conj(a.Q).Rotate(v): t = 2 u×v, v + w t + u×t.
	u := geom.Vec3{X: ax, Y: ay, Z: az}
	v := b.X.Sub(a.X)
	t := u.Cross(v).Scale(2)
	dB := v.AddScaled(aw, t).Add(u.Cross(t)).Sub(c.refT).Norm() + th*b.Poly.Radius
	if dB <= c.margin {
		c.trk.start(dB, th, v.Norm()) // the bound for skipBound: dB
		return false
	}
	c.trk.on = false
	dA := b.Q.InvRotate(a.X.Sub(b.X)).Sub(c.refS).Norm() + th*a.Poly.Radius
	if !(dA <= c.margin) { // a NaN distance (a non-finite pose) is stale (review rv3)
		c.skip.ok = false
		return true
	}
	c.skip.at(a, b, dA)
	c.swp.start(dA, th, v.Norm())
	c.swp.genA, c.swp.genB = a.gen, b.gen
	return false
}

// skipBound keeps what Detect needs to skip listed feature pairs that
// cannot be within ḡ: mv, a bound of the relative motion since the build
// that the last staleness test (or the build itself, mv = 0) proved for
// one placement of the pair — every point of one body moved by at most mv
// in the other's frame (S0 §2.5: dB or dA of Stale, or staleTrack's carried
// bound of dB). The distance between a point set of A and one of B is the
// same in either frame and changes by at most mv under such a motion, so a
// listed feature pair whose distance at the build was at least ḡ + mv
// cannot be within ḡ now, and a contact needs it there (the local problem's
// points lie on the two features). Detect skips it without solving its
// local problem. The bound holds only for the placements it was proved at
// (the same Posed values, identified by address and placement count); for
// any other, Detect skips nothing.
type skipBound struct {
	ok         bool
	a, b       *Posed  // the placements of the build
	genA, genB uint64  // their placement counts when mv was proved
	mv         float64 // when staleTrack does not hold the bound
	tol        float64 // the rounding allowance of limit, set at the build
}

// at records mv as the bound for the current placements of a and b.
func (s *skipBound) at(a, b *Posed, mv float64) {
	s.ok, s.genA, s.genB, s.mv = true, a.gen, b.gen, mv
}

// limit returns the build-time distance from which a listed feature pair
// of c cannot give a contact of gap below gbar at the placements a and b:
// ḡ + mv + tol, or +Inf when no bound is known for them. The bound is
// staleTrack's when it tracks these placements, else the one recorded by
// the build or Stale's full test (at). tol covers the rounding of the
// distances at the build and in Detect, and the ParamTol band of
// VertexFace (a projection outside its triangle by up to 1e-12 of its
// size): 1e-6 of ḡ + mv, and s.tol = 1e-7 of the bodies' radii plus 1e-12
// of their coordinates at the build, each far above those errors for
// coordinates below 10⁶ m. (The radius term also covers segSegDist2 on
// edges parallel to rounding, |d1×d2| ≲ 1e-8·|d1||d2|, where its s is
// arbitrary and the distance it returns exceeds the true one by up to
// |d1×d2|/|d2| ≤ 1e-8·|d1|; farther from parallel it is the true distance
// to rounding.)
func (c *Cache) limit(a, b *Posed, gbar float64) float64 {
	s := &c.skip
	if a != s.a || b != s.b {
		return math.Inf(1)
	}
	var mv float64
	switch {
	case c.trk.on && a.gen == c.trk.genA && b.gen == c.trk.genB:
		mv = c.trk.dB
	case s.ok && a.gen == s.genA && b.gen == s.genB:
		mv = s.mv
	default:
		return math.Inf(1)
	}
	if c.pend {
		c.fill(a, b, mv)
	}
	return gbar + mv + 1e-6*(gbar+mv) + s.tol
}

// setTol sets the rounding allowance of limit for the bodies a and b.
func (s *skipBound) setTol(a, b *Posed) {
	s.tol = 1e-7*(a.Poly.Radius+b.Poly.Radius) + 1e-12*max(math.Abs(a.X.X), math.Abs(a.X.Y), math.Abs(a.X.Z), math.Abs(b.X.X), math.Abs(b.X.Y), math.Abs(b.X.Z))
}

// fill gives a restored cache (SetState) its distances from the current
// placements, at which Stale proved the relative motion since the build to
// be at most mv: a listed pair's distance now, d, is at most its distance
// at the build plus mv, so d − mv is a lower bound of the latter, which is
// what the skip test needs (skipBound).
func (c *Cache) fill(a, b *Posed, mv float64) {
	c.pend = false
	c.skip.setTol(a, b)
	c.dvf, c.dfv, c.dee, c.dve, c.dev, c.dvv = c.dvf[:0], c.dfv[:0], c.dee[:0], c.dve[:0], c.dev[:0], c.dvv[:0]
	for _, p := range c.ee {
		ea, eb := &a.Poly.Edges[p[0]], &b.Poly.Edges[p[1]]
		c.dee = append(c.dee, math.Sqrt(segSegDist2(a.V[ea.V[0]], a.V[ea.V[1]], b.V[eb.V[0]], b.V[eb.V[1]])))
	}
	c.dists(a, b)
	for _, d := range [...][]float64{c.dvf, c.dfv, c.dee, c.dve, c.dev, c.dvv} {
		for k := range d {
			d[k] -= mv
		}
	}
	c.setDmin()
}

// staleTrack carries Stale's bound dB (the displacement of B's points in
// A's frame since the build, S0 §2.5) from one placement of the pair to
// the next without the poses' products. With δ the centre motions, θ the
// rotation bounds (Posed.moved) and D ≥ |X_B − X_A| before the move, B's
// centre in A's frame moves by at most δ_A + δ_B + θ_A·D (A's frame turns
// by θ_A: ‖R₂ − R₁‖ ≤ θ_A) and the relative rotation by at most θ_A + θ_B,
// of which thetaBound grows by at most 1.01× while the relative angle stays
// below 0.5 rad (its slope (1 + 3s²/5)·cos(θ/2) ≤ 1.005 for s = sin(θ/2) ≤
// 0.25). So dB grows by at most δ_A + δ_B + θ_A·D + 1.01·(θ_A + θ_B)·R_B.
// While the carried bound stays below the margin by a relative 1e-6 (far
// above the rounding of the full test at any physical scale), the full test
// would also find dB ≤ margin: the cache is not stale, the same answer.
type staleTrack struct {
	on         bool
	genA, genB uint64  // the placements of the last test
	dB, th, d  float64 // bounds of dB, of the relative angle and of |X_B − X_A|
}

// start tracks from a full test's dB, angle bound th and centre distance d.
func (s *staleTrack) start(dB, th, d float64) { s.on, s.dB, s.th, s.d = true, dB, th, d }

// angleBound returns an upper bound of the rotation angle θ between unit
// quaternions p and q without trigonometry: with s = sin(θ/2) = |vec(p⁻¹q)|,
// θ = 2·asin(s) ≤ 2s(1 + s²/5) for s ≤ ½, and θ ≤ π·s otherwise.
func angleBound(p, q geom.Quat) float64 {
	r := p.Conj().Mul(q)
	return thetaBound(math.Sqrt(r.X*r.X + r.Y*r.Y + r.Z*r.Z))
}

// thetaBound is angleBound's bound from s = sin(θ/2).
func thetaBound(s float64) float64 {
	if s <= 0.5 {
		return 2 * s * (1 + s*s/5)
	}
	return math.Pi * s
}

// Build lists the feature pairs of a and b within gbar + margin (none when
// apartAlongCentres proves the bodies farther apart than that).
func (c *Cache) Build(a, b *Posed, gbar, margin float64, s *Scratch) {
	c.build(a, b, gbar, margin, s, true)
}

// build is Build; prove false lists by the listing's tests alone, without
// apartAlongCentres's proof (tests: AnyWithin's answer).
func (c *Cache) build(a, b *Posed, gbar, margin float64, s *Scratch, prove bool) {
	c.revokeLease()
	c.vf, c.fv, c.ee, c.ve, c.ev, c.vv = c.vf[:0], c.fv[:0], c.ee[:0], c.ve[:0], c.ev[:0], c.vv[:0]
	c.dvf, c.dfv, c.dee, c.dve, c.dev, c.dvv = c.dvf[:0], c.dfv[:0], c.dee[:0], c.dve[:0], c.dev[:0], c.dvv[:0]
	c.listed, c.dmin = false, math.Inf(1)
	c.lmin = [6]float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)} // +Inf when empty (review r2)
	if c.skip.a != a || c.skip.b != b {
		c.skip.a, c.skip.b = a, b
	}
	c.skip.at(a, b, 0)
	c.skip.setTol(a, b)
	c.pend = false
	c.refT, c.refS, c.refQ = a.Q.InvRotate(b.X.Sub(a.X)), b.Q.InvRotate(a.X.Sub(b.X)), a.Q.Conj().Mul(b.Q)
	c.margin, c.gbar, c.built = margin, gbar, true
	c.trk.on = false // the next test is a full one
	c.swp.on = false
	c.Builds++
	g := gbar + margin
	// nearPair's box test first (it rejects at once), then the proof,
	// then the near sets.
	if prove && a.Box.Inflate(g).Overlaps(b.Box.Inflate(g)) && apartAlongCentres(a, b, g) {
		return // no feature pair within g: nothing to list
	}
	na, nb, ok := nearPair(a, b, g, s)
	if !ok {
		return
	}
	c.vf = listVF(a, b, na, nb.faces, nb.fbox, g, false, false, c.vf)
	c.fv = listVF(b, a, nb, na.faces, na.fbox, g, true, false, c.fv)
	listEE(a, b, na, nb, g, false, &c.ee, &c.dee)
	c.ve = listVE(a, b, na, nb.edges, nb.ebox, g, false, false, c.ve)
	c.ev = listVE(b, a, nb, na.edges, na.ebox, g, true, false, c.ev)
	c.vv = listVV(a, b, na, nb, g, false, c.vv)
	c.setListed()
	c.dists(a, b)
	c.setDmin()
}

// apartAlongCentres reports whether a and b are proved farther apart than
// g along the line of their centres: with n = (x_B − x_A)/|x_B − x_A|,
// every vertex of A has p·n ≤ h_A and every vertex of B has q·n ≥ h_B, and
// h_B − h_A > g. The vertices span each body's convex hull, so every point
// of B lies beyond every point of A by more than g along n, and every
// pair of points by more than g in distance (|q − p| ≥ (q − p)·n): no
// feature pair can be within g (a separating axis of the two hulls, S0
// §2.5's second level proved empty at once). The margin covers rounding:
// each dot product is within 4ε·|v| of its exact value (|n| ≤ 1 + 2ε), so
// 1e-12 of the largest coordinate of both boxes (+1e-300) and 1e-12 of g
// are far above it. Not finite inputs never prove (a NaN in h_A or h_B
// fails the comparison). A Build proved empty this way lists nothing where
// the listing's box-and-plane test for vertex–face pairs might list a pair
// farther than g (the band around a face's plane reaches beyond the
// triangle): such a pair cannot come within ḡ while the list is valid
// (Stale's bound keeps every point pair's distance within the margin of
// its value at the build), so the contacts are the same.
func apartAlongCentres(a, b *Posed, g float64) bool {
	dx, dy, dz := b.X.X-a.X.X, b.X.Y-a.X.Y, b.X.Z-a.X.Z
	l := math.Sqrt(dx*dx + dy*dy + dz*dz)
	if !(l > g) {
		return false // centres too close (or not finite): not worth the test
	}
	nx, ny, nz := dx/l, dy/l, dz/l
	// Plain comparisons (no call, no NaN handling per vertex: math's max
	// and min cost more than the dot product); a NaN coordinate is caught
	// by the sums s, which a NaN turns NaN.
	ha, sa := math.Inf(-1), 0.0
	for i := range a.V {
		v := &a.V[i]
		d := v.X*nx + v.Y*ny + v.Z*nz
		sa += d
		if d > ha {
			ha = d
		}
	}
	hb, sb := math.Inf(1), 0.0
	for i := range b.V {
		v := &b.V[i]
		d := v.X*nx + v.Y*ny + v.Z*nz
		sb += d
		if d < hb {
			hb = d
		}
	}
	if sa != sa || sb != sb {
		return false
	}
	m := 0.0 // the largest coordinate magnitude of both boxes
	for _, p := range [...]*geom.Vec3{&a.Box.Min, &a.Box.Max, &b.Box.Min, &b.Box.Max} {
		m = max(m, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
	return hb-ha > g*(1+1e-12)+1e-12*m+1e-300
}

// dists fills dvf … dvv with a lower bound of the distance at the build
// of each listed feature pair (after the lists: the listing loops keep
// their registers). The edge–edge distances are the listing's own.
func (c *Cache) dists(a, b *Posed) {
	for _, p := range c.vf {
		c.dvf = append(c.dvf, vfDistLB(a, b, p[0], p[1]))
	}
	for _, p := range c.fv {
		c.dfv = append(c.dfv, vfDistLB(b, a, p[1], p[0]))
	}
	for _, p := range c.ve {
		e := &b.Poly.Edges[p[1]]
		c.dve = append(c.dve, math.Sqrt(pointSegDist2(a.V[p[0]], b.V[e.V[0]], b.V[e.V[1]])))
	}
	for _, p := range c.ev {
		e := &a.Poly.Edges[p[0]]
		c.dev = append(c.dev, math.Sqrt(pointSegDist2(b.V[p[1]], a.V[e.V[0]], a.V[e.V[1]])))
	}
	for _, p := range c.vv {
		c.dvv = append(c.dvv, a.V[p[0]].Dist(b.V[p[1]]))
	}
}

// setDmin sets dmin and lmin from dvf … dvv.
func (c *Cache) setDmin() {
	c.dmin = math.Inf(1)
	for k, d := range [...][]float64{c.dvf, c.dfv, c.dee, c.dve, c.dev, c.dvv} {
		m := math.Inf(1)
		for _, x := range d {
			if x < m {
				m = x
			}
		}
		c.lmin[k] = m
		if m < c.dmin {
			c.dmin = m
		}
	}
}

// vfDistLB returns a lower bound of the distance from vertex vi of p to
// face fi of q (triBound).
func vfDistLB(p, q *Posed, vi, fi int32) float64 {
	f := &q.Poly.Faces[fi]
	f1 := q.V[f.V[0]]
	n := q.FaceNormal(fi)
	x := p.V[vi]
	var tb triBound
	tb.set(f1, q.V[f.V[1]], q.V[f.V[2]], n)
	return tb.distLB(x, x.Sub(f1).Dot(n))
}

// listVF lists (vertex of p among np.verts, face of q) within g of the face plane and box
// (fbox[k] is the world box of faces[k]); pairs are stored as (feature of
// A, feature of B).
func listVF(p, q *Posed, np *nearSet, faces []int32, fbox []AABB, g float64, swap, first bool, out [][2]int32) [][2]int32 {
	verts := np.verts
	vx, vy, vz, hits := np.vx[:len(verts)], np.vy[:len(verts)], np.vz[:len(verts)], np.vhits[:len(verts)]
	for k, fi := range faces {
		// box.Contains(x) on the coordinates by array, the box fbox[k].Inflate(g)
		// by coordinate, in a loop without a call (all in registers): the
		// vertices in the box, in order, into hits[:h]. The box rejects
		// most vertices in two comparisons.
		fb := &fbox[k]
		x0, x1, y0, y1, z0, z1 := fb.Min.X-g, fb.Max.X+g, fb.Min.Y-g, fb.Max.Y+g, fb.Min.Z-g, fb.Max.Z+g
		if vb := &np.vbox; !(x0 <= vb.Max.X && vb.Min.X <= x1 && y0 <= vb.Max.Y && vb.Min.Y <= y1 && z0 <= vb.Max.Z && vb.Min.Z <= z1) {
			continue // no vertex in the box (nearSet.vbox)
		}
		h := np.inBox(x0, x1, y0, y1, z0, z1)
		if h == 0 {
			continue
		}
		// x.Sub(f1).Dot(n) of the hits, in order.
		f1, n := q.V[q.Poly.Faces[fi].V[0]], q.FaceNormal(fi)
		for _, l := range hits[:h] {
			x, y, z := vx[l], vy[l], vz[l]
			if d := (x-f1.X)*n.X + (y-f1.Y)*n.Y + (z-f1.Z)*n.Z; d < g && d > -g {
				vi := verts[l]
				if swap {
					out = append(out, [2]int32{fi, vi})
				} else {
					out = append(out, [2]int32{vi, fi})
				}
				if first {
					return out
				}
			}
		}
	}
	return out
}

// inBox writes into s.vhits, in order, the indices l of the vertices
// s.verts[l] inside the box [x0, x1]×[y0, y1]×[z0, z1] (AABB.Contains on
// the coordinates by array) and returns their count: a loop without a call
// of its own, so that the box and the count stay in registers.
//
//go:noinline
func (s *nearSet) inBox(x0, x1, y0, y1, z0, z1 float64) int {
	vx := s.vx
	vy, vz, hits := s.vy[:len(vx)], s.vz[:len(vx)], s.vhits[:len(vx)]
	h := 0
	for l := range vx {
		if !(vx[l] >= x0 && vx[l] <= x1 && vy[l] >= y0 && vy[l] <= y1 && vz[l] >= z0 && vz[l] <= z1) {
			continue
		}
		hits[h] = int32(l)
		h++
	}
	return h
}

// triBound bounds from below the distance of points to a triangle: the
// triangle lies in the half-plane {y in its plane: (y − p_i)·u_i ≤ 0} of
// each edge i (p_i on the edge, u_i its unit in-plane outward normal, u_i ⟂
// n), whose distance from x is √(d² + max(0, (x − p_i)·u_i)²) with d the
// distance of x to the plane; the distance to the triangle is at least the
// largest of the three (equal to it where the closest point is inside the
// triangle or an edge).
type triBound struct {
	p     [3]geom.Vec3
	u     [3]geom.Vec3
	degen bool // a zero-length edge or normal: only the plane bound
}

// set prepares the bound for the triangle (f1, f2, f3) with unit normal n.
func (t *triBound) set(f1, f2, f3, n geom.Vec3) {
	t.p = [3]geom.Vec3{f1, f2, f3}
	for i := range 3 {
		p, q, r := t.p[i], t.p[(i+1)%3], t.p[(i+2)%3]
		u := q.Sub(p).Cross(n)
		l := u.Norm()
		if !(l > 0) {
			t.degen = true
			return
		}
		u = u.Scale(1 / l)
		if r.Sub(p).Dot(u) > 0 { // outward: away from the opposite corner
			u = u.Neg()
		}
		t.u[i] = u
	}
}

// distLB returns the lower bound of the distance from x to the triangle,
// given d, x's signed distance to its plane.
func (t *triBound) distLB(x geom.Vec3, d float64) float64 {
	s := 0.0
	if !t.degen {
		for i := range 3 {
			s = max(s, x.Sub(t.p[i]).Dot(t.u[i]))
		}
	}
	return math.Sqrt(d*d + s*s)
}

// listVE lists (vertex of p among np.verts, edge of q) closer than g
// (ebox[k] is the world box of edges[k]).
func listVE(p, q *Posed, np *nearSet, edges []int32, ebox []AABB, g float64, swap, first bool, out [][2]int32) [][2]int32 {
	verts := np.verts
	hits := np.vhits[:len(verts)]
	for k, ei := range edges {
		// box.Contains(p.V[vi]) on the coordinates by array, the box
		// ebox[k].Inflate(g) by coordinate, in a loop without a call: the
		// vertices in the box, in order, into hits[:h] (as listVF).
		eb := &ebox[k]
		x0, x1, y0, y1, z0, z1 := eb.Min.X-g, eb.Max.X+g, eb.Min.Y-g, eb.Max.Y+g, eb.Min.Z-g, eb.Max.Z+g
		if vb := &np.vbox; !(x0 <= vb.Max.X && vb.Min.X <= x1 && y0 <= vb.Max.Y && vb.Min.Y <= y1 && z0 <= vb.Max.Z && vb.Min.Z <= z1) {
			continue // no vertex in the box (nearSet.vbox)
		}
		h := np.inBox(x0, x1, y0, y1, z0, z1)
		if h == 0 {
			continue
		}
		e := &q.Poly.Edges[ei]
		b1, b2 := q.V[e.V[0]], q.V[e.V[1]]
		for _, l := range hits[:h] {
			vi := verts[l]
			if x := p.V[vi]; pointSegDist2(x, b1, b2) < g*g {
				if swap {
					out = append(out, [2]int32{ei, vi})
				} else {
					out = append(out, [2]int32{vi, ei})
				}
				if first {
					return out
				}
			}
		}
	}
	return out
}

// nearPair finds the features of a and b that can be within g of the other
// body: those inside the overlap of the two boxes grown by g (s's near
// sets); ok is false when the grown boxes do not overlap.
func nearPair(a, b *Posed, g float64, s *Scratch) (na, nb *nearSet, ok bool) {
	boxA, boxB := a.Box.Inflate(g), b.Box.Inflate(g)
	if !boxA.Overlaps(boxB) {
		return nil, nil, false
	}
	region := AABB{boxA.Min.Max(boxB.Min), boxA.Max.Min(boxB.Max)}
	na, nb = &s.a, &s.b
	a.near(region, na)
	b.near(region, nb)
	return na, nb, true
}

// listEE lists (edge of a, edge of b) closer than g, with their distances,
// among the near sets na and nb, appended to *ee and *dee (first: stop at
// the first pair).
func listEE(a, b *Posed, na, nb *nearSet, g float64, first bool, ee *[][2]int32, dee *[]float64) {
	// b's edge boxes by coordinate (structure of arrays), so that the box
	// test below, AABB.Overlaps written out, reads one array per side.
	nb.soa()
	lox, hix, loy, hiy, loz, hiz := nb.lox, nb.hix[:len(nb.lox)], nb.loy[:len(nb.lox)], nb.hiy[:len(nb.lox)], nb.loz[:len(nb.lox)], nb.hiz[:len(nb.lox)]
	edgesB, hits := nb.edges[:len(nb.lox)], nb.hits[:len(nb.lox)]
	for k, i := range na.edges {
		// The box tests first, in a loop without a call (the box, Inflate
		// by coordinate, stays in registers), the hits in order into
		// hits[:h]; then the distances of the hits, in the same order as
		// one loop would.
		eb := &na.ebox[k]
		x0, x1, y0, y1, z0, z1 := eb.Min.X-g, eb.Max.X+g, eb.Min.Y-g, eb.Max.Y+g, eb.Min.Z-g, eb.Max.Z+g
		h := 0
		for l := range lox {
			if !(x0 <= hix[l] && lox[l] <= x1) ||
				!(y0 <= hiy[l] && loy[l] <= y1) ||
				!(z0 <= hiz[l] && loz[l] <= z1) {
				continue
			}
			hits[h] = int32(l)
			h++
		}
		if h == 0 {
			continue
		}
		ea := &a.Poly.Edges[i]
		a1, a2 := a.V[ea.V[0]], a.V[ea.V[1]]
		for _, l := range hits[:h] {
			j := edgesB[l]
			eb := &b.Poly.Edges[j]
			if d2 := segSegDist2(a1, a2, b.V[eb.V[0]], b.V[eb.V[1]]); d2 < g*g {
				*ee = append(*ee, [2]int32{i, j})
				*dee = append(*dee, math.Sqrt(d2))
				if first {
					return
				}
			}
		}
	}
}

// listVV lists (vertex of a, vertex of b) closer than g among the near sets
// (first: stop at the first pair).
func listVV(a, b *Posed, na, nb *nearSet, g float64, first bool, vv [][2]int32) [][2]int32 {
	// b's near vertices' box grown by 2g: a vertex outside it differs
	// from each of them by more than g in a coordinate, beyond any
	// rounding of the box or of the distance below, so the test below
	// would reject every pair.
	vb, g2 := &nb.vbox, 2*g
	x0, x1, y0, y1, z0, z1 := vb.Min.X-g2, vb.Max.X+g2, vb.Min.Y-g2, vb.Max.Y+g2, vb.Min.Z-g2, vb.Max.Z+g2
	for l, i := range na.verts {
		if x, y, z := na.vx[l], na.vy[l], na.vz[l]; !(x >= x0 && x <= x1 && y >= y0 && y <= y1 && z >= z0 && z <= z1) {
			continue
		}
		for _, j := range nb.verts {
			if a.V[i].Sub(b.V[j]).Norm2() < g*g {
				vv = append(vv, [2]int32{i, j})
				if first {
					return vv
				}
			}
		}
	}
	return vv
}

// pointSegDist2 returns the squared distance from x to the segment [a, b].
func pointSegDist2(x, a, b geom.Vec3) float64 {
	d := b.Sub(a)
	t := x.Sub(a).Dot(d)
	if l := d.Norm2(); l > 0 {
		t = clamp01(t / l)
	} else {
		t = 0
	}
	return x.Sub(a.AddScaled(t, d)).Norm2()
}

// segSegDist2 returns the squared distance between segments [p1, p2] and
// [q1, q2] (closest points clamped to the segments).
func segSegDist2(p1, p2, q1, q2 geom.Vec3) float64 {
	d1, d2, r := p2.Sub(p1), q2.Sub(q1), p1.Sub(q1)
	a, e, f := d1.Norm2(), d2.Norm2(), d2.Dot(r)
	var s, t float64
	switch {
	case a == 0 && e == 0:
		return r.Norm2()
	case a == 0:
		t = clamp01(f / e)
	default:
		c := d1.Dot(r)
		if e == 0 {
			s = clamp01(-c / a)
		} else {
			b := d1.Dot(d2)
			if den := a*e - b*b; den > 0 {
				s = clamp01((b*f - c*e) / den)
			}
			t = (b*s + f) / e
			if t < 0 {
				t, s = 0, clamp01(-c/a)
			} else if t > 1 {
				t, s = 1, clamp01((b-c)/a)
			}
		}
	}
	return p1.AddScaled(s, d1).Sub(q1.AddScaled(t, d2)).Norm2()
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// Detect finds every pointwise contact with gap below gbar between a and b
// among the feature pairs listed in the cache (build it first when Stale),
// applies the contact hierarchy, and matches each contact with prev (the
// pair's contacts of the previous step) to carry friction state and detect
// reversed normals. It appends to out and returns it.
//
// A listed feature pair whose distance at the build was at least ḡ plus
// the relative motion since the build that Stale proved for these poses
// cannot be within ḡ (skipBound): its local problem is not solved. The
// result is the same, in the same order, as solving every listed pair.
func Detect(a, b *Posed, gbar float64, c *Cache, prev []Contact, out []Contact) []Contact {
	start := len(out)
	lim, nVF, nVE, mark := 0.0, 0, 0, 0 // the candidates' counts by kind: see applyRules below
	if s := &c.skip; a == s.a && b == s.b && c.trk.on && a.gen == c.trk.genA && b.gen == c.trk.genB && !c.pend {
		// limit's usual case written out (staleTrack's bound): the same
		// operations.
		mv := c.trk.dB
		lim = gbar + mv + 1e-6*(gbar+mv) + s.tol
	} else {
		lim = c.limit(a, b, gbar)
	}
	if c.dmin >= lim {
		return out // every listed pair is skipped
	}
	// A list whose least build distance is at or beyond lim is skipped
	// whole (lmin).
	lm := &c.lmin
	if lm[0] < lim {
		dvf := c.dvf
		for k, p := range c.vf {
			if dvf[k] < lim {
				out = vertexFace(a, b, p[0], p[1], false, gbar, prev, out)
			}
		}
	}
	if lm[1] < lim {
		dfv := c.dfv
		for k, p := range c.fv {
			if dfv[k] < lim {
				out = vertexFace(b, a, p[1], p[0], true, gbar, prev, out)
			}
		}
	}
	if nVF = len(out) - start; lm[2] < lim {
		out = edgeEdges(a, b, c.ee, c.dee, lim, gbar, out)
	}
	if mark = len(out); lm[3] < lim {
		dve := c.dve
		for k, p := range c.ve {
			if dve[k] < lim {
				out = vertexEdge(a, b, p[0], p[1], false, gbar, out)
			}
		}
	}
	if lm[4] < lim {
		dev := c.dev
		for k, p := range c.ev {
			if dev[k] < lim {
				out = vertexEdge(b, a, p[1], p[0], true, gbar, out)
			}
		}
	}
	if nVE, mark = len(out)-mark, len(out); lm[5] < lim {
		dvv := c.dvv
		for k, p := range c.vv {
			if dvv[k] >= lim {
				continue
			}
			if x, y := a.V[p[0]], b.V[p[1]]; x.Sub(y).Norm2() < gbar*gbar {
				out = mk(out, Key{Kind: snap.VV, FA: p[0], FB: p[1]}, x, y, false, false)
			}
		}
	}
	if len(out) == start {
		return out
	}
	applyRules(a.Poly, b.Poly, out[start:], nVF, nVE, len(out)-mark)
	for i := start; i < len(out); i++ {
		c := &out[i]
		if p := find(prev, c.Key); p != nil {
			c.Fric = p.Fric
			c.New, c.G0, c.Fn0 = false, p.Gn, p.Fn
			if p.N.Dot(c.N) < 0 {
				c.Flip = true
			}
		} else {
			c.New = true
		}
	}
	return out
}

func find(cs []Contact, k Key) *Contact {
	for i := range cs {
		if cs[i].Key == k {
			return &cs[i]
		}
	}
	return nil
}

// vertexFace solves vertex vi of p against face fi of q (S0 Appendix eq. 64–66);
// swap says p is body B of the pair.
func vertexFace(p, q *Posed, vi, fi int32, swap bool, gbar float64, prev, out []Contact) []Contact {
	f := &q.Poly.Faces[fi]
	f1 := &q.V[f.V[0]]
	x := &p.V[vi]
	// The signed distance above the face plane, x.Sub(f1).Dot(q.FaceNormal(fi))
	// with FaceNormal's geom.Mat3.MulV written out through a pointer (the
	// same operations in the same order, so the same bits): MulV does not
	// inline and its call copied the matrix at every solve.
	r, fn := &q.R, &f.N
	nx := r[0][0]*fn.X + r[0][1]*fn.Y + r[0][2]*fn.Z
	ny := r[1][0]*fn.X + r[1][1]*fn.Y + r[1][2]*fn.Z
	nz := r[2][0]*fn.X + r[2][1]*fn.Y + r[2][2]*fn.Z
	d := (x.X-f1.X)*nx + (x.Y-f1.Y)*ny + (x.Z-f1.Z)*nz
	if d >= gbar || d <= -gbar {
		return out
	}
	// VertexFace's projection: vfSolve (on amd64 in SSE2 assembly)
	// decides but for the tie band and NaNs, where VertexFace runs.
	var proj geom.Vec3
	f2, f3 := &q.V[f.V[1]], &q.V[f.V[2]]
	switch vfSolve(x, f1, f2, f3, &proj) {
	case 0:
		return out
	case 2:
		var ok bool
		if _, _, proj, ok = VertexFace(*x, *f1, *f2, *f3); !ok {
			return out
		}
	}
	k := Key{Kind: snap.VF, Swap: swap, FA: vi, FB: fi}
	if swap {
		k.FA, k.FB = fi, vi
	}
	if d <= 0 {
		// Behind the face: only meaningful as a flip of an existing contact.
		if find(prev, k) != nil {
			out = mk(out, k, *x, proj, swap, true)
		}
		return out
	}
	return mk(out, k, *x, proj, swap, false)
}

// mk appends to out the contact of key k from the point xp on the "vertex"
// body p and xq on q, built in place (a Contact is large; no copy).
func mk(out []Contact, k Key, xp, xq geom.Vec3, swap, flip bool) []Contact {
	// Zeroed in place (append of a literal builds it on the stack and
	// copies it: a Contact is 240 bytes).
	n := len(out)
	if n < cap(out) {
		out = out[:n+1]
	} else {
		out = append(out, Contact{})
	}
	c := &out[n]
	*c = Contact{}
	c.Key, c.Flip = k, flip
	if swap {
		c.PA, c.PB = xq, xp
	} else {
		c.PA, c.PB = xp, xq
	}
	g := c.PA.Sub(c.PB)
	c.Gn = g.Norm()
	if c.Gn > 0 {
		c.N = g.Scale(1 / c.Gn)
	}
	return out
}

// edgeEdgesGo solves the listed edge–edge pairs ee (edge of a, edge of b)
// whose build distance dee is below lim (Detect's skip), in list order,
// each by S0 Appendix eq. 67–69: EdgeEdge written out on scalars in one
// loop (the edges and world vertices of both bodies read once, no call per
// pair), each rejection as soon as its inputs are known — parallel edges,
// then ζ_A, then ζ_B outside (−1, 1), then the gap — with the same
// operations in the same order as EdgeEdge, so the same bits. It is
// edgeEdges (edge_amd64.go runs this loop in SSE2 assembly, edge_amd64.s,
// the same operations in the same order; edge_other.go calls this).
func edgeEdgesGo(a, b *Posed, ee [][2]int32, dee []float64, lim, gbar float64, out []Contact) []Contact {
	edA, edB, va, vb := a.Poly.Edges, b.Poly.Edges, a.V, b.V
	dee = dee[:len(ee)]
	g2 := gbar * gbar
	// A's edge of the last pair solved: the lists run A's edges in the
	// outer loop (listEE), so consecutive pairs often share it and its
	// half-edge t_A, |t_A|² and midpoint b_A are reused (the same values).
	// It starts outside int32's range, so the first solved entry always
	// reads its edge (an index −1 panics there, as in edge_amd64.s).
	last := int64(math.MinInt64)
	var tax, tay, taz, aa, cax, cay, caz float64
	for k, p := range ee {
		if !(dee[k] < lim) {
			continue
		}
		if int64(p[0]) != last {
			last = int64(p[0])
			e := &edA[p[0]]
			a1, a2 := &va[e.V[0]], &va[e.V[1]]
			// t_A = half the edge, b_A its midpoint, S0 eq. (68) (Vec3.Sub, Add, Scale(0.5)).
			tax, tay, taz = 0.5*(a2.X-a1.X), 0.5*(a2.Y-a1.Y), 0.5*(a2.Z-a1.Z)
			aa = tax*tax + tay*tay + taz*taz
			cax, cay, caz = 0.5*(a1.X+a2.X), 0.5*(a1.Y+a2.Y), 0.5*(a1.Z+a2.Z)
		}
		f := &edB[p[1]]
		b1, b2 := &vb[f.V[0]], &vb[f.V[1]]
		// t_B = half the edge, S0 eq. (68) (Vec3.Sub, Scale(0.5)).
		tbx, tby, tbz := 0.5*(b2.X-b1.X), 0.5*(b2.Y-b1.Y), 0.5*(b2.Z-b1.Z)
		ab := tax*tbx + tay*tby + taz*tbz
		bb := tbx*tbx + tby*tby + tbz*tbz
		// |t_A × t_B|², the determinant of the system (69).
		cx, cy, cz := tay*tbz-taz*tby, taz*tbx-tax*tbz, tax*tby-tay*tbx
		det := cx*cx + cy*cy + cz*cz
		if !(det > degenParallelTol*aa*bb) {
			continue
		}
		// b_B = B's edge midpoint, S0 eq. (68) (Add, Scale(0.5)).
		cbx, cby, cbz := 0.5*(b1.X+b2.X), 0.5*(b1.Y+b2.Y), 0.5*(b1.Z+b2.Z)
		dx, dy, dz := cax-cbx, cay-cby, caz-cbz
		de := dx*tax + dy*tay + dz*taz
		df := dx*tbx + dy*tby + dz*tbz
		za := (ab*df - bb*de) / det // S0 eq. (69), Cramer's rule
		if !(za > -1 && za < 1) {
			continue
		}
		zb := (aa*df - ab*de) / det // S0 eq. (69), Cramer's rule
		if !(zb > -1 && zb < 1) {
			continue
		}
		pa := geom.Vec3{X: cax + za*tax, Y: cay + za*tay, Z: caz + za*taz} // S0 eq. (67)
		pb := geom.Vec3{X: cbx + zb*tbx, Y: cby + zb*tby, Z: cbz + zb*tbz} // S0 eq. (67)
		if gx, gy, gz := pa.X-pb.X, pa.Y-pb.Y, pa.Z-pb.Z; gx*gx+gy*gy+gz*gz >= g2 {
			continue
		}
		out = mk(out, Key{Kind: snap.EE, FA: p[0], FB: p[1]}, pa, pb, false, false)
	}
	return out
}

// vertexEdge solves vertex vi of p against edge ei of q (S0 Appendix eq. 70).
func vertexEdge(p, q *Posed, vi, ei int32, swap bool, gbar float64, out []Contact) []Contact {
	e := &q.Poly.Edges[ei]
	x := p.V[vi]
	_, proj, ok := VertexEdge(x, q.V[e.V[0]], q.V[e.V[1]])
	if !ok || x.Sub(proj).Norm2() >= gbar*gbar {
		return out
	}
	k := Key{Kind: snap.VE, Swap: swap, FA: vi, FB: ei}
	if swap {
		k.FA, k.FB = ei, vi
	}
	return mk(out, k, x, proj, swap, false)
}

// faceHas reports whether face f of poly has vertex v.
func faceHas(poly *shape.Polyhedron, f, v int32) bool {
	fv := poly.Faces[f].V
	return fv[0] == v || fv[1] == v || fv[2] == v
}

func edgeHas(poly *shape.Polyhedron, e, v int32) bool {
	ev := poly.Edges[e].V
	return ev[0] == v || ev[1] == v
}

// Placement is a polyhedron's pose for computing single world vertices,
// as Posed.Update computes them all: x + R·v.
type Placement struct {
	Poly *shape.Polyhedron
	X    geom.Vec3
	R    geom.Mat3 // Q.Mat()
}

// V returns world vertex i.
func (p *Placement) V(i int32) geom.Vec3 { return p.X.Add(p.R.MulV(p.Poly.Verts[i])) }

// Refresh recomputes, at the placements a and b, the points, normal and gap
// of the active contacts in cs that Detect found at nearby poses, each by the
// local problem of its key (S0 App. eq. 64–70) but without the validity and
// gap tests, so that the contact set and the hierarchy's choices stay as they
// were; each contact's friction state restarts from its match in prev (the
// history), as in Detect. At the poses of the Detect call it reproduces
// Detect's active contacts exactly. For finite-difference tangents of
// implicit integrators, whose state moves by tiny amounts.
func Refresh(a, b *Placement, cs []Contact, prev []Contact) {
	for i := range cs {
		c := &cs[i]
		if !c.Active() {
			continue
		}
		var xa, xb geom.Vec3 // the contact points on A and B
		switch c.Kind {
		case snap.VF:
			if c.Swap { // face FA of A, vertex FB of B
				f := &a.Poly.Faces[c.FA]
				xb = b.V(c.FB)
				_, _, xa, _ = VertexFace(xb, a.V(f.V[0]), a.V(f.V[1]), a.V(f.V[2]))
			} else {
				f := &b.Poly.Faces[c.FB]
				xa = a.V(c.FA)
				_, _, xb, _ = VertexFace(xa, b.V(f.V[0]), b.V(f.V[1]), b.V(f.V[2]))
			}
		case snap.EE:
			e, f := &a.Poly.Edges[c.FA], &b.Poly.Edges[c.FB]
			_, _, xa, xb, _ = EdgeEdge(a.V(e.V[0]), a.V(e.V[1]), b.V(f.V[0]), b.V(f.V[1]))
		case snap.VE:
			if c.Swap { // edge FA of A, vertex FB of B
				e := &a.Poly.Edges[c.FA]
				xb = b.V(c.FB)
				_, xa, _ = VertexEdge(xb, a.V(e.V[0]), a.V(e.V[1]))
			} else {
				e := &b.Poly.Edges[c.FB]
				xa = a.V(c.FA)
				_, xb, _ = VertexEdge(xa, b.V(e.V[0]), b.V(e.V[1]))
			}
		case snap.VV:
			xa, xb = a.V(c.FA), b.V(c.FB)
		default:
			continue
		}
		// As mk: g = PA − PB, S0 eq. (29).
		g := xa.Sub(xb)
		c.PA, c.PB, c.Gn = xa, xb, g.Norm()
		if c.Gn > 0 {
			c.N = g.Scale(1 / c.Gn)
		}
		c.Fric = law.FrictionState{}
		if p := find(prev, c.Key); p != nil {
			c.Fric, c.G0, c.Fn0 = p.Fric, p.Gn, p.Fn // G0, Fn0 and New as Detect set them
		}
	}
}
