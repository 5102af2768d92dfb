package world_test

import (
	"strconv"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// World.bodies holds the records only (Session 27): a sphere block is a
// range of body indices that the records skip, without a nil pointer a
// sphere. A world of walls, a generator's block, a record, a second block
// and a record after it against the same world built record by record:
// every index's name and static fields, EachBody's names and centres,
// AddBody's indices, SetBodyState of a record after the blocks, and
// Bodies() (the records made into their places) agree; the world's array
// of records has no slot for a block's sphere (it fails when the blocks
// keep nil slots, or when the scene's builder reserves room for them).
func TestSphereBlockRecordsOnly(t *testing.T) {
	const n = 3000
	s, err := scene.LoadBuiltin("sphere-box-soft", "generators[0].count="+strconv.Itoa(n))
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
	want.Bodies() // records made: the reference
	if got.Virtual() != n {
		t.Fatalf("%d spheres in blocks, want %d", got.Virtual(), n)
	}
	nb := got.NumBodies()
	if l, c := got.RecordSlots(); l != nb-n || c > 2*(nb-n)+8 {
		t.Fatalf("the records' array holds %d of %d bodies (room %d): the block's spheres have slots", l, nb, c)
	}

	// A record, a second block and a record after it.
	tmpl := *got.BodyRec(nb - 1) // the block's template: a movable sphere
	rec := func(name string, x geom.Vec3) *body.Body {
		b := body.NewSphere(name, tmpl.R, 2500, x)
		b.Material = tmpl.Material
		return b
	}
	xs := []geom.Vec3{{X: 0.01, Y: 0.01, Z: 0.2}, {X: 0.02, Y: 0.01, Z: 0.2}, {X: 0.03, Y: 0.02, Z: 0.21}}
	for _, w := range []*world.World{got, want} {
		if i := w.AddBody(rec("lone", geom.Vec3{X: 0.005, Y: 0.005, Z: 0.3})); i != nb {
			t.Fatalf("AddBody: index %d, want %d", i, nb)
		}
	}
	if i := got.AddSphereBlock("extra", &tmpl, xs); i != nb+1 {
		t.Fatalf("AddSphereBlock: index %d, want %d", i, nb+1)
	}
	for k, x := range xs {
		b := new(body.Body)
		*b = tmpl
		b.Name, b.X = "extra"+strconv.Itoa(k), x
		want.AddBody(b)
	}
	last := nb + 1 + len(xs)
	for _, w := range []*world.World{got, want} {
		if i := w.AddBody(rec("tail", geom.Vec3{X: 0.015, Y: 0.005, Z: 0.3})); i != last {
			t.Fatalf("AddBody after the blocks: index %d, want %d", i, last)
		}
		if !w.SetBodyState(last, geom.Vec3{X: 0.016, Y: 0.006, Z: 0.31}, geom.QIdent(), geom.Vec3{Z: -1}, geom.Vec3{}, nil, nil) {
			t.Fatal("SetBodyState of a record refused")
		}
	}
	if got.Virtual() != n+len(xs) || got.NumBodies() != want.NumBodies() {
		t.Fatalf("%d bodies (%d in blocks), want %d", got.NumBodies(), got.Virtual(), want.NumBodies())
	}
	if l, _ := got.RecordSlots(); l != got.NumBodies()-got.Virtual() {
		t.Fatalf("the records' array holds %d of %d bodies, %d in blocks", l, got.NumBodies(), got.Virtual())
	}
	wb := want.Bodies()
	for i := range got.NumBodies() {
		a, b := got.BodyRec(i), wb[i]
		if got.BodyName(i) != b.Name || a.Kind != b.Kind || a.Fixed != b.Fixed || a.R != b.R ||
			a.Material != b.Material || a.Wall != b.Wall || a.Mass() != b.Mass() {
			t.Fatalf("body %d: %q (wall %d, R %v), want %q (wall %d, R %v)", i, got.BodyName(i), a.Wall, a.R, b.Name, b.Wall, b.R)
		}
	}
	seen := 0
	got.EachBody(func(i int, b *body.Body) {
		if i != seen || b.Name != wb[i].Name || b.X != wb[i].X || b.V != wb[i].V {
			t.Fatalf("EachBody: body %d (call %d) %q X %v V %v, want %q X %v V %v", i, seen, b.Name, b.X, b.V, wb[i].Name, wb[i].X, wb[i].V)
		}
		seen++
	})
	if seen != len(wb) {
		t.Fatalf("EachBody: %d bodies, want %d", seen, len(wb))
	}
	gb := got.Bodies()
	if got.Virtual() != 0 || len(gb) != len(wb) {
		t.Fatalf("Bodies: %d records (%d in blocks), want %d", len(gb), got.Virtual(), len(wb))
	}
	for i, b := range gb {
		if b == nil || b.Name != wb[i].Name || b.X != wb[i].X || b.V != wb[i].V || b.Mass() != wb[i].Mass() {
			t.Fatalf("Bodies()[%d]: %v, want %q X %v", i, b, wb[i].Name, wb[i].X)
		}
	}
	if i := got.AddBody(rec("after", geom.Vec3{Z: 0.35})); i != len(wb) {
		t.Fatalf("AddBody after Bodies: index %d, want %d", i, len(wb))
	}
}
