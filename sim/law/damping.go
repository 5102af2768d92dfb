package law

import "math"

// EquivalentMass returns m_eq = m_A m_B/(m_A + m_B) (S0 eq. 52). A fixed body
// has mass +Inf: one fixed body gives the other mass, two give +Inf.
func EquivalentMass(mA, mB float64) float64 { return Reduced(mA, mB) }

// Reduced returns a·b/(a + b), the series combination of two masses or
// radii, where +Inf stands for "absent" (a fixed body, a plane): Reduced(a,
// +Inf) = a, and two infinities give +Inf.
//
// Written to inline (the laws, the step bound and the sphere path call it
// per pair): x > MaxFloat64 is math.IsInf(x, 1), and with b = +Inf it
// returns a, which is +Inf itself when both are.
func Reduced(a, b float64) float64 {
	if b > math.MaxFloat64 {
		return a
	}
	if a > math.MaxFloat64 {
		return b
	}
	return a * b / (a + b)
}

// Damping returns the signed viscous normal force f_d = 2ζ√(k m_eq)·ġ_n of
// S0 eq. (52), with k = −df_n/dg ≥ 0 the tangent stiffness of the normal law
// (Normal.Stiffness) and m_eq from EquivalentMass. Sign convention: gnDot > 0
// means separating, so f_d has the sign of gnDot; it enters the total normal
// force through NormalTotal. Zero ζ or zero gnDot give exactly 0.
func Damping(zeta, k, mA, mB, gnDot float64) float64 {
	if zeta == 0 || gnDot == 0 {
		return 0
	}
	return DampingEq(zeta, k, EquivalentMass(mA, mB), gnDot)
}

// DampingEq is Damping with the equivalent mass meq = EquivalentMass(mA,
// mB) given, for a caller that evaluates many contacts of one body pair:
// f_d = 2ζ√(k m_eq)·ġ_n (S0 eq. 52), exactly 0 for zero ζ or zero gnDot.
func DampingEq(zeta, k, meq, gnDot float64) float64 {
	if zeta == 0 || gnDot == 0 {
		return 0
	}
	return 2 * zeta * math.Sqrt(k*meq) * gnDot // S0 eq. (52)
}

// DampingRamp returns the factor s ∈ [0, 1] that switches the dashpot of
// S0 eq. (52) on across the outer band of the skin: s = 3x² − 2x³ with
// x = (ḡ − g)/(band·ḡ) clamped to [0, 1], and its derivative ds/dg. This is
// our regularisation, not S0's: with n1 = 1 the tangent stiffness of eq. (49)
// jumps from 0 to ε1 at g = ḡ, so the unregularised dashpot force
// 2ζ√(ε1 m_eq)·ġ_n appears with a jump as a closing contact enters the skin,
// and Newton–Raphson stalls on it (docs/validation.md). The ramp is C¹;
// band ≤ 0 returns s = 1 (S0 eq. 52 as written) for g < ḡ. Its price: less
// dissipation where the closing speed is highest, so slow impacts, whose
// penetration is not much more than the band, rebound more
// (TestDampingRampRestitution).
func DampingRamp(g, gbar, band float64) (s, ds float64) {
	if g >= gbar {
		return 0, 0
	}
	if !(band > 0) {
		return 1, 0
	}
	w := band * gbar
	x := (gbar - g) / w
	if x >= 1 {
		return 1, 0
	}
	return x * x * (3 - 2*x), -6 * x * (1 - x) / w // smoothstep and d/dg
}

// NormalTotal returns the total compressive normal force magnitude
// max(f_n − f_d, 0) of the elastic force fn ≥ 0 (Normal.Force) and the signed
// damping fd (Damping): S0 eq. (53) replaces f_d by −f_n whenever the sum
// would be tensile, so the total never pulls the bodies together. The force
// on body A is NormalTotal·n, on body B −NormalTotal·n. An infinite fn
// (barrier at g ≤ 0) stays +Inf; NaN inputs propagate.
func NormalTotal(fn, fd float64) float64 {
	if math.IsInf(fn, 1) {
		return fn
	}
	t := fn - fd // −(f_n + f_d n)·n with f_n = −f_n n, S0 eq. (39), (53)
	if t < 0 {
		return 0 // S0 eq. (53): f_d = −f_n, total zero
	}
	return t
}
