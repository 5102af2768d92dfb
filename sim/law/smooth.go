package law

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// SmoothModel selects the spring–dashpot law of contacts between smooth
// bodies (spheres, superquadrics) and between a smooth body and anything.
type SmoothModel uint8

// The smooth contact models.
const (
	// HookeLAMMPS is gran/hooke: F_n = k_n δ − m_eff γ_n v_n, F_t spring k_t
	// with dashpot m_eff γ_t (S2 eq. 20–21). Kn, GammaN, Kt, GammaT are used.
	HookeLAMMPS SmoothModel = iota
	// HertzLAMMPS is gran/hertz: the Hookean terms times √(δ R_eff).
	HertzLAMMPS
	// HertzMaterial is the Hertz–Mindlin spring–dashpot from Young's modulus,
	// Poisson's ratio and the coefficient of restitution, as LIGGGHTS'
	// hertz/history (the law S1 §2.5 uses with R_eff from eq. 38–40).
	HertzMaterial
)

// String returns the scene-file name of the model.
func (m SmoothModel) String() string {
	switch m {
	case HertzLAMMPS:
		return "hertz"
	case HertzMaterial:
		return "hertz-material"
	}
	return "hooke"
}

// ParseSmoothModel returns the model of a scene-file name.
func ParseSmoothModel(s string) (SmoothModel, error) {
	switch s {
	case "hooke":
		return HookeLAMMPS, nil
	case "hertz":
		return HertzLAMMPS, nil
	case "hertz-material":
		return HertzMaterial, nil
	}
	return 0, fmt.Errorf("unknown smooth contact model %q (want hooke, hertz or hertz-material)", s)
}

// Smooth holds the parameters of the smooth contact law of one material pair,
// the one home of the spring–dashpot law of spheres and superquadrics (the
// world's generic smooth stage and the sphere path's kernels both call it or
// are pinned to it by tests). Overlap δ = −g_n ≥ 0, normal velocity v_n =
// ġ_n = (v_A − v_B)·n (> 0 separating: the gap convention g = P_A − P_B with n
// from B to A, docs/ARCHITECTURE.md), effective mass m_eff and effective
// radius R_eff define the normal force; the tangential force is a
// spring on the accumulated tangential displacement with a dashpot, capped by
// Coulomb's μ |F_n| (history, as LAMMPS/LIGGGHTS "history").
//
// The normal force is the spring–dashpot sum as written (S2 eq. 20 and 32,
// LAMMPS gran/hooke and gran/hertz, LIGGGHTS hertz/history without
// limitForce): while the bodies separate, the dashpot may outweigh the
// spring and the force turn tensile before the overlap closes. LimitDamping
// clamps it at ≥ 0 (LAMMPS' limit_damping keyword), for every model.
type Smooth struct {
	Model SmoothModel

	// HookeLAMMPS / HertzLAMMPS.
	Kn, GammaN, Kt, GammaT float64

	// HertzMaterial: Young's modulus (Pa), Poisson's ratio, restitution in (0, 1].
	E, Nu, Restitution float64

	Mu     float64 // Coulomb coefficient
	MuRoll float64 // rolling resistance coefficient (0: off); torque ≤ μ_r R_eff |F_n|

	// LimitDamping clamps the normal force at ≥ 0 (no tension; LAMMPS pair
	// gran keyword limit_damping). Off: the law as S2 eq. 20 writes it.
	LimitDamping bool

	// Curvature radius of non-spherical bodies (S1 §2.5, eq. 38–40): "mean",
	// "gaussian" or "volume"; CapQ is the limiting coefficient q (S1 uses 10).
	Radius string
	CapQ   float64

	beta float64 // ln e / √(ln² e + π²), from Restitution
}

// Validate checks every field (naming it) and prepares derived constants.
func (s *Smooth) Validate() error {
	all := Set{Smooth: *s}
	for i := range Params {
		p := &Params[i]
		if p.Class != ClassSmooth || p.Field == nil {
			continue
		}
		if v := *p.Field(&all); math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("smooth.%s must be a finite number ≥ 0 (got %g)", p.Name, v)
		}
	}
	switch s.Model {
	case HookeLAMMPS, HertzLAMMPS:
		if !(s.Kn > 0) {
			return fmt.Errorf("smooth.kn must be > 0 for the %s model (got %g)", s.Model, s.Kn)
		}
	case HertzMaterial:
		if !(s.E > 0) {
			return fmt.Errorf("smooth.youngs_modulus (E) must be > 0 for the hertz-material model (got %g)", s.E)
		}
		if !(s.Nu < 0.5) {
			return fmt.Errorf("smooth.poisson_ratio (nu) must be < 0.5 (got %g)", s.Nu)
		}
		if !(s.Restitution > 0 && s.Restitution <= 1) {
			return fmt.Errorf("smooth.restitution must be in (0, 1] (got %g)", s.Restitution)
		}
	default:
		return fmt.Errorf("smooth.model: unknown model %d", s.Model)
	}
	switch s.Radius {
	case "", "mean", "gaussian", "volume":
	default:
		return fmt.Errorf("smooth.radius must be mean, gaussian or volume (got %q)", s.Radius)
	}
	if s.CapQ == 0 {
		s.CapQ = 10
	}
	if s.Model == HertzMaterial {
		l := math.Log(s.Restitution)
		s.beta = l / math.Sqrt(l*l+math.Pi*math.Pi)
	}
	return nil
}

// SmoothForce is the result of the smooth normal law at one instant.
type SmoothForce struct {
	Fn     float64 // total normal force (elastic + damping), > 0 compressive; ≥ 0 with LimitDamping
	Kt, Ct float64 // tangential spring stiffness (N/m) and dashpot coefficient (N·s/m) at this overlap
	K      float64 // elastic normal tangent dF/dδ (for Δt and implicit tangents)
	Epot   float64 // elastic energy stored in the normal spring
}

// Normal evaluates the normal law at overlap delta = −g_n (> 0 in contact;
// zero force otherwise) with normal velocity vn = ġ_n = (v_A − v_B)·n (> 0
// separating, the gap convention), effective mass meff and effective radius
// reff. Hooke: F_n = k_n δ − m_eff γ_n v_n (S2 eq. 20); the dashpot resists
// closing (v_n < 0) and, as written, pulls while separating.
func (s *Smooth) Normal(delta, vn, meff, reff float64) SmoothForce {
	if !(delta > 0) {
		return SmoothForce{}
	}
	var r SmoothForce
	switch s.Model {
	case HookeLAMMPS:
		r.Fn = s.Kn*delta - meff*s.GammaN*vn     // S2 eq. (20)
		r.K, r.Epot = s.Kn, 0.5*s.Kn*delta*delta // S2 eq. (27)
		r.Kt, r.Ct = s.Kt, meff*s.GammaT
	case HertzLAMMPS:
		sq := math.Sqrt(delta * reff)
		r.Fn = sq * (s.Kn*delta - meff*s.GammaN*vn) // LAMMPS gran/hertz
		r.K, r.Epot = 1.5*s.Kn*sq, 0.4*s.Kn*sq*delta*delta
		r.Kt, r.Ct = s.Kt*sq, meff*s.GammaT*sq
	case HertzMaterial:
		ystar := s.E / (2 * (1 - s.Nu*s.Nu))                        // Y* of two equal materials
		gstar := s.E / (4 * (2 - s.Nu) * (1 + s.Nu))                // G* of two equal materials
		sq := math.Sqrt(reff * delta)                               // √(R* δ)
		sn, st := 2*ystar*sq, 8*gstar*sq                            // S_n, S_t
		kn := 4.0 / 3.0 * ystar * sq                                // k_n = 4/3 Y* √(R* δ)
		gn := -2 * math.Sqrt(5.0/6.0) * s.beta * math.Sqrt(sn*meff) // γ_n
		r.Fn = kn*delta - gn*vn                                     // LIGGGHTS hertz/history (γ_n ≥ 0: β ≤ 0)
		r.K, r.Epot = sn, 8.0/15.0*ystar*sq*delta*delta
		r.Kt, r.Ct = st, -2*math.Sqrt(5.0/6.0)*s.beta*math.Sqrt(st*meff)
	}
	if s.LimitDamping && r.Fn < 0 {
		r.Fn = 0 // no tension: LAMMPS limit_damping
	}
	return r
}

// Stiffness returns, in closed form, what Normal's K and Kt give and the
// normal dashpot coefficient c = −dF_n/dv_n ≥ 0 (N·s/m) at overlap delta > 0 with
// effective mass meff and radius reff: the tangents of the spring–dashpot
// for the explicit stability bound (no force evaluation).
func (s *Smooth) Stiffness(delta, meff, reff float64) (k, c, kt float64) {
	switch s.Model {
	case HookeLAMMPS:
		return s.Kn, meff * s.GammaN, s.Kt // S2 eq. (20)
	case HertzLAMMPS:
		sq := math.Sqrt(delta * reff)
		return 1.5 * s.Kn * sq, sq * meff * s.GammaN, s.Kt * sq // LAMMPS gran/hertz
	case HertzMaterial:
		ystar := s.E / (2 * (1 - s.Nu*s.Nu))                        // Y* of two equal materials
		gstar := s.E / (4 * (2 - s.Nu) * (1 + s.Nu))                // G* of two equal materials
		sq := math.Sqrt(reff * delta)                               // √(R* δ)
		sn := 2 * ystar * sq                                        // S_n = dF_n/dδ
		gn := -2 * math.Sqrt(5.0/6.0) * s.beta * math.Sqrt(sn*meff) // γ_n
		return sn, max(0, gn), 8 * gstar * sq
	}
	return 0, 0, 0
}

// RollingTorque is the rolling resistance on A of a contact with normal n:
// a torque of magnitude m = μ_r R_eff F_n against the relative rolling
// velocity (ω_A − ω_B projected on the tangent plane), made viscous below
// OmegaRollReg so that a body at rest does not chatter (constant directional
// torque model with regularisation).
func RollingTorque(wrel, n geom.Vec3, m float64) geom.Vec3 {
	roll := wrel.Sub(n.Scale(wrel.Dot(n)))
	r := roll.Norm()
	if r == 0 || m == 0 {
		return geom.Vec3{}
	}
	return roll.Scale(-m / max(r, OmegaRollReg))
}

// OmegaRollReg (rad/s) is the rolling speed below which rolling resistance is viscous.
const OmegaRollReg = 1e-2
