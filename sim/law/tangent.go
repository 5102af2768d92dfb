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

// NormalTangent returns ∂f_A/∂n, the change of the friction force on A
// that UpdateStick computes (lawsPair's call: dgt = v_t·dt, gtDot = v_t
// with v_t = (I − n⊗n)v, v the relative velocity of the contact points)
// when the unit normal n turns by δn ⊥ n, at fixed v, history st, f_n and
// fnStick (the normal force's own change is the caller's). It is the
// rotation of the contact frame in S0's friction law: the transported
// history g_t^{i+1} = P Q_c^Δ g_t^i + P v_t dt (S0 eq. 43–44, P = I − n⊗n,
// Q_c^Δ the minimal rotation from the stored normal to n, minimalRotation)
// and the damping part c_t P v (eq. 54–55) turn with n, so with
// g_r = Q_c^Δ g_t^i and δP x = −δn(n·x) − n(δn·x) (δn ⊥ n)
//
//	δf_tr = ε_t[−(n·g_r) I − n⊗g_r + P ∂(Q_c^Δ g_t^i)/∂n] δn
//	        − k_t (ġ_n I + n⊗v) δn,  ġ_n = n·v, k_t = ε_t dt + c_t,
//
// and δf_A = −δf_tr sticking (eq. 54), −(μ_d f_n/|f_tr|)(I − t⊗t)δf_tr
// sliding (eq. 56), in the regime UpdateStick chooses. The matrix is
// meant for δn ⊥ n (its action along n is not defined).
func (f Friction) NormalTangent(st FrictionState, n, v geom.Vec3, dt, fn, fnStick float64) geom.Mat3 {
	gr := st.Gt
	var Rb geom.Mat3 // ∂(Q_c^Δ g_t^i)/∂n
	if st.N != (geom.Vec3{}) {
		gr = minimalRotation(st.N, n, st.Gt) // S0 eq. (44)
		Rb = minimalRotationSlope(st.N, n, st.Gt)
	}
	if fn < 0 || math.IsNaN(fn) {
		fn = 0
	}
	if fnStick < 0 || math.IsNaN(fnStick) {
		fnStick = 0
	}
	vt := tangential(n, v)
	gt := tangential(n, gr).Add(tangential(n, vt.Scale(dt)))   // S0 eq. (43)–(44)
	ftr := gt.Scale(f.EpsT).Add(tangential(n, vt).Scale(f.CT)) // S0 eq. (54)–(55)
	limD := coulomb(f.MuD, fn)
	lim := limD + coulomb(f.MuS-f.MuD, fnStick)
	if st.Sliding {
		lim = limD
	}
	P := Projector(n)
	PRb := P.Mul(Rb)
	kt := f.EpsT*dt + f.CT
	gn, ngr := n.Dot(v), n.Dot(gr)
	na, gra, va := [3]float64{n.X, n.Y, n.Z}, [3]float64{gr.X, gr.Y, gr.Z}, [3]float64{v.X, v.Y, v.Z}
	var D geom.Mat3 // ∂f_tr/∂n
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			d := f.EpsT*(PRb[i][j]-na[i]*gra[j]) - kt*na[i]*va[j]
			if i == j {
				d -= f.EpsT*ngr + kt*gn
			}
			D[i][j] = d
		}
	}
	m := ftr.Norm()
	if m <= lim { // sticking, S0 eq. (54): f_A = −f_tr
		return D.Scale(-1)
	}
	t := ftr.Scale(1 / m) // sliding, S0 eq. (56): f_A = −μ_d f_n t
	s := -limD / m
	ta := [3]float64{t.X, t.Y, t.Z}
	var out geom.Mat3
	for j := 0; j < 3; j++ {
		c := geom.V(D[0][j], D[1][j], D[2][j])
		tc := t.Dot(c)
		for i := 0; i < 3; i++ {
			out[i][j] = s * (D[i][j] - ta[i]*tc)
		}
	}
	return out
}

// minimalRotationSlope returns ∂(R v)/∂b of minimalRotation's
// R v = c v + w×v + (w·v) w/(1 + c), c = a·b, w = a×b, at fixed a and v:
// with δc = a·δb and δw = a×δb,
// v⊗a − [v]×[a]× + w⊗(v×a)/(1 + c) + (w·v)/(1 + c)·[a]× − (w·v)/(1 + c)²·w⊗a;
// zero in the antiparallel branch (a fixed half-turn).
func minimalRotationSlope(a, b, v geom.Vec3) geom.Mat3 {
	c := a.Dot(b)
	if !(c > -1+1e-9) {
		return geom.Mat3{}
	}
	w := a.Cross(b)
	ic := 1 / (1 + c)
	wv := w.Dot(v)
	va := v.Cross(a)
	M := geom.Outer(v, a).Sub(geom.Skew(v).Mul(geom.Skew(a)))
	M = M.Add(geom.Outer(w, va).Scale(ic)).Add(geom.Skew(a).Scale(wv * ic)).Sub(geom.Outer(w, a).Scale(wv * ic * ic))
	return M
}
