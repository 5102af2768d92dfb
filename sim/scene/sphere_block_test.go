package scene

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// A sphere generator's block (world.AddSphereBlock: no record a sphere)
// gives the records of a world built record by record (makeEachGenerated):
// through EachBody without making them, and once made by Bodies — before
// any step, after lazy steps (the accepted state as SyncBodies writes it),
// and after further steps on the made records. Name, state (X, Q, V, W, F,
// T), static fields and the shared record (SameRecord, mass properties,
// group) are compared to the bit; frictionless (no rotational array) and
// with friction (spheres turn: sphere-piling).
func TestSphereBlockRecordsAsMadeOneByOne(t *testing.T) {
	for _, c := range []struct {
		scene  string
		sets   []string
		steps  int
		before bool // materialize before any step
	}{
		{"sphere-box-soft", []string{"generators[0].count=3000"}, 120, false},
		{"sphere-box-soft", []string{"generators[0].count=3000"}, 60, true},
		{"sphere-piling", []string{"generators[0].count=300"}, 150, false},
		// Friction and a sideways start on the floor: the spheres turn.
		{"sphere-box-soft", []string{"generators[0].count=3000", "contact.default.mu=0.5", "contact.default.kt=5",
			"generators[0].velocity=[0.3,0.2,-0.1]"}, 150, false},
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
		if got.Virtual() == 0 || want.Virtual() != 0 {
			t.Fatalf("%s: %d spheres without a record in the block world, %d in the other", c.scene, got.Virtual(), want.Virtual())
		}
		m0 := world.Materializations()
		compareEach(t, c.scene+" built", got, want)
		if c.before {
			compareBodies(t, c.scene+" built, made", got, want)
		}
		step := func(n int) {
			t.Helper()
			for _, w := range []*world.World{got, want} {
				w.SetLazyBodies(true)
				for range n {
					if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		for _, w := range []*world.World{got, want} {
			if err := integrate.Start(w); err != nil {
				t.Fatal(err)
			}
		}
		step(c.steps)
		if !c.before {
			// The block world's records are made while its bodies lag
			// (no SyncBodies): they hold the accepted state.
			if got.Virtual() == 0 {
				t.Fatalf("%s: the block was made during the steps", c.scene)
			}
			want.SyncBodies()
			compareEach(t, c.scene+" stepped", got, want)
			compareBodies(t, c.scene+" stepped, made", got, want)
		}
		if n := world.Materializations() - m0; n != 1 || got.Virtual() != 0 {
			t.Fatalf("%s: the block made %d times (%d left virtual), want once", c.scene, n, got.Virtual())
		}
		step(c.steps)
		got.SyncBodies()
		want.SyncBodies()
		compareBodies(t, c.scene+" stepped on the records", got, want)
		if got.Time != want.Time || got.Steps != want.Steps {
			t.Fatalf("%s: t = %v after %d steps, one by one %v after %d", c.scene, got.Time, got.Steps, want.Time, want.Steps)
		}
	}
}

// bodyBits is what compareEach and compareBodies compare of a body.
type bodyBits struct {
	b                   body.Body
	mass, invMass, rVol float64
	iBody               any
	group               string
}

func bitsOf(x *body.Body) bodyBits {
	return bodyBits{
		b: body.Body{Name: x.Name, Kind: x.Kind, Fixed: x.Fixed, R: x.R, Material: x.Material, X: x.X, Q: x.Q,
			V: x.V, W: x.W, Wall: x.Wall, F: x.F, T: x.T},
		mass: x.Mass(), invMass: x.InvMass(), rVol: x.RVol(), iBody: x.IBody(), group: x.Group(),
	}
}

// compareEach compares got's EachBody (no record made) with want's bodies.
func compareEach(t *testing.T, what string, got, want *world.World) {
	t.Helper()
	if got.NumBodies() != want.NumBodies() {
		t.Fatalf("%s: %d bodies, one by one %d", what, got.NumBodies(), want.NumBodies())
	}
	v := got.Virtual()
	n := 0
	got.EachBody(func(i int, b *body.Body) {
		if a, e := bitsOf(b), bitsOf(want.Bodies()[i]); a != e && n == 0 {
			t.Errorf("%s: EachBody's body %d is\n%+v\none by one\n%+v", what, i, a, e)
			n++
		}
	})
	if got.Virtual() != v {
		t.Fatalf("%s: EachBody made records", what)
	}
	if n > 0 {
		t.FailNow()
	}
}

// compareBodies compares got's records (made by Bodies) with want's, and
// which of them share their shape and mass record.
func compareBodies(t *testing.T, what string, got, want *world.World) {
	t.Helper()
	gb, wb := got.Bodies(), want.Bodies()
	if len(gb) != len(wb) {
		t.Fatalf("%s: %d bodies, one by one %d", what, len(gb), len(wb))
	}
	for i := range gb {
		if a, e := bitsOf(gb[i]), bitsOf(wb[i]); a != e {
			t.Fatalf("%s: body %d is\n%+v\none by one\n%+v", what, i, a, e)
		}
		if i > 0 && gb[i].SameRecord(gb[i-1]) != wb[i].SameRecord(wb[i-1]) {
			t.Fatalf("%s: body %d shares the record of body %d: %v, one by one %v", what, i, i-1,
				gb[i].SameRecord(gb[i-1]), wb[i].SameRecord(wb[i-1]))
		}
	}
}
