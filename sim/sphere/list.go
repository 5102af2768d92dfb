package sphere

import (
	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// Pair is one pair of a List: spheres I < J (in the caller's numbering).
// Its class, the constants of its contact, is List.ClassOf. (8 bytes: the
// kernels stream the pairs every step and a rebuild writes them; the
// class index, 4 bytes more, is a separate array only when the list has
// several classes of a table, List.CI; the constants were 32 bytes more
// per pair, the same for every pair of two species.)
type Pair struct {
	I, J int32
}

// PairClass holds the constants of the contact of a pair of spheres: those
// of every pair whose spheres have the same radii, masses and law.
type PairClass struct {
	RSum float64 // r_I + r_J
	Cut2 float64 // (r_I + r_J)² widened by 1e-9: beyond it the pair is surely apart
	MEff float64 // m_I m_J/(m_I + m_J)
	Damp float64 // m_eff γ_n of the pair's law (Hooke)
}

// NewPairClass returns the constants of a pair of spheres of radii ri, rj
// and masses mi, mj whose law has the damping rate gn (Hooke).
func NewPairClass(ri, rj, mi, mj, gn float64) PairClass {
	rs := ri + rj
	c := rs * (1 + 1e-9)
	meff := law.EquivalentMass(mi, mj)
	return PairClass{RSum: rs, Cut2: c * c, MEff: meff, Damp: meff * gn}
}

// List is a half neighbour list of spheres in flat arrays: every candidate
// pair once, with the constants its contact law needs and the contact state
// of the last evaluation. The caller builds it (cell binning with a Verlet
// skin, as LAMMPS' `neighbor bin`) and keeps it while no sphere has moved
// more than half the skin.
type List struct {
	P     []Pair
	Class []PairClass // the pairs' classes, the caller's (a table of species pairs, or one per pair)
	// CI is each pair's class, Class[CI[k]], when Class is a table of
	// several classes (ResizeCI); nil when it has one class (every pair's)
	// or one class per pair (pair k's is Class[k]).
	CI    []int32
	Shift []geom.Vec3 // added to J's centre (a periodic image); nil when no pair crosses a seam
	Law   []int32     // index into the law table (Smooth); nil when every pair has law 0

	// State of the last evaluation, per pair; PrevTouch: of the last
	// accepted one (the owner swaps Touch and PrevTouch on acceptance).
	Touch, PrevTouch []bool
	Fn               []float64 // normal force (touching pairs)
	Delta            []float64 // overlap δ (touching pairs; Smooth only, nil otherwise)

	// Smooth only (nil otherwise): tangential force, rolling moment and
	// stored energy of the touching pairs; friction history of this
	// evaluation (Hist) and of the last accepted one (PrevHist, valid where
	// PrevTouch).
	Ft, M          []geom.Vec3
	Epot           []float64
	Hist, PrevHist []law.FrictionState

	// Not direct: force on I (sized by PrepareSplit), moments (p − x)×f
	// about I and J (smooth only).
	FP, TPA, TPB []geom.Vec3

	// Inner is the inner list (inner.go): when On, the Hookean kernels
	// with direct sums (hookeRows) scan its pairs instead of the whole list.
	Inner Inner

	// Storage of the smooth-only arrays, kept while they are unused.
	ftBuf, mBuf          []geom.Vec3
	histBuf, prevHistBuf []law.FrictionState
	epotBuf, deltaBuf    []float64
}

// PrepareSplit sizes FP for the pairs of l: an evaluation that is not
// direct stores each pair's force there (Resize leaves it alone: a direct
// evaluation, one worker's, never needs it; 24 bytes a pair).
func (l *List) PrepareSplit() { l.FP = resize(l.FP, len(l.P)) }

// Resize makes every per-pair array hold n pairs (contents unspecified):
// Shift when shifted, Law when laws, the arrays of the general kernel when
// smooth.
func (l *List) Resize(n int, shifted, laws, smooth bool) {
	l.Inner.Off()
	l.P = resize(l.P, n)
	l.Shift = nil
	if shifted {
		l.Shift = resize(l.Shift[:0:cap(l.Shift)], n)
	}
	l.Law = nil
	if laws {
		l.Law = resize(l.Law[:0:cap(l.Law)], n)
	}
	l.Touch, l.PrevTouch = resize(l.Touch, n), resize(l.PrevTouch, n)
	l.Fn = resize(l.Fn, n)
	l.Delta = nil
	l.Ft, l.M, l.Epot, l.Hist, l.PrevHist, l.TPA, l.TPB = nil, nil, nil, nil, nil, nil, nil
	if smooth {
		l.Delta = resize(l.deltaBuf, n)
		l.deltaBuf = l.Delta
		l.Ft, l.M, l.Epot = resize(l.ftBuf, n), resize(l.mBuf, n), resize(l.epotBuf, n)
		l.Hist, l.PrevHist = resize(l.histBuf, n), resize(l.prevHistBuf, n)
		l.ftBuf, l.mBuf, l.epotBuf, l.histBuf, l.prevHistBuf = l.Ft, l.M, l.Epot, l.Hist, l.PrevHist
		l.TPA, l.TPB = resize(l.TPA[:0:cap(l.TPA)], n), resize(l.TPB[:0:cap(l.TPB)], n)
	}
}

// ResizeCI makes CI hold n pairs' classes (contents unspecified) when
// several (Class a table of more than one class), else drops it.
func (l *List) ResizeCI(n int, several bool) {
	if !several {
		l.CI = nil
		return
	}
	l.CI = resize(l.CI, n)
}

// ClassOf returns the class of pair k: Class[CI[k]], else Class[0] when
// Class has one class, else Class[k] (one class per pair).
func (l *List) ClassOf(k int) *PairClass {
	if l.CI != nil {
		return &l.Class[l.CI[k]]
	}
	if len(l.Class) == 1 {
		return &l.Class[0]
	}
	return &l.Class[k]
}

// TakeScratch moves to l, before a rebuild makes it the list in use, the
// storage of old's per-pair arrays that a rebuild does not carry from the
// old list to the new (Touch, Fn, FP and the smooth kernel's Delta, Ft, M,
// Epot, TPA, TPB: each evaluation writes them before any read), and leaves
// old without them. Of the two lists an owner keeps (the list in use and its
// rebuild buffer) only the one in use holds them: 9 bytes a pair and room on
// the Hookean path instead of 18 (docs/performance.md, "Session 16: memory
// per sphere"). The rebuild reads old's P, PrevTouch, PrevHist, Shift and
// Law, which stay.
func (l *List) TakeScratch(old *List) {
	l.Touch, old.Touch = old.Touch, nil
	l.Fn, old.Fn = old.Fn, nil
	l.FP, old.FP = old.FP, nil
	l.TPA, old.TPA = old.TPA, nil
	l.TPB, old.TPB = old.TPB, nil
	l.deltaBuf, old.deltaBuf, old.Delta = old.deltaBuf, nil, nil
	l.ftBuf, old.ftBuf, old.Ft = old.ftBuf, nil, nil
	l.mBuf, old.mBuf, old.M = old.mBuf, nil, nil
	l.epotBuf, old.epotBuf, old.Epot = old.epotBuf, nil, nil
	l.Inner, old.Inner = old.Inner, Inner{}
	l.Inner.Off() // the new list's pairs: no tiers yet
}

// Truncate cuts every per-pair array to its first n pairs; Shift is
// dropped unless shifted.
func (l *List) Truncate(n int, shifted bool) {
	l.Inner.Off()
	l.P, l.Touch, l.PrevTouch, l.Fn = l.P[:n], l.Touch[:n], l.PrevTouch[:n], l.Fn[:n]
	if l.CI != nil {
		l.CI = l.CI[:n]
	}
	if l.Delta != nil {
		l.Delta = l.Delta[:n]
	}
	if l.Law != nil {
		l.Law = l.Law[:n]
	}
	if shifted && l.Shift != nil {
		l.Shift = l.Shift[:n]
	} else {
		l.Shift = nil
	}
	if l.Ft != nil {
		l.Ft, l.M, l.Epot, l.Hist, l.PrevHist = l.Ft[:n], l.M[:n], l.Epot[:n], l.Hist[:n], l.PrevHist[:n]
		l.TPA, l.TPB = l.TPA[:n], l.TPB[:n]
	}
}

// SetPair sets the spheres i < j and the class c (Class[c]; stored in CI
// when the list has it) of pair k.
func (l *List) SetPair(k int, i, j, c int32) {
	l.P[k] = Pair{I: i, J: j}
	if l.CI != nil {
		l.CI[k] = c
	}
}

// Gather adds to the force f and moment t of one sphere the contributions of
// its incident pairs inc (CSR), stored by a Hooke or Smooth evaluation that
// was not direct, in the order given: ascending pairs, the order of direct
// accumulation, so that both give the same bits.
func (l *List) Gather(inc []Incidence, f, t geom.Vec3, moments bool) (geom.Vec3, geom.Vec3) {
	for _, c := range inc {
		k := c.Pair
		if !l.Touch[k] {
			continue
		}
		if c.First {
			f = f.Add(l.FP[k])
			if moments {
				t = t.Add(l.TPA[k]).Add(l.M[k])
			}
		} else {
			f = f.Sub(l.FP[k])
			if moments {
				t = t.Sub(l.TPB[k]).Sub(l.M[k])
			}
		}
	}
	return f, t
}

// Incidence is one of a sphere's incident pairs: its index in the list and
// whether the sphere is the pair's I.
type Incidence struct {
	Pair  int32
	First bool
}

// CSR lists every sphere's incident pairs in ascending pair order: sphere
// i's are Inc[Start[i]:Start[i+1]].
type CSR struct {
	Start []int32
	Inc   []Incidence
	next  []int32
}

// Build fills c from the pairs of l over n spheres.
func (c *CSR) Build(l *List, n int) {
	c.Start = resize(c.Start, n+1)
	clear(c.Start)
	for k := range l.P {
		c.Start[l.P[k].I+1]++
		c.Start[l.P[k].J+1]++
	}
	for i := 1; i <= n; i++ {
		c.Start[i] += c.Start[i-1]
	}
	c.Inc = resize(c.Inc, 2*len(l.P))
	c.next = resize(c.next, n)
	copy(c.next, c.Start[:n])
	for k := range l.P {
		i, j := l.P[k].I, l.P[k].J
		c.Inc[c.next[i]] = Incidence{int32(k), true}
		c.next[i]++
		c.Inc[c.next[j]] = Incidence{int32(k), false}
		c.next[j]++
	}
}
