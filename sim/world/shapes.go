package world

import (
	"fmt"

	"grainlab/sim/body"
	"grainlab/sim/sq"
)

// SmoothShapes returns, per material, the shape of its superquadric or sphere
// bodies (the first one met) and how many bodies have it — what a panel
// needs to offer shape editing.
func (w *World) SmoothShapes() []MaterialShape {
	var out []MaterialShape
	idx := map[int]int{}
	for _, b := range w.Bodies {
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
	}
	return out
}

// MaterialShape is the smooth shape of one material's bodies.
type MaterialShape struct {
	Material int
	Name     string
	Kind     body.Kind
	Shape    sq.Shape
	Count    int
}

// SetSmoothShape gives every sphere or superquadric body of material m the
// shape s (S1 eq. 1): mass, inertia and bounding radius follow at once at each
// body's density; positions, orientations and velocities are kept. A sphere
// material stays spherical unless s is not a sphere, when its bodies become
// superquadrics. The shape is validated first; on error nothing changes.
func (w *World) SetSmoothShape(m int, s sq.Shape) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if m < 0 || m >= len(w.Materials) {
		return fmt.Errorf("no material %d", m)
	}
	isSphere := s.A == s.B && s.B == s.C && s.N1 == 2 && s.N2 == 2
	for _, b := range w.Bodies {
		if b.Material != m || b.Kind == body.Polyhedral {
			continue
		}
		if isSphere {
			b.Kind = body.Sphere
		} else {
			b.Kind = body.Superquadric
		}
		b.SetShape(s)
	}
	for _, e := range w.bbPairs {
		e.hasMid = false // the warm start belongs to the old shape
	}
	w.skin = 0 // re-derive the Verlet skin from the new radii
	w.invalidate()
	w.Edits = append(w.Edits, Edit{Time: w.Time, Material: w.Materials[m], Shape: &s})
	return nil
}
