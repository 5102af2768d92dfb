package world

import (
	"fmt"

	"grainlab/sim/body"
	"grainlab/sim/sq"
)

// SmoothShapes returns, per material, the shape of its superquadric or sphere
// bodies (the first one met), how many there are and whether they differ
// from it (Varied) — what a panel needs to offer shape editing.
func (w *World) SmoothShapes() []MaterialShape {
	var out []MaterialShape
	idx := map[int]int{}
	for _, b := range w.Bodies() {
		if b.Kind == body.Polyhedral {
			continue
		}
		i, ok := idx[b.Material]
		if !ok {
			i = len(out)
			idx[b.Material] = i
			out = append(out, MaterialShape{Material: b.Material, Name: w.Materials[b.Material], Kind: b.Kind, Shape: b.SQ()})
		}
		out[i].Count++
		out[i].Varied = out[i].Varied || b.SQ() != out[i].Shape
	}
	return out
}

// MaterialShape is the smooth shape of one material's bodies: Shape that
// of the first, Count how many, Varied whether some have another size or
// blockiness (a polydisperse material: SetSmoothShape keeps each body's size
// relative to the first).
type MaterialShape struct {
	Material int
	Name     string
	Kind     body.Kind
	Shape    sq.Shape
	Count    int
	Varied   bool
}

// SetSmoothShape changes the shape of the sphere and superquadric bodies of
// material m (S1 eq. 1), as the window's Shapes panel edits it: s is the new
// shape of the material's first such body (the shape SmoothShapes reports),
// and every body keeps its size relative to that one — its half-lengths are
// scaled by s.A/A₀, s.B/B₀, s.C/C₀ (A₀, B₀, C₀ the first body's; a body of
// the first one's size takes s's exactly), its blockiness becomes s.N1,
// s.N2 — so a polydisperse material keeps its spread of sizes. Mass,
// inertia and bounding radius follow at each body's density; positions,
// orientations and velocities are kept. A body whose new shape is a sphere
// is a sphere, otherwise a superquadric. The shapes are validated first; on
// error nothing changes. The edit is recorded in Edits (a restart replays
// it).
func (w *World) SetSmoothShape(m int, s sq.Shape) error {
	_, err := w.EditSmoothShape(m, s)
	return err
}

// EditSmoothShape is SetSmoothShape, returning a function that undoes the
// edit: every body of the material gets its own shape, mass and bounding
// radius back to the bit, the Verlet skin its value, and the edit leaves
// Edits (as if it had not been made; the pairs' warm starts stay dropped).
// The undo must run before any other edit of the world's shapes.
func (w *World) EditSmoothShape(m int, s sq.Shape) (undo func(), err error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if m < 0 || m >= len(w.Materials) {
		return nil, fmt.Errorf("no material %d", m)
	}
	var bodies []*body.Body
	var index []int
	var shapes []sq.Shape
	var ref sq.Shape
	for i, b := range w.Bodies() {
		if b.Material != m || b.Kind == body.Polyhedral {
			continue
		}
		if len(bodies) == 0 {
			ref = b.SQ()
		}
		own := b.SQ()
		n := sq.Shape{A: scaled(s.A, own.A, ref.A), B: scaled(s.B, own.B, ref.B), C: scaled(s.C, own.C, ref.C), N1: s.N1, N2: s.N2}
		if err := n.Validate(); err != nil {
			return nil, fmt.Errorf("body %s: %w", b.Name, err)
		}
		bodies, index, shapes = append(bodies, b), append(index, i), append(shapes, n)
	}
	old := make([]body.ShapeState, len(bodies))
	for i, b := range bodies {
		old[i] = b.ShapeState()
		w.keepSceneShape(index[i], old[i])
		n := shapes[i]
		if n.A == n.B && n.B == n.C && n.N1 == 2 && n.N2 == 2 {
			b.Kind = body.Sphere
		} else {
			b.Kind = body.Superquadric
		}
		b.SetShape(n)
	}
	for _, e := range w.bbPairs {
		e.hasMid = false // the warm start belongs to the old shape
	}
	skin, edits := w.skin, len(w.Edits)
	w.skin = 0 // re-derive the Verlet skin from the new radii
	w.invalidate()
	w.Edits = append(w.Edits, Edit{Time: w.Time, Material: w.Materials[m], Shape: &s})
	return func() {
		for i, b := range bodies {
			b.RestoreShape(old[i])
		}
		w.skin = skin
		w.invalidate()
		w.Edits = w.Edits[:edits]
	}, nil
}

// keepSceneShape records st as the shape of body i before its first shape
// edit (World.sceneShape), unless one is recorded already.
func (w *World) keepSceneShape(i int, st body.ShapeState) {
	if i >= len(w.sceneShape) {
		w.sceneShape = append(w.sceneShape, make([]body.ShapeState, i+1-len(w.sceneShape))...)
	}
	if w.sceneShape[i] == (body.ShapeState{}) {
		w.sceneShape[i] = st
	}
}

// restoreSceneShapes gives every body a shape edit has changed its shape,
// mass and bounding radius before the first edit (the scene's, to the bit:
// body.RestoreShape), so that a history's edits replayed next
// (RestoreHistory) start from the shapes a restarted run starts from: the
// edits are relative (a polydisperse body is scaled by the first body's
// ratio), and a resumed run holds the shapes of its latest edits, which
// the history may not have. It reports whether a body changed.
func (w *World) restoreSceneShapes() bool {
	changed := false
	for i, st := range w.sceneShape {
		if st == (body.ShapeState{}) {
			continue
		}
		if b := w.Bodies()[i]; b.ShapeState() != st {
			b.RestoreShape(st)
			changed = true
		}
	}
	if changed {
		for _, e := range w.bbPairs {
			e.hasMid = false // the warm start belongs to the edited shape
		}
		w.skin = 0
		w.invalidate()
	}
	return changed
}

// scaled returns the half-length to·(own/ref) of a body whose material's
// first body goes from ref to to: to itself when own is ref (a monodisperse
// material takes the edited shape to the bit), own itself when to is ref
// (a blockiness edit keeps every body's size to the bit).
func scaled(to, own, ref float64) float64 {
	switch {
	case own == ref:
		return to
	case to == ref:
		return own
	}
	return to * (own / ref)
}
