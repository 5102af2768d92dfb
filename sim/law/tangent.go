package law

import (
	"math"

	"grainlab/sim/geom"
)

// StickTangent returns the friction force on A that UpdateStick computes
// from the pre-update state st (not modified) and its derivatives with
// respect to the tangential displacement increment dgt (DF/Ddgt), the
// relative velocity gtDot (DF/DgtDot), both projected onto the tangent plane
// of n as UpdateStick projects them, and the normal force fn (DF/Dfn), at
// fixed n and fnStick. It is the consistent linearisation of S0 eq. (54)–(56):
// sticking (|f_tr| within the Coulomb limit), f_A = −f_tr with
// f_tr = ε_t g_t + c_t ġ_t, so ∂f_A/∂Δg_t = −ε_t P and ∂f_A/∂ġ_t = −c_t P
// (P = I − n⊗n, eq. 54); sliding, f_A = −μ_d f_n t with t = f_tr/|f_tr|
// (eq. 56), so ∂f_A/∂f_tr = −(μ_d f_n/|f_tr|)(I − t⊗t) and
// ∂f_A/∂f_n = −μ_d t. The regime is the one UpdateStick chooses; eq. (57)'s
// return of g_t changes the stored state only, not this step's force.
func (f Friction) StickTangent(st FrictionState, n, dgt, gtDot geom.Vec3, fn, fnStick float64) (ft geom.Vec3, dDgt, dGtDot geom.Mat3, dFn geom.Vec3) {
	gt := st.Gt
	if st.N != (geom.Vec3{}) {
		gt = minimalRotation(st.N, n, gt) // S0 eq. (44)
	}
	gt = tangential(n, gt).Add(tangential(n, dgt)) // S0 eq. (43)–(44)
	if fn < 0 || math.IsNaN(fn) {
		fn = 0
	}
	if fnStick < 0 || math.IsNaN(fnStick) {
		fnStick = 0
	}
	ftr := gt.Scale(f.EpsT).Add(tangential(n, gtDot).Scale(f.CT)) // S0 eq. (54)–(55)
	limD := coulomb(f.MuD, fn)
	lim := limD + coulomb(f.MuS-f.MuD, fnStick)
	if st.Sliding {
		lim = limD
	}
	P := Projector(n)
	m := ftr.Norm()
	if m <= lim { // sticking, S0 eq. (54)
		return ftr.Neg(), P.Scale(-f.EpsT), P.Scale(-f.CT), geom.Vec3{}
	}
	t := ftr.Scale(1 / m)
	D := Projector(t).Scale(-limD / m).Mul(P) // ∂(−μ_d f_n t)/∂f_tr · P, S0 eq. (56)
	if fn > 0 {
		dFn = t.Scale(-f.MuD)
	}
	return t.Scale(-limD), D.Scale(f.EpsT), D.Scale(f.CT), dFn
}

// Projector returns I − n⊗n, the projection onto the plane normal to the
// unit vector n (S0 eq. 43–44, the tangential part), entry by entry as
// geom.Identity().Sub(geom.Outer(n, n)) computes it (the same bits:
// a − b is a + (−b) in IEEE arithmetic), without its matrix temporaries —
// the Newton tangents take it per contact and iteration.
func Projector(n geom.Vec3) geom.Mat3 {
	xy, xz, yz := n.X*n.Y, n.X*n.Z, n.Y*n.Z
	yx, zx, zy := n.Y*n.X, n.Z*n.X, n.Z*n.Y
	return geom.Mat3{
		{1 - n.X*n.X, 0 - xy, 0 - xz},
		{0 - yx, 1 - n.Y*n.Y, 0 - yz},
		{0 - zx, 0 - zy, 1 - n.Z*n.Z},
	}
}

// StiffnessSlope returns dk_c/dg of the tangent stiffness k_c = −df_n/dg
// (Stiffness; S0 eq. 49–51 differentiated twice): 0 for g ≥ ḡ and for the
// linear law, −k_c/(2(ḡ − g)) for Hertz; for the Barrier law
// −k_c·(n1 − 1)/(ḡ − g) in part (i) and k_c·(n2 − 1)/g in part (ii)
// (NaN at g ≤ 0, where the barrier is not defined).
func (n Normal) StiffnessSlope(g float64) float64 {
	if g >= n.GBar {
		return 0
	}
	k, d := n.Stiffness(g), n.GBar-g
	switch n.Kind {
	case Linear:
		return 0
	case Hertz:
		return -k / (2 * d)
	}
	if g >= n.F*n.GBar {
		return -k * (n.N1 - 1) / d // part (i)
	}
	if g <= 0 {
		return math.NaN()
	}
	return k * (n.N2 - 1) / g // part (ii)
}
