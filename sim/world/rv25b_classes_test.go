package world_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// rvLattice: n spheres of nspec radii over [0.8, 1]·R, a third of another
// material whose pair with the default is Hertzian, optionally periodic in x, y.
func rvLattice(t *testing.T, n, nspec int, periodic bool) *world.World {
	t.Helper()
	const d = 0.002
	pitch := 1.01 * d
	m := 1
	for m*m*40 < n {
		m++
	}
	layers := (n + m*m - 1) / (m * m)
	side, height := float64(m)*pitch, float64(layers+2)*pitch
	sets := []string{fmt.Sprintf("walls.box.max=[%g, %g, %g]", side, side, height),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", side, side, height)}
	if periodic {
		sets = append(sets,
			fmt.Sprintf("walls=[{name: bottom, type: plane, point: [%g, %g, 0], normal: [0, 0, 1], size: [%g, %g]}]", side/2, side/2, side, side),
			fmt.Sprintf("periodic={x: true, y: true, min: [0, 0, 0], max: [%g, %g, %g]}", side, side, 2*height))
	}
	w, proto := emptySphereBox(t, sets...)
	other := w.Material("other")
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range rng.Perm(n) {
		i, j, k := c%m, (c/m)%m, c/(m*m)
		jit := func() float64 { return (rng.Float64() - 0.5) * 0.01 * d }
		x := geom.V((float64(i)+0.5)*pitch+jit(), (float64(j)+0.5)*pitch+jit(), (float64(k)+0.5)*pitch+jit())
		r := proto.R
		if nspec > 1 {
			r *= 0.8 + 0.2*float64(c%nspec)/float64(nspec-1)
		}
		b := body.NewSphere(fmt.Sprintf("s%d", c), r, proto.Density(), x)
		b.Material = proto.Material
		if (c%nspec)%3 == 0 {
			b.Material = other
		}
		b.V = geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(0.2)
		w.AddBody(b)
	}
	hertz := *w.Params(0, 0)
	hertz.Smooth.Model = law.HertzLAMMPS
	if err := w.SetParams(other, 0, hertz); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// Review r2 (s25-b2): the classes by species at the table's edge (64 species:
// by species; 65: a class a pair), periodic, a law edit, a species added by a
// live edit (crossing 64 → 65), a history restore; 1 and 3 workers the same bits.
func TestRV25bClassesEdges(t *testing.T) {
	oldEvery := world.SphereReorderEvery
	defer func() { world.SphereReorderEvery = oldEvery }()
	world.SphereReorderEvery = 20
	for _, nspec := range []int{1, 64, 65} {
		for _, periodic := range []bool{false, true} {
			t.Run(fmt.Sprintf("nspec=%d,periodic=%v", nspec, periodic), func(t *testing.T) {
				run := func(workers int) string {
					w := rvLattice(t, 4500, nspec, periodic)
					w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
					out := ""
					steps := func(what string, n int) {
						for k := range n {
							if _, err := w.Integrator.Step(w, 1); err != nil {
								t.Fatal(err)
							}
							if _, err := world.SphereDtClassesCheck(w); err != nil {
								t.Fatalf("%d workers, %s step %d: %v", workers, what, k, err)
							}
							st := &w.Stats
							out += fmt.Sprintf("%x %x %d %x|", st.Kinetic, st.PotentialContact, st.Contacts, st.Dt)
						}
					}
					steps("start", 60)
					ns0, tab0 := world.SphereSpeciesRV(w)
					// law edit: the cross pair Hookean again, then Hertz for default-default
					if err := w.SetParams(w.Material("other"), 0, *w.Params(0, 0)); err != nil {
						t.Fatal(err)
					}
					steps("hooke", 20)
					hz := *w.Params(0, 0)
					hz.Smooth.Model = law.HertzLAMMPS
					if err := w.SetParams(0, 0, hz); err != nil {
						t.Fatal(err)
					}
					steps("hertz", 20)
					// a live edit: a sphere of a new radius (a new species)
					var top *body.Body
					for _, b := range w.Bodies() {
						if b.Wall < 0 && (top == nil || b.X.Z > top.X.Z) {
							top = b
						}
					}
					nb := body.NewSphere("new", top.R*0.77, top.Density(), top.X.Add(geom.V(0, 0, 3*top.R)))
					nb.Material = top.Material
					w.AddBody(nb)
					steps("added", 30)
					ns1, tab1 := world.SphereSpeciesRV(w)
					if workers == 1 {
						t.Logf("species %d (by species %v) -> %d (by species %v)", ns0, tab0, ns1, tab1)
					}
					if err := w.RestoreHistory(w.TakeHistory()); err != nil {
						t.Fatal(err)
					}
					steps("restored", 20)
					for _, b := range w.Bodies() {
						out += fmt.Sprintf("%x %x|", b.X, b.V)
					}
					return out
				}
				ref := run(1)
				for _, nw := range []int{3} {
					if got := run(nw); got != ref {
						t.Errorf("%d workers differ from 1", nw)
					}
				}
			})
		}
	}
}
