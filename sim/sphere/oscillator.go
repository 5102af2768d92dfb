package sphere

import (
	"math"

	"grainlab/sim/law"
)

// Oscillator is the linear damped oscillator m_eff δ̈ = −k_n δ − m_eff γ δ̇ of
// a Hookean impact (S2 eq. 32). In S2's notation t_γ = 1/ω_d and S2's decay
// rate γ/m is γ/2 here.
type Oscillator struct {
	Omega0 float64 // ω0 = √(k_n/m_eff): undamped angular frequency (1/s)
	Gamma  float64 // γ = γ_n: damping rate, amplitudes decay as e^{−γt/2} (1/s)
}

// HookeOscillator returns the linear damped oscillator of a Hookean contact
// (law.HookeLAMMPS: k_n = p.Kn, γ = p.GammaN) with effective mass meff (S2
// eq. 32–34); the other models are not linear and have none.
func HookeOscillator(p *law.Smooth, meff float64) Oscillator {
	return Oscillator{Omega0: math.Sqrt(p.Kn / meff), Gamma: p.GammaN} // S2 eq. (32)
}

// Zeta returns the damping ratio ζ = γ/(2ω0).
func (o Oscillator) Zeta() float64 { return o.Gamma / (2 * o.Omega0) }

// OmegaD returns ω_d = √(ω0² − (γ/2)²) = 1/t_γ (S2 eq. 33), or 0 unless underdamped.
func (o Oscillator) OmegaD() float64 {
	w2 := o.Omega0*o.Omega0 - 0.25*o.Gamma*o.Gamma
	if !(w2 > 0) {
		return 0
	}
	return math.Sqrt(w2)
}

// ContactTime returns t_c = π/ω_d, when the linear oscillator's δ returns to
// zero (S2 §3.1: t_C = π√(m/2k) for γ = 0); +Inf unless underdamped.
func (o Oscillator) ContactTime() float64 {
	wd := o.OmegaD()
	if wd == 0 {
		return math.Inf(1)
	}
	return math.Pi / wd // S2 §3.1, x(t) = d/2 in eq. (33)
}

// Restitution returns e = exp(−γ t_c/2) = exp(−πζ/√(1−ζ²)), the separating
// over the approach speed of the linear (tension-allowing) oscillator at
// δ = 0 (S2 eq. 34 at t = t_c); 0 unless underdamped.
func (o Oscillator) Restitution() float64 {
	return math.Exp(-0.5 * o.Gamma * o.ContactTime()) // S2 eq. (34) at t_c
}

// clampPhase returns θ* = ω_d t*, where the oscillator's force k δ + m_eff γ δ̇
// first vanishes: tan θ* = γω_d/(γ²/2 − ω0²).
func (o Oscillator) clampPhase() float64 {
	wd := o.OmegaD()
	return math.Atan2(o.Gamma*wd, 0.5*o.Gamma*o.Gamma-o.Omega0*o.Omega0)
}

// ClampedContactTime returns t* ≤ t_c, when the clamped (no-tension) force
// first vanishes and the bodies separate; NaN unless underdamped.
func (o Oscillator) ClampedContactTime() float64 {
	wd := o.OmegaD()
	if wd == 0 {
		return math.NaN()
	}
	return o.clampPhase() / wd
}

// ClampedRestitution returns the restitution of the clamped law, the
// separating speed at t* over the approach speed; ≥ Restitution, equal for
// γ = 0. NaN unless underdamped.
func (o Oscillator) ClampedRestitution() float64 {
	t := o.ClampedContactTime()
	_, vn := o.State(1, t)
	return vn
}

// State returns the overlap δ and separating velocity v_n = −δ̇ at time t
// after first touch with approach speed v0 > 0 (S2 eq. 33–34, with S2's
// γ²/m in eq. 34 read as γ t_γ/m for dimensional consistency); for t < 0 the
// free approach δ = v0 t. Underdamped only (ω_d > 0); the linear oscillator,
// so beyond t* (clamped) or t_c the caller must switch to free flight.
func (o Oscillator) State(v0, t float64) (delta, vn float64) {
	if t < 0 {
		return v0 * t, -v0
	}
	wd := o.OmegaD()
	decay := math.Exp(-0.5 * o.Gamma * t)
	s, c := math.Sincos(wd * t)
	delta = v0 / wd * decay * s              // S2 eq. (33)
	vn = v0 * decay * (0.5*o.Gamma/wd*s - c) // S2 eq. (34)
	return delta, vn
}
