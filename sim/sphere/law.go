package sphere

import (
	"fmt"
	"math"
)

// Law is a normal spring–dashpot law between spheres: delta is the overlap δ,
// vn the separating normal velocity, meff the effective mass
// (law.EquivalentMass) and reff the effective radius (EffectiveRadius).
type Law interface {
	Force(delta, vn, meff, reff float64) float64 // normal force, > 0 compressive
	Stiffness(delta, reff float64) float64       // elastic tangent dF/dδ
	Potential(delta, reff float64) float64       // elastic energy V(δ)
	Validate() error                             // first invalid field, named
}

// Hooke is the linear spring–dashpot law (the LAMMPS granular pair style
// convention gran/hooke, S2 eq. 20–21): F_n = k_n δ − m_eff γ_n v_n, which
// turns tensile when the dashpot outweighs the spring unless LimitDamping.
// Kt, GammaT and Mu are the tangential parameters (history-based shear,
// not yet used here).
type Hooke struct {
	Kn     float64 // k_n: normal stiffness (N/m)
	GammaN float64 // γ_n: normal damping rate (1/s)
	Kt     float64 // k_t: tangential stiffness (N/m)
	GammaT float64 // γ_t: tangential damping rate (1/s)
	Mu     float64 // μ: Coulomb friction coefficient

	LimitDamping bool // clamp F_n at ≥ 0 (LAMMPS limit_damping; law.Smooth.LimitDamping)
}

// Hertz is the Hertzian spring–dashpot law (the LAMMPS granular pair style
// convention gran/hertz): the Hookean terms times √(δ R_eff), so
// F_n = √(δ R_eff)·(k_n δ − m_eff γ_n v_n), clamped at ≥ 0 when LimitDamping.
type Hertz struct {
	Kn     float64 // k_n: normal stiffness (N/m², scaled by √(δ R_eff))
	GammaN float64 // γ_n: normal damping (1/(s·m), scaled by √(δ R_eff))
	Kt     float64 // k_t: tangential stiffness (N/m², scaled by √(δ R_eff))
	GammaT float64 // γ_t: tangential damping (1/(s·m), scaled by √(δ R_eff))
	Mu     float64 // μ: Coulomb friction coefficient

	LimitDamping bool // clamp F_n at ≥ 0 (LAMMPS limit_damping; law.Smooth.LimitDamping)
}

var (
	_ Law = Hooke{}
	_ Law = Hertz{}
)

// Force returns k_n δ − m_eff γ_n v_n for δ > 0 (S2 eq. 20; with
// LimitDamping at least 0) and 0 otherwise.
func (h Hooke) Force(delta, vn, meff, reff float64) float64 {
	if !(delta > 0) {
		return 0
	}
	f := h.Kn*delta - meff*h.GammaN*vn // S2 eq. (20)
	if h.LimitDamping {
		return math.Max(f, 0) // no tension: limit_damping
	}
	return f
}

// Stiffness returns k_n for δ > 0 and 0 otherwise.
func (h Hooke) Stiffness(delta, reff float64) float64 {
	if !(delta > 0) {
		return 0
	}
	return h.Kn
}

// Potential returns k_n δ²/2 for δ > 0 and 0 otherwise (S2 eq. 27).
func (h Hooke) Potential(delta, reff float64) float64 {
	if !(delta > 0) {
		return 0
	}
	return 0.5 * h.Kn * delta * delta // S2 eq. (27)
}

// Validate reports the first invalid field: Kn must be finite and > 0, the
// others finite and ≥ 0.
func (h Hooke) Validate() error {
	return validate("Hooke", h.Kn, h.GammaN, h.Kt, h.GammaT, h.Mu)
}

// Oscillator returns the linear damped oscillator of a Hookean contact with
// effective mass meff (S2 eq. 32–34).
func (h Hooke) Oscillator(meff float64) Oscillator {
	return Oscillator{Omega0: math.Sqrt(h.Kn / meff), Gamma: h.GammaN}
}

// Force returns √(δ R_eff)(k_n δ − m_eff γ_n v_n) for δ > 0 (LAMMPS
// gran/hertz; with LimitDamping at least 0) and 0 otherwise.
func (h Hertz) Force(delta, vn, meff, reff float64) float64 {
	if !(delta > 0) {
		return 0
	}
	f := math.Sqrt(delta*reff) * (h.Kn*delta - meff*h.GammaN*vn) // LAMMPS gran/hertz
	if h.LimitDamping {
		return math.Max(f, 0) // no tension: limit_damping
	}
	return f
}

// Stiffness returns dF/dδ = (3/2) k_n √(δ R_eff) of the elastic part for δ > 0, else 0.
func (h Hertz) Stiffness(delta, reff float64) float64 {
	if !(delta > 0) {
		return 0
	}
	return 1.5 * h.Kn * math.Sqrt(delta*reff)
}

// Potential returns (2/5) k_n √R_eff δ^{5/2} for δ > 0 and 0 otherwise (S2 §2.2, below eq. 27).
func (h Hertz) Potential(delta, reff float64) float64 {
	if !(delta > 0) {
		return 0
	}
	return 0.4 * h.Kn * math.Sqrt(reff) * delta * delta * math.Sqrt(delta) // S2 V ∝ 2/5 δ^{5/2}
}

// Validate reports the first invalid field: Kn must be finite and > 0, the
// others finite and ≥ 0.
func (h Hertz) Validate() error {
	return validate("Hertz", h.Kn, h.GammaN, h.Kt, h.GammaT, h.Mu)
}

// validate checks the five parameters shared by Hooke and Hertz.
func validate(typ string, kn, gn, kt, gt, mu float64) error {
	for _, p := range [...]struct {
		name string
		v    float64
	}{{"Kn", kn}, {"GammaN", gn}, {"Kt", kt}, {"GammaT", gt}, {"Mu", mu}} {
		if math.IsNaN(p.v) || math.IsInf(p.v, 0) {
			return fmt.Errorf("sphere: %s.%s must be finite (got %g)", typ, p.name, p.v)
		}
		if p.v < 0 {
			return fmt.Errorf("sphere: %s.%s must be >= 0 (got %g)", typ, p.name, p.v)
		}
	}
	if kn == 0 {
		return fmt.Errorf("sphere: %s.Kn must be > 0 (got 0)", typ)
	}
	return nil
}
