package scene

import (
	"strconv"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/world"
)

// A generator's bodies after the first are copies of it placed and named:
// every field and every mass property has the same bits as when each body
// is made anew (makeEachGenerated), for polyhedra by density and by mass
// (random orientations, normalised once more by body.New), spheres and
// superquadrics.
func TestGeneratedCopiesSameAsMadeAnew(t *testing.T) {
	for _, c := range []struct {
		scene string
		sets  []string
	}{
		{"box-of-tetrapods", []string{"generators.fill.count=60"}},
		{"box-of-tetrapods", []string{"generators.fill.count=60", "generators.fill.mass=3.5"}},
		{"sphere-box-soft", nil},
		{"sq-settling", nil},
	} {
		build := func(each bool) *world.World {
			t.Helper()
			makeEachGenerated = each
			defer func() { makeEachGenerated = false }()
			s, err := LoadBuiltin(c.scene, c.sets...)
			if err != nil {
				t.Fatal(err)
			}
			w, err := Build(s)
			if err != nil {
				t.Fatal(err)
			}
			return w
		}
		got, want := build(false), build(true)
		if len(got.Bodies()) != len(want.Bodies()) {
			t.Fatalf("%s %v: %d bodies, made anew %d", c.scene, c.sets, len(got.Bodies()), len(want.Bodies()))
		}
		generated := 0
		for i, a := range got.Bodies() {
			b := want.Bodies()[i]
			if a.Group() != "" {
				generated++
			}
			type props struct {
				body                         body.Body
				poly                         bool
				sq                           any
				rVol, density, mass, invMass float64
				iBody, iBodyInv              any
				group                        string
			}
			of := func(x *body.Body) props {
				p := props{poly: x.Poly() != nil, sq: x.SQ(), rVol: x.RVol(), density: x.Density(), mass: x.Mass(),
					invMass: x.InvMass(), iBody: x.IBody(), iBodyInv: x.IBodyInv(), group: x.Group()}
				p.body = body.Body{Name: x.Name, Kind: x.Kind, Fixed: x.Fixed, R: x.R, Material: x.Material, X: x.X, Q: x.Q,
					V: x.V, W: x.W, Wall: x.Wall, F: x.F, T: x.T}
				return p
			}
			if pa, pb := of(a), of(b); pa != pb {
				t.Fatalf("%s %v: body %d is\n%+v\nmade anew\n%+v", c.scene, c.sets, i, pa, pb)
			}
		}
		if generated < 20 {
			t.Fatalf("%s %v: only %d generated bodies", c.scene, c.sets, generated)
		}
	}
}

// body.GenNames holds every generated name end to end, and the generator reads
// them back as strconv makes them: across the digit counts (1 → 2 → 3
// digits) and for a one-body generator (no copies).
func TestGeneratedNamesAcrossDigits(t *testing.T) {
	if got, want := body.GenNames("g", 12), "g0g1g2g3g4g5g6g7g8g9g10g11"; got != want {
		t.Fatalf("GenNames = %q, want %q", got, want)
	}
	for _, i := range []int{0, 9, 10, 99, 100, 12345} {
		if got, want := body.GenNameLen("g", i), 1+len(strconv.Itoa(i)); got != want {
			t.Fatalf("GenNameLen(g, %d) = %d, want %d", i, got, want)
		}
	}
	for _, count := range []int{1, 2, 11, 101} {
		s, err := LoadBuiltin("sphere-box-soft", "generators[0].count="+strconv.Itoa(count))
		if err != nil {
			t.Fatal(err)
		}
		w, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		prefix := s.Generators[0].Name
		k := 0
		for _, b := range w.Bodies() {
			if b.Group() != prefix {
				continue
			}
			if want := prefix + strconv.Itoa(k); b.Name != want {
				t.Fatalf("count %d: generated body %d named %q, want %q", count, k, b.Name, want)
			}
			k++
		}
		if k != count {
			t.Fatalf("count %d: %d generated bodies", count, k)
		}
	}
}
