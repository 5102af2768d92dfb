package scene

import "grainlab/sim/law"

// The keys a default block must give: ḡ and ε1 (the barrier law), or the
// smooth law's model (its first choice parameter).
var (
	keyGbar  = law.NameOf(func(s *law.Set) *float64 { return &s.Normal.GBar })
	keyEps1  = law.NameOf(func(s *law.Set) *float64 { return &s.Normal.Eps1 })
	keyModel = law.Names(func(p *law.Param) bool { return p.Class == law.ClassSmooth && p.Kind == law.Choice })[0]
)

// defaultLaw is a default block's law before its keys are read: the
// barrier law and law.DefaultSet's numbers.
func defaultLaw() Law {
	l := Law{Path: "contact.default", Law: "barrier"}
	l.putLawSet(law.DefaultSet())
	return l
}

// lawKeys are the keys of a contact law block, in documentation order
// (law.Params).
var lawKeys = law.Names(nil)

// lawSet returns l's numbers and flags as the law.Set that law.Params'
// accessors read (Kind, Model and Radius stay zero: l keeps them as text).
func (l *Law) lawSet() law.Set {
	return law.Set{
		Normal:   law.Normal{GBar: l.Gbar, Eps1: l.Eps1, N1: l.N1, F: l.F, N2: l.N2},
		Friction: law.Friction{MuS: l.MuS, MuD: l.MuD, EpsT: l.EpsT, CT: l.CT},
		Zeta:     l.Zeta, DampBand: l.DampBand,
		Smooth: law.Smooth{Kn: l.Kn, GammaN: l.GammaN, Kt: l.Kt, GammaT: l.GammaT, E: l.E, Nu: l.Nu,
			Restitution: l.Restitution, Mu: l.Mu, MuRoll: l.MuRoll, CapQ: l.CapQ, LimitDamping: l.LimitDamping},
	}
}

// putLawSet writes the numbers and flags of s into l.
func (l *Law) putLawSet(s law.Set) {
	l.Gbar, l.Eps1, l.N1, l.F, l.N2 = s.Normal.GBar, s.Normal.Eps1, s.Normal.N1, s.Normal.F, s.Normal.N2
	l.MuS, l.MuD, l.EpsT, l.CT = s.Friction.MuS, s.Friction.MuD, s.Friction.EpsT, s.Friction.CT
	l.Zeta, l.DampBand = s.Zeta, s.DampBand
	m := s.Smooth
	l.Kn, l.GammaN, l.Kt, l.GammaT, l.E, l.Nu = m.Kn, m.GammaN, m.Kt, m.GammaT, m.E, m.Nu
	l.Restitution, l.Mu, l.MuRoll, l.CapQ, l.LimitDamping = m.Restitution, m.Mu, m.MuRoll, m.CapQ, m.LimitDamping
}

// choices are the text fields of l for law.Params' Choice parameters, in
// table order (law, model, curvature).
func (l *Law) choices() []*string { return []*string{&l.Law, &l.Model, &l.Curvature} }

// readLaw reads the law keys present in o into l and checks them against
// law.Params' ranges: the choices, then the flags, then the numbers.
func (d *decoder) readLaw(o *object, l *Law) map[string]bool {
	given := map[string]bool{}
	ch := l.choices()
	s := l.lawSet()
	for _, kind := range []law.ValueKind{law.Choice, law.Flag, law.Number} {
		for i := range law.Params {
			p := &law.Params[i]
			if p.Kind != kind {
				continue
			}
			switch kind {
			case law.Choice:
				given[p.Name] = o.enum(p.Name, ch[0], p.Choices...) || given[p.Name]
				ch = ch[1:]
			case law.Flag:
				given[p.Name] = o.boolean(p.Name, p.Flag(&s)) || given[p.Name]
			case law.Number:
				if o.num(p.Name, p.Field(&s)) {
					given[p.Name] = true
					if err := p.Check(*p.Field(&s)); err != nil {
						o.check(p.Name, false, err.Error())
					}
				}
			}
		}
	}
	for k, v := range given {
		if !v {
			delete(given, k)
		}
	}
	l.putLawSet(s)
	return given
}
