package world

import "grainlab/sim/geom"

// PoisonAcceptedSphere sets component c (0–2: x, 3–5: v) of sphere o of the
// lazy sphere path's accepted state to val and writes Stats' kinetic and
// gravitational energies as Accept sums them from that state (energies():
// finishRange's sums, the same bits), with gravity g and, when zeroMass,
// every species' mass 0 (tests: the state a step that produced val would
// have accepted). It returns whether rotation is still (rotStill) and
// false when there is no lazy sphere path.
func PoisonAcceptedSphere(w *World, o, c int, val float64, g geom.Vec3, zeroMass bool) (rotStill, ok bool) {
	s := w.lazySpheres()
	if s == nil {
		return false, false
	}
	a := &s.accepted().L[o]
	p := [6]*float64{&a.X.X, &a.X.Y, &a.X.Z, &a.V.X, &a.V.Y, &a.V.Z}
	*p[c] = val
	g0 := w.Gravity
	w.Gravity = g
	var m []float64
	if zeroMass {
		for i := range s.specs {
			m = append(m, s.specs[i].mass)
			s.specs[i].mass = 0
		}
	}
	s.eStale = false
	w.Stats.Kinetic, w.Stats.PotentialGravity = s.energies()
	w.Gravity = g0
	for i := range m {
		s.specs[i].mass = m[i]
	}
	return s.rotStill, true
}
