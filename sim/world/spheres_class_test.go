package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// The sphere path takes a pair's contact constants (r_I + r_J, cut-off,
// m_eff, m_eff γ_n) from a table of species pairs, or, beyond 64 species,
// from a class of the pair's own. Both give the same bits: 80 spheres of
// sphere-box-soft with 8 or 80 radii (0.90–1.00 mm) fall, collide and
// settle for 3000 steps with the table and with one class per pair, and
// every step's positions, velocities, time and contact count agree exactly.
func TestSpherePathPairClasses(t *testing.T) {
	for _, species := range []int{8, 80} {
		t.Run(fmt.Sprintf("species=%d", species), func(t *testing.T) {
			build := func(table bool) *world.World {
				old := world.SetMaxClassSpecies(0)
				if table {
					world.SetMaxClassSpecies(1000)
				}
				defer world.SetMaxClassSpecies(old)
				s, err := scene.LoadBuiltin("sphere-box-soft", "generators.s.count=80")
				if err != nil {
					t.Fatal(err)
				}
				w, err := scene.Build(s)
				if err != nil {
					t.Fatal(err)
				}
				// The generator's places (2.1 mm apart), radii in `species` sizes.
				var spheres []*body.Body
				keep := w.Bodies()[:0]
				for _, b := range w.Bodies() {
					if b.Wall >= 0 {
						keep = append(keep, b)
					} else {
						spheres = append(spheres, b)
					}
				}
				w.SetBodies(keep)
				for k, b := range spheres {
					r := 0.9e-3 + 0.1e-3*float64(k%species)/float64(species-1)
					nb := body.NewSphere(b.Name, r, b.Density(), b.X)
					nb.Material = b.Material
					w.AddBody(nb)
				}
				if err := integrate.Start(w); err != nil {
					t.Fatal(err)
				}
				if world.PairClassTable(w) != table {
					t.Fatalf("table of pair classes: %v, want %v", !table, table)
				}
				return w
			}
			tab, own := build(true), build(false)
			touched := 0
			for step := range 3000 {
				for _, w := range []*world.World{tab, own} {
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
				}
				for k, b := range tab.Bodies() {
					o := own.Bodies()[k]
					if b.X != o.X || b.V != o.V {
						t.Fatalf("step %d: body %d at %v, %v with the table; %v, %v with a class per pair", step, k, b.X, b.V, o.X, o.V)
					}
				}
				if tab.Time != own.Time || tab.Stats.Contacts != own.Stats.Contacts {
					t.Fatalf("step %d: t = %.17g / %.17g s, contacts %d / %d", step, tab.Time, own.Time, tab.Stats.Contacts, own.Stats.Contacts)
				}
				touched = max(touched, tab.Stats.Contacts)
			}
			if touched == 0 {
				t.Error("no contact in 3000 steps")
			}
			t.Logf("up to %d contacts, t = %.4g s", touched, tab.Time)
		})
	}
}

// The sphere path's species: spheres share one iff their radius, mass
// properties and material agree, whether or not the previous sphere shares
// their record (the build takes a sphere's species from the previous one
// when both have one record, R and material). 60 spheres of one generator
// (one record) whose R alternates in runs of 1, 2 and 3 between two values,
// and a run whose material differs.
func TestSphereSpeciesByKey(t *testing.T) {
	s, err := scene.LoadBuiltin("sphere-box-soft", "generators.s.count=60")
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	var spheres []*body.Body
	for _, b := range w.Bodies() {
		if b.Wall < 0 {
			spheres = append(spheres, b)
		}
	}
	other := w.Material("other") // the default pair's contact parameters
	type key struct {
		r   float64
		mat int
	}
	r0 := spheres[0].R
	for k, b := range spheres {
		if !b.SameRecord(spheres[0]) {
			t.Fatalf("sphere %d: not the generator's shared record", k)
		}
		if (k%6 == 1) || (k%6 >= 4) { // runs of 1, 2 and 3 at the smaller R
			b.R = r0 * 0.99
		}
		if k >= 50 && k < 53 {
			b.Material = other
		}
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	spec := world.SphereSpecies(w)
	if len(spec) != len(spheres) {
		t.Fatalf("%d species for %d spheres", len(spec), len(spheres))
	}
	of := map[key]int32{}
	ids := map[int32]key{}
	for k, b := range spheres {
		kk := key{b.R, b.Material}
		if id, ok := of[kk]; ok && id != spec[k] {
			t.Errorf("sphere %d (R %g, material %d): species %d, an equal sphere's %d", k, b.R, b.Material, spec[k], id)
		}
		if o, ok := ids[spec[k]]; ok && o != kk {
			t.Errorf("sphere %d (R %g, material %d): species %d, which holds R %g, material %d", k, b.R, b.Material, spec[k], o.r, o.mat)
		}
		of[kk], ids[spec[k]] = spec[k], kk
	}
	if len(ids) != 4 { // two radii × two materials
		t.Errorf("%d species, want 4", len(ids))
	}
}
