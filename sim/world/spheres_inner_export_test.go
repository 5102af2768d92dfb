package world

import "math"

// SetInnerOn turns the sphere path's inner list on or off (innerOn) and
// returns the previous setting.
func SetInnerOn(on bool) bool {
	was := innerOn
	innerOn = on
	return was
}

// InnerInUse reports whether the last evaluation's kernels scanned the
// inner list, and its pairs and the list's.
func InnerInUse(w *World) (on bool, inner, pairs int) {
	if w.sph == nil {
		return false, 0, 0
	}
	l := &w.sph.lists[w.sph.cur]
	return l.Inner.On, len(l.Inner.P), len(l.P)
}

// SetInnerRelOn turns the inner list's moving frame on or off and returns
// what it was.
func SetInnerRelOn(on bool) bool {
	was := innerRelOn
	innerRelOn = on
	return was
}

// InnerRelSelects returns the moving-frame selections made so far and
// whether the last evaluation used one (Rel and On).
func InnerRelSelects(w *World) (int, bool) {
	if w.sph == nil {
		return 0, false
	}
	s := w.sph
	in := &s.lists[s.cur].Inner
	return s.lists[0].Inner.RelSelects + s.lists[1].Inner.RelSelects, in.Rel && in.On
}

// InnerRelBound checks the moving frame's bound at the last evaluation,
// if it was in use (Rel): every listed pair of two tight spheres has
// |d_I − d_J| ≤ E0 + 2·Grow, d = x − ref (what the kernels need: |x_I −
// x_J| ≥ r_IJ − |d_I − d_J|, and |d_I − d_J| ≤ |d_I − c| + |d_J − c|). It
// returns whether the bound was in use, the largest |d_I − d_J|/E and the
// pairs checked.
func InnerRelBound(w *World) (used bool, worst float64, pairs int) {
	s := w.sph
	if s == nil {
		return false, 0, 0
	}
	l := &s.lists[s.cur]
	in := &l.Inner
	if !in.Rel {
		return false, 0, 0
	}
	ref, x, e := w.verlet.Ref(), s.tr.X, in.E0+2*in.Grow
	for _, p := range l.P {
		if in.Loose[p.I] || in.Loose[p.J] {
			continue
		}
		q := x[p.I].Sub(ref[p.I]).Sub(x[p.J].Sub(ref[p.J])).Norm()
		worst = max(worst, q/e)
		pairs++
	}
	return true, worst, pairs
}

// InnerMissed (review r1) compares the inner list with a full scan at the
// trial state of the last evaluation: the listed pairs within their
// cut-off (the kernels' test) that the inner list left out, while it was
// on. It returns whether the inner list and the moving frame were in use,
// and the pairs missed.
func InnerMissed(w *World) (on, rel bool, missed int) {
	s := w.sph
	if s == nil {
		return false, false, 0
	}
	l := &s.lists[s.cur]
	in := &l.Inner
	if !in.On {
		return false, in.Rel, 0
	}
	inK := make(map[int32]bool, len(in.K))
	for _, k := range in.K {
		inK[k] = true
	}
	X := s.tr.X
	for k := range l.P {
		p := &l.P[k]
		a, b := X[p.I], X[p.J]
		dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
		if d2 := float64(dx*dx) + float64(dy*dy) + float64(dz*dz); d2 < l.ClassOf(k).Cut2 && !inK[int32(k)] {
			missed++
		}
	}
	return true, in.Rel, missed
}

// InnerSkin returns the world's skin and the inner list's level Δ.
func InnerSkin(w *World) (skin, delta float64) {
	s := w.sph
	return s.skin, s.lists[s.cur].Inner.Delta
}

// InnerRelWalls checks the moving frame's watch per wall at the last
// evaluation, if the frame was in use (Rel and On): every watched slot (a
// tight sphere's) passes the per-slot test, its d computed as evalSlots
// computes it at least r + 2⁻²⁰r + 2⁻⁴⁰·XMax. It returns whether the
// frame was in use, the watched slots that fail it and the smallest
// (d − r)/Δ of the watched slots (+Inf: none).
func InnerRelWalls(w *World) (used bool, bad int, least float64) {
	s := w.sph
	least = math.Inf(1)
	if s == nil {
		return false, 0, least
	}
	in := &s.lists[s.cur].Inner
	if !in.Rel || !in.On {
		return false, 0, least
	}
	x := 0x1p-40 * in.XMax
	for _, i := range in.Watch {
		sl := &s.slots[i]
		pl := &s.planes[sl.wall]
		r := s.rOf(int(sl.k))
		d := s.tr.L[sl.k].X.Sub(pl.P).Dot(pl.N)
		if !(d >= r+0x1p-20*r+x) {
			bad++
		}
		least = min(least, (d-r)/in.Delta)
	}
	return true, bad, least
}

// InnerRelTopCheck turns relSelect's check of its top lists on or off
// and returns the selections that needed the full pass, the selections
// checked and those whose top lists gave other values than the pass, all
// since the last call (then set to 0).
func InnerRelTopCheck(on bool) (full, checked, bad int) {
	full, checked, bad = relFull, relTopChecked, relTopBad
	relFull, relTopChecked, relTopBad, relTopCheck = 0, 0, 0, on
	return full, checked, bad
}
