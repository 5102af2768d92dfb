package state

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// lowOrder renumbers the sphere path's spheres from 64 spheres on, every
// `every` steps, for the test.
func lowOrder(t *testing.T, every int64) {
	m, e := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 64, every
	t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
}

// TestExactRestartSpatialOrder: a run whose sphere path holds its spheres in
// spatial order, restarted from its final.json (WriteInPlace) at t1,
// ends at t2 with the bits of the uninterrupted run, renumbering at the
// same steps: renumbered every 1 (at every list build) or 50 steps, Hooke
// without friction (sphere-box-soft, 218 spheres) and Hertz with friction
// (sphere-piling, 60 spheres). Before the file kept the order (s25 b5f)
// each differed (the restart summed the forces in body order until its
// first build, then renumbered from other centres).
func TestExactRestartSpatialOrder(t *testing.T) {
	cases := []struct {
		scene  string
		t1, t2 float64
		every  int64
	}{
		{"sphere-box-soft", 0.1, 0.13, 1},
		{"sphere-box-soft", 0.1, 0.13, 50},
		{"sphere-piling", 0.05, 0.07, 1},
		{"sphere-piling", 0.05, 0.07, 50},
	}
	for _, c := range cases {
		lowOrder(t, c.every)
		ref, end := started(t, c.scene)
		toLazy(t, ref, c.t1, end)
		data, err := inPlaceBytes(t, ref)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			History struct {
				SphereOrder struct {
					Bodies []int32 `json:"bodies"`
				} `json:"sphere_order"`
				VerletRef [][3]float64 `json:"verlet_ref"`
			} `json:"history"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		if o, _ := ref.SphereOrder(); !o || len(f.History.SphereOrder.Bodies) == 0 {
			t.Fatalf("%s every %d: ordered %v, %d spheres in sphere_order: the case is void", c.scene, c.every, o, len(f.History.SphereOrder.Bodies))
		}
		// The reference is in the file's sphere order: sphere k's centre
		// then is near its body's now (within the skin).
		far := 0.0
		for k, i := range f.History.SphereOrder.Bodies {
			if k < len(f.History.VerletRef) {
				far = max(far, ref.Bodies()[i].X.Sub(vec(f.History.VerletRef[k])).Norm())
			}
		}
		if len(f.History.VerletRef) > 0 && far > 0.002 {
			t.Fatalf("%s: verlet_ref[k] is %g m from body sphere_order[k]: not in the file's order", c.scene, far)
		}
		toLazy(t, ref, c.t2, end)
		b, notes := restartFrom(t, data, false, c.scene)
		if len(notes) > 0 {
			t.Fatal(notes)
		}
		toLazy(t, b, c.t2, end)
		if d := diffBodies(ref, b); d != "" {
			t.Fatalf("%s every %d: restart at %g s differs at %g s: %s", c.scene, c.every, c.t1, c.t2, d)
		}
		oa, aa := ref.SphereOrder()
		ob, ab := b.SphereOrder()
		if oa != ob || aa != ab {
			t.Fatalf("%s: order at t2: run %v at step %d, restart %v at step %d", c.scene, oa, aa, ob, ab)
		}
		t.Logf("%s every %d: %d steps, %d spheres in order (reference %d): identical, last renumbered at step %d", c.scene, c.every, b.Steps, len(f.History.SphereOrder.Bodies), len(f.History.VerletRef), ab)
	}
}

// TestRestartSpatialOrderGeneric: a final.json of spheres in spatial order
// restarted onto a world whose generic stages take the history (the sphere
// path off) reads no reference in the file's order as one in body order
// (a list kept that must be rebuilt: missed contacts): the run has the
// bits of the same restart from the handed-over file of that state
// (Encode: body order, no list).
func TestRestartSpatialOrderGeneric(t *testing.T) {
	lowOrder(t, 50)
	a, end := started(t, "sphere-box-soft")
	toLazy(t, a, 0.1, end)
	in, err := inPlaceBytes(t, a)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(in), `"sphere_order"`) {
		t.Fatal("no sphere_order in the file: the case is void")
	}
	out, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	run := func(data []byte) *world.World {
		f, err := Parse(data, "final.json")
		if err != nil {
			t.Fatal(err)
		}
		b, err := scene.Build(sceneSpec(t, "sphere-box-soft"))
		if err != nil {
			t.Fatal(err)
		}
		b.Settings.Workers, b.Settings.NoSpherePath = 2, true
		if _, err := ApplyNotes(b, f, "final.json"); err != nil {
			t.Fatal(err)
		}
		if err := integrate.Start(b); err != nil {
			t.Fatal(err)
		}
		to(t, b, 0.11, end)
		return b
	}
	x, y := run(in), run(out)
	if d := diffBodies(x, y); d != "" {
		t.Fatalf("generic restart from final.json and from the handed-over file differ: %s", d)
	}
}

// TestRestartSphereOrderErrors: a sphere_order that does not fit the scene
// is an error naming it, not a panic.
func TestRestartSphereOrderErrors(t *testing.T) {
	lowOrder(t, 50)
	a, end := started(t, "sphere-box-soft")
	toLazy(t, a, 0.05, end)
	p := filepath.Join(t.TempDir(), "final.json")
	if err := WriteInPlace(p, a); err != nil {
		t.Fatal(err)
	}
	good, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if good.History.SphereOrder == nil || len(good.History.SphereOrder.Bodies) < 2 {
		t.Fatal("no sphere_order: the case is void")
	}
	walls := a.Walls[0].Body
	for _, c := range []struct {
		edit func(h *world.History)
		want string
	}{
		{func(h *world.History) { h.SphereOrder.Bodies[1] = h.SphereOrder.Bodies[0] }, "listed twice"},
		{func(h *world.History) { h.SphereOrder.Bodies[0] = -1 }, "sphere_order.bodies[0]: body -1"},
		{func(h *world.History) { h.SphereOrder.Bodies[0] = 1 << 30 }, "sphere_order.bodies[0]: body"},
		{func(h *world.History) { h.SphereOrder.Bodies[0] = int32(walls) }, "is a wall"},
		{func(h *world.History) { h.SphereOrder.Bodies = h.SphereOrder.Bodies[1:] }, "sphere_order.bodies lists"},
		{func(h *world.History) { h.SphereOrder.At = -3 }, "sphere_order.at -3"},
	} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(data, p)
		if err != nil {
			t.Fatal(err)
		}
		c.edit(f.History)
		b, err := scene.Build(sceneSpec(t, "sphere-box-soft"))
		if err != nil {
			t.Fatal(err)
		}
		err = Apply(b, f, p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("error %v, want one with %q", err, c.want)
		}
	}
}
