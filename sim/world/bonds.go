package world

import (
	"grainlab/sim/geom"
)

// Bond is a permanent elastic link between the centres of two bodies — the
// simple bonded contact of S2 §3.3: a Hookean spring of stiffness K and rest
// length L0 along the line of centres, with a dashpot of rate Gamma on the
// effective mass. It never breaks.
type Bond struct {
	A, B  int
	K     float64 // N/m
	Gamma float64 // 1/s (damping force m_eff·Γ·(rate of stretch))
	L0    float64 // rest length; set from the initial distance when 0

	// Filled at each evaluation.
	Force   float64 // tension > 0, compression < 0
	Stretch float64 // current length − L0
}

// AddBond links bodies a and b; with l0 = 0 the current distance is the rest length.
func (w *World) AddBond(a, b int, k, gamma, l0 float64) int {
	if l0 == 0 {
		l0 = w.Bodies()[b].X.Sub(w.Bodies()[a].X).Norm()
	}
	w.Bonds = append(w.Bonds, Bond{A: a, B: b, K: k, Gamma: gamma, L0: l0})
	return len(w.Bonds) - 1
}

// accumulateBonds adds the bond forces to the body accumulators (stage 3).
func (w *World) accumulateBonds() {
	for i := range w.Bonds {
		bd := &w.Bonds[i]
		a, b := w.Bodies()[bd.A], w.Bodies()[bd.B]
		d := b.X.Sub(a.X)
		l := d.Norm()
		if l == 0 {
			continue
		}
		n := d.Scale(1 / l)
		meff := 1 / (a.InvMass() + b.InvMass())
		rate := b.V.Sub(a.V).Dot(n)
		bd.Stretch = l - bd.L0
		bd.Force = bd.K*bd.Stretch + meff*bd.Gamma*rate // S2 §3.3: spring + dashpot along the bond
		f := n.Scale(bd.Force)                          // on A, towards B when in tension
		a.F = a.F.Add(f)
		b.F = b.F.Sub(f)
	}
}

// bondEnergy returns the elastic energy stored in the bonds.
func (w *World) bondEnergy() float64 {
	e := 0.0
	for i := range w.Bonds {
		s := w.Bonds[i].Stretch
		e += 0.5 * w.Bonds[i].K * s * s
	}
	return e
}

var _ = geom.Vec3{}
