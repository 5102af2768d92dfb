package integrate

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// nmTangent is the assembled tangent of newmark's scaled residual (S0
// eq. 62) at one Newton iterate: a sparse matrix of 6×6 body–body blocks,
// one row of blocks per movable body, with a diagonal block per body and an
// off-diagonal block for each pair of movable bodies in contact (both
// orders), in the order of the contact list. Its product replaces the
// finite-difference products of the whole world (Newmark.jv).
type nmTangent struct {
	diag  []mat6      // per movable body
	off   []nmOff     // body–body blocks of the contact graph
	cs    []nmContact // the contacts, pair by pair
	pairs []nmPair    // the pairs with contacts, in the world's order
}

// nmOff is the block of row body r and column body c (positions in nb).
type nmOff struct {
	r, c int32
	B    mat6
}

// buildTangent assembles the tangent at the current iterate (the world
// evaluated there) and the block-Jacobi preconditioner from its diagonal
// (the inverses in n.prec). It returns false when a contact law is not
// linearised (smooth bodies, world.ContactTangents): the caller falls back
// to finite-difference products.
//
// Unknowns and rows are those of residualForces: y_k = (δu, ρ·δα), r_k =
// ((m ü − f)/m, Ξᵀ(ω×Jω + Jω̇ − m_e)/(mρ)). The blocks:
//   - inertia (S0 eq. 19, 21–22): ∂r_f/∂δu = α1·I exactly; ∂r_μ/∂δα of
//     Ξᵀ(ω×Jω + Jω̇ − m_e) with the moment m_e held, by forward differences
//     of that body-local function (Q^Δ, Ξ, J and ω of S0 eq. 6, 9, 15, 22 —
//     no world evaluation);
//   - each active contact: with δd = δu_A + δθ_A×r_A − δu_B − δθ_B×r_B the
//     relative motion of the contact points (δθ = Ξ δα, S0 eq. 9; r the
//     levers PA − x_A, PB − x_B) and δv = α4 δu_A + V_A δθ_A − (B's) that
//     of their relative velocity (S0 eq. 21–22, velMap), the force on A
//     changes by dg (n·δd) + dv δv (world.ContactTangents: S0 eq. 49–57);
//     A's rows take −[I; [r_A]×] times it, B's +[I; [r_B]×], the moments'
//     lever terms (δθ×r)×f
//     (A: −[f]×[r_A]×, B: +[f]×[r_B]× on the rotation block). The rotation
//     of n and the sliding of the contact points along their features are
//     left out (relative size f_n/(k_c·L), about g/L for the barrier).
func (n *Newmark) buildTangent(w *world.World) bool {
	T := &n.tan
	if cap(T.diag) < len(n.nb) {
		T.diag = make([]mat6, len(n.nb))
	}
	T.diag = T.diag[:len(n.nb)]
	T.off = T.off[:0]
	if cap(n.qxi) < len(n.nb) {
		n.qxi = make([]geom.Mat3, len(n.nb))
	}
	n.qxi = n.qxi[:len(n.nb)]
	// The contacts' law derivatives, grouped by pair (ContactTangents visits
	// a pair's contacts together).
	T.cs, T.pairs = T.cs[:0], T.pairs[:0]
	lastA, lastB := -1, -1
	ok := w.ContactTangents(n.dt, func(a, b int, c *contact.Contact, dg geom.Vec3, dv geom.Mat3) {
		if n.kOf[a] < 0 && n.kOf[b] < 0 {
			return
		}
		if a != lastA || b != lastB {
			lastA, lastB = a, b
			T.pairs = append(T.pairs, nmPair{a: int32(a), b: int32(b), lo: int32(len(T.cs))})
		}
		T.cs = append(T.cs, nmContact{c: c, dg: dg, dv: dv})
		T.pairs[len(T.pairs)-1].hi = int32(len(T.cs))
	})
	if !ok {
		return false
	}
	// Body by body, in parallel: the inertia blocks and Q^Δ Ξ⁻¹.
	w.Parallel(len(n.nb), func(k int) {
		n.inertiaBlock(w, k, &T.diag[k])
		bd := &n.nb[k]
		xiInv, ok := bd.xi.Inv()
		if !ok {
			xiInv = geom.Identity()
		}
		n.qxi[k] = geom.RodriguesMat(bd.alpha).Mul(xiInv) // Q^Δ Ξ⁻¹
	})
	// Pair by pair, in parallel: the pair's four blocks.
	w.Parallel(len(T.pairs), func(i int) { n.pairBlocks(w, &T.pairs[i], T.cs) })
	// In pair order (the same sums for any worker count): the diagonal
	// blocks and the list of off-diagonal ones.
	for i := range T.pairs {
		p := &T.pairs[i]
		ka, kb := n.kOf[p.a], n.kOf[p.b]
		if ka >= 0 {
			T.diag[ka].add(&p.aa)
		}
		if kb >= 0 {
			T.diag[kb].add(&p.bb)
		}
		if ka >= 0 && kb >= 0 {
			T.off = append(T.off, nmOff{r: int32(ka), c: int32(kb), B: p.ab}, nmOff{r: int32(kb), c: int32(ka), B: p.ba})
		}
	}
	// Scale rows by diag(1/m, Ξᵀ/(mρ)) and columns by diag(I, Ξ/ρ); the
	// preconditioner inverts the diagonal blocks.
	w.Parallel(len(n.nb), func(k int) {
		n.scaleBlock(&T.diag[k], k, k)
		P := T.diag[k]
		if !P.invert() {
			P = mat6{}
			for i := 0; i < 6; i++ {
				P[i][i] = 1 / n.a1
			}
		}
		n.prec[k] = P
	})
	w.Parallel(len(T.off), func(i int) { n.scaleBlock(&T.off[i].B, int(T.off[i].r), int(T.off[i].c)) })
	return true
}

// nmContact is one active contact of the tangent with its law derivatives
// (world.ContactTangents).
type nmContact struct {
	c  *contact.Contact
	dg geom.Vec3
	dv geom.Mat3
}

// nmPair is a pair's run cs[lo:hi] of contacts and its blocks (A–A, B–B,
// A–B, B–A; unscaled).
type nmPair struct {
	a, b           int32
	lo, hi         int32
	aa, bb, ab, ba mat6
}

// add adds C to B.
func (B *mat6) add(C *mat6) {
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			B[i][j] += C[i][j]
		}
	}
}

// pairBlocks sums the blocks of pair p's contacts (buildTangent).
func (n *Newmark) pairBlocks(w *world.World, p *nmPair, cs []nmContact) {
	p.aa, p.bb, p.ab, p.ba = mat6{}, mat6{}, mat6{}, mat6{}
	a, b := int(p.a), int(p.b)
	ka, kb := n.kOf[a], n.kOf[b]
	ba, bb := w.Bodies[a], w.Bodies[b]
	blk := func(r, col int) *mat6 { // the pair's block of body positions r, col
		switch {
		case r < 0 || col < 0:
			return nil
		case r == ka && col == ka:
			return &p.aa
		case r == kb && col == kb:
			return &p.bb
		case r == ka:
			return &p.ab
		}
		return &p.ba
	}
	for i := p.lo; i < p.hi; i++ {
		c, dg, dv := cs[i].c, cs[i].dg, cs[i].dv
		K := geom.Outer(dg, c.N).Add(dv.Scale(n.a4)) // ∂f_A/∂δu_s (both the gap and α4·δu_s in the velocity)
		ra, rb := c.PA.Sub(ba.X), c.PB.Sub(bb.X)
		f := c.N.Scale(c.Fn).Add(c.Ft)
		// ∂f_A/∂δθ_s: −(dg⊗n)[r_s]× from the gap, dv·V_s from the velocity.
		Kg := geom.Outer(dg, c.N)
		Ra, Rb := geom.Skew(ra), geom.Skew(rb)
		Kta := Kg.Mul(Ra).Scale(-1).Add(dv.Mul(n.velMap(ka, Ra, ba.W)))
		Ktb := Kg.Mul(Rb).Scale(-1).Add(dv.Mul(n.velMap(kb, Rb, bb.W)))
		if ka >= 0 {
			addBlock(&p.aa, K, Kta, Ra, -1)
			geoBlock(&p.aa, f, ra, -1)
		}
		if kb >= 0 {
			addBlock(&p.bb, K, Ktb, Rb, -1)
			geoBlock(&p.bb, f, rb, 1)
		}
		if ka >= 0 && kb >= 0 {
			addBlock(&p.ab, K, Ktb, Ra, 1)
			addBlock(&p.ba, K, Kta, Rb, 1)
		}
		if c.Kind == snap.VF && c.Fn > 0 {
			// A vertex–face contact: n turns with the face's body and the
			// contact point on the face slides with the relative motion.
			n.vertexFaceTerms(c, f, ra, rb, blk, ka, kb)
		}
	}
}

// addBlock adds s·[I; [r]×]·[K, Kθ] to B: the force rows K (columns δu)
// and Kθ (columns δθ) of the column body, moved to the row body's centre
// through its lever r; s = −1 for a body with itself (A–A, B–B), +1 across
// the pair (the residual carries −f on A, +f on B).
func addBlock(B *mat6, K, Kt, R geom.Mat3, s float64) {
	RK, RKt := R.Mul(K), R.Mul(Kt)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			B[i][j] += s * K[i][j]
			B[i][3+j] += s * Kt[i][j]
			B[3+i][j] += s * RK[i][j]
			B[3+i][3+j] += s * RKt[i][j]
		}
	}
}

// velMap returns V with δv = V·δθ, the change of the velocity v + ω×r of a
// material point at lever r (R = [r]×) of movable body k under a rotation
// δθ = Ξ δα (S0 eq. 9, 22): ω = Q^Δ(ω^i + Δt ω̇^i + α4 δα) changes by
// α4 Q^Δ Ξ⁻¹ δθ + δθ×ω, and r by δθ×r, so V = −α4 [r]× Q^Δ Ξ⁻¹ + [r]×[ω]×
// − [ω]×[r]×. A fixed body (k < 0) has no columns: zero.
func (n *Newmark) velMap(k int, R geom.Mat3, om geom.Vec3) geom.Mat3 {
	if k < 0 {
		return geom.Mat3{}
	}
	W := geom.Skew(om)
	return R.Mul(n.qxi[k]).Scale(-n.a4).Add(R.Mul(W)).Sub(W.Mul(R))
}

// geoBlock adds s·[f]×[r]× to the rotation block of B: the change of the
// moment r×f of a force f at the material lever r under a rotation δθ,
// (δθ×r)×f = [f]×[r]× δθ, on the residual's side (−m_e).
func geoBlock(B *mat6, f, r geom.Vec3, s float64) {
	G := geom.Skew(f).Mul(geom.Skew(r))
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			B[3+i][3+j] += s * G[i][j]
		}
	}
}

// scaleBlock scales block B of row body k and column body l to the
// residual's rows and unknowns: rows by diag(I/m, Ξ_kᵀ/(m ρ)), columns by
// diag(I, Ξ_l/ρ_l).
func (n *Newmark) scaleBlock(B *mat6, k, l int) {
	bk, bl := &n.nb[k], &n.nb[l]
	var out mat6
	xk, xl := bk.xi, bl.xi
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			// column transform first: B·diag(I, Ξ_l/ρ_l)
			v := B[i][j]
			if j >= 3 {
				v = 0
				for m := 0; m < 3; m++ {
					v += B[i][3+m] * xl[m][j-3]
				}
				v /= bl.rho
			}
			out[i][j] = v
		}
	}
	var res mat6
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			if i < 3 {
				res[i][j] = out[i][j] / bk.m
				continue
			}
			v := 0.0
			for m := 0; m < 3; m++ {
				v += xk[m][i-3] * out[3+m][j] // Ξᵀ
			}
			res[i][j] = v / (bk.m * bk.rho)
		}
	}
	*B = res
}

// inertiaBlock sets B to the inertia part of body k's unscaled tangent in
// (δu, δθ) coordinates, so that scaleBlock can treat it like the contact
// blocks: α1·m·I for the translation and, for the rotation, the derivative
// of Ξᵀ(ω×Jω + Jω̇ − m_e) with respect to δα (forward differences of the
// body-local function, the moment m_e held) times Ξ⁻¹, and the Ξᵀ of the
// scaling taken out by (Ξᵀ)⁻¹.
func (n *Newmark) inertiaBlock(w *world.World, k int, B *mat6) {
	bd := &n.nb[k]
	b := w.Bodies[bd.i]
	*B = mat6{}
	for i := 0; i < 3; i++ {
		B[i][i] = bd.m * n.a1
	}
	// D = ∂[Ξᵀ(ω×Jω + Jω̇ − m_e)]/∂α (S0 eq. 17, 19, 22).
	var D geom.Mat3
	h := 1e-7 * math.Max(1, bd.alpha.Norm())
	f0 := n.rotResidual(b, bd, bd.alpha)
	for j := 0; j < 3; j++ {
		var e geom.Vec3
		switch j {
		case 0:
			e.X = h
		case 1:
			e.Y = h
		default:
			e.Z = h
		}
		d := n.rotResidual(b, bd, bd.alpha.Add(e)).Sub(f0).Scale(1 / h)
		D[0][j], D[1][j], D[2][j] = d.X, d.Y, d.Z
	}
	// In (δθ = Ξ δα) coordinates and before the row's Ξᵀ: Ξ⁻ᵀ D Ξ⁻¹.
	xiInv, ok := bd.xi.Inv()
	if !ok {
		xiInv = geom.Identity()
	}
	M := xiInv.T().Mul(D).Mul(xiInv)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			B[3+i][3+j] = M[i][j]
		}
	}
}

// rotResidual is Ξᵀ(ω×Jω + Jω̇ − m_e) of body b at the trial rotation
// increment al, as setTrial and residualForces compute it (S0 eq. 5, 6, 9,
// 15, 19, 22), m_e the moment of the last evaluation.
func (n *Newmark) rotResidual(b *body.Body, bd *nmBody, al geom.Vec3) geom.Vec3 {
	da := al.Sub(bd.ap)
	Qd := geom.RodriguesMat(al)                                                     // S0 eq. (6)
	R := geom.QFromRodrigues(al).Mul(bd.q0).Normalize().Mat()                       // Q^Δ Q^i, S0 eq. (5)
	jmul := func(v geom.Vec3) geom.Vec3 { return R.MulV(b.IBody.MulV(R.TMulV(v))) } // S0 eq. (15)
	W := Qd.MulV(bd.w0.AddScaled(n.dt, bd.wd0).AddScaled(n.a4, da))                 // S0 eq. (22)
	wd := Qd.MulV(bd.wd0.AddScaled(n.a1, da))                                       // S0 eq. (22)
	mt := W.Cross(jmul(W)).Add(jmul(wd))                                            // S0 eq. (19)
	return geom.RodriguesXi(al).TMulV(mt.Sub(b.T))                                  // S0 eq. (17), (62)
}

// tanMul is the product out = J v of the assembled tangent.
func (n *Newmark) tanMul(v, out []float64) {
	T := &n.tan
	for k := range T.diag {
		mulAdd6(&T.diag[k], v[6*k:6*k+6], out[6*k:6*k+6], true)
	}
	for i := range T.off {
		o := &T.off[i]
		r, c := 6*int(o.r), 6*int(o.c)
		mulAdd6(&o.B, v[c:c+6], out[r:r+6], false)
	}
}

// mulAdd6 computes out = B v (set) or out += B v.
func mulAdd6(B *mat6, v, out []float64, set bool) {
	for i := 0; i < 6; i++ {
		s := 0.0
		for j := 0; j < 6; j++ {
			s += B[i][j] * v[j]
		}
		if set {
			out[i] = s
		} else {
			out[i] += s
		}
	}
}

// newtonMatrix prepares the Newton system of the current iterate: the
// assembled tangent, built anew at every iterate (keeping it across
// iterations — modified Newton — needs more iterations, which the step
// control answers with smaller steps: docs/performance.md), or, with
// FDProducts or where the laws are not linearised (smooth contacts, bonds,
// periodic worlds), the finite-difference products with buildPrec's
// preconditioner.
func (n *Newmark) newtonMatrix(w *world.World) {
	n.useTan = false
	if n.FDProducts || len(w.Bonds) > 0 || w.Periodic.On() { // bonds and periodic images: not linearised here
		n.buildPrec(w)
		return
	}
	if n.buildTangent(w) {
		n.useTan = true
		return
	}
	n.buildPrec(w)
}

// vertexFaceTerms adds the geometric terms of a vertex–face contact c with
// force f on A (S0 eq. 29–31: n is the face's normal, the point on the face
// is the vertex's projection): the normal turns with the face's body F,
// δn = δθ_F × n, so the force on A changes by f_n·δn; and the lever of the
// projected point moves with the relative tangential motion, δr = ±(I −
// n⊗n)δd ∓ g·δn besides the body's rotation, which changes that body's
// moment by δr × (∓f). blk(row, col) gives the block of body positions
// row, col (nil for a fixed body).
func (n *Newmark) vertexFaceTerms(c *contact.Contact, f, ra, rb geom.Vec3, blk func(r, col int) *mat6, ka, kb int) {
	kf, rf := kb, rb // the face's body and its lever
	sf := 1.0        // +1: the face is B's (e_B = Pδd − gδn), −1: A's (e_A = −Pδd + gδn)
	if c.Swap {
		kf, rf, sf = ka, ra, -1
	}
	_ = rf
	Nx := geom.Skew(c.N)
	Fx := geom.Skew(f)
	P := geom.Identity().Sub(geom.Outer(c.N, c.N))
	// 1. δf_A = −f_n [n]× δθ_F: row A takes −[I; [r_A]×]·, row B +[I; [r_B]×]·.
	M := Nx.Scale(-c.Fn)
	if B := blk(ka, kf); B != nil {
		addRot(B, M.Scale(-1), geom.Skew(ra).Mul(M).Scale(-1))
	}
	if B := blk(kb, kf); B != nil {
		addRot(B, M, geom.Skew(rb).Mul(M))
	}
	// 2. The projected point's lever: the moment row of the face's body takes
	// −[f]×e_B (face on B; its force is −f) or +[f]×e_A (face on A), i.e.
	// −sf·[f]×e with e = sf·(Pδd − g δn): −[f]×(Pδd − g δn) for both.
	// δd = G_A q_A − G_B q_B with G = [I, −[r]×]; δn = −[n]× δθ_F.
	FP := Fx.Mul(P).Scale(-1)
	for _, side := range [2]struct {
		k   int
		r   geom.Vec3
		sgn float64
	}{{ka, ra, 1}, {kb, rb, -1}} {
		B := blk(kf, side.k)
		if B == nil {
			continue
		}
		X := FP.Scale(side.sgn)                         // −[f]×P·(±I) on δu
		Y := FP.Mul(geom.Skew(side.r)).Scale(-side.sgn) // −[f]×P·(∓[r]×) on δθ
		if side.k == kf {
			Y = Y.Add(Fx.Mul(Nx).Scale(-c.Gn)) // −[f]×(−g·(−[n]×)) = −g[f]×[n]× on δθ_F
		}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				B[3+i][j] += X[i][j]
				B[3+i][3+j] += Y[i][j]
			}
		}
	}
	_ = sf
}

// addRot adds the 6×3 column [X; Y] to the rotation columns of B.
func addRot(B *mat6, X, Y geom.Mat3) {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			B[i][3+j] += X[i][j]
			B[3+i][3+j] += Y[i][j]
		}
	}
}
