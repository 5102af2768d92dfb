package world

import (
	"fmt"

	"grainlab/sim/law"
)

// SphereDtClassesCheck checks the step-size class of every pair of the
// sphere path's list (dtTables.classOf) against the pair's own spheres:
// its law (its materials'), whether the law is Hookean, r_min, R_eff and
// m_eq, and the list's least Hookean spring bound and all-Hookean flag
// against those of the pairs' classes. It returns the number of classes
// the list's pairs have.
func SphereDtClassesCheck(w *World) (int, error) {
	s := w.Spheres()
	if s == nil {
		return 0, fmt.Errorf("no sphere path")
	}
	t, l := &s.dt, &s.lists[s.cur]
	if t.bySpec != nil && t.cls != nil {
		return 0, fmt.Errorf("classes tabulated by species, and %d kept by pair", len(t.cls))
	}
	met := map[int32]bool{}
	hookeMin, allHooke := inf, true
	for k, p := range l.P {
		c := t.classOf(l, k)
		if c < 0 || int(c) >= len(t.classes) {
			return 0, fmt.Errorf("pair %d: class %d of %d", k, c, len(t.classes))
		}
		cl := &t.classes[c]
		a, b := p.I, p.J
		li := s.lawOf[int(s.matOf(int(a)))*s.nmat+int(s.matOf(int(b)))]
		ra, rb := s.rOf(int(a)), s.rOf(int(b))
		meq := law.EquivalentMass(s.specs[s.spec[a]].mass, s.specs[s.spec[b]].mass)
		if cl.law != li || cl.hooke != (s.laws[li].Model == law.HookeLAMMPS) {
			return 0, fmt.Errorf("pair %d (species %d, %d): class %d has law %d (Hooke %v), its materials' %d", k, s.spec[a], s.spec[b], c, cl.law, cl.hooke, li)
		}
		if cl.rmin != min(ra, rb) || cl.reff != law.Reduced(ra, rb) || cl.meq != meq {
			return 0, fmt.Errorf("pair %d (species %d, %d): class %d has r_min %g, R_eff %g, m_eq %g; the pair %g, %g, %g",
				k, s.spec[a], s.spec[b], c, cl.rmin, cl.reff, cl.meq, min(ra, rb), law.Reduced(ra, rb), meq)
		}
		met[c] = true
		if cl.hooke {
			hookeMin = min(hookeMin, cl.spring)
		} else {
			allHooke = false
		}
	}
	if t.hookeMin != hookeMin || t.allHooke != allHooke {
		return 0, fmt.Errorf("least Hookean spring bound %g, all Hookean %v; the pairs' %g, %v", t.hookeMin, t.allHooke, hookeMin, allHooke)
	}
	return len(met), nil
}

// SphereDtPairBytes is the bytes the step-size classes keep a list pair
// (dtTables.cls's room over the list's pairs).
func SphereDtPairBytes(w *World) float64 {
	s := w.Spheres()
	if s == nil || len(s.lists[s.cur].P) == 0 {
		return 0
	}
	return 4 * float64(cap(s.dt.cls)) / float64(len(s.lists[s.cur].P))
}
