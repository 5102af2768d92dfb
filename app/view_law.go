package app

import (
	"fmt"
	"math"

	"grainlab/sim/law"
	"grainlab/sim/world"
	"grainlab/ui"
)

// LawKinds are the normal-law names the panel offers.
var LawKinds = []string{law.Barrier.String(), law.Linear.String(), law.Hertz.String()}

func lawKind(name string) (law.Kind, error) {
	for _, k := range []law.Kind{law.Barrier, law.Linear, law.Hertz} {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown law %q (barrier, linear, hertz)", name)
}

// PanelLaw converts world contact parameters to the panel's form (with the
// derived ε2, c2).
func PanelLaw(p world.ContactParams) ui.LawParams {
	n := p.Normal
	return ui.LawParams{
		Kind: n.Kind.String(), GBar: n.GBar, Eps1: n.Eps1, N1: n.N1, F: n.F, N2: n.N2,
		Eps2: n.Eps2(), C2: n.C2(), Zeta: p.Zeta,
		MuS: p.Friction.MuS, MuD: p.Friction.MuD, EpsT: p.Friction.EpsT, CT: p.Friction.CT,
	}
}

// WorldLaw converts the panel's law into validated, prepared world
// contact parameters; the error says which value is wrong and why.
func WorldLaw(l ui.LawParams) (world.ContactParams, error) {
	k, err := lawKind(l.Kind)
	if err != nil {
		return world.ContactParams{}, err
	}
	p := world.ContactParams{
		Normal:   law.Normal{Kind: k, GBar: l.GBar, Eps1: l.Eps1, N1: l.N1, F: l.F, N2: l.N2},
		Friction: law.Friction{MuS: l.MuS, MuD: l.MuD, EpsT: l.EpsT, CT: l.CT},
		Zeta:     l.Zeta,
	}
	if err := p.Validate(); err != nil {
		return p, err
	}
	return p, nil
}

// ValidateLaw is the panel's validator: the simulation's own rules
// (world.ContactParams.Validate, law.Normal.Validate and Prepare).
func ValidateLaw(l ui.LawParams) error {
	_, err := WorldLaw(l)
	return err
}

// DeriveLaw fills ε2 and c2 (S0 eq. 51) of a candidate law.
func DeriveLaw(l ui.LawParams) (ui.LawParams, error) {
	p, err := WorldLaw(l)
	if err != nil {
		return l, err
	}
	return PanelLaw(p), nil
}

// LawCurvePoints is how many gaps LawCurve samples.
const LawCurvePoints = 96

// LawCurve samples the normal force f_n(g) and the critical step
// Δt_c(g) = 2√(m_c/k_c) (S0 §2.4.7, Fig. 10–11) for gaps in (0, ḡ), with m_c
// the equivalent mass of two bodies of mass mass (m/2).
func LawCurve(mass float64) func(ui.LawParams) (g, fn, dtc []float32, err error) {
	mc := mass / 2
	if !(mc > 0) || math.IsInf(mc, 0) {
		mc = 1
	}
	return func(l ui.LawParams) (g, fn, dtc []float32, err error) {
		p, err := WorldLaw(l)
		if err != nil {
			return nil, nil, nil, err
		}
		n := p.Normal
		for i := 0; i < LawCurvePoints; i++ {
			x := n.GBar * (float64(i) + 0.5) / LawCurvePoints
			g = append(g, float32(x))
			fn = append(fn, float32(n.Force(x)))
			dtc = append(dtc, float32(n.CriticalDt(x, mc)))
		}
		return g, fn, dtc, nil
	}
}
