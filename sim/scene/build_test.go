package scene

import (
	"math"
	"strings"
	"testing"
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
			if len(w.Bodies) != want {
				t.Fatalf("%d bodies, want %d (bodies + generated + walls)", len(w.Bodies), want)
			}
			for i, bd := range w.Bodies {
				if bd.Wall < 0 && !bd.Fixed && !(bd.Mass > 0) {
					t.Fatalf("body %d (%s) has mass %g", i, bd.Name, bd.Mass)
				}
				for j := i + 1; j < len(w.Bodies); j++ {
					o := w.Bodies[j]
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
	b := w.Bodies[w.BodyByName("tetrapod")]
	zmin := math.Inf(1)
	for _, v := range b.Poly.Verts {
		zmin = math.Min(zmin, b.ToWorld(v).Z)
	}
	gbar := w.DefaultParams().Normal.GBar
	if math.Abs(zmin-0.9*gbar) > 1e-12 {
		t.Fatalf("lowest vertex at %.6g m, want 0.9·ḡ = %.6g m", zmin, 0.9*gbar)
	}
	if mc := b.Mass * b.Mass / (2 * b.Mass); math.Abs(mc-156.594) > 1e-9 {
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
