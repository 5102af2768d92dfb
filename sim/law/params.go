package law

//go:generate go test -run TestDocTable -update

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Set is every contact-law parameter of one material pair: the struct the
// accessors of Params read and write (world.ContactParams holds the same
// parts).
type Set struct {
	Normal   Normal   // S0 eq. (49)–(51)
	Friction Friction // S0 eq. (54)–(57)
	Zeta     float64  // damping ratio ζ, S0 eq. (52)
	DampBand float64  // outer fraction of the skin over which the dashpot switches on (DampingRamp)
	Smooth   Smooth   // spring–dashpot of spheres and superquadrics (S1, S2, LAMMPS)
}

// Class tells which law a parameter belongs to.
type Class uint8

const (
	// ClassBarrier is the polyhedral normal law with its damping (S0 eq. 49–53).
	ClassBarrier Class = iota
	// ClassFriction is the polyhedral Coulomb friction (S0 eq. 54–57).
	ClassFriction
	// ClassSmooth is the spring–dashpot law of smooth bodies (S2 eq. 20, S1 §2.5).
	ClassSmooth
)

// ValueKind tells how a parameter's value is written in a scene.
type ValueKind uint8

const (
	// Number is a real value, read and written through Param.Field.
	Number ValueKind = iota
	// Choice is one of Param.Choices (a name; the scene keeps it as text).
	Choice
	// Flag is a boolean, read and written through Param.Flag.
	Flag
)

// Param is one contact-law parameter: the single home of its scene key, unit,
// documentation, valid range, default and accessor. The scene parser, live
// edits (world.SetField), the panel, validation and the docs table
// (docs/scenes.md) are made from Params.
type Param struct {
	Name    string    // scene key (contact.default.<Name>, world.SetParam)
	Unit    string    // SI unit ("" for a pure number)
	Doc     string    // one-line meaning (panel tooltip, docs table)
	Note    string    // more for the docs table ("" for none)
	Class   Class     // which law
	Kind    ValueKind // number, choice or flag
	Choices []string  // Choice: the accepted names, the first the default
	// Default as the docs table shows it: "required", "—" (no default) or a value.
	Default string
	// Def is a Number's default in a scene's law block (DefaultSet).
	Def float64
	// Lo, Hi bound a Number (±Inf for none); LoOpen/HiOpen exclude the bound.
	Lo, Hi         float64
	LoOpen, HiOpen bool
	// RangeText, when set, replaces the range text made from the bounds in messages.
	RangeText string
	// Panel: the window's law panel edits the parameter.
	Panel bool
	// Models are the smooth models (law "model" names) the parameter applies
	// to; nil: every model. The panel hides the others.
	Models []string
	// Field is the accessor of a Number (nil otherwise).
	Field func(*Set) *float64
	// Flag is the accessor of a Flag (nil otherwise).
	Flag func(*Set) *bool
}

var inf = math.Inf(1)

// Params are the contact-law parameters in documentation order: the barrier
// law (S0), then the smooth law.
var Params = []Param{
	{Name: "law", Class: ClassBarrier, Kind: Choice, Choices: []string{"barrier", "linear", "hertz"}, Default: "`barrier`", Panel: true,
		Doc: "`barrier`: eq. 50, part (i) above f·ḡ, barrier part (ii) below; `linear`/`hertz`: part (i) only (penalty law)"},
	{Name: "gbar", Unit: "m", Class: ClassBarrier, Default: "**required**", Lo: 0, Hi: inf, LoOpen: true, Panel: true,
		Doc:   "ḡ, activation distance (contact skin): the barrier acts for gaps below it",
		Field: func(s *Set) *float64 { return &s.Normal.GBar }},
	{Name: "eps1", Unit: "N/m^n1", Class: ClassBarrier, Default: "**required**", Lo: 0, Hi: inf, LoOpen: true, Panel: true,
		Doc:   "ε₁, stiffness of part (i)",
		Field: func(s *Set) *float64 { return &s.Normal.Eps1 }},
	{Name: "n1", Class: ClassBarrier, Default: "1", Def: 1, Lo: 0, Hi: inf, LoOpen: true, Panel: true,
		Doc:   "n₁, exponent of part (i) (1 linear, 1.5 Hertz-like; the barrier law needs ≥ 1)",
		Field: func(s *Set) *float64 { return &s.Normal.N1 }},
	{Name: "f", Class: ClassBarrier, Default: "0.5", Def: 0.5, Lo: 0, Hi: 1, LoOpen: true, HiOpen: true, Panel: true,
		RangeText: "between 0 and 1 (exclusive)",
		Doc:       "fraction f of ḡ where the barrier part (ii) starts",
		Field:     func(s *Set) *float64 { return &s.Normal.F }},
	{Name: "n2", Class: ClassBarrier, Default: "−2", Def: -2, Lo: -inf, Hi: 0, HiOpen: true, Panel: true,
		RangeText: "< 0 (barrier exponent)",
		Doc:       "n₂, exponent of the barrier part (ii)",
		Field:     func(s *Set) *float64 { return &s.Normal.N2 }},
	{Name: "zeta", Class: ClassBarrier, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Doc:   "ζ, normal damping ratio (S0 eq. 52)",
		Field: func(s *Set) *float64 { return &s.Zeta }},
	{Name: "mu_s", Class: ClassFriction, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Doc:   "μ_s, static friction coefficient",
		Field: func(s *Set) *float64 { return &s.Friction.MuS }},
	{Name: "mu_d", Class: ClassFriction, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Doc:   "μ_d ≤ μ_s, dynamic friction coefficient",
		Field: func(s *Set) *float64 { return &s.Friction.MuD }},
	{Name: "eps_t", Unit: "N/m", Class: ClassFriction, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Doc:   "ε_t, tangential penalty stiffness (S0 eq. 54)",
		Field: func(s *Set) *float64 { return &s.Friction.EpsT }},
	{Name: "c_t", Unit: "N·s/m", Class: ClassFriction, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Doc:   "c_t, tangential damping (S0 eq. 54)",
		Field: func(s *Set) *float64 { return &s.Friction.CT }},
	{Name: "damp_band", Class: ClassBarrier, Default: "0", Lo: 0, Hi: 1,
		Doc: "b: the dashpot of eq. 52 switches on smoothly (C¹) across the outer b·ḡ of the skin instead of with a jump at ḡ",
		Note: "our regularisation for `newmark`, whose Newton iterations stall on the jump; 0.01 removes most of the stalls " +
			"and raises the restitution of a 0.2 m/s impact by 3%, of a 0.05 m/s one by 13%",
		Field: func(s *Set) *float64 { return &s.DampBand }},

	{Name: "model", Class: ClassSmooth, Kind: Choice, Choices: []string{"hooke", "hertz", "hertz-material"}, Default: "—",
		Doc: "`hooke`: LAMMPS gran/hooke, F_n = k_n δ − m_eff γ_n v_n with v_n = ġ_n = −δ̇ (S2 eq. 20); `hertz`: LAMMPS gran/hertz, the Hookean terms × √(δ R_eff); " +
			"`hertz-material`: Hertz–Mindlin from `youngs_modulus`, `poisson_ratio`, `restitution` (as LIGGGHTS hertz/history; S1 §2.5)",
		Note: "all three as written: while the bodies separate the dashpot may outweigh the spring and F_n turn tensile before the overlap " +
			"closes (S2 eq. 32–34, LAMMPS' and LIGGGHTS' default); see `limit_damping`"},
	{Name: "curvature", Class: ClassSmooth, Kind: Choice, Choices: []string{"mean", "gaussian", "volume"}, Default: "`mean`",
		Doc: "particle radius of a superquadric in R_eff (S1 eq. 38): `mean` (eq. 39), `gaussian` (eq. 40), `volume` (volume-equivalent sphere)"},
	{Name: "kn", Unit: "N/m (`hertz`: N/m²)", Class: ClassSmooth, Default: "—", Lo: 0, Hi: inf, LoOpen: true, Panel: true,
		Models: []string{"hooke", "hertz"},
		Doc:    "k_n, normal spring stiffness, required by `hooke` and `hertz`",
		Field:  func(s *Set) *float64 { return &s.Smooth.Kn }},
	{Name: "gamma_n", Unit: "1/s", Class: ClassSmooth, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Models: []string{"hooke", "hertz"},
		Doc:    "γ_n, normal damping rate (times m_eff)",
		Field:  func(s *Set) *float64 { return &s.Smooth.GammaN }},
	{Name: "kt", Unit: "as `kn`", Class: ClassSmooth, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Models: []string{"hooke", "hertz"},
		Doc:    "k_t, tangential spring stiffness",
		Field:  func(s *Set) *float64 { return &s.Smooth.Kt }},
	{Name: "gamma_t", Unit: "1/s", Class: ClassSmooth, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Models: []string{"hooke", "hertz"},
		Doc:    "γ_t, tangential damping rate (times m_eff)",
		Field:  func(s *Set) *float64 { return &s.Smooth.GammaT }},
	{Name: "youngs_modulus", Unit: "Pa", Class: ClassSmooth, Default: "—", Lo: 0, Hi: inf, LoOpen: true, Panel: true,
		Models: []string{"hertz-material"},
		Doc:    "E, Young's modulus, required by `hertz-material`",
		Field:  func(s *Set) *float64 { return &s.Smooth.E }},
	{Name: "poisson_ratio", Class: ClassSmooth, Default: "0", Lo: 0, Hi: 0.5, HiOpen: true, Panel: true,
		Models: []string{"hertz-material"},
		Doc:    "ν, Poisson's ratio",
		Field:  func(s *Set) *float64 { return &s.Smooth.Nu }},
	{Name: "restitution", Class: ClassSmooth, Default: "—", Lo: 0, Hi: 1, LoOpen: true, Panel: true,
		Models: []string{"hertz-material"},
		Doc:    "e, coefficient of restitution, required by `hertz-material`",
		Field:  func(s *Set) *float64 { return &s.Smooth.Restitution }},
	{Name: "mu", Class: ClassSmooth, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Doc:   "μ, Coulomb coefficient (cap μ \\|F_n\\|, as LAMMPS)",
		Field: func(s *Set) *float64 { return &s.Smooth.Mu }},
	{Name: "mu_roll", Class: ClassSmooth, Default: "0", Lo: 0, Hi: inf, Panel: true,
		Doc:   "μ_r, rolling resistance: a torque μ_r R_eff \\|F_n\\| against the relative rolling velocity (viscous below 0.01 rad/s; 0: off)",
		Field: func(s *Set) *float64 { return &s.Smooth.MuRoll }},
	{Name: "curvature_cap", Class: ClassSmooth, Default: "10", Lo: 0, Hi: inf, LoOpen: true, Panel: true,
		Doc:   "q: curvature radius R ≤ q·R_vol (S1 §2.5)",
		Field: func(s *Set) *float64 { return &s.Smooth.CapQ }},
	{Name: "limit_damping", Class: ClassSmooth, Kind: Flag, Default: "`false`", Panel: true,
		Doc: "`true` clamps F_n at ≥ 0 (no tension; LAMMPS' pair keyword `limit_damping`, LIGGGHTS' `limitForce`), for every model",
		Note: "an impact then ends when the force vanishes, before the overlap closes, with a higher restitution " +
			"(ζ = 0.2: 0.572 instead of S2's 0.527; `hertz-material`'s `restitution` e is the impact's restitution only without the clamp: " +
			"e = 0.3 gives 0.397 with it). `grainlab lammps` writes the keyword on the pair style when it is on; LAMMPS' `fix wall/gran` " +
			"has none, so wall contacts differ; `grainlab liggghts` writes `limitForce on` on the pair style and every wall",
		Flag: func(s *Set) *bool { return &s.Smooth.LimitDamping }},
}

// DefaultSet returns the Numbers of a scene's law block before its keys are
// read: every Param.Def (0 where the table gives none; Smooth.Validate then
// takes q = 10 for curvature_cap's 0).
func DefaultSet() Set {
	var s Set
	for i := range Params {
		if p := &Params[i]; p.Field != nil {
			*p.Field(&s) = p.Def
		}
	}
	return s
}

// Pick returns the Numbers and Flags of s whose parameters pass keep, in an
// otherwise zero Set (no Choices, no derived constants): a law's
// parameters by the table, for code that shows or edits some of them.
func Pick(s *Set, keep func(*Param) bool) Set {
	var out Set
	for i := range Params {
		switch p := &Params[i]; {
		case !keep(p):
		case p.Field != nil:
			*p.Field(&out) = *p.Field(s)
		case p.Flag != nil:
			*p.Flag(&out) = *p.Flag(s)
		}
	}
	return out
}

// NameOf returns the name of the Number whose accessor returns what get
// does ("" for none): code that means one parameter names it by its field.
func NameOf(get func(*Set) *float64) string {
	var s Set
	want := get(&s)
	for i := range Params {
		if p := &Params[i]; p.Field != nil && p.Field(&s) == want {
			return p.Name
		}
	}
	return ""
}

// Lookup returns the parameter named name.
func Lookup(name string) (*Param, bool) {
	for i := range Params {
		if Params[i].Name == name {
			return &Params[i], true
		}
	}
	return nil, false
}

// Names returns the names of the parameters that pass keep (all for nil),
// in table order.
func Names(keep func(*Param) bool) []string {
	var out []string
	for i := range Params {
		if keep == nil || keep(&Params[i]) {
			out = append(out, Params[i].Name)
		}
	}
	return out
}

// AppliesTo reports whether the parameter applies to the smooth model named
// model (Models; true for every parameter without a list).
func (p *Param) AppliesTo(model string) bool {
	return p.Models == nil || slices.Contains(p.Models, model)
}

// SetNumber sets the parameter in s to v: a Number as it is, a Flag from 0
// (false) or 1 (true), as live edits (world.SetField) send them; no range
// check. A Choice cannot be set by number.
func (p *Param) SetNumber(s *Set, v float64) error {
	switch {
	case p.Field != nil:
		*p.Field(s) = v
	case p.Flag != nil && (v == 0 || v == 1):
		*p.Flag(s) = v == 1
	case p.Flag != nil:
		return fmt.Errorf("%s must be 0 (false) or 1 (true), got %v", p.Name, v)
	default:
		return fmt.Errorf("%s is a name (%s), not a number", p.Name, strings.Join(p.Choices, ", "))
	}
	return nil
}

// FormatNumber writes v as a scene value of the parameter: a Flag as false
// or true, a Number in the shortest form that reads back exactly.
func (p *Param) FormatNumber(v float64) string {
	if p.Flag != nil {
		return strconv.FormatBool(v != 0)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// In reports whether the Number v lies in the parameter's range (NaN never does).
func (p *Param) In(v float64) bool {
	lo := v > p.Lo || (!p.LoOpen && v == p.Lo)
	hi := v < p.Hi || (!p.HiOpen && v == p.Hi)
	return lo && hi
}

// Range describes the valid range as the scene parser's messages write it
// ("> 0", "≥ 0", "in [0, 1]", …).
func (p *Param) Range() string {
	if p.RangeText != "" {
		return p.RangeText
	}
	switch {
	case math.IsInf(p.Hi, 1) && p.LoOpen:
		return fmt.Sprintf("> %v", p.Lo)
	case math.IsInf(p.Hi, 1):
		return fmt.Sprintf("≥ %v", p.Lo)
	case math.IsInf(p.Lo, -1) && p.HiOpen:
		return fmt.Sprintf("< %v", p.Hi)
	case math.IsInf(p.Lo, -1):
		return fmt.Sprintf("≤ %v", p.Hi)
	}
	l, r := "[", "]"
	if p.LoOpen {
		l = "("
	}
	if p.HiOpen {
		r = ")"
	}
	return fmt.Sprintf("in %s%v, %v%s", l, p.Lo, p.Hi, r)
}

// Check returns nil when the Number v is in range, else the scene parser's
// message "must be <range>, got <v>".
func (p *Param) Check(v float64) error {
	if p.In(v) {
		return nil
	}
	return fmt.Errorf("must be %s, got %v", p.Range(), v)
}

// docRange is the range as the docs table shows it ("" for none).
func (p *Param) docRange() string {
	if p.Kind != Number {
		return ""
	}
	return strings.Replace(p.Range(), "-", "−", 1)
}

// DocTable renders the Markdown table of the parameters of the classes
// given (docs/scenes.md holds its rendering; law's tests compare them).
func DocTable(classes ...Class) string {
	var b strings.Builder
	b.WriteString("| key | unit | default | range | meaning |\n|---|---|---|---|---|\n")
	for i := range Params {
		p := &Params[i]
		in := false
		for _, c := range classes {
			in = in || p.Class == c
		}
		if !in {
			continue
		}
		doc := p.Doc
		if p.Note != "" {
			doc += "; " + p.Note
		}
		rng := p.docRange()
		if p.Kind == Choice {
			rng = "`" + strings.Join(p.Choices, "` \\| `") + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.Name, p.Unit, p.Default, rng, doc)
	}
	return b.String()
}

// finite reports the first parameter of class c whose Number in s is NaN or
// ±Inf (nil for none).
func finite(s *Set, c Class) (*Param, float64) {
	for i := range Params {
		p := &Params[i]
		if p.Class != c || p.Field == nil {
			continue
		}
		if v := *p.Field(s); math.IsNaN(v) || math.IsInf(v, 0) {
			return p, v
		}
	}
	return nil, 0
}
