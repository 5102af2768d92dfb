package world_test

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// A sphere block's centres in the sphere path's acc from its build to its
// first Accept (sphere_block_acc.go): the block's array is dropped, and the
// block's readers (EachBody, Bodies, the start and the steps) get what a
// world whose records were made before the path (the centres in records)
// gets, to the bit — after the build, after a rebuild that remakes acc (a
// second block added: the centres go back to an array first), after a
// rebuild that leaves acc, and across the start's renumbering.
func TestSphereBlockCentresInAcc(t *testing.T) {
	load := func(t *testing.T, sets ...string) *world.World {
		t.Helper()
		s, err := scene.LoadBuiltin("sphere-box-soft", sets...)
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	same := func(t *testing.T, what string, got, want *world.World) {
		t.Helper()
		if got.NumBodies() != want.NumBodies() {
			t.Fatalf("%s: %d bodies, want %d", what, got.NumBodies(), want.NumBodies())
		}
		var wb []body.Body
		want.EachBody(func(_ int, b *body.Body) { wb = append(wb, *b) })
		got.EachBody(func(i int, b *body.Body) {
			w := &wb[i]
			if b.Name != w.Name || b.X != w.X || b.V != w.V || b.Q != w.Q || b.W != w.W || b.F != w.F || b.T != w.T {
				t.Fatalf("%s: body %d %q X %v V %v, want %q X %v V %v", what, i, b.Name, b.X, b.V, w.Name, w.X, w.V)
			}
		})
	}
	held := func(t *testing.T, what string, w *world.World, arrays, acc int) {
		t.Helper()
		if a, c := w.BlockCentresHeld(); a != arrays || c != acc {
			t.Fatalf("%s: %d blocks' centres in arrays, %d in acc; want %d, %d", what, a, c, arrays, acc)
		}
	}
	sets := []string{"generators[0].count=3000"}

	t.Run("start and steps", func(t *testing.T) {
		got, want := load(t, sets...), load(t, sets...)
		want.Bodies() // records before the path: the centres in them
		if got.Spheres() == nil || want.Spheres() == nil {
			t.Fatal("not on the sphere path")
		}
		held(t, "built", got, 0, 1)
		same(t, "built", got, want)
		// A rebuild that keeps acc (a changed key, the same spheres).
		for _, w := range []*world.World{got, want} {
			w.Gravity = geom.Vec3{Z: -9.80}
			w.Spheres()
		}
		held(t, "rebuilt", got, 0, 1)
		same(t, "rebuilt", got, want)
		for _, w := range []*world.World{got, want} {
			if err := integrate.Start(w); err != nil {
				t.Fatal(err)
			}
			w.SetLazyBodies(true)
			for range 80 {
				if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
					t.Fatal(err)
				}
			}
			w.SyncBodies()
		}
		held(t, "stepped", got, 0, 0)
		if got.Virtual() == 0 {
			t.Fatal("the block was made during the start or the steps")
		}
		same(t, "stepped", got, want)
	})

	t.Run("second block and records", func(t *testing.T) {
		got, want := load(t, sets...), load(t, sets...)
		want.Bodies()
		got.Spheres()
		held(t, "built", got, 0, 1)
		// A second block: the path's rebuild makes a longer acc.
		first := got.NumBodies() - 1
		rec := *got.BodyRec(first)
		x := []geom.Vec3{{X: 0.01, Y: 0.01, Z: 0.2}, {X: 0.02, Y: 0.01, Z: 0.2}, {X: 0.03, Y: 0.02, Z: 0.21}}
		got.AddSphereBlock("extra", &rec, x)
		want.AddSphereBlock("extra", &rec, x)
		held(t, "added", got, 1, 1) // the new block's own array; the first's stays in acc until the build
		if got.Spheres() == nil {
			t.Fatal("not on the sphere path after the second block")
		}
		held(t, "rebuilt", got, 0, 2)
		same(t, "rebuilt", got, want)
		// Records made while the centres are in acc.
		m0 := world.Materializations()
		got.Bodies()
		if world.Materializations() != m0+1 || got.Virtual() != 0 {
			t.Fatal("Bodies did not make the records")
		}
		same(t, "made", got, want)
	})
}
