package law

import (
	"errors"
	"fmt"
	"math"
)

// Kind selects the shape of the normal interface law.
type Kind uint8

const (
	// Barrier is the hybrid law of S0 eq. (49): ε1(ḡ−g)^n1 in the skin down to
	// f·ḡ, then the barrier ε2 g^n2 + c2 (n2 < 0) that diverges as g → 0.
	Barrier Kind = iota
	// Linear is the penalty spring f = ε1(ḡ−g) acting in the skin g < ḡ, with no barrier.
	Linear
	// Hertz is the penalty law f = ε1(ḡ−g)^{3/2} acting in the skin, with no barrier.
	Hertz
)

// String returns the lower-case name of the law kind.
func (k Kind) String() string {
	switch k {
	case Barrier:
		return "barrier"
	case Linear:
		return "linear"
	case Hertz:
		return "hertz"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Normal is the normal interface law f_n(g_n) of S0 §2.4.7. GBar is the skin
// thickness ḡ (activation threshold) and Eps1 the stiffness ε1 of every kind;
// N1, F and N2 are used by Barrier only (n1 ≥ 1, ḡḡ = F·ḡ with 0 < F < 1, n2 < 0).
// Call Prepare (or use NewNormal) after setting the fields: a Barrier law
// that reaches its part (ii) unprepared panics.
type Normal struct {
	Kind     Kind    // law shape
	GBar     float64 // ḡ: skin thickness, the force is zero for g ≥ ḡ (m)
	Eps1     float64 // ε1: stiffness of part (i), N/m^n1 (Linear N/m, Hertz N/m^1.5)
	N1       float64 // n1 ≥ 1: exponent of part (i) (Barrier only)
	F        float64 // f ∈ (0, 1): switch gap ḡḡ = f·ḡ (Barrier only)
	N2       float64 // n2 < 0: barrier exponent of part (ii) (Barrier only)
	eps2, c2 float64 // barrier matching constants, S0 eq. (51)
	// Potential's constants of part (ii), set by Prepare with the same
	// expressions Potential used per call (so the same bits): the energy
	// stored down to ḡḡ and ε2·ḡḡ^(n2+1).
	potGG, potE2 float64
}

// NewNormal returns a validated, prepared Barrier law.
func NewNormal(gbar, eps1, n1, f, n2 float64) (Normal, error) {
	n := Normal{Kind: Barrier, GBar: gbar, Eps1: eps1, N1: n1, F: f, N2: n2}
	return n, n.Prepare()
}

// Validate reports the first invalid parameter, naming the field. Every field
// must be finite, including those a Linear or Hertz law ignores.
func (n Normal) Validate() error {
	if p, v := finite(&Set{Normal: n}, ClassBarrier); p != nil {
		return fmt.Errorf("law: %s must be finite (got %g)", p.Name, v)
	}
	if n.Kind > Hertz {
		return fmt.Errorf("law: unknown normal law kind %d", uint8(n.Kind))
	}
	if n.GBar <= 0 {
		return fmt.Errorf("law: gbar must be > 0 (got %g)", n.GBar)
	}
	if n.Eps1 <= 0 {
		return fmt.Errorf("law: eps1 must be > 0 (got %g)", n.Eps1)
	}
	if n.Kind != Barrier {
		return nil
	}
	if n.N1 < 1 {
		return fmt.Errorf("law: n1 must be >= 1 (got %g)", n.N1)
	}
	if !(n.F > 0 && n.F < 1) {
		return fmt.Errorf("law: f must be in (0, 1) (got %g)", n.F)
	}
	if n.N2 >= 0 {
		return fmt.Errorf("law: n2 must be < 0 for a barrier (got %g)", n.N2)
	}
	return nil
}

// errNotPrepared is the panic value of a Barrier law used before Prepare.
var errNotPrepared = errors.New("law: Normal barrier used before Prepare")

// Prepare validates the law and computes ε2 and c2 from the C¹ matching at
// ḡḡ = F·ḡ (S0 eq. 50–51). It must be called again after changing a field.
func (n *Normal) Prepare() error {
	n.eps2, n.c2, n.potGG, n.potE2 = 0, 0, 0, 0
	if err := n.Validate(); err != nil {
		return err
	}
	if n.Kind != Barrier {
		return nil
	}
	gg := n.F * n.GBar
	n.eps2 = -n.Eps1 * n.N1 * math.Pow(n.GBar-gg, n.N1-1) / (n.N2 * math.Pow(gg, n.N2-1)) // S0 eq. (51)
	n.c2 = n.Eps1*math.Pow(n.GBar-gg, n.N1) - n.eps2*math.Pow(gg, n.N2)                   // S0 eq. (51)
	if e, c := n.eps2, n.c2; !(e > 0) || math.IsInf(e, 0) || math.IsNaN(c) || math.IsInf(c, 0) {
		n.eps2, n.c2 = 0, 0
		return fmt.Errorf("law: barrier constants out of range (eps2=%g, c2=%g): rescale gbar/eps1", e, c)
	}
	n.potGG = n.Eps1 * math.Pow(n.GBar-gg, n.N1+1) / (n.N1 + 1) // ∫ of S0 eq. (49) part (i) from ḡḡ to ḡ
	n.potE2 = n.eps2 * math.Pow(gg, n.N2+1)                     // ε2·ḡḡ^s, s = n2+1
	return nil
}

// Eps2 returns the barrier coefficient ε2 of S0 eq. (51) (0 before Prepare or for Linear/Hertz).
func (n Normal) Eps2() float64 { return n.eps2 }

// C2 returns the barrier offset c2 of S0 eq. (51) (0 before Prepare or for Linear/Hertz).
func (n Normal) C2() float64 { return n.c2 }

// GBarBar returns the switch gap ḡḡ = F·ḡ between the two parts of the Barrier law.
func (n Normal) GBarBar() float64 { return n.F * n.GBar }

// Force returns the elastic normal force magnitude f_n(g) ≥ 0 (S0 eq. 49),
// zero for g ≥ ḡ. Barrier returns +Inf for g ≤ 0 (contact or crossing is not
// admissible); Linear and Hertz keep growing for g < 0 as penalty laws do.
func (n Normal) Force(g float64) float64 {
	if g >= n.GBar {
		return 0
	}
	d := n.GBar - g
	switch n.Kind {
	case Linear:
		return n.Eps1 * d
	case Hertz:
		return n.Eps1 * d * math.Sqrt(d)
	}
	if g >= n.F*n.GBar {
		return n.Eps1 * powExact(d, n.N1) // S0 eq. (49), part (i)
	}
	if g <= 0 {
		return math.Inf(1)
	}
	n.mustBePrepared()
	return n.eps2*powExact(g, n.N2) + n.c2 // S0 eq. (49), part (ii)
}

// Stiffness returns the tangent stiffness k_c = −df_n/dg ≥ 0 (S0 §2.4.7),
// zero for g ≥ ḡ and +Inf for g ≤ 0 on a Barrier law.
func (n Normal) Stiffness(g float64) float64 {
	if g >= n.GBar {
		return 0
	}
	d := n.GBar - g
	switch n.Kind {
	case Linear:
		return n.Eps1
	case Hertz:
		return 1.5 * n.Eps1 * math.Sqrt(d)
	}
	if g >= n.F*n.GBar {
		return n.Eps1 * n.N1 * powExact(d, n.N1-1) // −d/dg of S0 eq. (49), part (i)
	}
	if g <= 0 {
		return math.Inf(1)
	}
	n.mustBePrepared()
	return -n.eps2 * n.N2 * powExact(g, n.N2-1) // −d/dg of S0 eq. (49), part (ii)
}

// Potential returns the stored elastic energy ∫_g^ḡ f_n dg' ≥ 0 (zero for
// g ≥ ḡ), in closed form; the barrier part uses the log form for n2 = −1.
// A Barrier law returns +Inf for g ≤ 0.
func (n Normal) Potential(g float64) float64 {
	if g >= n.GBar {
		return 0
	}
	d := n.GBar - g
	switch n.Kind {
	case Linear:
		return 0.5 * n.Eps1 * d * d // ∫ of ε1(ḡ−g)
	case Hertz:
		return 0.4 * n.Eps1 * d * d * math.Sqrt(d) // ∫ of ε1(ḡ−g)^{3/2}
	}
	gg := n.F * n.GBar
	if g >= gg {
		return n.Eps1 * powExact(d, n.N1+1) / (n.N1 + 1) // ∫ of S0 eq. (49), part (i)
	}
	if g <= 0 {
		return math.Inf(1)
	}
	n.mustBePrepared()
	p := n.potGG // energy stored down to ḡḡ: Eps1·(ḡ−ḡḡ)^(n1+1)/(n1+1) (Prepare)
	// ∫_g^ḡḡ ε2 x^n2 dx = ε2 ḡḡ^s (1 − (g/ḡḡ)^s)/s, s = n2+1; → ε2 ln(ḡḡ/g) as s → 0.
	s, l := n.N2+1, math.Log(g/gg)
	if s == 0 {
		p += n.eps2 * -l // S0 eq. (49) part (ii) integrated, n2 = −1 (log form)
	} else {
		p += n.potE2 * -math.Expm1(s*l) / s // S0 eq. (49) part (ii) integrated; potE2 = ε2·ḡḡ^s (Prepare)
	}
	return p + n.c2*(gg-g)
}

// Eval returns, at one gap g, the force f = Force(g), the tangent stiffness
// k = Stiffness(g) and, when energy, the stored energy e = Potential(g)
// (else e = 0), with the same bits as the three calls: the laws stage's
// evaluation of a contact (S0 eq. 49, its −d/dg and its integral). Part (i)
// of a Barrier law, where the contacts of a resting pack are, is computed
// here with d = ḡ − g found once (n1 = 1: f = ε1·d and k = ε1·n1, which
// are ε1·d^1 and ε1·n1·d^0 to the bit); every other case calls the three
// methods.
func (n *Normal) Eval(g float64, energy bool) (f, k, e float64) {
	if n.Kind == Barrier && g < n.GBar && g >= n.F*n.GBar {
		d := n.GBar - g
		if n.N1 == 1 {
			f, k = n.Eps1*d, n.Eps1*n.N1 // S0 eq. (49) part (i) and −d/dg, n1 = 1
			if !energy {
				return f, k, 0
			}
			// ∫ of S0 eq. (49), part (i): powExact(d, 2) is d·d when that
			// is normal and finite (d > 0 here), as powExact tests.
			if q := d * d; q >= 0x1p-1022 && q <= math.MaxFloat64 {
				return f, k, n.Eps1 * q / (n.N1 + 1)
			}
		} else {
			f = n.Eps1 * powExact(d, n.N1)          // S0 eq. (49), part (i)
			k = n.Eps1 * n.N1 * powExact(d, n.N1-1) // −d/dg of S0 eq. (49), part (i)
		}
		if energy {
			e = n.Eps1 * powExact(d, n.N1+1) / (n.N1 + 1) // ∫ of S0 eq. (49), part (i)
		}
		return f, k, e
	}
	f, k = n.Force(g), n.Stiffness(g)
	if energy {
		e = n.Potential(g)
	}
	return f, k, e
}

// CriticalDt returns the explicit-integration estimate Δt_c = 2√(m_c/k_c) at
// gap g for the equivalent mass mc (S0 §2.4.7, Fig. 11): +Inf where k_c = 0
// (outside the skin), 0 where k_c = +Inf.
func (n Normal) CriticalDt(g, mc float64) float64 {
	k := n.Stiffness(g)
	if k == 0 {
		return math.Inf(1)
	}
	return 2 * math.Sqrt(mc/k) // S0 §2.4.7, Δt_c = 2√(m_c/k_c)
}

func (n *Normal) mustBePrepared() {
	if n.eps2 == 0 {
		panic(errNotPrepared)
	}
}

// powExact is math.Pow(x, y) to the bit, with the small integer exponents
// of the barrier law's usual n1 = 1, 2 and n2 = −1, −2 (y = −3 … 3) done
// without Pow's general path. Pow returns 1 for y = 0 and x for y = 1
// first; for x > 0 and an integer |y| it multiplies the mantissa m of
// x = m·2^e by successive squarings (m·m, then m·(m·m)), takes the
// reciprocal for y < 0 and scales by a power of two at the end, so its
// result is that of x·x, x·(x·x) or 1 over them exactly — scaling by a
// power of two does not change a rounding — as long as no product or
// reciprocal is subnormal or infinite, which is checked (else math.Pow).
func powExact(x, y float64) float64 {
	const minNormal = 0x1p-1022
	switch y {
	case 0:
		return 1
	case 1:
		return x
	case 2:
		if q := x * x; x > 0 && q >= minNormal && q <= math.MaxFloat64 {
			return q
		}
	case 3:
		if q := x * x; x > 0 && q >= minNormal && q <= math.MaxFloat64 {
			if c := x * q; c >= minNormal && c <= math.MaxFloat64 {
				return c
			}
		}
	case -1:
		if r := 1 / x; x > 0 && x <= math.MaxFloat64 && r >= minNormal && r <= math.MaxFloat64 {
			return r
		}
	case -2:
		if q := x * x; x > 0 && q >= minNormal && q <= math.MaxFloat64 {
			if r := 1 / q; r >= minNormal && r <= math.MaxFloat64 {
				return r
			}
		}
	case -3:
		if q := x * x; x > 0 && q >= minNormal && q <= math.MaxFloat64 {
			if c := x * q; c >= minNormal && c <= math.MaxFloat64 {
				if r := 1 / c; r >= minNormal && r <= math.MaxFloat64 {
					return r
				}
			}
		}
	}
	return math.Pow(x, y)
}
