package window

import (
	"fmt"
	"math"

	"grainlab/sim/body"
	"grainlab/sim/law"
	"grainlab/sim/sq"
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

// PanelLaw converts world contact parameters to the panel's form: the
// polyhedral parts of their law.Set, with the derived ε2, c2.
func PanelLaw(p world.ContactParams) ui.LawParams {
	s := p.LawSet()
	poly := law.Pick(&s, func(q *law.Param) bool { return q.Class != law.ClassSmooth })
	return ui.LawParams{Kind: p.Normal.Kind.String(), Set: poly, Eps2: p.Normal.Eps2(), C2: p.Normal.C2()}
}

// WorldLaw converts the panel's law into validated, prepared world
// contact parameters; the error says which value is wrong and why.
func WorldLaw(l ui.LawParams) (world.ContactParams, error) {
	k, err := lawKind(l.Kind)
	if err != nil {
		return world.ContactParams{}, err
	}
	p := world.ContactParams{HasPoly: true} // the panel's law is the polyhedral one, also when all zero
	p.SetLawSet(l.Set)
	p.Normal.Kind, p.Smooth = k, law.Smooth{}
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

// PanelShapes converts the world's smooth shapes per material to the
// panel's form.
func PanelShapes(ms []world.MaterialShape) []ui.Material {
	out := make([]ui.Material, 0, len(ms))
	for _, m := range ms {
		kind := "superquadric"
		if m.Kind == body.Sphere {
			kind = "sphere"
		}
		s := m.Shape
		out = append(out, ui.Material{Index: m.Material, Name: m.Name, Kind: kind, Count: m.Count,
			A: s.A, B: s.B, C: s.C, N1: s.N1, N2: s.N2, Varied: m.Varied})
	}
	return out
}

// ShapeOf returns the superquadric of a panel material (S1 eq. 1).
func ShapeOf(m ui.Material) sq.Shape { return sq.Shape{A: m.A, B: m.B, C: m.C, N1: m.N1, N2: m.N2} }

// ValidateShape is the panel's shape validator: the simulation's own rules
// (sq.Shape.Validate).
func ValidateShape(m ui.Material) error { return ShapeOf(m).Validate() }

// PanelSmooth converts the smooth law of world contact parameters to the
// panel's form.
func PanelSmooth(p world.ContactParams) ui.SmoothLaw {
	s := p.LawSet()
	return ui.SmoothLaw{Model: p.Smooth.Model.String(), Set: law.Pick(&s, func(q *law.Param) bool { return q.Class == law.ClassSmooth })}
}

// ValidateSmooth returns the panel's validator of smooth-law candidates on
// top of base (the current parameters): the keys are applied as
// world.SetParam would and checked with world.ContactParams.Validate.
func ValidateSmooth(base world.ContactParams) func(ui.SmoothLaw) error {
	return func(l ui.SmoothLaw) error {
		p := base
		for _, e := range ui.SmoothEdits(l) {
			if err := world.SetField(&p, e.Key, e.Value); err != nil {
				return err
			}
		}
		return p.Validate()
	}
}
