package integrate

import (
	"math"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

type contactT = contact.Contact

// mat6 is a dense 6×6 block (translation rows/columns first, then rotation).
type mat6 [6][6]float64

// buildPrec assembles, for every movable body, the 6×6 diagonal block of an
// approximate tangent of the scaled residual at the current iterate and
// stores its inverse (block-Jacobi preconditioner). The block holds the
// inertia terms m·α1 and α1·J (S0 eq. 19, 21–22) and, for each active
// contact of the body, K = k_n n⊗n + k_t (I − n⊗n) moved to the centre of
// mass through the lever r: [K, −K[r]×; [r]×K, −[r]×K[r]×]. Here k_n is the
// normal-law stiffness −df_n/dg (S0 §2.4.7) plus α4 times the dashpot
// coefficient 2ζ√(k m_eq)·s(g) (S0 eq. 52 with the ramp s of
// law.DampingRamp) and, for a closing contact, the ramp's −c·s'(g)·ġ_n; k_t, for a sticking contact, is
// ε_t·γ/β + c_t·α4 (S0 eq. 54 with the increment ġ_t Δt); a sliding contact
// adds no tangential stiffness. Rotational corrections of Ξ and Q^Δ are
// left out: the preconditioner only needs to be close.
func (n *Newmark) buildPrec(w *world.World) {
	blocks := n.prec
	for k := range n.nb {
		bd := &n.nb[k]
		b := w.Bodies()[bd.i]
		blocks[k] = mat6{}
		J := b.InertiaWorld()
		for i := 0; i < 3; i++ {
			blocks[k][i][i] = bd.m * n.a1
			for j := 0; j < 3; j++ {
				blocks[k][3+i][3+j] = n.a1 * J[i][j]
			}
		}
	}
	w.EachTrialContact(func(a, b int, c *contact.Contact) {
		if !c.Active() || (n.kOf[a] < 0 && n.kOf[b] < 0) {
			return
		}
		ba, bb := w.Bodies()[a], w.Bodies()[b]
		p := w.Params(ba.Material, bb.Material)
		var kc float64
		poly := p.HasPoly || !p.HasSmooth
		if poly {
			kc = p.Normal.Stiffness(c.Gn) // S0 §2.4.7: k_c = −df_n/dg
		} else {
			kc = p.Smooth.Kn // rough estimate for smooth bodies
		}
		if math.IsInf(kc, 0) || math.IsNaN(kc) || kc > 1e30 {
			kc = 1e30
		}
		meq := law.EquivalentMass(ba.MassOrInf(), bb.MassOrInf())
		kn := kc
		if p.Zeta > 0 && !math.IsInf(meq, 0) {
			gd := ba.VelocityAt(c.PA).Sub(bb.VelocityAt(c.PB)).Dot(c.N)
			kd, g, sl, lag := kc, c.Gn, 1.0, false
			if on, _ := w.DampLag(); on && poly {
				// The lagged coefficient (World.DashpotAt), its entry fraction
				// taken as constant: no ramp derivative.
				g, sl = w.DashpotAt(c, p.Normal.GBar, gd, n.dt)
				kd, lag = min(p.Normal.Stiffness(g), 1e30), true
			}
			cd := 2 * p.Zeta * math.Sqrt(kd*meq) * sl // S0 eq. (52) dashpot coefficient
			s, ds := 1.0, 0.0
			if poly {
				s, ds = law.DampingRamp(g, p.Normal.GBar, p.DampBand)
			}
			if lag {
				ds = 0
			}
			kn += n.a4 * cd * s // ∂(c ġ_n)/∂u with ∂ġ_n/∂u = α4 (S0 eq. 21)
			// The ramp adds −(dc/dg)·ġ_n; kept only where it stiffens (closing).
			if t := cd * ds * gd; t > 0 {
				kn += t
			}
		}
		kt := 0.0
		if p.Friction.MuS > 0 && !c.Fric.Sliding {
			kt = p.Friction.EpsT*n.Gamma/n.Beta + p.Friction.CT*n.a4 // S0 eq. (54), Δg_t = ġ_t Δt
		}
		nn := geom.Outer(c.N, c.N)
		K := nn.Scale(kn - kt).Add(geom.Identity().Scale(kt))
		if k := n.kOf[a]; k >= 0 {
			addContactBlock(&blocks[k], K, c.PA.Sub(ba.X))
		}
		if k := n.kOf[b]; k >= 0 {
			addContactBlock(&blocks[k], K, c.PB.Sub(bb.X))
		}
	})
	for k := range n.nb {
		bd := &n.nb[k]
		B := &blocks[k]
		for i := 0; i < 6; i++ {
			for j := 0; j < 6; j++ {
				s := 1 / bd.m
				if i >= 3 {
					s /= bd.rho
				}
				if j >= 3 {
					s /= bd.rho
				}
				B[i][j] *= s
			}
		}
		if !B.invert() {
			*B = mat6{}
			for i := 0; i < 6; i++ {
				B[i][i] = 1 / n.a1
			}
		}
	}
}

// addContactBlock adds the stiffness K of a contact at lever r to a body block.
func addContactBlock(B *mat6, K geom.Mat3, r geom.Vec3) {
	R := geom.Skew(r)
	KR := K.Mul(R)
	RK := R.Mul(K)
	RKR := RK.Mul(R)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			B[i][j] += K[i][j]
			B[i][3+j] -= KR[i][j]
			B[3+i][j] += RK[i][j]
			B[3+i][3+j] -= RKR[i][j]
		}
	}
}

// invert replaces B by its inverse (Gauss–Jordan, partial pivoting) and
// reports false when B is singular.
func (B *mat6) invert() bool {
	var inv mat6
	for i := range inv {
		inv[i][i] = 1
	}
	a := *B
	for c := 0; c < 6; c++ {
		p := c
		for r := c + 1; r < 6; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if !(math.Abs(a[p][c]) > 0) || math.IsInf(a[p][c], 0) {
			return false
		}
		a[c], a[p] = a[p], a[c]
		inv[c], inv[p] = inv[p], inv[c]
		d := 1 / a[c][c]
		for j := 0; j < 6; j++ {
			a[c][j] *= d
			inv[c][j] *= d
		}
		for r := 0; r < 6; r++ {
			if r == c || a[r][c] == 0 {
				continue
			}
			f := a[r][c]
			for j := 0; j < 6; j++ {
				a[r][j] -= f * a[c][j]
				inv[r][j] -= f * inv[c][j]
			}
		}
	}
	*B = inv
	return true
}

// applyPrec computes out = P⁻¹ v body block by body block: by the LU
// factors of the blocks (precLU: buildTangent), else by their inverses
// (buildPrec).
func (n *Newmark) applyPrec(v, out []float64) {
	n.each(len(n.nb), func(lo, hi int) { n.precRange(v, out, lo, hi) })
}

// applyPrecScaled is applyPrec followed, in the same pass over bodies, by
// tanMul's column scaling of its result (tanScaleIn), so that the product
// with the assembled tangent that GMRES takes next of out (M then A, Saad
// Alg. 6.9) needs one pass less: tanMul skips its scaling when it is given
// that out (tan.zOf).
func (n *Newmark) applyPrecScaled(v, out []float64) {
	n.applyPrecScaledFrom(nil, 0, v, out)
}

// applyPrecScaledFrom is applyPrecScaled of v = u/s, with v formed body by
// body in the same pass (krylov.ScaledPreconditioner: GMRES's
// normalisation of its next basis vector, the same divisions); u = nil
// takes v as given.
func (n *Newmark) applyPrecScaledFrom(u []float64, s float64, v, out []float64) {
	n.tan.z = resize(n.tan.z, len(out))
	n.each(len(n.nb), func(lo, hi int) {
		if u != nil {
			for i := 6 * lo; i < 6*hi; i++ {
				v[i] = u[i] / s
			}
		}
		n.precRange(v, out, lo, hi)
		n.tanScaleIn(out, lo, hi)
	})
	n.tan.zOf = nil
	if len(out) > 0 {
		n.tan.zOf = &out[0]
	}
}

// precRange is applyPrec for the bodies lo..hi−1.
func (n *Newmark) precRange(v, out []float64, lo, hi int) {
	if n.precLU {
		for k := lo; k < hi; k++ {
			o := 6 * k
			n.prec[k].luSolve(&n.piv[k], (*[6]float64)(v[o:o+6]), (*[6]float64)(out[o:o+6]))
		}
		return
	}
	for k := lo; k < hi; k++ {
		B := &n.prec[k]
		o := 6 * k
		for i := 0; i < 6; i++ {
			s := 0.0
			for j := 0; j < 6; j++ {
				s += B[i][j] * v[o+j]
			}
			out[o+i] = s
		}
	}
}

// noPivot is the row order of a block without row exchanges.
var noPivot = [6]uint8{0, 1, 2, 3, 4, 5}

// lu replaces B by its LU factors with partial pivoting (Doolittle: the
// unit lower factor below the diagonal, the upper factor on and above it;
// piv[i] is the original row of row i) and reports false when B is
// singular. One factorisation costs about a third of invert's operations,
// and a solve (luSolve) as many as a product with the inverse.
func (B *mat6) lu(piv *[6]uint8) bool {
	*piv = noPivot
	for c := 0; c < 6; c++ {
		p := c
		for r := c + 1; r < 6; r++ {
			if math.Abs(B[r][c]) > math.Abs(B[p][c]) {
				p = r
			}
		}
		if !(math.Abs(B[p][c]) > 0) || math.IsInf(B[p][c], 0) {
			return false
		}
		if p != c {
			B[c], B[p] = B[p], B[c]
			piv[c], piv[p] = piv[p], piv[c]
		}
		d := 1 / B[c][c]
		for r := c + 1; r < 6; r++ {
			f := B[r][c] * d
			B[r][c] = f
			if f == 0 {
				continue
			}
			for j := c + 1; j < 6; j++ {
				B[r][j] -= f * B[c][j]
			}
		}
	}
	return true
}

// luSolve computes out = B⁻¹ v from the factors of lu: L y = P v, then
// U x = y, written out (the loops' operations in their order, so the same
// bits; no loop counters or bounds checks: it runs for every body at every
// GMRES iteration).
func (B *mat6) luSolve(piv *[6]uint8, v, out *[6]float64) {
	p := piv
	y0 := v[p[0]]
	y1 := v[p[1]] - B[1][0]*y0
	y2 := v[p[2]] - B[2][0]*y0 - B[2][1]*y1
	y3 := v[p[3]] - B[3][0]*y0 - B[3][1]*y1 - B[3][2]*y2
	y4 := v[p[4]] - B[4][0]*y0 - B[4][1]*y1 - B[4][2]*y2 - B[4][3]*y3
	y5 := v[p[5]] - B[5][0]*y0 - B[5][1]*y1 - B[5][2]*y2 - B[5][3]*y3 - B[5][4]*y4
	x5 := y5 / B[5][5]
	x4 := (y4 - B[4][5]*x5) / B[4][4]
	x3 := (y3 - B[3][4]*x4 - B[3][5]*x5) / B[3][3]
	x2 := (y2 - B[2][3]*x3 - B[2][4]*x4 - B[2][5]*x5) / B[2][2]
	x1 := (y1 - B[1][2]*x2 - B[1][3]*x3 - B[1][4]*x4 - B[1][5]*x5) / B[1][1]
	x0 := (y0 - B[0][1]*x1 - B[0][2]*x2 - B[0][3]*x3 - B[0][4]*x4 - B[0][5]*x5) / B[0][0]
	out[0], out[1], out[2], out[3], out[4], out[5] = x0, x1, x2, x3, x4, x5
}
