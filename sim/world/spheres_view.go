package world

import "grainlab/sim/snap"

// The view's reader of the sphere path's flat state: the window keeps lazy
// bodies (SetLazyBodies) and reads the spheres' kinematics for a published
// snapshot straight from the accepted state, without writing the bodies.

// ViewBodies writes the position, orientation, velocity and angular
// velocity of every sphere into dst (one entry per body, in body order, as
// Snapshot makes them) from the sphere path's accepted flat state while the
// bodies lag behind it (SetLazyBodies), and reports whether it did; false
// means the bodies are current (Snapshot read them) and dst is unchanged.
// The bodies are not written: the next step carries on from the flat state.
func (w *World) ViewBodies(dst []snap.Body) bool {
	s := w.lazySpheres()
	if s == nil || len(dst) != len(w.Bodies()) || s.acc.Len() != len(s.idx) {
		return false
	}
	acc := s.accepted()
	for o := range acc.L {
		a, b := &acc.L[o], &dst[s.idx[o]]
		om, q := s.rotOf(&acc, o) // +0 and the body's Q without the array (spheres_rotnone.go)
		b.Pos, b.Rot, b.Vel, b.AngVel = a.X, q, a.V, om
	}
	return true
}

// BodiesLag reports whether the movable bodies lag behind the sphere path's
// accepted state (lazy bodies after a step; SyncBodies writes them).
func (w *World) BodiesLag() bool { return w.lazySpheres() != nil }
