package world

import (
	"grainlab/sim/body"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
	"math"
	"time"
)

// The step bound of the sphere path is StableDt's, evaluated by class:
// pairs whose bodies have the same mass properties and law (a class) share
// the spring bound of pairDtSmooth, which only grows with the pair's speed
// and overlap. So the Hookean bound is a constant per class, taken once
// (as the generic cache does), and a Hertzian class needs the bound only at
// its largest speed and overlap — the same minimum, one evaluation per class.

// dtTables are the step-size classes of the sphere path.
//
// A list pair's class is its species pair's (and the law of their
// materials, which the species fix), so up to maxClassSpecies species the
// pairs keep none of their own: classOf reads the species pair from the
// list's class key (sphere.List.CI, spec[I]·nspec + spec[J], kept for the
// pair classes anyway; none in a one-species world) and its class from
// bySpec. Beyond, each pair keeps its class in cls (4 bytes a pair;
// Session 25: 15 MB at 10⁶ spheres for the one class of the benchmark box).
type dtTables struct {
	classes  []dtClass
	cls      []int32 // class of list pair k; only when bySpec is nil (classOf)
	pairOf   map[[2]int32]int32
	bySpec   []int32 // class of species pair [sa·nspec + sb], either order (filled both ways), −1 before it is met; nil beyond maxClassSpecies
	wallOf   map[[2]int32]int32
	wallBy   []int32 // class of species sp against wall wi [sp·nwalls + wi], −1 before it is met (wallOf's, at hand); nil beyond maxClassSpecies
	hookeMin float64 // smallest spring bound of the Hookean classes in the list
	allHooke bool    // every pair of the list has a Hookean law
	// StableDt's fresh pairs in nChunks ranges on the crew: the job (made
	// once) and each range's smallest travel bound.
	freshJob func(worker, lo, hi int)
	freshMin [nChunks]float64
}

// dtClass is one step-size class: representatives of its two bodies, its
// law, the constants of pairDtSmooth and the maxima of a StableDt pass.
type dtClass struct {
	a, b            *body.Body
	law             int32
	hooke           bool
	spring          float64 // Hooke: the cached bound (springDt at no overlap)
	rmin, reff, meq float64
	vmax, dmax      float64
	on              bool
}

// build forgets every class (the tables of s changed).
func (t *dtTables) build(s *Spheres) {
	t.classes = t.classes[:0]
	t.pairOf = map[[2]int32]int32{}
	t.wallOf = map[[2]int32]int32{}
	t.bySpec = nil
	wallBy := t.wallBy
	t.wallBy = nil
	if ns := len(s.rep); ns <= maxClassSpecies {
		t.cls = nil // classOf reads bySpec
		t.wallBy = resize(wallBy, ns*len(s.w.Walls))
		for i := range t.wallBy {
			t.wallBy[i] = -1
		}
		t.bySpec = make([]int32, ns*ns)
		for i := range t.bySpec {
			t.bySpec[i] = -1
		}
	}
}

// class returns the class of bodies a and b with law li, added when new.
func (t *dtTables) class(s *Spheres, key [2]int32, m map[[2]int32]int32, a, b *body.Body, li int32) int32 {
	if c, ok := m[key]; ok {
		return c
	}
	c := dtClass{a: a, b: b, law: li, hooke: s.laws[li].Model == law.HookeLAMMPS}
	c.rmin, c.reff = min(a.R, b.R), law.Reduced(a.R, b.R)
	if a.Wall >= 0 {
		c.rmin, c.reff = b.R, b.R
	} else if b.Wall >= 0 {
		c.rmin, c.reff = a.R, a.R
	}
	c.meq = law.EquivalentMass(a.MassOrInf(), b.MassOrInf())
	if c.hooke {
		c.spring = s.w.springDt(a, b, c.meq, &s.laws[li], 0, 0)
	}
	id := int32(len(t.classes))
	t.classes = append(t.classes, c)
	m[key] = id
	return id
}

// classOf returns the step-size class of pair k of the list l (the
// sphere path's current list): its species pair's class when they are
// tabulated (bySpec; the pair's key in l.CI, or 0 when the world has one
// species pair), else the pair's own (cls).
func (t *dtTables) classOf(l *sphere.List, k int) int32 {
	switch {
	case t.bySpec == nil:
		return t.cls[k]
	case l.CI != nil:
		return t.bySpec[l.CI[k]]
	}
	return t.bySpec[0]
}

// specClass returns the class of species sa and sb (sa ≤ sb), added when
// new (bySpec written both ways).
func (t *dtTables) specClass(s *Spheres, sa, sb int32) int32 {
	ns := int32(len(s.rep))
	if c := t.bySpec[sa*ns+sb]; c >= 0 {
		return c
	}
	a, b := s.rep[sa], s.rep[sb]
	c := t.class(s, [2]int32{sa, sb}, t.pairOf, a, b, s.lawOf[a.Material*s.nmat+b.Material])
	t.bySpec[sa*ns+sb], t.bySpec[sb*ns+sa] = c, c
	return c
}

// meet folds class c of a listed pair into hookeMin and allHooke.
func (t *dtTables) meet(c int32) {
	if cl := &t.classes[c]; cl.hooke {
		t.hookeMin = min(t.hookeMin, cl.spring)
	} else {
		t.allHooke = false
	}
}

// pairs makes the classes of the list's pairs, in the order they first
// appear in the list, and their least Hookean spring bound and whether
// all are Hookean. With the classes tabulated by species pair
// (bySpec) no pair keeps one: a one-species world has one class when the
// list has a pair, and otherwise the pass reads the pairs' class keys
// (l.CI: 4 bytes a pair, in order) and looks a class up only when the key
// changes. Beyond maxClassSpecies each pair's class is written to cls.
// (A world without periodic images builds its list in ranges and finds
// its classes there: pairsRange, pairsEnd.)
func (t *dtTables) pairs(s *Spheres) {
	l := &s.lists[s.cur]
	t.hookeMin, t.allHooke = inf, true
	if t.bySpec != nil {
		t.cls = nil
		ns := int32(len(s.rep))
		if l.CI == nil {
			if len(l.P) > 0 {
				t.meet(t.specClass(s, 0, 0))
			}
			return
		}
		lastKey, last := int32(-1), int32(-1)
		for _, c := range l.CI[:len(l.P)] {
			if c == lastKey {
				continue
			}
			lastKey = c
			cl := t.bySpec[c]
			if cl < 0 {
				sa, sb := c/ns, c%ns
				cl = t.specClass(s, min(sa, sb), max(sa, sb))
			}
			if cl != last {
				t.meet(cl)
				last = cl
			}
		}
		return
	}
	t.cls = resize(t.cls, len(l.P))
	last, lastKey := int32(-1), [2]int32{-1, -1}
	for k := range l.P {
		sa, sb := s.spec[l.P[k].I], s.spec[l.P[k].J]
		key := [2]int32{min(sa, sb), max(sa, sb)}
		if key != lastKey {
			a, b := s.rep[key[0]], s.rep[key[1]]
			last, lastKey = t.class(s, key, t.pairOf, a, b, s.lawOf[a.Material*s.nmat+b.Material]), key
		}
		t.cls[k] = last
		t.meet(last)
	}
}

// wallClass returns the class of sphere k against wall wi.
func (t *dtTables) wallClass(s *Spheres, k, wi int) int32 {
	at := -1
	if t.wallBy != nil {
		if at = int(s.spec[k])*len(s.w.Walls) + wi; t.wallBy[at] >= 0 {
			return t.wallBy[at]
		}
	}
	pl := &s.planes[wi]
	a, b := s.rep[s.spec[k]], pl.body
	if pl.bi < s.idx[k] {
		a, b = b, a
	}
	c := t.class(s, [2]int32{s.spec[k], int32(wi)}, t.wallOf, a, b, s.lawOf[int(s.matOf(k))*s.nmat+pl.body.Material]) // matOf: no read of the sphere's body
	if at >= 0 {
		t.wallBy[at] = c
	}
	return c
}

// freshSplitMin is the fewest pairs new to the list since the last StableDt
// whose travel bounds are taken on the crew (a list rebuild on the
// 10⁵-sphere box brings 10⁴–10⁵: a serial loop of random reads of the two
// spheres' states between the step's split passes).
const freshSplitMin = 4096

// freshDt clears the fresh flags of the list pairs ks and returns the
// smallest travel bound of those of a Hookean class (+Inf: none), each at
// its spheres' accepted speeds (StableDt).
func (s *Spheres) freshDt(ks []int32) float64 {
	t, tr, l := &s.dt, &s.tr, &s.lists[s.cur]
	dt := math.Inf(1)
	for _, k := range ks {
		s.isFresh[k] = false
		c := &t.classes[t.classOf(l, int(k))]
		if !c.hooke {
			continue
		}
		i, j := l.P[k].I, l.P[k].J
		dt = min(dt, ApproachDt(0.1*c.rmin, tr.L[i].V.Sub(tr.L[j].V).Norm()+s.wrOf(s.trRot(int(i)), s.spec[i])+s.wrOf(s.trRot(int(j)), s.spec[j]), 0))
	}
	return dt
}

// freshDtRange is freshDt of the list pairs lo … hi−1 (a first build's
// fresh pairs: spheres_fresh_first.go), in that order.
func (s *Spheres) freshDtRange(lo, hi int) float64 {
	t, tr, l := &s.dt, &s.tr, &s.lists[s.cur]
	dt := math.Inf(1)
	for k := lo; k < hi; k++ {
		s.isFresh[k] = false
		c := &t.classes[t.classOf(l, k)]
		if !c.hooke {
			continue
		}
		i, j := l.P[k].I, l.P[k].J
		dt = min(dt, ApproachDt(0.1*c.rmin, tr.L[i].V.Sub(tr.L[j].V).Norm()+s.wrOf(s.trRot(int(i)), s.spec[i])+s.wrOf(s.trRot(int(j)), s.spec[j]), 0))
	}
	return dt
}

// freshAbove reports whether no fresh pair's travel bound (freshDt) can be
// below dt, from one pass over the spheres instead of one over the pairs:
// taken when the fresh pairs are at least half as many as the spheres
// (the first list: every pair fresh, 3·10⁶ gathers of two spheres at 10⁶
// spheres, ≈ 0.12 CPU-s). With m the largest component of V_i − V_0 and
// ω the largest ω_i·r_i (wrOf) over the spheres, every pair's speed
// |V_i − V_j| + ω_i·r_i + ω_j·r_j is at most B = 2√3·m + 2ω, to rounding
// (covered by a relative 10⁻⁹ and an absolute 10⁻³⁰⁰), and 0 exactly when
// m and ω are 0 (every V the same, nothing turns: V_i − V_j is ±0); its
// bound ApproachDt(0.1·r_min, v) is h/v, which falls with v and rises with
// h, so none is below ApproachDt(h_min, B). Then min(dt, any of them) is
// dt: the same bits as freshDt's minimum. A NaN, an infinity, or a bound
// of 10¹⁵⁰ or more (where a pair's |V_i − V_j| may overflow to +Inf in
// Norm's squares and its bound become 0: review r1) fails the test, and
// the pairs' own pass runs.
func (s *Spheres) freshAbove(dt float64) bool {
	tr, t := &s.tr, &s.dt
	n := len(tr.L)
	if n == 0 || 2*s.freshCount() < n {
		return false
	}
	hmin := math.Inf(1)
	for i := range t.classes {
		if c := &t.classes[i]; c.hooke {
			hmin = min(hmin, 0.1*c.rmin)
		}
	}
	if math.IsInf(hmin, 1) {
		return true // no Hookean class: freshDt takes no pair
	}
	if !(hmin > 0) {
		return false
	}
	v0 := tr.L[0].V
	var m, wr float64
	for i := range tr.L {
		d := tr.L[i].V.Sub(v0)
		m = max(m, math.Abs(d.X), math.Abs(d.Y), math.Abs(d.Z))
		wr = max(wr, s.wrOf(s.trRot(i), s.spec[i]))
	}
	if m == 0 && wr == 0 {
		return true // every pair's speed is +0: its bound +Inf
	}
	b := (2*math.Sqrt(3)*m+2*wr)*(1+1e-9) + 1e-300
	if !(b < 1e150) {
		return false // a NaN, an infinity, or speeds whose squares (Norm) may overflow: the pairs' own pass
	}
	return ApproachDt(hmin, b, 0) >= dt
}

// StableDt is World.StableDt for the sphere path, after Accept: the travel
// bound of every sphere, the spring bound of every candidate pair (cached
// for Hookean pairs, the travel bound of a pair once when it joins the list),
// at the pair's speed and overlap for the others.
func (s *Spheres) StableDt() float64 {
	w := s.w
	defer func(t0 time.Time) { w.Stats.Profile.StepBound += time.Since(t0) }(time.Now())
	st := w.Settings
	t := &s.dt
	tr := &s.tr
	l := &s.lists[s.cur]
	dt := min(st.DtMax, s.travel, t.hookeMin)
	for i := range t.classes {
		c := &t.classes[i]
		c.vmax, c.dmax, c.on = 0, 0, false
	}
	if !t.allHooke {
		for k := range l.P {
			c := &t.classes[t.classOf(l, k)]
			if c.hooke {
				continue
			}
			i, j := l.P[k].I, l.P[k].J
			c.vmax = max(c.vmax, tr.L[i].V.Sub(tr.L[j].V).Norm()+s.wrOf(s.trRot(int(i)), s.spec[i])+s.wrOf(s.trRot(int(j)), s.spec[j]))
			if l.PrevTouch[k] {
				c.dmax = max(c.dmax, l.Delta[k])
			}
			c.on = true
		}
	}
	// The fresh pairs: s.fresh's, or a first build's 0 … first−1
	// (spheres_fresh_first.go: the same pairs in the same order).
	first := s.rb.freshFirst
	if s.freshAbove(dt) {
		for _, k := range s.fresh { // none can lower dt: only the flags
			s.isFresh[k] = false
		}
		clear(s.isFresh[:first])
	} else if nf := s.freshCount(); nf >= freshSplitMin && s.passes() {
		// In nChunks ranges on the crew: a minimum is the same in any
		// order (a NaN in any range makes every order's NaN).
		if t.freshJob == nil {
			t.freshJob = func(_, lo, hi int) {
				for c := lo; c < hi; c++ {
					if f := s.rb.freshFirst; f > 0 {
						t.freshMin[c] = s.freshDtRange(c*f/nChunks, (c+1)*f/nChunks)
						continue
					}
					n := len(s.fresh)
					t.freshMin[c] = s.freshDt(s.fresh[c*n/nChunks : (c+1)*n/nChunks])
				}
			}
		}
		s.fork(nChunks, t.freshJob)
		for c := range nChunks {
			dt = min(dt, t.freshMin[c])
		}
	} else if first > 0 {
		dt = min(dt, s.freshDtRange(0, first))
	} else {
		dt = min(dt, s.freshDt(s.fresh))
	}
	s.fresh, s.rb.freshFirst = spare(s.fresh[:0]), 0
	// The candidate wall slots: the Hookean classes' spring bounds, taken
	// by Accept's pass (acceptSlots); the others here.
	dt = min(dt, s.slotSpring)
	for i := range s.slots {
		if !s.slotOther {
			break
		}
		sl := &s.slots[i]
		if !sl.cand {
			continue
		}
		c := &t.classes[sl.cls]
		if c.hooke {
			continue
		}
		wb := s.planes[sl.wall].body
		var v float64
		wr := s.wrOf(s.trRot(int(sl.k)), s.spec[sl.k])
		if vs := tr.L[sl.k].V; sl.swap {
			v = wb.V.Sub(vs).Norm() + wb.W.Norm()*wb.R + wr
		} else {
			v = vs.Sub(wb.V).Norm() + wr + wb.W.Norm()*wb.R
		}
		c.vmax = max(c.vmax, v)
		switch {
		case sl.pRim:
			for j := range sl.e.prev {
				c.dmax = max(c.dmax, -sl.e.prev[j].Gn)
			}
		case sl.pTouch:
			c.dmax = max(c.dmax, sl.delta)
		}
		c.on = true
	}
	for i := range t.classes {
		c := &t.classes[i]
		if !c.on {
			continue
		}
		dt = min(dt, ApproachDt(0.1*c.rmin, c.vmax, 0))
		p := &s.laws[c.law]
		dt = min(dt, w.springDt(c.a, c.b, c.meq, p, max(c.dmax, impactOverlap(p, c.meq, c.reff, c.vmax)), c.reff))
	}
	return max(dt, st.DtMin)
}
