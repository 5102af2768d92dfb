package law

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// FrictionState is the history of one contact carried from step to step.
type FrictionState struct {
	Gt      geom.Vec3 // accumulated recoverable tangential gap g_t (S0 eq. 44, 58)
	Sliding bool      // true when the last Update ended in sliding
	N       geom.Vec3 // unit normal of the last Update (zero for a new contact)
}

// Friction holds the Coulomb parameters of S0 §2.4.9: static and dynamic
// coefficients, tangential penalty stiffness ε_t and viscous coefficient c_t.
type Friction struct {
	MuS  float64 // μ_s: static coefficient, used while sticking
	MuD  float64 // μ_d ≤ μ_s: dynamic coefficient, used while sliding
	EpsT float64 // ε_t: tangential penalty stiffness (N/m), S0 eq. (54)
	CT   float64 // c_t: tangential viscous coefficient (N·s/m), S0 eq. (54)
}

// Validate reports the first invalid parameter, naming the field.
func (f Friction) Validate() error {
	s := Set{Friction: f}
	for i := range Params { // S0 eq. (54)–(57): every coefficient finite and ≥ 0
		p := &Params[i]
		if p.Class != ClassFriction || p.Field == nil {
			continue
		}
		v := *p.Field(&s)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("law: %s must be finite (got %g)", p.Name, v)
		}
		if v < 0 {
			return fmt.Errorf("law: %s must be >= 0 (got %g)", p.Name, v)
		}
	}
	if f.MuD > f.MuS {
		return fmt.Errorf("law: mu_d must be <= mu_s (got mu_d=%g, mu_s=%g)", f.MuD, f.MuS)
	}
	return nil
}

// Update advances the friction state by one step and returns the friction
// force acting on body A (body B receives the opposite); it opposes the
// sliding of A relative to B.
//
// n is the current unit normal (from B to A), dgt the relative displacement
// increment of A with respect to B at the contact this step (S0 eq. 43: the
// gap of the previous material points at the new configuration), gtDot the
// relative velocity of A with respect to B at the contact; both are
// projected onto the tangent plane here. fn ≥ 0 is the total normal force
// magnitude (negative values count as 0).
//
// Steps: rotate the stored g_t by the minimal rotation taking the previous
// normal to n and re-project (Q_c^Δ of S0 eq. 44); add the increment (eq.
// 43–44); trial force f_tr = ε_t g_t + c_t ġ_t (eq. 54–55); Coulomb test with
// μ_s when sticking and μ_d when sliding; sliding force μ_d f_n t (eq. 56);
// recoverable update of g_t when |ε_t g_t| > μ f_n (eq. 57–58). The S0 force
// f_t is the one conjugate to δg_t in the weak form (eq. 45); the force on A
// is −f_t, which is what this method returns.
func (f Friction) Update(st *FrictionState, n, dgt, gtDot geom.Vec3, fn float64) geom.Vec3 {
	return f.UpdateStick(st, n, dgt, gtDot, fn, fn)
}

// UpdateStick is Update with the static excess of the Coulomb test at the
// normal force fnStick: a sticking contact starts to slide when
// |f_tr| > μ_d·fn + (μ_s − μ_d)·fnStick (S0 §2.4.9 with fnStick = fn), and
// keeps its elastic limit there; the sliding force is μ_d·fn (S0 eq. 56) and
// a sliding contact's test is against μ_d·fn, as in Update. The force drop
// at the switch is then (μ_s − μ_d)·fnStick whatever fn is. An implicit
// integrator passes the normal force at the start of the step
// (World.SetStickLag): with the end-of-step fn the drop (μ_s − μ_d)·f_n
// follows the end-of-step velocities through the normal dashpot (S0 eq. 52),
// which can leave a step with neither a sticking nor a sliding end state.
// With μ_s = μ_d it is Update. A negative or NaN fnStick counts as 0.
func (f Friction) UpdateStick(st *FrictionState, n, dgt, gtDot geom.Vec3, fn, fnStick float64) geom.Vec3 {
	gt := st.Gt
	if st.N != (geom.Vec3{}) {
		gt = minimalRotation(st.N, n, gt) // Q_c^Δ g_t^i, S0 eq. (44)
	}
	gt = tangential(n, gt)
	gt = gt.Add(tangential(n, dgt)) // g_t^{i+1} = g_t^Δ + Q_c^Δ g_t^i, S0 eq. (43)–(44)

	if fn < 0 || math.IsNaN(fn) {
		fn = 0
	}
	if fnStick < 0 || math.IsNaN(fnStick) {
		fnStick = 0
	}
	fe := gt.Scale(f.EpsT)                          // S0 eq. (54)
	ftr := fe.Add(tangential(n, gtDot).Scale(f.CT)) // S0 eq. (54)–(55)

	limD := coulomb(f.MuD, fn)
	limS := limD + coulomb(f.MuS-f.MuD, fnStick) // μ_s·fn when fnStick = fn
	lim := limS
	if st.Sliding {
		lim = limD
	}
	var ft geom.Vec3
	if m := ftr.Norm(); m <= lim { // Coulomb test, S0 §2.4.9
		st.Sliding = false
		ft = ftr
	} else {
		st.Sliding = true
		ft = ftr.Scale(limD / m) // μ_d f_n t, S0 eq. (56)
	}

	lim = limS
	if st.Sliding {
		lim = limD
	}
	if me := fe.Norm(); me > lim {
		// (μ_d f_n/ε_t) f_e/|f_e|, S0 eq. (57)–(58): μ_d·f_n ≤ lim, so the
		// recoverable gap only shrinks (a growth would store ½ε_t|g_t|² from
		// nothing).
		gt = fe.Scale(limD / (f.EpsT * me))
	}
	st.Gt = gt
	st.N = n
	return ft.Neg()
}

// Potential returns the recoverable elastic energy ½ ε_t |g_t|² of the tangential spring.
func (f Friction) Potential(st *FrictionState) float64 { return 0.5 * f.EpsT * st.Gt.Norm2() }

// coulomb returns the Coulomb limit μ·f_n, with 0 for μ = 0 even when f_n = +Inf.
func coulomb(mu, fn float64) float64 {
	if mu == 0 {
		return 0
	}
	return mu * fn
}

// tangential returns (I − n⊗n) v for the unit normal n.
func tangential(n, v geom.Vec3) geom.Vec3 { return v.AddScaled(-n.Dot(v), n) }

// minimalRotation applies to v the rotation of least angle taking the unit
// vector a to the unit vector b, R v = (a·b) v + w×v + (w·v) w/(1 + a·b),
// w = a×b. For antiparallel a, b (a penetration flip) it is the half-turn
// about a fixed vector perpendicular to a.
func minimalRotation(a, b, v geom.Vec3) geom.Vec3 {
	c := a.Dot(b)
	if c > -1+1e-9 {
		w := a.Cross(b)
		return v.Scale(c).Add(w.Cross(v)).AddScaled(w.Dot(v)/(1+c), w)
	}
	k := a.AnyPerp()
	return v.Neg().AddScaled(2*k.Dot(v), k)
}
