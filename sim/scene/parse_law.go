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
	l.Set = law.DefaultSet()
	return l
}

// lawKeys are the keys of a contact law block, in documentation order
// (law.Params).
var lawKeys = law.Names(nil)

// choices are the text fields of l for law.Params' Choice parameters, in
// table order (law, model, curvature).
func (l *Law) choices() []*string { return []*string{&l.Law, &l.Model, &l.Curvature} }

// readLaw reads the law keys present in o into l and checks them against
// law.Params' ranges: the choices, then the flags, then the numbers.
func (d *decoder) readLaw(o *object, l *Law) map[string]bool {
	given := map[string]bool{}
	ch := l.choices()
	s := &l.Set
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
				given[p.Name] = o.boolean(p.Name, p.Flag(s)) || given[p.Name]
			case law.Number:
				if o.num(p.Name, p.Field(s)) {
					given[p.Name] = true
					if err := p.Check(*p.Field(s)); err != nil {
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
	return given
}
