package law

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the parameter tables of docs/scenes.md from law.Params")

// docTables are the generated tables of docs/scenes.md: marker → classes.
var docTables = []struct {
	marker  string
	classes []Class
}{
	{"barrier", []Class{ClassBarrier, ClassFriction}},
	{"smooth", []Class{ClassSmooth}},
}

// TestDocTable checks that docs/scenes.md holds DocTable's rendering of
// Params between its markers; `go test -run TestDocTable -update` (or
// `go generate ./sim/law/`) rewrites them.
func TestDocTable(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "scenes.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, d := range docTables {
		begin := "<!-- law.Params " + d.marker + " begin (go generate ./sim/law/) -->\n"
		end := "<!-- law.Params " + d.marker + " end -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Fatalf("%s: markers %q … %q not found", path, begin, end)
		}
		want := DocTable(d.classes...)
		if got := doc[i+len(begin) : j]; got != want {
			if !*update {
				t.Errorf("%s: the %s table differs from law.Params; run go generate ./sim/law/\ngot:\n%s\nwant:\n%s", path, d.marker, got, want)
				continue
			}
			doc = doc[:i+len(begin)] + want + doc[j:]
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// otherMeanings are string literals equal to a parameter name that mean
// something else (file relative to the module root → name → count).
var otherMeanings = map[string]map[string]int{
	"sim/scene/parse_sections.go": {"n1": 2 + 1, "n2": 2 + 1, "restitution": 3}, // superquadric exponents; integrator's restitution
	"ui/edit.go":                  {"n1": 1, "n2": 1},                           // superquadric exponents of the Shapes section
	"ui/format.go":                {"f": 1},                                     // SI prefix femto
	"sim/lammps/deck.go":          {"f": 1},                                     // LAMMPS fixed boundary
	"sim/lammps/liggghts.go":      {"kn": 1, "kt": 1},                           // LIGGGHTS property names
	"ui/panel.go":                 {"law": 1},                                   // the label of the law kind's combo box
	"sim/world/edits.go":          {"law": 1},                                   // an Edit's JSON key of its law (EditError.Field)
}

// TestNamesOnce checks that each parameter name appears as a Go string
// literal only in this table (non-test sources of the module), apart from
// otherMeanings.
func TestNamesOnce(t *testing.T) {
	names := map[string]bool{}
	for _, p := range Params {
		if names[p.Name] {
			t.Errorf("%s: twice in Params", p.Name)
		}
		names[p.Name] = true
	}
	root := filepath.Join("..", "..")
	found := map[string]map[string]int{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
				if s, err := strconv.Unquote(l.Value); err == nil && names[s] {
					if found[rel] == nil {
						found[rel] = map[string]int{}
					}
					found[rel][s]++
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Params {
		if n := found["sim/law/params.go"][p.Name]; n != 1 {
			t.Errorf("%q: %d times in params.go, want once", p.Name, n)
		}
	}
	delete(found, "sim/law/params.go")
	for file, m := range found {
		for name, n := range m {
			if want := otherMeanings[file][name]; n != want {
				t.Errorf("%s: %q written %d times (allowed %d): take it from law.Params", file, name, n, want)
			}
		}
	}
	for file, m := range otherMeanings {
		for name, want := range m {
			if n := found[file][name]; n != want {
				t.Errorf("%s: %q written %d times, otherMeanings says %d: update the list", file, name, n, want)
			}
		}
	}
}

// TestParamRanges checks the table against itself and the laws: every
// Number's accessor is its own field, ranges include their closed bounds and
// exclude open ones and NaN, and the scene defaults are in range.
func TestParamRanges(t *testing.T) {
	seen := map[*float64]string{}
	var s Set
	def := DefaultSet()
	for i := range Params {
		p := &Params[i]
		switch p.Kind {
		case Number:
			if p.Field == nil || p.Flag != nil {
				t.Fatalf("%s: a Number needs Field only", p.Name)
			}
			f := p.Field(&s)
			if other, dup := seen[f]; dup {
				t.Errorf("%s and %s share one field", p.Name, other)
			}
			seen[f] = p.Name
			if NameOf(p.Field) != p.Name {
				t.Errorf("NameOf(%s.Field) = %q", p.Name, NameOf(p.Field))
			}
			if p.In(math.NaN()) {
				t.Errorf("%s accepts NaN", p.Name)
			}
			for _, b := range []struct {
				v    float64
				open bool
			}{{p.Lo, p.LoOpen}, {p.Hi, p.HiOpen}} {
				if !math.IsInf(b.v, 0) && p.In(b.v) == b.open {
					t.Errorf("%s: In(%v) = %v with the bound open=%v", p.Name, b.v, p.In(b.v), b.open)
				}
			}
			if v := *p.Field(&def); p.Default != "—" && p.Default != "**required**" && p.Check(v) != nil && v != 0 {
				t.Errorf("%s: default %v out of range: %v", p.Name, v, p.Check(v))
			}
		case Choice:
			if len(p.Choices) == 0 || p.Field != nil || p.Flag != nil {
				t.Errorf("%s: a Choice needs Choices and no accessor", p.Name)
			}
		case Flag:
			if p.Flag == nil || p.Field != nil {
				t.Errorf("%s: a Flag needs Flag only", p.Name)
			}
		}
	}
	// The laws' own validation names the table's keys (Normal, Friction, Smooth).
	for _, c := range []struct {
		name string
		err  error
	}{
		{"eps1", Normal{Kind: Barrier, GBar: 1, Eps1: math.NaN(), N1: 1, F: 0.5, N2: -2}.Validate()},
		{"eps_t", Friction{EpsT: -1}.Validate()},
		{"mu_roll", (&Smooth{Model: HookeLAMMPS, Kn: 1, MuRoll: math.Inf(1)}).Validate()},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.name) {
			t.Errorf("validation error %v does not name %s", c.err, c.name)
		}
	}
}

// TestParamModels: every Models list names smooth models the "model" key
// accepts (ParseSmoothModel), only on smooth parameters, so the panel never
// hides a field for a model that does not exist.
func TestParamModels(t *testing.T) {
	for i := range Params {
		p := &Params[i]
		if p.Models != nil && p.Class != ClassSmooth {
			t.Errorf("%s: Models on a %v parameter", p.Name, p.Class)
		}
		for _, m := range p.Models {
			if _, err := ParseSmoothModel(m); err != nil {
				t.Errorf("%s: Models names %q: %v", p.Name, m, err)
			}
		}
	}
	kn, _ := Lookup("kn")
	if !kn.AppliesTo("hooke") || kn.AppliesTo("hertz-material") {
		t.Errorf("kn applies to hooke %v, to hertz-material %v", kn.AppliesTo("hooke"), kn.AppliesTo("hertz-material"))
	}
}

// TestPick: Pick copies exactly the Numbers and Flags of the parameters
// kept (every accessor, none twice) and nothing else.
func TestPick(t *testing.T) {
	var full Set
	for i := range Params {
		if p := &Params[i]; p.Field != nil {
			*p.Field(&full) = float64(i + 1)
		} else if p.Flag != nil {
			*p.Flag(&full) = true
		}
	}
	full.Normal.Kind, full.Smooth.Model, full.Smooth.Radius = Hertz, HertzMaterial, "gaussian"
	if got := Pick(&full, func(*Param) bool { return true }); got.Normal.Kind != 0 || got.Smooth.Model != 0 || got.Smooth.Radius != "" {
		t.Errorf("Pick copied a choice: %+v", got)
	}
	smooth := Pick(&full, func(p *Param) bool { return p.Class == ClassSmooth })
	for i := range Params {
		p := &Params[i]
		want := p.Class == ClassSmooth
		switch {
		case p.Field != nil && (*p.Field(&smooth) == float64(i+1)) != want:
			t.Errorf("%s: %v after Pick of the smooth law", p.Name, *p.Field(&smooth))
		case p.Flag != nil && *p.Flag(&smooth) != want:
			t.Errorf("%s: %v after Pick of the smooth law", p.Name, *p.Flag(&smooth))
		}
	}
}
