package integrate

import (
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
// finite-difference products of the whole world (Newmark.jv). The diagonal
// blocks are stored scaled to the residual's rows and unknowns (they give
// the preconditioner); the off-diagonal ones in the bodies' (δu, δθ)
// coordinates, the scaling applied to the vectors in the product (tanMul).
type nmTangent struct {
	diag  []mat6      // per movable body, scaled
	cs    []nmContact // the contacts, pair by pair
	pairs []nmPair    // the pairs with contacts, in the world's order
	z     []float64   // tanMul's scratch: diag(I, Ξ/ρ)·v
	zOf   *float64    // the vector (its first entry) whose scaling z holds (applyPrecScaled), or nil
	sc    []nmScale   // per movable body, tanMul's scaling factors
	// inc lists each movable body's diagonal blocks of its pairs (A–A or
	// B–B), in pair order: body k's are inc[incLo[k]:incLo[k+1]]; cpl its
	// coupling blocks (A–B or B–A, pairs of two movable bodies) with the
	// offset of the other body's unknowns, in pair order:
	// cpl[cplLo[k]:cplLo[k+1]] (incidences). So a pass over bodies sums each
	// body's blocks in the order of a loop over the pairs.
	inc, cpl     []nmInc
	incLo, cplLo []int32
}

// nmInc is one block of a movable body's row (nmTangent.inc, cpl): a
// pair's block and, for a coupling block, the offset 6·k of the other
// body's unknowns.
type nmInc struct {
	blk *mat6
	o   int32
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
//     Ξᵀ(ω×Jω + Jω̇ − m_e) with the moment m_e held, in closed form
//     (rotJacobian: Q^Δ, Ξ, J and ω of S0 eq. 6, 9, 15, 22 — no world
//     evaluation);
//   - each active contact: with δd = δu_A + δθ_A×r_A − δu_B − δθ_B×r_B the
//     relative motion of the contact points (δθ = Ξ δα, S0 eq. 9; r the
//     levers PA − x_A, PB − x_B) and δv = α4 δu_A + V_A δθ_A − (B's) that
//     of their relative velocity (S0 eq. 21–22, kTheta), the force on A
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
	if cap(T.sc) < len(n.nb) {
		T.sc = make([]nmScale, len(n.nb))
	}
	T.sc = T.sc[:len(n.nb)]
	for k := range n.nb {
		bd := &n.nb[k]
		T.sc[k] = nmScale{irho: 1 / bd.rho, im: 1 / bd.m, imr: 1 / (bd.m * bd.rho)}
	}
	if cap(n.qxi) < len(n.nb) {
		n.qxi = make([]geom.Mat3, len(n.nb))
	}
	n.qxi = n.qxi[:len(n.nb)]
	// The pairs with active contacts (not both fixed), in the world's
	// order, and each one's run of T.cs (world.ContactTangents' grouping).
	np, ok := w.TangentPairs()
	if !ok {
		return false
	}
	T.pairs = T.pairs[:0]
	nc := 0
	for i := 0; i < np; i++ {
		a, b, cs := w.TrialPair(i)
		if n.kOf[a] < 0 && n.kOf[b] < 0 {
			continue
		}
		na := 0
		for k := range cs {
			if cs[k].Active() {
				na++
			}
		}
		if na == 0 {
			continue
		}
		// Grow without a zeroed copy of the pair's blocks (pairBlocks sets them).
		if len(T.pairs) < cap(T.pairs) {
			T.pairs = T.pairs[:len(T.pairs)+1]
		} else {
			T.pairs = append(T.pairs, nmPair{})
		}
		p := &T.pairs[len(T.pairs)-1]
		p.a, p.b, p.src = int32(a), int32(b), int32(i)
		p.lo, p.hi = int32(nc), int32(nc+na)
		nc += na
	}
	if cap(T.cs) < nc {
		T.cs = make([]nmContact, nc, nc+nc/4)
	}
	T.cs = T.cs[:nc]
	// Body by body, in parallel: the inertia blocks and Q^Δ Ξ⁻¹.
	w.Parallel(len(n.nb), func(k int) {
		bd := &n.nb[k]
		xiInv, ok := bd.xi.Inv()
		if !ok {
			xiInv = geom.Identity()
		}
		n.inertiaBlock(w, k, &T.diag[k], &xiInv)
		n.qxi[k] = rodriguesMat(bd.alpha).Mul(xiInv) // Q^Δ Ξ⁻¹
	})
	// Pair by pair, in parallel: the contacts' law derivatives
	// (world.PairContactTangents), then the pair's four blocks.
	w.Parallel(len(T.pairs), func(i int) {
		p := &T.pairs[i]
		j := p.lo
		w.PairContactTangents(int(p.src), n.dt, func(c *contact.Contact, dg geom.Vec3, dv geom.Mat3) {
			T.cs[j] = nmContact{c: c, dg: dg, dv: dv}
			j++
		})
		n.pairBlocks(w, p, T.cs)
	})
	// Each body's pairs in pair order (incidences): the diagonal blocks
	// and the coupling products sum them in that order, the same sums for
	// any worker count.
	n.incidences()
	// Body by body, in parallel: the pairs' diagonal blocks added in pair
	// order, then the rows scaled by diag(1/m, Ξᵀ/(mρ)) and the columns by
	// diag(I, Ξ/ρ); the preconditioner factors them.
	w.Parallel(len(n.nb), func(k int) {
		for _, e := range T.inc[T.incLo[k]:T.incLo[k+1]] {
			T.diag[k].add(e.blk)
		}
		n.scaleBlock(&T.diag[k], k, k)
		n.prec[k] = T.diag[k]
		if !n.prec[k].lu(&n.piv[k]) {
			n.prec[k] = mat6{}
			for i := 0; i < 6; i++ {
				n.prec[k][i][i] = 1 / n.a1
			}
			n.piv[k] = noPivot
		}
	})
	n.precLU = true
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
	src            int32 // the pair's index in the world (world.TangentPairs)
	aa, bb, ab, ba mat6
}

// add adds C to B (each row written out: the compiler does not unroll).
func (B *mat6) add(C *mat6) {
	for i := 0; i < 6; i++ {
		b, c := &B[i], &C[i]
		b[0] += c[0]
		b[1] += c[1]
		b[2] += c[2]
		b[3] += c[3]
		b[4] += c[4]
		b[5] += c[5]
	}
}

// pairBlocks sums the blocks of pair p's contacts (buildTangent). Per
// contact, with K = dg⊗n + α4·dv the force's derivative by the column
// body's δu (the gap and, through α4, the velocity, S0 eq. 21) and
// Kθ_s = −dg⊗(n×r_s) + dv·V_s its derivative by δθ_s ((dg⊗n)[r]× =
// dg⊗(n×r); V_s of kTheta): A–A takes −[I; [r_A]×]·[K, Kθ_A] and the
// moment's lever term −[f]×[r_A]×, B–B −[I; [r_B]×]·[K, Kθ_B] and
// +[f]×[r_B]×, A–B +[I; [r_A]×]·[K, Kθ_B], B–A +[I; [r_B]×]·[K, Kθ_A] (the
// residual carries −f on A, +f on B).
func (n *Newmark) pairBlocks(w *world.World, p *nmPair, cs []nmContact) {
	p.aa, p.bb, p.ab, p.ba = mat6{}, mat6{}, mat6{}, mat6{}
	a, b := int(p.a), int(p.b)
	ka, kb := n.kOf[a], n.kOf[b]
	ba, bb := w.Bodies()[a], w.Bodies()[b]
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
	a4 := n.a4
	for i := p.lo; i < p.hi; i++ {
		c, dg, dv := cs[i].c, cs[i].dg, &cs[i].dv
		nv := c.N
		var K geom.Mat3 // ∂f_A/∂δu_s: dg⊗n + α4·dv
		dga := vec3a(dg)
		for r := 0; r < 3; r++ {
			g := dga[r]
			K[r][0] = g*nv.X + a4*dv[r][0]
			K[r][1] = g*nv.Y + a4*dv[r][1]
			K[r][2] = g*nv.Z + a4*dv[r][2]
		}
		ra, rb := c.PA.Sub(ba.X), c.PB.Sub(bb.X)
		f := c.N.Scale(c.Fn).Add(c.Ft)
		// The levers' cross products r × (column of K or Kθ), each computed
		// once and shared by the blocks that take it (A–A and A–B share
		// r_A × K, B–B and B–A r_B × K).
		var Kta, Ktb geom.Mat3
		var xaK, xbK, xt [3]geom.Vec3
		if ka >= 0 {
			Kta = n.kTheta(ka, dg, nv, dv, ra, ba.W)
			xaK = crossCols(ra, &K)
			xt = crossCols(ra, &Kta)
			addBlk(&p.aa, &K, &Kta, &xaK, &xt, -1)
			geoBlk(&p.aa, f, ra, -1)
		}
		if kb >= 0 {
			Ktb = n.kTheta(kb, dg, nv, dv, rb, bb.W)
			xbK = crossCols(rb, &K)
			xt = crossCols(rb, &Ktb)
			addBlk(&p.bb, &K, &Ktb, &xbK, &xt, -1)
			geoBlk(&p.bb, f, rb, 1)
		}
		if ka >= 0 && kb >= 0 {
			xt = crossCols(ra, &Ktb)
			addBlk(&p.ab, &K, &Ktb, &xaK, &xt, 1)
			xt = crossCols(rb, &Kta)
			addBlk(&p.ba, &K, &Kta, &xbK, &xt, 1)
		}
		if c.Kind == snap.VF && c.Fn > 0 {
			// A vertex–face contact: n turns with the face's body and the
			// contact point on the face slides with the relative motion.
			n.vertexFaceTerms(c, f, ra, rb, blk, ka, kb)
		}
	}
}

// kTheta returns Kθ = −dg⊗(n×r) + dv·V, the derivative of the force on A
// by the rotation δθ = Ξ δα (S0 eq. 9) of movable body k with lever r and
// angular velocity om: the gap's part (dg⊗n)·(−[r]×), and the velocity's
// dv·V, where δv = V·δθ is the change of the velocity v + ω×r of the
// material point: ω = Q^Δ(ω^i + Δt ω̇^i + α4 δα) (S0 eq. 22) changes by
// α4 Q^Δ Ξ⁻¹ δθ + δθ×ω and r by δθ×r, so V = −α4 [r]× Q^Δ Ξ⁻¹ + [r]×[ω]×
// − [ω]×[r]× = −α4 [r]× Q^Δ Ξ⁻¹ + [r×ω]×. Row i of dv·[r]× is dv_i × r.
func (n *Newmark) kTheta(k int, dg, nv geom.Vec3, dv *geom.Mat3, r, om geom.Vec3) geom.Mat3 {
	nr := vec3a(nv.Cross(r))
	rw := r.Cross(om)
	Q := &n.qxi[k]
	dga := vec3a(dg)
	var out geom.Mat3
	for i := 0; i < 3; i++ {
		d := geom.V(dv[i][0], dv[i][1], dv[i][2])
		x := d.Cross(r).Scale(-n.a4) // row i of −α4·dv[r]×
		y := vec3a(d.Cross(rw))      // row i of dv[r×ω]×
		g := dga[i]
		o := &out[i]
		o[0] = x.X*Q[0][0] + x.Y*Q[1][0] + x.Z*Q[2][0] + y[0] - g*nr[0]
		o[1] = x.X*Q[0][1] + x.Y*Q[1][1] + x.Z*Q[2][1] + y[1] - g*nr[1]
		o[2] = x.X*Q[0][2] + x.Y*Q[1][2] + x.Z*Q[2][2] + y[2] - g*nr[2]
	}
	return out
}

// crossCols returns r × M_j for the columns M_j of M: the columns of [r]×M.
func crossCols(r geom.Vec3, M *geom.Mat3) (x [3]geom.Vec3) {
	for j := 0; j < 3; j++ {
		x[j] = r.Cross(geom.V(M[0][j], M[1][j], M[2][j]))
	}
	return x
}

// addBlk adds s·[I; [r]×]·[K, Kθ] to B (s = ±1): the force rows K (columns
// δu) and Kθ (columns δθ) of the column body, moved to the row body's
// centre through its lever r, with xK and xKt the columns of [r]×K and
// [r]×Kθ (crossCols). s·x is written as an addition or a subtraction (the
// same bits).
func addBlk(B *mat6, K, Kt *geom.Mat3, xK, xKt *[3]geom.Vec3, s float64) {
	if s < 0 {
		for i := 0; i < 3; i++ {
			b, k, kt := &B[i], &K[i], &Kt[i]
			b[0] -= k[0]
			b[1] -= k[1]
			b[2] -= k[2]
			b[3] -= kt[0]
			b[4] -= kt[1]
			b[5] -= kt[2]
		}
		for j := 0; j < 3; j++ {
			x, y := &xK[j], &xKt[j]
			B[3][j] -= x.X
			B[4][j] -= x.Y
			B[5][j] -= x.Z
			B[3][3+j] -= y.X
			B[4][3+j] -= y.Y
			B[5][3+j] -= y.Z
		}
		return
	}
	for i := 0; i < 3; i++ {
		b, k, kt := &B[i], &K[i], &Kt[i]
		b[0] += k[0]
		b[1] += k[1]
		b[2] += k[2]
		b[3] += kt[0]
		b[4] += kt[1]
		b[5] += kt[2]
	}
	for j := 0; j < 3; j++ {
		x, y := &xK[j], &xKt[j]
		B[3][j] += x.X
		B[4][j] += x.Y
		B[5][j] += x.Z
		B[3][3+j] += y.X
		B[4][3+j] += y.Y
		B[5][3+j] += y.Z
	}
}

// vec3a returns v's components as an array.
func vec3a(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

// geoBlk adds s·[f]×[r]× = s·(r⊗f − (f·r) I) to the rotation block of B:
// the change of the moment r×f of a force f at the material lever r under a
// rotation δθ, (δθ×r)×f = [f]×[r]× δθ, on the residual's side (−m_e).
func geoBlk(B *mat6, f, r geom.Vec3, s float64) {
	fr := f.Dot(r)
	ra := vec3a(r)
	for i := 0; i < 3; i++ {
		ri := s * ra[i]
		B[3+i][3] += ri * f.X
		B[3+i][4] += ri * f.Y
		B[3+i][5] += ri * f.Z
		B[3+i][3+i] -= s * fr
	}
}

// scaleBlock scales block B of row body k and column body l to the
// residual's rows and unknowns: rows by diag(I/m, Ξ_kᵀ/(m ρ)), columns by
// diag(I, Ξ_l/ρ_l).
func (n *Newmark) scaleBlock(B *mat6, k, l int) {
	bk, bl := &n.nb[k], &n.nb[l]
	xk, xl := &bk.xi, &bl.xi
	cl, rk, rr := 1/bl.rho, 1/bk.m, 1/(bk.m*bk.rho)
	for i := 0; i < 6; i++ { // columns δα: B·Ξ_l/ρ_l
		b3, b4, b5 := B[i][3], B[i][4], B[i][5]
		for j := 0; j < 3; j++ {
			B[i][3+j] = (b3*xl[0][j] + b4*xl[1][j] + b5*xl[2][j]) * cl
		}
	}
	for j := 0; j < 6; j++ { // rows: I/m and Ξ_kᵀ/(mρ)
		b3, b4, b5 := B[3][j], B[4][j], B[5][j]
		for i := 0; i < 3; i++ {
			B[3+i][j] = (xk[0][i]*b3 + xk[1][i]*b4 + xk[2][i]*b5) * rr
		}
		B[0][j] *= rk
		B[1][j] *= rk
		B[2][j] *= rk
	}
}

// inertiaBlock sets B to the inertia part of body k's unscaled tangent in
// (δu, δθ) coordinates, so that scaleBlock can treat it like the contact
// blocks: α1·m·I for the translation and, for the rotation, D = the
// derivative of Ξᵀ(ω×Jω + Jω̇ − m_e) with respect to δα (rotJacobian, the
// moment m_e held) times Ξ⁻¹, and the Ξᵀ of the scaling taken out by
// (Ξᵀ)⁻¹; xiInv is Ξ⁻¹.
func (n *Newmark) inertiaBlock(w *world.World, k int, B *mat6, xiInv *geom.Mat3) {
	bd := &n.nb[k]
	b := w.Bodies()[bd.i]
	*B = mat6{}
	for i := 0; i < 3; i++ {
		B[i][i] = bd.m * n.a1
	}
	D := n.rotJacobian(b, bd)
	// In (δθ = Ξ δα) coordinates and before the row's Ξᵀ: Ξ⁻ᵀ D Ξ⁻¹.
	M := xiInv.T().Mul(D).Mul(*xiInv)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			B[3+i][3+j] = M[i][j]
		}
	}
}

// rotJacobian returns D = ∂r/∂α of the rotational residual
// r(α) = Ξᵀ(ω×Jω + Jω̇ − m_e) of body b at its trial rotation increment
// α (S0 eq. 17, 19, 22; m_e held), in closed form. With Q = Q^Δ(α) and
// J = Q J₀ Qᵀ (J₀ the start-of-step inertia nmBody.j0, S0 eq. 15), S0 eq. (22)
// gives ω = Q w̃ and ω̇ = Q ẇ̃ with w̃ = ω^i + Δt ω̇^i + α4 (α − α_p) and
// ẇ̃ = ω̇^i + α1 (α − α_p), so ω×Jω + Jω̇ = Q h, h = w̃×J₀w̃ + J₀ẇ̃. For
// Rodrigues parameters (S0 eq. 6, 9; the Cayley form
// Q = (I − ½[α]×)⁻¹(I + ½[α]×), Ξ = c(I + ½[α]×), c = 4/(4 + |α|²))
// ΞᵀQ = Ξ, so r = Ξ h − Ξᵀ m_e and, with ∂c/∂α = −(c²/2) α,
// D = Ξ ∂h/∂α − (c²/2)((I + ½[α]×)h − (I − ½[α]×)m_e) ⊗ α
// − (c/2)[h + m_e]×, ∂h/∂α = α4([w̃]×J₀ − [J₀w̃]×) + α1 J₀.
// (Before session 10 D came from forward differences of rotResidual.)
func (n *Newmark) rotJacobian(b *body.Body, bd *nmBody) geom.Mat3 {
	al := bd.alpha
	da := al.Sub(bd.ap)
	J := &bd.j0
	wt := bd.w0.AddScaled(n.dt, bd.wd0).AddScaled(n.a4, da) // Q^Δᵀ ω, S0 eq. (22)
	wdt := bd.wd0.AddScaled(n.a1, da)                       // Q^Δᵀ ω̇, S0 eq. (22)
	jw := J.MulV(wt)
	h := wt.Cross(jw).Add(J.MulV(wdt)) // Q^Δᵀ(ω×Jω + Jω̇), S0 eq. (19)
	c := 4 / (4 + al.Norm2())
	me := b.T
	hv := h.Add(al.Cross(h).Scale(0.5))   // (I + ½[α]×)h
	mv := me.Sub(al.Cross(me).Scale(0.5)) // (I − ½[α]×)m_e
	u := hv.Sub(mv).Scale(-0.5 * c * c)   // D's u⊗α
	sk := h.Add(me).Scale(-0.5 * c)       // D's [sk]×
	ala := vec3a(al)
	var D geom.Mat3
	for j := 0; j < 3; j++ {
		e := geom.Basis(j) // e_j
		cj := geom.V(J[0][j], J[1][j], J[2][j])
		// Column j of ∂h/∂α = α4(w̃ × J₀e_j − J₀w̃ × e_j) + α1 J₀e_j, then of
		// Ξ·it = c(d + ½ α×d), plus u α_j + sk × e_j.
		d := wt.Cross(cj).Sub(jw.Cross(e)).Scale(n.a4).AddScaled(n.a1, cj)
		col := d.AddScaled(0.5, al.Cross(d)).Scale(c).AddScaled(ala[j], u).Add(sk.Cross(e))
		D[0][j], D[1][j], D[2][j] = col.X, col.Y, col.Z
	}
	return D
}

// rodriguesMat is geom.RodriguesMat written out, Q(α) = I + c([α]× +
// ½(α⊗α − |α|² I)) with c = 4/(4 + |α|²) (S0 eq. 6; [α]×² = α⊗α − |α|² I),
// for the tangent's many evaluations.
func rodriguesMat(a geom.Vec3) geom.Mat3 {
	a2 := a.Norm2()
	c := 4 / (4 + a2)
	h := 0.5 * c
	xy, xz, yz := h*a.X*a.Y, h*a.X*a.Z, h*a.Y*a.Z
	cx, cy, cz := c*a.X, c*a.Y, c*a.Z
	return geom.Mat3{
		{1 + h*(a.X*a.X-a2), xy - cz, xz + cy},
		{xy + cz, 1 + h*(a.Y*a.Y-a2), yz - cx},
		{xz - cy, yz + cx, 1 + h*(a.Z*a.Z-a2)},
	}
}

// rodriguesXi is geom.RodriguesXi written out, Ξ(α) = c(I + ½[α]×) with
// c = 4/(4 + |α|²) (S0 eq. 9).
func rodriguesXi(a geom.Vec3) geom.Mat3 {
	c := 4 / (4 + a.Norm2())
	h := 0.5 * c
	return geom.Mat3{
		{c, -h * a.Z, h * a.Y},
		{h * a.Z, c, -h * a.X},
		{-h * a.Y, h * a.X, c},
	}
}

// tanMul is the product out = J v of the assembled tangent: the scaled
// diagonal blocks times v, plus, for the coupling blocks (unscaled, in
// (δu, δθ) coordinates), the rows' scaling diag(I/m, Ξᵀ/(mρ)) of the
// blocks times the columns' diag(I, Ξ/ρ)·v (scaleBlock's transforms).
func (n *Newmark) tanMul(v, out []float64) {
	T := &n.tan
	m := 6 * len(n.nb)
	if m == 0 || T.zOf != &v[0] || len(T.z) != m { // else applyPrecScaled left z = diag(I, Ξ/ρ)·v
		T.z = resize(T.z, m)
		n.each(len(n.nb), func(lo, hi int) { n.tanScaleIn(v, lo, hi) })
	}
	T.zOf = nil
	n.each(len(n.nb), func(lo, hi int) { n.tanRows(v, out, lo, hi) })
}

// tanScaleIn sets tanMul's z = diag(I, Ξ/ρ)·v for the bodies lo..hi−1.
func (n *Newmark) tanScaleIn(v []float64, lo, hi int) {
	T := &n.tan
	z, sc := T.z, T.sc
	for k := lo; k < hi; k++ {
		xi := &n.nb[k].xi
		o := 6 * k
		z[o], z[o+1], z[o+2] = v[o], v[o+1], v[o+2]
		// δθ = Ξ δα / ρ: Ξ·(δα) and the scale as geom's MulV and Scale compute them.
		a0, a1, a2 := v[o+3], v[o+4], v[o+5]
		s := sc[k].irho
		z[o+3] = s * (xi[0][0]*a0 + xi[0][1]*a1 + xi[0][2]*a2)
		z[o+4] = s * (xi[1][0]*a0 + xi[1][1]*a1 + xi[1][2]*a2)
		z[o+5] = s * (xi[2][0]*a0 + xi[2][1]*a1 + xi[2][2]*a2)
	}
}

// tanRows sets out = J v for the rows of bodies lo..hi−1: the coupling
// blocks of each body's pairs times the other body's z, summed in pair
// order (as a loop over the pairs adds them), scaled by diag(I/m,
// Ξᵀ/(mρ)), plus the diagonal block times v.
func (n *Newmark) tanRows(v, out []float64, lo, hi int) {
	T := &n.tan
	z, sc := T.z, T.sc
	for k := lo; k < hi; k++ {
		// x += B z over the row's coupling blocks: mulAdd6's operations in
		// its order, with x and z in registers (mulAdd6 reloads z after each
		// store to out, which may alias it).
		var x0, x1, x2, x3, x4, x5 float64
		for _, e := range T.cpl[T.cplLo[k]:T.cplLo[k+1]] {
			B := e.blk
			zb := (*[6]float64)(z[e.o : e.o+6])
			z0, z1, z2, z3, z4, z5 := zb[0], zb[1], zb[2], zb[3], zb[4], zb[5]
			x0 += B[0][0]*z0 + B[0][1]*z1 + B[0][2]*z2 + B[0][3]*z3 + B[0][4]*z4 + B[0][5]*z5
			x1 += B[1][0]*z0 + B[1][1]*z1 + B[1][2]*z2 + B[1][3]*z3 + B[1][4]*z4 + B[1][5]*z5
			x2 += B[2][0]*z0 + B[2][1]*z1 + B[2][2]*z2 + B[2][3]*z3 + B[2][4]*z4 + B[2][5]*z5
			x3 += B[3][0]*z0 + B[3][1]*z1 + B[3][2]*z2 + B[3][3]*z3 + B[3][4]*z4 + B[3][5]*z5
			x4 += B[4][0]*z0 + B[4][1]*z1 + B[4][2]*z2 + B[4][3]*z3 + B[4][4]*z4 + B[4][5]*z5
			x5 += B[5][0]*z0 + B[5][1]*z1 + B[5][2]*z2 + B[5][3]*z3 + B[5][4]*z4 + B[5][5]*z5
		}
		xi := &n.nb[k].xi
		o := 6 * k
		vk := (*[6]float64)(v[o : o+6])
		ok := (*[6]float64)(out[o : o+6])
		im, imr := sc[k].im, sc[k].imr
		// Ξᵀ·x_θ/(mρ), as geom's TMulV and Scale compute it.
		x := [6]float64{x0 * im, x1 * im, x2 * im,
			imr * (xi[0][0]*x3 + xi[1][0]*x4 + xi[2][0]*x5),
			imr * (xi[0][1]*x3 + xi[1][1]*x4 + xi[2][1]*x5),
			imr * (xi[0][2]*x3 + xi[1][2]*x4 + xi[2][2]*x5)}
		D := &T.diag[k]
		for i := 0; i < 6; i++ {
			ok[i] = D[i][0]*vk[0] + D[i][1]*vk[1] + D[i][2]*vk[2] + D[i][3]*vk[3] + D[i][4]*vk[4] + D[i][5]*vk[5] + x[i]
		}
	}
}

// incidences fills the tangent's inc, cpl and their starts from its
// pairs: each movable body's blocks in pair order.
func (n *Newmark) incidences() {
	T := &n.tan
	nb := len(n.nb)
	T.incLo, T.cplLo = resize32(T.incLo, nb+1), resize32(T.cplLo, nb+1)
	clear(T.incLo)
	clear(T.cplLo)
	for i := range T.pairs {
		p := &T.pairs[i]
		ka, kb := n.kOf[p.a], n.kOf[p.b]
		if ka >= 0 {
			T.incLo[ka+1]++
		}
		if kb >= 0 {
			T.incLo[kb+1]++
		}
		if ka >= 0 && kb >= 0 {
			T.cplLo[ka+1]++
			T.cplLo[kb+1]++
		}
	}
	for k := 0; k < nb; k++ {
		T.incLo[k+1] += T.incLo[k]
		T.cplLo[k+1] += T.cplLo[k]
	}
	T.inc, T.cpl = resizeInc(T.inc, int(T.incLo[nb])), resizeInc(T.cpl, int(T.cplLo[nb]))
	// Fill in pair order, each body's run from its start (incLo[k] and
	// cplLo[k] serve as body k's cursor, then are shifted back).
	for i := range T.pairs {
		p := &T.pairs[i]
		ka, kb := n.kOf[p.a], n.kOf[p.b]
		if ka >= 0 {
			T.inc[T.incLo[ka]] = nmInc{blk: &p.aa}
			T.incLo[ka]++
		}
		if kb >= 0 {
			T.inc[T.incLo[kb]] = nmInc{blk: &p.bb}
			T.incLo[kb]++
		}
		if ka >= 0 && kb >= 0 {
			T.cpl[T.cplLo[ka]] = nmInc{blk: &p.ab, o: int32(6 * kb)}
			T.cplLo[ka]++
			T.cpl[T.cplLo[kb]] = nmInc{blk: &p.ba, o: int32(6 * ka)}
			T.cplLo[kb]++
		}
	}
	// incLo[k] now holds body k's end, the start of k+1: shift back.
	copy(T.incLo[1:], T.incLo[:nb])
	T.incLo[0] = 0
	copy(T.cplLo[1:], T.cplLo[:nb])
	T.cplLo[0] = 0
}

// resize32 returns s with length m (contents unspecified).
func resize32(s []int32, m int) []int32 {
	if cap(s) < m {
		return make([]int32, m)
	}
	return s[:m]
}

// resizeInc returns s with length m (contents unspecified).
func resizeInc(s []nmInc, m int) []nmInc {
	if cap(s) < m {
		return make([]nmInc, m)
	}
	return s[:m]
}

// nmScale holds a body's factors of the tangent's scaling (tanMul): 1/ρ,
// 1/m and 1/(mρ), computed once per tangent.
type nmScale struct{ irho, im, imr float64 }

// mulAdd6 computes out += B v.
func mulAdd6(B *mat6, v, out *[6]float64) {
	for i := 0; i < 6; i++ {
		out[i] += B[i][0]*v[0] + B[i][1]*v[1] + B[i][2]*v[2] + B[i][3]*v[3] + B[i][4]*v[4] + B[i][5]*v[5]
	}
}

// newtonMatrix prepares the Newton system of the current iterate: the
// assembled tangent, built anew at each iterate except in a solve's tail,
// where the previous iterate's tangent and factors are kept once the
// residual is below ReuseBelow and fell by ReuseRatio (keeping it from the
// start — modified Newton — needs more iterations, which the step control
// answers with smaller steps: docs/performance.md), or, with
// FDProducts or where the laws are not linearised (smooth contacts, bonds,
// periodic worlds), the finite-difference products with buildPrec's
// preconditioner.
func (n *Newmark) newtonMatrix(w *world.World) {
	n.useTan, n.precLU = false, false
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
	kf := kb // the face's body: B's (e_B = Pδd − gδn), or A's (e_A = −Pδd + gδn)
	if c.Swap {
		kf = ka
	}
	nv := c.N
	bAF, bBF := blk(ka, kf), blk(kb, kf)
	bFA, bFB := blk(kf, ka), blk(kf, kb)
	for j := 0; j < 3; j++ { // column j of each term
		e := geom.Basis(j)
		ne := nv.Cross(e) // [n]× e_j
		// 1. δf_A = −f_n [n]× δθ_F: row A takes −[I; [r_A]×]·, row B +[I; [r_B]×]·.
		Mj := ne.Scale(-c.Fn)
		if bAF != nil {
			addRotCol(bAF, j, Mj.Neg(), ra.Cross(Mj).Neg())
		}
		if bBF != nil {
			addRotCol(bBF, j, Mj, rb.Cross(Mj))
		}
		// 2. The projected point's lever: the face body's moment row takes
		// −[f]×(Pδd − g δn) with δd = G_A q_A − G_B q_B, G = [I, −[r]×],
		// δn = −[n]× δθ_F: on δu_s −s·f × P e_j, on δθ_s +s·f × P(r_s × e_j)
		// (s = +1 for A, −1 for B), and on δθ_F also −g·f × (n × e_j).
		fPe := f.Cross(e.AddScaled(-nv.Dot(e), nv))
		for _, side := range [2]struct {
			B   *mat6
			k   int
			r   geom.Vec3
			sgn float64
		}{{bFA, ka, ra, 1}, {bFB, kb, rb, -1}} {
			B := side.B
			if B == nil {
				continue
			}
			re := side.r.Cross(e)
			x := fPe.Scale(-side.sgn)
			y := f.Cross(re.AddScaled(-nv.Dot(re), nv)).Scale(side.sgn)
			if side.k == kf {
				y = y.AddScaled(-c.Gn, f.Cross(ne))
			}
			B[3][j] += x.X
			B[4][j] += x.Y
			B[5][j] += x.Z
			B[3][3+j] += y.X
			B[4][3+j] += y.Y
			B[5][3+j] += y.Z
		}
	}
}

// addRotCol adds the 6-vector [x; y] to rotation column j of B.
func addRotCol(B *mat6, j int, x, y geom.Vec3) {
	B[0][3+j] += x.X
	B[1][3+j] += x.Y
	B[2][3+j] += x.Z
	B[3][3+j] += y.X
	B[4][3+j] += y.Y
	B[5][3+j] += y.Z
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
