package world_test

import (
	"math"
	"math/rand"
	"strconv"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// Reviewer r2 (session 27): random compositions of sphere blocks, records
// and walls, in any order, with Bodies() (materialize) at random points,
// against the same world built record by record. Every accessor
// (NumBodies, BodyName, BodyRec, EachBody, SetBodyState, AddBody's and
// AddSphereBlock's indices, Bodies) agrees at every step, and the two worlds
// step to the same bits, before and after further edits.
func TestSphereBlockRandomCompositions(t *testing.T) {
	virt := 0
	for seed := int64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewSource(seed))
		s, err := scene.LoadBuiltin("sphere-box-soft", "generators[0].count="+strconv.Itoa(50+rng.Intn(200)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := scene.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := scene.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		want.Bodies()
		tmpl := *got.BodyRec(got.NumBodies() - 1)
		nb, nw := 0, 0
		pos := func() geom.Vec3 {
			return geom.Vec3{X: 0.005 + 0.02*rng.Float64(), Y: 0.005 + 0.02*rng.Float64(), Z: 0.05 + 0.1*rng.Float64()}
		}
		check := func(what string) {
			t.Helper()
			if got.NumBodies() != want.NumBodies() {
				t.Fatalf("seed %d %s: %d bodies, want %d", seed, what, got.NumBodies(), want.NumBodies())
			}
			wb := want.Bodies()
			for i := range got.NumBodies() {
				a, b := got.BodyRec(i), wb[i]
				if got.BodyName(i) != b.Name || a.Kind != b.Kind || a.Fixed != b.Fixed || a.R != b.R || a.Wall != b.Wall || a.Mass() != b.Mass() {
					t.Fatalf("seed %d %s: body %d %q wall %d, want %q wall %d", seed, what, i, got.BodyName(i), a.Wall, b.Name, b.Wall)
				}
			}
			n := 0
			got.EachBody(func(i int, b *body.Body) {
				if i != n || b.Name != wb[i].Name || b.X != wb[i].X || b.V != wb[i].V || b.Q != wb[i].Q {
					t.Fatalf("seed %d %s: EachBody %d (call %d) %q X %v, want %q X %v", seed, what, i, n, b.Name, b.X, wb[i].Name, wb[i].X)
				}
				n++
			})
			if n != len(wb) {
				t.Fatalf("seed %d %s: EachBody %d calls, want %d", seed, what, n, len(wb))
			}
		}
		edit := func(stepped bool) {
			for op := range 10 {
				what := "op " + strconv.Itoa(op)
				switch k := rng.Intn(6); k {
				case 0, 1: // a block
					m := 1 + rng.Intn(6)
					xs := make([]geom.Vec3, m)
					for j := range xs {
						xs[j] = pos()
					}
					prefix := "blk" + strconv.Itoa(nb) + "_"
					nb++
					first := want.NumBodies()
					if i := got.AddSphereBlock(prefix, &tmpl, append([]geom.Vec3(nil), xs...)); i != first {
						t.Fatalf("seed %d %s: AddSphereBlock %d, want %d", seed, what, i, first)
					}
					for j, x := range xs {
						b := new(body.Body)
						*b = tmpl
						b.Name, b.X = prefix+strconv.Itoa(j), x
						want.AddBody(b)
					}
				case 2: // a record
					if !stepped && seed%2 == 0 {
						continue // even seeds: blocks and walls only until the first steps (the blocks step virtual)
					}
					x := pos()
					i1 := got.AddBody(body.NewSphere("rec"+strconv.Itoa(nb), tmpl.R, 2500, x))
					i2 := want.AddBody(body.NewSphere("rec"+strconv.Itoa(nb), tmpl.R, 2500, x))
					nb++
					if i1 != i2 {
						t.Fatalf("seed %d %s: AddBody %d, want %d", seed, what, i1, i2)
					}
				case 3: // a wall (a fixed record after the blocks)
					if stepped {
						continue
					}
					name := "extra" + strconv.Itoa(nw)
					nw++
					for _, w := range []*world.World{got, want} {
						z := 0.23 - 0.001*float64(nw)
						surf, err := shape.NewSurface(name, []geom.Vec3{{X: 0, Y: 0, Z: z}, {X: 0.012, Y: 0, Z: z}, {X: 0.012, Y: 0.012, Z: z}, {X: 0, Y: 0.012, Z: z}},
							[][3]int32{{0, 2, 1}, {0, 3, 2}})
						if err != nil {
							t.Fatal(err)
						}
						if _, err := w.AddWall(name, surf, 0, true); err != nil {
							t.Fatal(err)
						}
					}
				case 4: // a state written by index
					i := rng.Intn(want.NumBodies())
					if want.BodyRec(i).Fixed {
						continue
					}
					x, v := pos(), geom.Vec3{Z: -rng.Float64()}
					q, om := got.BodyRec(i).Q, got.BodyRec(i).W
					if !got.SetBodyState(i, x, q, v, om, nil, nil) {
						got.Bodies()[i].X, got.Bodies()[i].V = x, v
					}
					want.SetBodyState(i, x, q, v, om, nil, nil)
				case 5: // the records made
					if (stepped || seed%2 == 1) && rng.Intn(3) == 0 {
						got.Bodies()
					}
				}
				check(what)
			}
		}
		edit(false)
		step := func(n int) {
			for _, w := range []*world.World{got, want} {
				w.SetLazyBodies(true)
				if err := integrate.Start(w); err != nil {
					t.Fatal(err)
				}
				for range n {
					if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
						t.Fatal(err)
					}
				}
			}
			virt += got.Virtual()
			for _, w := range []*world.World{got, want} {
				w.SyncBodies()
			}
			check("stepped")
			gb, wb := got.Bodies(), want.Bodies()
			for i := range wb {
				if gb[i].X != wb[i].X || gb[i].V != wb[i].V || gb[i].W != wb[i].W {
					t.Fatalf("seed %d: stepped body %d X %v, want %v", seed, i, gb[i].X, wb[i].X)
				}
			}
		}
		step(20)
		edit(true)
		step(20)
	}
	if virt == 0 {
		t.Fatal("no composition stepped with its blocks virtual")
	}
	t.Logf("%d spheres stepped virtual", virt)
}
