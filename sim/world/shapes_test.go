package world

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/sq"
)

// polydisperse returns a world with three superquadrics of material 0 in
// three sizes (and densities), a sphere of material 0 and a superquadric
// of material 1.
func polydisperse() (*World, []*body.Body) {
	w := New("poly")
	m1 := w.Material("other")
	q := geom.QIdent()
	bs := []*body.Body{
		body.NewSuperquadric("a", sq.Shape{A: 0.004, B: 0.003, C: 0.0025, N1: 4, N2: 4}, 2500, geom.V(0, 0, 0), q),
		body.NewSuperquadric("b", sq.Shape{A: 0.006, B: 0.0045, C: 0.003, N1: 4, N2: 4}, 2500, geom.V(0.1, 0, 0), q),
		body.NewSuperquadric("c", sq.Shape{A: 0.0021, B: 0.0033, C: 0.0017, N1: 3, N2: 5}, 1200, geom.V(0.2, 0, 0), q),
		body.NewSphere("d", 0.005, 2500, geom.V(0.3, 0, 0)),
		body.NewSuperquadric("e", sq.Shape{A: 0.004, B: 0.003, C: 0.0025, N1: 4, N2: 4}, 2500, geom.V(0.4, 0, 0), q),
	}
	bs[4].Material = m1
	for _, b := range bs {
		w.AddBody(b)
	}
	return w, bs
}

// A shape edit of a polydisperse material (the window's blockiness slider,
// SetSmoothShape) changes the blockiness of every body of the material and
// keeps each body's own size: the half-lengths of each are its own to the
// bit when the edit keeps the first body's, and scaled by the first body's
// ratio (to 1e-15) when it changes them; mass, inertia and bounding radius
// are those of a body built with its new shape at its own density (S1
// §2.1, eq. 12; to 1e-15); another material's body is untouched; the
// undo (EditSmoothShape) gives every body its own shape, mass and radius
// back to the bit and leaves no edit in Edits. SmoothShapes says the
// material is varied.
func TestSetSmoothShapePolydisperse(t *testing.T) {
	w, bs := polydisperse()
	type saved struct {
		kind body.Kind
		s    sq.Shape
		m, r float64
		i    geom.Mat3
	}
	save := func() []saved {
		var out []saved
		for _, b := range bs {
			out = append(out, saved{b.Kind, b.SQ(), b.Mass(), b.R, b.IBody()})
		}
		return out
	}
	before := save()
	check := func(what string, s sq.Shape) {
		t.Helper()
		ref := before[0].s
		for i, b := range bs[:4] {
			own := before[i].s
			want := sq.Shape{A: own.A * s.A / ref.A, B: own.B * s.B / ref.B, C: own.C * s.C / ref.C, N1: s.N1, N2: s.N2}
			got := b.SQ()
			for _, d := range [][2]float64{{got.A, want.A}, {got.B, want.B}, {got.C, want.C}} {
				if math.Abs(d[0]-d[1]) > 1e-15*d[1] {
					t.Fatalf("%s: body %s: shape %+v, want its own size scaled: %+v", what, b.Name, got, want)
				}
			}
			if got.N1 != s.N1 || got.N2 != s.N2 || b.Kind != body.Superquadric {
				t.Fatalf("%s: body %s: %v %+v, want a superquadric of blockiness %g, %g", what, b.Name, b.Kind, got, s.N1, s.N2)
			}
			if s.A == ref.A && s.B == ref.B && s.C == ref.C && (got.A != own.A || got.B != own.B || got.C != own.C) {
				t.Fatalf("%s: body %s: half-lengths %+v, want its own %+v to the bit", what, b.Name, got, own)
			}
			nb := body.NewSuperquadric("x", got, b.Density(), geom.V(0, 0, 0), geom.QIdent())
			if math.Abs(b.Mass()-nb.Mass()) > 1e-15*nb.Mass() || math.Abs(b.R-nb.R) > 1e-15*nb.R ||
				math.Abs(b.IBody()[0][0]-nb.IBody()[0][0]) > 1e-15*nb.IBody()[0][0] {
				t.Fatalf("%s: body %s: m %g R %g, want %g %g", what, b.Name, b.Mass(), b.R, nb.Mass(), nb.R)
			}
		}
		if e := bs[4]; e.SQ() != before[4].s || e.Mass() != before[4].m || e.R != before[4].r {
			t.Fatalf("%s: the other material's body changed: %+v", what, e.SQ())
		}
	}

	if ms := w.SmoothShapes(); len(ms) != 2 || ms[0].Count != 4 || !ms[0].Varied || ms[0].Shape != before[0].s || ms[1].Varied {
		t.Fatalf("SmoothShapes %+v: want material 0 of 4 varied bodies, first %+v; material 1 not varied", ms, before[0].s)
	}
	blocky := before[0].s
	blocky.N1, blocky.N2 = 8, 6
	undo, err := w.EditSmoothShape(0, blocky)
	if err != nil {
		t.Fatal(err)
	}
	check("blockiness", blocky)
	if len(w.Edits) != 1 || *w.Edits[0].Shape != blocky {
		t.Fatalf("edits %+v", w.Edits)
	}
	undo()
	for i, b := range bs {
		if got := (saved{b.Kind, b.SQ(), b.Mass(), b.R, b.IBody()}); got != before[i] {
			t.Fatalf("undo: body %s is %+v, want %+v", b.Name, got, before[i])
		}
	}
	if len(w.Edits) != 0 {
		t.Fatalf("undo left edits %+v", w.Edits)
	}

	bigger := sq.Shape{A: 0.008, B: 0.0045, C: 0.002, N1: 2.5, N2: 3}
	if err := w.SetSmoothShape(0, bigger); err != nil {
		t.Fatal(err)
	}
	check("half-lengths", bigger)
}
