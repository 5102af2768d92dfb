package scene

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/shape"
)

// Every built-in scene builds into a world whose bodies, walls and materials
// match the file, with positive masses and no overlapping bounding spheres
// among generated bodies.
func TestBuiltinsBuild(t *testing.T) {
	for _, b := range Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			s, err := LoadBuiltin(b.Name)
			if err != nil {
				t.Fatal(err)
			}
			w, err := Build(s)
			if err != nil {
				t.Fatal(err)
			}
			want := len(s.Bodies) + len(s.Walls)
			for _, g := range s.Generators {
				want += g.Count
			}
			if len(w.Bodies()) != want {
				t.Fatalf("%d bodies, want %d (bodies + generated + walls)", len(w.Bodies()), want)
			}
			for i, bd := range w.Bodies() {
				if bd.Wall < 0 && !bd.Fixed && !(bd.Mass() > 0) {
					t.Fatalf("body %d (%s) has mass %g", i, bd.Name, bd.Mass())
				}
				for j := i + 1; j < len(w.Bodies()); j++ {
					o := w.Bodies()[j]
					if bd.Wall >= 0 || o.Wall >= 0 {
						continue
					}
					if d := bd.X.Dist(o.X); d < bd.Radius()+o.Radius() && len(s.Generators) > 0 {
						t.Fatalf("generated bodies %s and %s overlap: centres %.4g m apart, radii %.4g + %.4g", bd.Name, o.Name, d, bd.Radius(), o.Radius())
					}
				}
			}
		})
	}
}

// rest_on_ground puts the tetrapod's lowest vertex 0.9·ḡ above the ground,
// and mass: 313.188 gives S0 Fig. 11's equivalent mass for a pair (156.594 kg).
func TestRestOnGroundAndMass(t *testing.T) {
	s, err := LoadBuiltin("tetrapod-twist")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	b := w.Bodies()[w.BodyByName("tetrapod")]
	zmin := math.Inf(1)
	for _, v := range b.Poly().Verts {
		zmin = math.Min(zmin, b.ToWorld(v).Z)
	}
	gbar := w.DefaultParams().Normal.GBar
	if math.Abs(zmin-0.9*gbar) > 1e-12 {
		t.Fatalf("lowest vertex at %.6g m, want 0.9·ḡ = %.6g m", zmin, 0.9*gbar)
	}
	if mc := b.Mass() * b.Mass() / (2 * b.Mass()); math.Abs(mc-156.594) > 1e-9 {
		t.Fatalf("equivalent mass of a pair %.6g kg, want 156.594 kg", mc)
	}
}

// Errors found while building name the file, the line and the key.
func TestBuildErrorsNameLineAndKey(t *testing.T) {
	base := `name: bad
time: 1
integrator: {name: explicit, dt: 1.0e-4}
contact:
  default: {gbar: 0.001, eps1: 1.0e5}
shapes:
  cube: {type: box, size: [0.1, 0.1, 0.1]}
walls:
  - {name: ground, type: plane, point: [0, 0, 0], normal: [0, 0, 1]}
`
	cases := []struct{ name, extra, want string }{
		{"superquadric", "  sq: {type: superquadric, a: 1, b: 1, c: 1}\nbodies:\n  - {name: s, shape: sq, density: 1, position: [0, 0, 1]}\n", "bad.yaml:5: contact.default: contact default–default: spheres and superquadrics need a smooth model"},
		{"rest without ground", "bodies:\n  - {name: c, shape: cube, density: 1000, position: [0, 0, -1], rest_on_ground: true}\n", "bad.yaml:11: bodies[0].rest_on_ground: no horizontal plane wall"},
		{"narrow region", "generators:\n  - {name: g, shape: cube, count: 3, density: 1000, region: {min: [0, 0, 0], max: [0.1, 0.1, 1]}}\n", "bad.yaml:11: generators[0].region: region 0.1 × 0.1 m is narrower than one body"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := base + c.extra
			if c.name == "superquadric" { // add the shape to the shapes section
				src = strings.Replace(base, "size: [0.1, 0.1, 0.1]}\n", "size: [0.1, 0.1, 0.1]}\n"+c.extra, 1)
			}
			s, err := Parse([]byte(src), "bad.yaml")
			if err != nil {
				t.Fatalf("parse error %q; the scene should parse and fail to build", err)
			}
			_, err = Build(s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

// Extreme but finite box sizes set on the command line are bad input naming
// the override, not a panic of shape.Box (issue 13).
func TestBuildExtremeBoxNamesOverride(t *testing.T) {
	for _, size := range []string{"[1e6,1e-6,1]", "[1e-12,1,1]", "[1e200,1e200,1e200]", "[1e-40,1e-40,1e-40]"} {
		t.Run(size, func(t *testing.T) {
			s, err := LoadBuiltin("cube-drop-a", "shapes.cube.size="+size)
			if err != nil {
				t.Fatalf("parse: %v (the size is finite and positive: the builder must judge it)", err)
			}
			_, err = Build(s)
			if err == nil || !strings.HasPrefix(err.Error(), "--set shapes.cube.size: ") {
				t.Fatalf("got %v, want an error starting with %q", err, "--set shapes.cube.size: ")
			}
		})
	}
}

// A builder error about an entry whose keys were overridden names the
// override, not the entry's file line.
func TestBuildErrorAfterSetNamesOverride(t *testing.T) {
	s, err := LoadBuiltin("tetrapod-twist", "shapes.tetrapod.base_radius=10")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(s)
	if err == nil || !strings.HasPrefix(err.Error(), "--set shapes.tetrapod.base_radius: shapes.tetrapod: ") {
		t.Fatalf("got %v, want it to name --set shapes.tetrapod.base_radius", err)
	}
}

// The parser and the builder allow the same tetrapod sides: the largest the
// parser accepts builds, one more is refused by the parser at its line.
func TestTetrapodSidesRangeAgrees(t *testing.T) {
	max := strconv.Itoa(shape.MaxTetrapodSides)
	s, err := LoadBuiltin("tetrapod-twist", "shapes.tetrapod.sides="+max)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(s); err != nil {
		t.Fatalf("sides %s parses but does not build: %v", max, err)
	}
	over := strconv.Itoa(shape.MaxTetrapodSides + 1)
	if _, err := LoadBuiltin("tetrapod-twist", "shapes.tetrapod.sides="+over); err == nil || !strings.Contains(err.Error(), "--set shapes.tetrapod.sides") {
		t.Fatalf("sides %s: got %v, want a parse error naming the override", over, err)
	}
}
