package world

import (
	"crypto/sha256"
	"fmt"
)

// SphereOrderSplits returns how many renumberings ran their Morton codes,
// their Morton sort and their sortOld on the crew (spheres_order_split.go,
// spheres_sortold_split.go) in w's sphere path.
func SphereOrderSplits(w *World) (codes, radix, sorts int) {
	if w.sph == nil {
		return 0, 0, 0
	}
	return w.sph.rb.oc.runs, w.sph.rb.oc.sortsRun, w.sph.rb.so.runs
}

// SphereRefMax returns the reference's largest |coordinate| kept for the
// current build (ok false when none is kept yet), maxAbsCoord of the
// reference computed now, and how many builds took it in their own
// fork–join (spheres_refmax.go).
func SphereRefMax(w *World) (kept float64, ok bool, now float64, folds int) {
	s := w.sph
	if s == nil {
		return 0, false, 0, 0
	}
	d := &s.disp
	ok = d.xmaxOK && d.xmaxB == w.verlet.Builds()
	return d.xmax, ok, maxAbsCoord(w.verlet.Ref()), s.rb.refMaxFolds
}

// SphereSlotsAccepted returns a digest of every wall slot's accepted state
// (pTouch, pRim, pNew, pHist, the lengths of a rim entry's lists), and how
// many split kick passes accepted the slots and how many of those a failed
// force test undid (spheres_slots_undo.go).
func SphereSlotsAccepted(w *World) (digest string, passes, restores int) {
	s := w.sph
	if s == nil {
		return "", 0, 0
	}
	var b []byte
	for i := range s.slots {
		sl := &s.slots[i]
		b = fmt.Appendf(b, "%d %d %v %v %v %d|", sl.k, sl.wall, sl.pTouch, sl.pRim, sl.pNew, sl.pHist)
		if sl.e != nil {
			b = fmt.Appendf(b, "%d %d|", len(sl.e.prev), len(sl.e.cur))
		}
	}
	return fmt.Sprintf("%x", sha256.Sum256(b)), s.rb.undo.passes, s.rb.undo.restores
}
