package sphere

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// ContactForce is the result of a smooth law at one contact.
type ContactForce struct {
	Fn    float64   // normal force, > 0 compressive (< 0: the dashpot pulls; law.Smooth.LimitDamping)
	Ft, M geom.Vec3 // tangential force and rolling moment on A
	Epot  float64   // energy stored in the normal and tangential springs
}

// EvalSmooth evaluates law p at a contact of sphere A (centre xa, radius ra)
// with body B (centre xb, radius rb, +Inf for a wall): unit normal n from B
// to A, contact point pt, overlap delta, velocities and angular velocities
// of both, equivalent mass meff; dt is the time since the last accepted
// evaluation and h the friction history, updated in place. Normal force on
// the overlap (S2 eq. 20 or Hertz), tangential spring with dashpot and
// Coulomb cap μ|F_n| when μ > 0 (|F_n| as LAMMPS gran/*/history), rolling
// resistance μ_r R_eff |F_n| when μ_r > 0.
func EvalSmooth(p *law.Smooth, n, pt, xa, xb, va, vb, wa, wb geom.Vec3, delta, meff, ra, rb, dt float64, h *law.FrictionState) ContactForce {
	vrel := va.Add(wa.Cross(pt.Sub(xa))).Sub(vb.Add(wb.Cross(pt.Sub(xb))))
	vn := vrel.Dot(n) // > 0 separating
	reff := 0.0       // the Hookean law does not use it
	if p.Model != law.HookeLAMMPS || p.MuRoll > 0 {
		reff = law.Reduced(ra, rb) // S1 eq. (38) for spheres
	}
	nf := p.Normal(delta, vn, meff, reff)
	c := ContactForce{Fn: nf.Fn, Epot: nf.Epot}
	if p.Mu > 0 { // frictionless (S2 §3): no tangential history at all
		vt := vrel.Sub(n.Scale(vn))
		fr := law.Friction{MuS: p.Mu, MuD: p.Mu, EpsT: nf.Kt, CT: nf.Ct}
		c.Ft = fr.Update(h, n, vt.Scale(dt), vt, math.Abs(c.Fn))
		c.Epot += fr.Potential(h)
	}
	if p.MuRoll > 0 {
		c.M = law.RollingTorque(wa.Sub(wb), n, p.MuRoll*reff*math.Abs(c.Fn))
	}
	return c
}
