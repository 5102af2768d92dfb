package world

import (
	"fmt"
	"math"
	"slices"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// SetRelSplitCheck turns on (on) or off the check of relSelect's passes in
// ranges (spheres_inner_split.go) against the serial passes of session 23
// (relSerialMarks below, and sphere.Inner's Select and SelectLoose): at
// every selection the loose marks, the top lists, the count of pairs with a
// loose sphere, the grown neighbours in order, and the selected P, K, Out,
// Held, On and outcome must be the serial ones. It returns the number of
// passes and selections checked and the first difference ("" none).
func SetRelSplitCheck(on bool) (checked *int, bad *string) {
	checked, bad = new(int), new(string)
	if !on {
		relSplitCheck = nil
		return
	}
	relSplitCheck = func(j *relJob, te, tw relTop, withLoose int) {
		if *bad != "" {
			return
		}
		*checked++
		if withLoose < 0 { // a split selection, joined
			in := &j.l.Inner
			ref := sphere.Inner{Delta: in.Delta}
			var ok bool
			limit := j.limit
			if j.loose == nil {
				ok = ref.Select(j.l, j.ref, j.t, limit)
			} else {
				ok = ref.SelectLoose(j.l, j.ref, j.loose, j.t, limit)
			}
			if ok != (in.On && in.Held == j.t+1) || ref.On != in.On || ref.Held != in.Held ||
				math.Float64bits(ref.Out) != math.Float64bits(in.Out) ||
				!slices.Equal(ref.P, in.P) || !slices.Equal(ref.K, in.K) {
				*bad = fmt.Sprintf("split selection: on %v held %d out %g %d pairs, serial on %v held %d out %g %d pairs",
					in.On, in.Held, in.Out, len(in.P), ref.On, ref.Held, ref.Out, len(ref.P))
			}
			return
		}
		loose, rte, rtw, rwith, rgrown := relSerialMarks(j)
		var grown []int32
		for c := range j.parts {
			grown = append(grown, j.parts[c].grown...)
		}
		switch {
		case !slices.Equal(loose, j.loose):
			*bad = "loose marks"
		case rte != te || rtw != tw:
			*bad = fmt.Sprintf("top lists: %v %v, serial %v %v", te, tw, rte, rtw)
		case rwith != withLoose:
			*bad = fmt.Sprintf("pairs with a loose sphere: %d, serial %d", withLoose, rwith)
		case !slices.Equal(rgrown, grown):
			*bad = "grown neighbours"
		}
	}
	return
}

// relSerialMarks is relSelect's serial mark pass, wall marks and neighbour
// pass as session 23 wrote them, on j's inputs (into fresh marks).
func relSerialMarks(j *relJob) (loose []bool, te, tw relTop, withLoose int, grown []int32) {
	s, x, ref, l := j.s, j.x, j.ref, j.l
	tr, acc := s.tr.L, s.acc.L
	c0, vc, lim2, vlim2 := j.c0, j.vc, j.lim2, j.vlim2
	in := &l.Inner
	dt := s.dtDrift
	loose = make([]bool, len(x))
	for i := range x {
		a, b := &x[i], &ref[i]
		dx, dy, dz := a.X-b.X-c0.X, a.Y-b.Y-c0.Y, a.Z-b.Z-c0.Z
		e := float64(dx*dx) + float64(dy*dy) + float64(dz*dz)
		v := &tr[i].V
		w := geom.Vec3{X: v.X - vc.X, Y: v.Y - vc.Y, Z: v.Z - vc.Z}.Norm2()
		l := !(e <= lim2) || !(w <= vlim2) || acc[i].F != s.kin[s.spec[i]].Weight
		loose[i] = l
		if l {
			continue
		}
		if e > te.v[relTopN-1] {
			te.add(e, i)
		}
		if w > tw.v[relTopN-1] {
			tw.add(w, i)
		}
	}
	for i := range s.slots {
		sl := &s.slots[i]
		pl, st := &s.planes[sl.wall], &tr[sl.k]
		d := st.X.Sub(pl.P).Dot(pl.N)
		if !(d >= s.rOf(int(sl.k))+in.Delta/4+relAhead*dt*max(0, -st.V.Dot(pl.N))) {
			loose[sl.k] = true
		}
	}
	for _, p := range l.P {
		li, lj := loose[p.I], loose[p.J]
		if li || lj {
			withLoose++
		}
		if li != lj {
			if li {
				grown = append(grown, p.J)
			} else {
				grown = append(grown, p.I)
			}
		}
	}
	return
}

// InnerDigest describes the sphere path's current inner list to the bit:
// its flags, levels, bounds, pairs, loose marks and watches.
func InnerDigest(w *World) string {
	s := w.sph
	if s == nil {
		return ""
	}
	in := &s.lists[s.cur].Inner
	h := uint64(1469598103934665603)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	for k, p := range in.P {
		mix(uint64(p.I)<<32 | uint64(uint32(p.J)))
		mix(uint64(in.K[k]))
	}
	for i, l := range in.Loose {
		if l {
			mix(uint64(i))
		}
	}
	for _, k := range in.Watch {
		mix(uint64(k))
	}
	for _, k := range in.WatchK {
		mix(uint64(k))
	}
	return fmt.Sprintf("%v %d %v %x %v %x %x %x %d %d %x", in.On, in.Held, in.Dead, in.Out, in.Rel,
		in.E0, in.U, in.Grow, in.RelSelects, len(in.P), h)
}
