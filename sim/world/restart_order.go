package world

import (
	"fmt"
	"slices"

	"grainlab/sim/body"
	"grainlab/sim/geom"
)

// SphereOrder reports whether the sphere path holds its spheres in spatial
// order (spheres_order.go) and, then, the step of its last renumbering;
// the tests read it.
func (w *World) SphereOrder() (ordered bool, at int64) {
	if s := w.sph; s != nil && s.ordered {
		return true, s.orderedAt
	}
	return false, 0
}

// restoredOrder is a state file's sphere order (History.SphereOrder) and
// the list's reference in that order, kept by RestoreHistory for the
// sphere path's next importGeneric.
type restoredOrder struct {
	bodies []int32 // the body of each sphere in the path's order; nil: none
	at     int64   // History.SphereOrder.At
	// ref and rad are the list's reference in that order (nil: none);
	// builds Verlet.Builds at RestoreHistory (a build since: stale).
	ref    []geom.Vec3
	rad    []float64
	builds int
}

// checkSphereOrder checks h's sphere order: distinct bodies that are not
// walls, as many as the list's reference has centres when it has any.
func (w *World) checkSphereOrder(h *History) error {
	if h.SphereOrder == nil {
		return nil
	}
	o := h.SphereOrder.Bodies
	if h.VerletRef != nil && len(h.VerletRef) != len(o) {
		return fmt.Errorf("sphere_order.bodies lists %d spheres, verlet_ref %d", len(o), len(h.VerletRef))
	}
	if h.SphereOrder.At < 0 {
		return fmt.Errorf("sphere_order.at %d: want a step ≥ 0", h.SphereOrder.At)
	}
	n := w.NumBodies()
	seen := make([]bool, n)
	for k, i := range o {
		if i < 0 || int(i) >= n {
			return fmt.Errorf("sphere_order.bodies[%d]: body %d: the scene has %d bodies", k, i, n)
		}
		if seen[i] {
			return fmt.Errorf("sphere_order.bodies[%d]: body %d listed twice", k, i)
		}
		seen[i] = true
	}
	bad := -1
	w.EachBody(func(i int, b *body.Body) {
		if bad < 0 && seen[i] && b.Wall >= 0 {
			bad = i
		}
	})
	if bad >= 0 {
		return fmt.Errorf("sphere_order.bodies: body %d is a wall", bad)
	}
	return nil
}

// keepSphereOrder keeps h's sphere order (checked) and the list's
// reference ref in that order (nil: none) for the sphere path, or
// forgets an earlier one when h has none.
func (w *World) keepSphereOrder(h *History, ref []geom.Vec3) {
	if h.SphereOrder == nil {
		if w.sph != nil {
			w.sph.restored = restoredOrder{}
		}
		return
	}
	if w.sph == nil {
		w.sph = &Spheres{w: w}
	}
	ro := restoredOrder{bodies: slices.Clone(h.SphereOrder.Bodies), at: h.SphereOrder.At, builds: w.verlet.Builds()}
	if ref != nil {
		ro.ref, ro.rad = ref, h.VerletRad // Update copies them
	}
	w.sph.restored = ro
}

// importOrder renumbers the spheres in a restart's order (keepSphereOrder)
// when the path takes over the history it came with, and builds the
// Verlet list from the file's reference, which is in that order: the
// run's order, list and step of its last renumbering are the file's. A
// file without an order, or one that does not fit (another set of
// spheres, the list built since by a generic stage, a periodic world),
// leaves the spheres in body order and the list to be rebuilt (the file's
// reference is never read in another order than its own).
func (s *Spheres) importOrder() {
	ro := s.restored
	s.restored = restoredOrder{}
	w := s.w
	n := len(s.idx)
	if ro.bodies == nil || s.ordered || w.Periodic.On() || len(ro.bodies) != n || w.verlet.Builds() != ro.builds {
		return
	}
	if ro.ref != nil && len(ro.ref) != n {
		return
	}
	perm := make([]int32, n) // perm[new] = old (sphere indices in body order)
	for k, i := range ro.bodies {
		if int(i) >= len(s.sidx) || s.sidx[i] < 0 {
			return
		}
		perm[k] = s.sidx[i]
	}
	// importGeneric makes the list and the slots anew: the old ones are
	// not renumbered (they may be another build's).
	s.lists[s.cur].P = s.lists[s.cur].P[:0]
	s.slots = s.slots[:0]
	s.applyOrder(perm, &orderScratch{})
	s.ordered, s.orderedAt = true, ro.at
	if ro.ref != nil {
		w.verlet.Update(ro.ref, ro.rad, w.skin) // RestoreHistory's, in this order
		// Listed with the path's radii, as in the run that wrote the file:
		// the first Drift makes the list's test (a rebuild then renumbers
		// when due, wantReorder), not Update after it (which would rebuild
		// in place when due, and the renumbering come at another build).
		if slices.Equal(ro.rad, s.rad) {
			s.listed, s.skin = true, w.skin
		}
	}
}
