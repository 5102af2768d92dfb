package law

import (
	"math"

	"grainlab/sim/geom"
)

// StickTangent returns the friction force on A that UpdateStick computes
// from the pre-update state st (not modified), for the tangential
// increment dgt = ġ_t·dt of the relative velocity gtDot, and its
// derivatives dV = ∂f_A/∂ġ_t along that path (dt·∂/∂Δg_t + ∂/∂ġ_t, both
// projected onto the tangent plane of n as UpdateStick projects them) and
// dFn = ∂f_A/∂f_n, at fixed n and fnStick. It is the consistent
// linearisation of S0 eq. (54)–(56), with k_t = ε_t·dt + c_t: sticking
// (|f_tr| within the Coulomb limit), f_A = −f_tr with
// f_tr = ε_t g_t + c_t ġ_t, so dV = −k_t P (P = I − n⊗n, eq. 54);
// sliding, f_A = −μ_d f_n t with t = f_tr/|f_tr| (eq. 56), so
// dV = −k_t (μ_d f_n/|f_tr|)(I − t⊗t)P = −k_t (μ_d f_n/|f_tr|)(P − t⊗t)
// (t ⊥ n) and dFn = −μ_d t. The regime is the one UpdateStick chooses;
// eq. (57)'s return of g_t changes the stored state only, not this step's
// force.
func (f Friction) StickTangent(st FrictionState, n, dgt, gtDot geom.Vec3, dt, fn, fnStick float64) (ft geom.Vec3, dV geom.Mat3, dFn geom.Vec3) {
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
	kt := f.EpsT*dt + f.CT
	P := Projector(n)
	m := ftr.Norm()
	if m <= lim { // sticking, S0 eq. (54)
		return ftr.Neg(), P.Scale(-kt), geom.Vec3{}
	}
	t := ftr.Scale(1 / m)
	s := -kt * limD / m // ∂(−μ_d f_n t)/∂f_tr = −(μ_d f_n/|f_tr|)(I − t⊗t), S0 eq. (56)
	ta := [3]float64{t.X, t.Y, t.Z}
	for i := 0; i < 3; i++ {
		dV[i][0] = s * (P[i][0] - ta[i]*t.X)
		dV[i][1] = s * (P[i][1] - ta[i]*t.Y)
		dV[i][2] = s * (P[i][2] - ta[i]*t.Z)
	}
	if fn > 0 {
		dFn = t.Scale(-f.MuD)
	}
	return t.Scale(-limD), dV, dFn
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
