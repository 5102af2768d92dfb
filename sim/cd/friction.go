package cd

import (
	"math"

	"grainlab/sim/geom"
)

// Coulomb friction in CD: the cone complementarity problem (CCP) of
// Anitescu & Tasora (2010), as in Chrono's NSC ("DEM-C") solver. Every
// frictional contact i has three unknowns γ_i = (γ_n, γ_t1, γ_t2) (impulse/Δt,
// on A, in the basis n, t1, t2) and the cone
//
//	K_i = {γ : ‖γ_t‖ ≤ μ_i γ_n}.
//
// With D the rows (n, t1, t2) of every contact (S3 eq. 15 for n, the same
// form for t), N = Δt D M⁻¹ Dᵀ and p as in S3 eq. (20) (bias only on the
// normal rows), the step minimises ½γᵀNγ + pᵀγ over γ ∈ ΠK_i (Anitescu &
// Tasora eq. 29) by APGD with the projection onto each cone. Its optimality
// conditions u = Nγ + p ∈ K_i* = {u_n ≥ μ‖u_t‖}, γ ⊥ u are Coulomb's law
// except that a sliding contact separates at u_n = μ‖u_t‖ (the CCP's
// dilatancy). That is removed by the fixed point of De Saxcé's bipotential
// (Tasora & Anitescu 2013; Acary & Cadoux): the normal bias is raised by
// s_i = μ_i‖u_t,i‖ of the previous solve, so that at the fixed point
// u_n = 0 while sliding, γ_t = −μγ_n u_t/‖u_t‖, i.e. exact Coulomb friction.
//
// Static and dynamic coefficients: a contact uses μ_s while it sticks and μ_d
// once it slides. A contact that slid at the previous step (Contact.Slid)
// starts with μ_d; one that starts with μ_s and comes out of a solve sliding
// (‖u_t‖ above the slip threshold) switches to μ_d and the step is solved
// again, so the tangential force grows to μ_s·f_n before the contact breaks
// loose and is μ_d·f_n while it slides (S0 eq. 54–57's limits).

// tangent holds the two tangent rows of a frictional contact.
type tangent struct {
	c int          // contact index
	t [2]geom.Vec3 // unit tangents, t[1] = n × t[0]
	r [2]row       // rows (t, r_A×t) for A and (−t, −r_B×t) for B
}

// tangentRows builds the tangent rows of contact i with unit normal n (its
// normal row must be built).
func (s *System) tangentRows(i int, n geom.Vec3) tangent {
	c := s.Contacts[i]
	t1 := n.AnyPerp()
	tg := tangent{c: i, t: [2]geom.Vec3{t1, n.Cross(t1)}}
	for k, t := range tg.t {
		r := row{a: c.A, b: c.B, fa: s.rows[i].fa, fb: s.rows[i].fb}
		// d/dt (gap along t) = t·(v_A + ω_A×r_A) − t·(v_B + ω_B×r_B), as S3 eq. (15).
		ra := c.P.Sub(s.Bodies[c.A].X).Cross(t)
		r.ja = [6]float64{t.X, t.Y, t.Z, ra.X, ra.Y, ra.Z}
		if c.B >= 0 {
			rb := c.P.Sub(s.Bodies[c.B].X.Add(c.ShiftB)).Cross(t)
			r.jb = [6]float64{-t.X, -t.Y, -t.Z, -rb.X, -rb.Y, -rb.Z}
		}
		tg.r[k] = r
	}
	return tg
}

// Frictional reports whether some contact has a friction cone (MuS > 0).
func (s *System) Frictional() bool { return len(s.fric) > 0 }

// rowDot returns r·z over the free bodies of r (all when all is set).
func rowDot(r *row, z []float64, all bool) float64 {
	var w float64
	if r.fa || all {
		w = dot6(r.ja[:], z[6*r.a:6*r.a+6])
	}
	if r.b >= 0 && (r.fb || all) {
		w += dot6(r.jb[:], z[6*r.b:6*r.b+6])
	}
	return w
}

// rowAdd adds f rᵀ to out on the free bodies of r.
func rowAdd(r *row, f float64, out []float64) {
	if f == 0 {
		return
	}
	if r.fa {
		o := out[6*r.a : 6*r.a+6]
		for k := range 6 {
			o[k] += f * r.ja[k]
		}
	}
	if r.fb {
		o := out[6*r.b : 6*r.b+6]
		for k := range 6 {
			o[k] += f * r.jb[k]
		}
	}
}

// ccp is the cone complementarity problem of one step: unknowns x = (γ_n of
// every contact, then γ_t1, γ_t2 of every frictional contact).
type ccp struct {
	l     *lcp
	s     *System
	nc    int
	p     []float64 // S3 eq. (20) on the normal rows (plus the De Saxcé shift), D(v + Δt M⁻¹F) on the tangents
	p0    []float64 // the normal p without the shift
	mu    []float64 // per frictional contact: the coefficient in use
	scale float64   // ‖p‖∞ over all rows (velocity scale)
	fk    []int     // per contact: its frictional index, −1 if frictionless
	z     []float64
	g     []float64 // work: the modified velocity of saxceResidual
}

// newCCP extends the step's LCP by the tangent rows.
func (s *System) newCCP(l *lcp, o StepOptions) *ccp {
	nc, nf := len(s.rows), len(s.fric)
	q := &ccp{l: l, s: s, nc: nc, p: make([]float64, nc+2*nf), mu: make([]float64, nf),
		z: make([]float64, s.NumDOF()), scale: l.scale}
	copy(q.p, l.p)
	q.p0 = append([]float64(nil), l.p...)
	q.fk = make([]int, nc)
	for i := range q.fk {
		q.fk[i] = -1
	}
	for k := range s.fric {
		q.fk[s.fric[k].c] = k
	}
	v := s.velocities()
	s.applyInvM(o.Dt, s.External(), q.z)
	for k := range s.fric {
		tg := &s.fric[k]
		if !s.active(tg.c) {
			continue
		}
		c := s.Contacts[tg.c]
		q.mu[k] = c.MuS
		if c.Slid {
			q.mu[k] = c.MuD
		}
		for j := range 2 {
			r := &tg.r[j]
			pt := rowDot(r, v, true) + rowDot(r, q.z, false)
			q.p[nc+2*k+j] = pt
			q.scale = max(q.scale, math.Abs(pt))
		}
	}
	return q
}

// mulN computes out = N x = Δt D M⁻¹ Dᵀ x.
func (q *ccp) mulN(x, out []float64) {
	s := q.s
	q.dT(x, q.z)
	s.applyInvM(q.l.dt, q.z, q.z)
	s.bFree(q.z, out[:q.nc])
	for k := range s.fric {
		tg := &s.fric[k]
		out[q.nc+2*k] = rowDot(&tg.r[0], q.z, false)
		out[q.nc+2*k+1] = rowDot(&tg.r[1], q.z, false)
	}
}

// dT computes out = Dᵀ x on the free bodies: the resultant of the normal and
// tangential contact forces.
func (q *ccp) dT(x, out []float64) {
	s := q.s
	s.btFree(x[:q.nc], out)
	for k := range s.fric {
		tg := &s.fric[k]
		rowAdd(&tg.r[0], x[q.nc+2*k], out)
		rowAdd(&tg.r[1], x[q.nc+2*k+1], out)
	}
}

// projectCone returns the Euclidean projection of (γ_n, γ_t1, γ_t2) onto
// the cone ‖γ_t‖ ≤ μγ_n (Anitescu & Tasora 2010, eq. 33): unchanged inside,
// zero inside the polar cone μ‖γ_t‖ ≤ −γ_n, else onto the cone's surface.
func projectCone(mu, gn, g1, g2 float64) (float64, float64, float64) {
	gt := math.Hypot(g1, g2)
	switch {
	case gt <= mu*gn:
		return gn, g1, g2
	case mu*gt <= -gn:
		return 0, 0, 0
	}
	n := (mu*gt + gn) / (mu*mu + 1)
	sc := mu * n / gt
	return n, g1 * sc, g2 * sc
}

// project maps x onto ΠK_i: cones for frictional contacts, γ_n ≥ 0 for the
// others, zero for contacts between fixed bodies.
func (q *ccp) project(x []float64) {
	for i := 0; i < q.nc; i++ {
		if x[i] < 0 || q.l.diag[i] == 0 {
			x[i] = 0
		}
	}
	for k := range q.s.fric {
		i := q.s.fric[k].c
		j := q.nc + 2*k
		if q.l.diag[i] == 0 {
			x[j], x[j+1] = 0, 0
			continue
		}
		x[i], x[j], x[j+1] = projectCone(q.mu[k], x[i], x[j], x[j+1])
	}
}

// residual returns the scaled natural-map residual of the CCP at x with
// gradient g = Nx + p: max over contacts of N_nn·‖x − Π(x − g/N_nn)‖∞ / ‖p‖∞;
// for a frictionless contact this is |min(N_ii f_i, w_i)| as in lcp.residual.
func (q *ccp) residual(x, g []float64) float64 {
	var r float64
	for i := 0; i < q.nc; i++ {
		d := q.l.diag[i]
		if d == 0 {
			continue
		}
		k := q.fk[i]
		if k < 0 {
			v := d * x[i]
			if g[i] < v {
				v = g[i]
			}
			r = max(r, math.Abs(v))
			continue
		}
		j := q.nc + 2*k
		n, a, b := projectCone(q.mu[k], x[i]-g[i]/d, x[j]-g[j]/d, x[j+1]-g[j+1]/d)
		r = max(r, d*max(math.Abs(x[i]-n), max(math.Abs(x[j]-a), math.Abs(x[j+1]-b))))
	}
	if q.scale > 0 {
		r /= q.scale
	}
	return r
}

// slipVelocity returns ‖u_t‖ of frictional contact k at u = Nx + p.
func (q *ccp) slipVelocity(k int, u []float64) float64 {
	j := q.nc + 2*k
	return math.Hypot(u[j], u[j+1])
}

// solveFriction solves the step's frictional problem (see the top of this
// file): APGD on the CCP from the warm start (f, o.WarmT), then the De Saxcé
// fixed point with the μ_s → μ_d switch by non-smooth Gauss–Seidel sweeps
// (nsgs) from that solution. It returns the normal forces, the tangential
// forces on A (world), the contacts that slide, the iterations (APGD plus
// sweeps) and the final residual.
func (s *System) solveFriction(l *lcp, f []float64, o StepOptions) (fn []float64, ft []geom.Vec3, slide []bool, iter, sweeps int, res float64) {
	q := s.newCCP(l, o)
	nc := q.nc
	x := make([]float64, len(q.p))
	copy(x, f)
	if o.WarmT != nil {
		for k := range s.fric {
			tg := &s.fric[k]
			x[nc+2*k] = o.WarmT[tg.c].Dot(tg.t[0])
			x[nc+2*k+1] = o.WarmT[tg.c].Dot(tg.t[1])
		}
	}
	bq := &boxQP{n: len(x), mulQ: q.mulN, c: q.p, proj: q.project,
		resid: func(x, g []float64) float64 { return q.residual(x, g) }}
	// APGD gives the stick/slip pattern and the force network; it converges
	// slowly on sliding contacts (the cone's surface is then the active set),
	// so it stops at 10⁻⁶ or 500 iterations and the sweeps finish.
	// From a warm start (the previous step's forces by contact key) the
	// sweeps alone converge faster than APGD, which is then skipped.
	var x0 []float64
	if warm(x) {
		x0 = append([]float64(nil), x...)
	} else {
		x, iter, _ = bq.apgd(x, min(o.MaxIter, 500), max(o.Tol, 1e-6))
	}
	var sliding []bool
	var u []float64
	sweeps, sliding, u = q.nsgs(x, o)
	res = q.saxceResidual(x, u)
	if x0 != nil && !(res <= max(o.Tol, 1e-6)) { // NaN: not converged
		// The warm sweeps stopped far from the solution (an impact, new
		// contacts): solve again as a cold step does, APGD from the warm
		// start then the sweeps, and keep the better of the two.
		x2, it2, _ := bq.apgd(x0, min(o.MaxIter, 500), max(o.Tol, 1e-6))
		sw2, sl2, u2 := q.nsgs(x2, o)
		iter += it2
		sweeps += sw2
		if r2 := q.saxceResidual(x2, u2); r2 < res {
			x, sliding, u, res = x2, sl2, u2, r2
		}
	}
	iter += sweeps
	fn = x[:nc:nc]
	ft = make([]geom.Vec3, nc)
	slide = make([]bool, nc)
	for k := range s.fric {
		tg := &s.fric[k]
		j := nc + 2*k
		ft[tg.c] = tg.t[0].Scale(x[j]).Add(tg.t[1].Scale(x[j+1]))
		slide[tg.c] = sliding[k]
	}
	return fn, ft, slide, iter, sweeps, res
}

// warm reports whether the start x has a nonzero force.
func warm(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return true
		}
	}
	return false
}

// block is one contact's rows for the Gauss–Seidel sweeps.
type block struct {
	r   []*row          // normal, then the tangents of a frictional contact
	m   [][2][6]float64 // Δt M⁻¹ rᵀ on A and B per row
	w   [3][3]float64   // W_ii = Δt D_i M⁻¹ D_iᵀ
	rh  float64         // 1/λ_max(W_ii): the local projection step
	k   int             // frictional index, −1 if frictionless
	ix  [3]int          // unknowns of the rows in x
	wi  geom.Mat3       // W_ii⁻¹ of a frictional contact (when inv)
	inv bool            // W_ii is invertible
}

// localCoulomb solves frictional contact b's local problem exactly where it
// can: with c = u0 − W_ii g0 the velocity of the contact without its own
// impulse and u = c + W_ii γ, Coulomb's law (De Saxcé's form, Jourdan, Alart
// & Moreau 1998) has three cases. Stick: u = 0, γ = −W_ii⁻¹c, valid when
// ‖γ_t‖ ≤ μγ_n. Take-off: γ = 0, valid when c_n ≥ 0. Otherwise the contact
// slides on the cone's surface, found by the projected fixed point
// γ ← Π_K(γ − ρ(u + μ‖u_t‖e_n)) (ρ = 1/λ_max(W_ii)) started from g0 (the
// previous sweep's forces) or, for a contact without force, from the stick
// solution projected onto the cone; it stops when the change is below
// tol·γ_n or after 100 iterations.
func (b *block) localCoulomb(mu float64, g0, u0 [3]float64, tol float64) [3]float64 {
	var c [3]float64
	for a := range 3 {
		c[a] = u0[a]
		for k := range 3 {
			c[a] -= b.w[a][k] * g0[k]
		}
	}
	g := g0
	if b.inv {
		for a := range 3 {
			g[a] = -(b.wi[a][0]*c[0] + b.wi[a][1]*c[1] + b.wi[a][2]*c[2])
		}
		if g[0] >= 0 && math.Hypot(g[1], g[2]) <= mu*g[0] {
			return g // stick
		}
	}
	if c[0] >= 0 {
		return [3]float64{} // take-off
	}
	if g0[0] > 0 {
		g = g0 // the previous sweep's forces: near the solution in later sweeps
	} else {
		g[0], g[1], g[2] = projectCone(mu, g[0], g[1], g[2])
	}
	for range 100 {
		var u [3]float64
		for a := range 3 {
			u[a] = c[a] + b.w[a][0]*g[0] + b.w[a][1]*g[1] + b.w[a][2]*g[2]
		}
		un := u[0] + mu*math.Hypot(u[1], u[2]) // De Saxcé's modified velocity
		gn, g1, g2 := projectCone(mu, g[0]-b.rh*un, g[1]-b.rh*u[1], g[2]-b.rh*u[2])
		d := math.Abs(gn-g[0]) + math.Abs(g1-g[1]) + math.Abs(g2-g[2])
		g = [3]float64{gn, g1, g2}
		if d <= tol*(math.Abs(gn)+1e-300) {
			break
		}
	}
	return g
}

// nsgs runs non-smooth Gauss–Seidel on the exact Coulomb problem (Jean &
// Moreau's NSCD; the De Saxcé projection of Jourdan, Alart & Moreau 1998):
// contact by contact, γ_i ← Π_Ki(γ_i − ρ_i(u_i + μ_i‖u_t,i‖e_n)) with
// u = Nγ + p, iterated locally on the 3×3 block, until the residual
// (saxceResidual) is below o.Tol with no contact changing from μ_s to μ_d.
// It updates x in place and returns the sweeps, which frictional contacts
// slide, and u at x.
func (q *ccp) nsgs(x []float64, o StepOptions) (int, []bool, []float64) {
	s, nc := q.s, q.nc
	fk := q.fk
	var blocks []block
	for i := range nc {
		if q.l.diag[i] == 0 {
			continue
		}
		b := block{k: fk[i], ix: [3]int{i, -1, -1}, r: []*row{&s.rows[i]}}
		if b.k >= 0 {
			b.r = append(b.r, &s.fric[b.k].r[0], &s.fric[b.k].r[1])
			b.ix[1], b.ix[2] = nc+2*b.k, nc+2*b.k+1
		}
		b.m = make([][2][6]float64, len(b.r))
		for a, r := range b.r {
			b.m[a][0], b.m[a][1] = s.invMRow(r.a, r.ja), s.invMRow(r.b, r.jb)
			for c := range 6 {
				b.m[a][0][c] *= q.l.dt
				b.m[a][1][c] *= q.l.dt
			}
		}
		for a, r := range b.r {
			for c := range b.r {
				b.w[a][c] = dot6(r.ja[:], b.m[c][0][:]) + dot6(r.jb[:], b.m[c][1][:])
			}
		}
		b.rh = 1 / maxEig3(b.w, len(b.r))
		if b.k >= 0 {
			b.wi, b.inv = geom.Mat3(b.w).Inv()
		}
		blocks = append(blocks, b)
	}
	z := make([]float64, s.NumDOF())
	q.dT(x, z)
	s.applyInvM(q.l.dt, z, z)
	slipTol := max(1e3*o.Tol, 1e-6) * q.scale
	sliding := make([]bool, len(s.fric))
	for k := range s.fric {
		sliding[k] = s.Contacts[s.fric[k].c].Slid
	}
	u := make([]float64, len(x))
	sweeps := 0
	best, since := math.Inf(1), 0
	for sweeps < o.MaxIter {
		sweeps++
		for bj := range blocks {
			bi := bj
			if sweeps%2 == 0 { // symmetric Gauss–Seidel: every other sweep backwards
				bi = len(blocks) - 1 - bj
			}
			b := &blocks[bi]
			n := len(b.r)
			var g0, u0 [3]float64
			for a := range n {
				g0[a] = x[b.ix[a]]
				u0[a] = rowDot(b.r[a], z, false) + q.p[b.ix[a]]
			}
			g := g0
			if b.k < 0 { // frictionless: exact 1D update (as pgs)
				g[0] = max(0, g0[0]-u0[0]/b.w[0][0])
			} else {
				g = b.localCoulomb(q.mu[b.k], g0, u0, 1e-3*o.Tol)
			}
			for a := range n {
				dg := g[a] - g0[a]
				if dg == 0 {
					continue
				}
				x[b.ix[a]] = g[a]
				r := b.r[a]
				if r.fa {
					za := z[6*r.a : 6*r.a+6]
					for c := range 6 {
						za[c] += dg * b.m[a][0][c]
					}
				}
				if r.fb {
					zb := z[6*r.b : 6*r.b+6]
					for c := range 6 {
						zb[c] += dg * b.m[a][1][c]
					}
				}
			}
		}
		if sweeps > 1 && sweeps%2 == 1 && sweeps < o.MaxIter {
			continue // tested after the first sweep and each backward sweep
		}
		q.velocity(z, u)
		r := q.saxceResidual(x, u)
		// Stagnation: on redundant contacts (several between one pair of
		// bodies, as a face on a face) the sweeps can settle into a cycle
		// that no longer lowers the residual; stop when 100 sweeps (50
		// tests) have not lowered the best residual by 0.1% (it stays above
		// Tol and the step reports not converged, as at MaxIter).
		stalled := sweeps >= o.MaxIter
		if r < (1-1e-3)*best {
			best, since = r, 0
		} else if since++; since >= 50 {
			stalled = true
		}
		if !(r <= o.Tol) && !stalled { // NaN: not converged
			continue
		}
		// Solved (or stalled) with μ_s: a contact that slides in this
		// solution breaks loose and the step is solved on with μ_d. (Tested
		// on the solution only, not on the iterates, whose transient slip
		// would switch a sticking contact.)
		switched := false
		for k := range s.fric {
			tg := &s.fric[k]
			if q.l.diag[tg.c] == 0 || sliding[k] || q.slipVelocity(k, u) <= slipTol {
				continue
			}
			sliding[k] = true
			if c := s.Contacts[tg.c]; q.mu[k] != c.MuD {
				q.mu[k] = c.MuD
				switched = true
			}
		}
		if !switched {
			break
		}
		best, since = math.Inf(1), 0
	}
	for k := range s.fric {
		sliding[k] = sliding[k] && q.slipVelocity(k, u) > slipTol
	}
	return sweeps, sliding, u
}

// velocity returns u = Dz + p on the free bodies: with z = Δt M⁻¹Dᵀx (kept
// current by the sweeps) this is u = Nx + p without forming Dᵀx again.
func (q *ccp) velocity(z, u []float64) {
	q.s.bFree(z, u[:q.nc])
	for k := range q.s.fric {
		tg := &q.s.fric[k]
		u[q.nc+2*k] = rowDot(&tg.r[0], z, false)
		u[q.nc+2*k+1] = rowDot(&tg.r[1], z, false)
	}
	for i := range u {
		u[i] += q.p[i]
	}
}

// saxceResidual returns the natural-map residual of the exact Coulomb
// problem at x with u = Nx + p: max over contacts of
// N_nn·‖γ − Π(γ − (u + μ‖u_t‖e_n)/N_nn)‖∞ / ‖p‖∞ (for a frictionless contact
// |min(N_ii f_i, u_i)|).
func (q *ccp) saxceResidual(x, u []float64) float64 {
	if len(q.g) != len(u) {
		q.g = make([]float64, len(u))
	}
	g := q.g
	copy(g, u)
	for k := range q.s.fric {
		j := q.nc + 2*k
		g[q.s.fric[k].c] += q.mu[k] * math.Hypot(u[j], u[j+1])
	}
	return q.residual(x, g)
}

// maxEig3 returns the largest eigenvalue of the leading n×n block of the
// symmetric positive semi-definite w (power iteration; ≥ the largest diagonal
// entry).
func maxEig3(w [3][3]float64, n int) float64 {
	v := [3]float64{1, 1, 1}
	var l float64
	for range 30 {
		var y [3]float64
		var ny float64
		for a := range n {
			for c := range n {
				y[a] += w[a][c] * v[c]
			}
			ny += y[a] * y[a]
		}
		ny = math.Sqrt(ny)
		if ny == 0 {
			break
		}
		l = ny / math.Sqrt(v[0]*v[0]+v[1]*v[1]+v[2]*v[2])
		for a := range n {
			v[a] = y[a] / ny
		}
	}
	for a := range n {
		l = max(l, w[a][a])
	}
	if !(l > 0) {
		return 1
	}
	return l
}

// frictionLoad returns Tᵀ f_t: the resultant of the tangential forces ft
// (world vectors on A) over the free bodies.
func (s *System) frictionLoad(ft []geom.Vec3) []float64 {
	out := make([]float64, s.NumDOF())
	for k := range s.fric {
		tg := &s.fric[k]
		rowAdd(&tg.r[0], ft[tg.c].Dot(tg.t[0]), out)
		rowAdd(&tg.r[1], ft[tg.c].Dot(tg.t[1]), out)
	}
	return out
}
