package world

import (
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/sq"
)

// Review rv1 (session 10): spheres of two materials with one radius and
// density share one record (material is not in it); a shape edit of one
// material (SetSmoothShape, the window's live edit) must leave the other
// material's bodies bit for bit as they were, and the edited ones must hold
// the bits of a body built with the new shape.
func TestReviewShapeEditAcrossMaterialsSharingARecord(t *testing.T) {
	w := New("review")
	m1 := w.Material("other")
	a := body.NewSphere("a", 0.01, 2500, geom.V(0, 0, 0))
	b := body.NewSphere("b", 0.01, 2500, geom.V(1, 0, 0))
	b.Material = m1
	w.AddBody(a)
	w.AddBody(b)
	mb, ib, ivb, rb, sb := b.Mass(), b.IBody(), b.IBodyInv(), b.R, b.SQ()
	s := sq.Shape{A: 0.01, B: 0.02, C: 0.015, N1: 4, N2: 3}
	if err := w.SetSmoothShape(0, s); err != nil {
		t.Fatal(err)
	}
	if b.Mass() != mb || b.IBody() != ib || b.IBodyInv() != ivb || b.R != rb || b.SQ() != sb || b.Kind != body.Sphere {
		t.Fatalf("editing material 0 changed material 1's sphere: m %g I %v", b.Mass(), b.IBody())
	}
	want := body.NewSuperquadric("w", s, 2500, geom.V(0, 0, 0), geom.QIdent())
	if a.Kind != body.Superquadric || a.Mass() != want.Mass() || a.IBody() != want.IBody() ||
		a.IBodyInv() != want.IBodyInv() || a.R != want.R || a.RVol() != want.RVol() || a.SQ() != s || a.Density() != 2500 {
		t.Fatalf("edited body: m %g I %v R %g; want m %g I %v R %g", a.Mass(), a.IBody(), a.R, want.Mass(), want.IBody(), want.R)
	}
}
