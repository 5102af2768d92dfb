package world

import (
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// relSelect's passes in ranges (session 24; docs/performance.md, "Session
// 24: two workers"). The moving frame's selection was serial: at 10⁵
// spheres ≈ 40 M instructions a list, the largest serial part of the
// two-worker step. Its passes over the spheres (the loose marks with the
// top lists; the tight spheres' two largest e and largest w when the top
// lists do not settle them) and over the list (the loose spheres'
// neighbours; SelectLoose itself, sphere.Inner.SelectRange) run in relParts
// fixed ranges, on the crew when the passes split (Spheres.passes), one
// after the other on the caller otherwise. Each range writes its own marks
// and its own part; the parts are joined in range order: a top list is
// the relTopN largest (value, then the lower index) of what it was given,
// so adding the parts' lists in range order, each in its order, gives the
// serial pass's list; the counts are integer sums, the largest e and w are
// maxima (exact in any order: RelDisplaced's e1 ≥ e2 as a multiset, max
// with a NaN a NaN either way), the grown neighbours a set of marks, and
// the selection's pairs are concatenated in list order (JoinParts). So the
// selection is the serial one for any worker count and any claim order.

// relParts is the number of ranges of relSelect's passes (fixed: the
// selection does not depend on it).
const relParts = nChunks

// relPart is one range's results of relSelect's passes.
type relPart struct {
	c0, vc    geom.Vec3 // the mean pass: sums of x − ref and v of the free spheres
	free      int       // the mean pass: the free spheres
	te, tw    relTop    // the mark pass's top lists
	withLoose int       // the neighbour pass: pairs with a loose sphere
	grown     []int32   // the neighbour pass: tight spheres with a loose neighbour
	e1, e2    float64   // the tight pass: the two largest e (RelDisplaced)
	u2        float64   // the tight pass: the largest w
	finite    bool      // the tight pass: every e finite
	_         [64]byte
}

// relJob is one relSelect's split passes: what they read, and their parts.
type relJob struct {
	s           *Spheres
	l           *sphere.List
	x, ref      []geom.Vec3
	c0, vc      geom.Vec3
	lim2, vlim2 float64
	loose       []bool
	t, limit    int
	pass        int // relMeanPass, relMarkPass, relNeighPass, relTightPass, relPairsPass
	parts       [relParts]relPart
	sel         []sphere.InnerPart
	run         func(worker, lo, hi int) // j.runParts (made once a selection)
}

// relJobOf returns the list's relJob (kept in l.Inner.Scratch from
// selection to selection: its parts' grown slices are reused) for s and l.
func (s *Spheres) relJobOf(l *sphere.List) *relJob {
	j, _ := l.Inner.Scratch.(*relJob)
	if j == nil {
		j = &relJob{}
		l.Inner.Scratch = j
	}
	j.s, j.l = s, l
	return j
}

// relSelect's passes.
const (
	relMeanPass = iota
	relMarkPass
	relNeighPass
	relTightPass
	relPairsPass
)

// do runs pass over the relParts ranges: on the crew when the step's
// passes split, else in order on the caller.
func (j *relJob) do(pass int) {
	j.pass = pass
	if j.run == nil {
		j.run = j.runParts
	}
	if j.s.passes() {
		j.s.fork(relParts, j.run)
	} else {
		j.runParts(0, 0, relParts)
	}
}

// runParts runs the job's pass on the ranges [lo, hi).
func (j *relJob) runParts(_, lo, hi int) {
	for c := lo; c < hi; c++ {
		switch j.pass {
		case relMeanPass:
			n := len(j.x)
			j.sums(c*n/relParts, (c+1)*n/relParts, &j.parts[c])
		case relMarkPass:
			n := len(j.x)
			j.mark(c*n/relParts, (c+1)*n/relParts, &j.parts[c])
		case relNeighPass:
			n := len(j.l.P)
			j.neighbours(c*n/relParts, (c+1)*n/relParts, &j.parts[c])
		case relTightPass:
			n := len(j.x)
			j.tight(c*n/relParts, (c+1)*n/relParts, &j.parts[c])
		case relPairsPass:
			n := len(j.l.P)
			j.l.Inner.SelectRange(j.l, j.ref, j.loose, j.t, j.limit, c*n/relParts, (c+1)*n/relParts, &j.sel[c])
		}
	}
}

// sums is the mean pass over the spheres [lo, hi): the sums of x − ref
// and of v over the spheres whose force is their weight, in order.
func (j *relJob) sums(lo, hi int, pt *relPart) {
	s := j.s
	// The range's slices, of one length (no bounds checks in the loop).
	x := j.x[lo:hi]
	ref, tr, acc, spec := j.ref[lo:hi][:len(x)], s.tr.L[lo:hi][:len(x)], s.acc.L[lo:hi][:len(x)], s.spec[lo:hi][:len(x)]
	kin := s.kin
	var c0, vc geom.Vec3
	free := 0
	for i := range x {
		if acc[i].F == kin[spec[i]].Weight {
			c0 = c0.Add(x[i].Sub(ref[i]))
			vc = vc.Add(tr[i].V)
			free++
		}
	}
	pt.c0, pt.vc, pt.free = c0, vc, free
}

// mean runs the mean pass and returns the sums of x − ref and of v over
// the freely falling spheres and their number: each range's sums, added
// in range order (not the serial sum's bits — any c is sound — but the
// same for every worker count).
func (j *relJob) mean() (c0, vc geom.Vec3, free int) {
	j.do(relMeanPass)
	for c := range j.parts {
		pt := &j.parts[c]
		c0, vc, free = c0.Add(pt.c0), vc.Add(pt.vc), free+pt.free
	}
	return c0, vc, free
}

// mark is relSelect's loose marks of the spheres [lo, hi): beyond Δ/4 of
// the frame, or faster than Δ/4 in relAhead steps relative to it, or not
// falling freely; the spheres left tight go to the part's top lists.
func (j *relJob) mark(lo, hi int, pt *relPart) {
	s := j.s
	// The range's slices, of one length (no bounds checks in the loop).
	x := j.x[lo:hi]
	ref, loose := j.ref[lo:hi][:len(x)], j.loose[lo:hi][:len(x)]
	tr, acc, spec := s.tr.L[lo:hi][:len(x)], s.acc.L[lo:hi][:len(x)], s.spec[lo:hi][:len(x)]
	kin := s.kin
	c0, vc, lim2, vlim2 := j.c0, j.vc, j.lim2, j.vlim2
	te, tw := &pt.te, &pt.tw
	*te, *tw = relTop{}, relTop{}
	for k := range x {
		a, b := &x[k], &ref[k]
		dx, dy, dz := a.X-b.X-c0.X, a.Y-b.Y-c0.Y, a.Z-b.Z-c0.Z
		e := float64(dx*dx) + float64(dy*dy) + float64(dz*dz)
		v := &tr[k].V
		w := geom.Vec3{X: v.X - vc.X, Y: v.Y - vc.Y, Z: v.Z - vc.Z}.Norm2()
		l := !(e <= lim2) || !(w <= vlim2) || acc[k].F != kin[spec[k]].Weight
		loose[k] = l
		if l {
			continue
		}
		if e > te.v[relTopN-1] {
			te.add(e, lo+k)
		}
		if w > tw.v[relTopN-1] {
			tw.add(w, lo+k)
		}
	}
}

// neighbours is relSelect's neighbour pass over the list's pairs [lo, hi):
// the pairs with a loose sphere, and the tight sphere of each pair of one
// loose and one tight.
func (j *relJob) neighbours(lo, hi int, pt *relPart) {
	loose := j.loose
	grown, with := pt.grown[:0], 0
	for _, p := range j.l.P[lo:hi] {
		li, lj := loose[p.I], loose[p.J]
		if li || lj {
			with++
		}
		if li != lj {
			if li {
				grown = append(grown, p.J)
			} else {
				grown = append(grown, p.I)
			}
		}
	}
	pt.grown, pt.withLoose = grown, with
}

// tight is the pass over the tight spheres [lo, hi) when the top lists do
// not settle it: their two largest e (RelDisplaced) and largest w.
func (j *relJob) tight(lo, hi int, pt *relPart) {
	pt.e1, pt.e2, pt.finite = sphere.RelDisplaced(j.x[lo:hi], j.ref[lo:hi], j.c0, j.loose[lo:hi])
	tr, loose, vc := j.s.tr.L, j.loose, j.vc
	u2 := 0.0
	for i := lo; i < hi; i++ {
		if !loose[i] {
			v := &tr[i].V
			u2 = max(u2, geom.Vec3{X: v.X - vc.X, Y: v.Y - vc.Y, Z: v.Z - vc.Z}.Norm2())
		}
	}
	pt.u2 = u2
}

// marks runs the mark pass and returns the top lists of the whole pass
// (the parts' added in range order).
func (j *relJob) marks() (te, tw relTop) {
	j.do(relMarkPass)
	for c := range j.parts {
		pt := &j.parts[c]
		te.merge(&pt.te)
		tw.merge(&pt.tw)
	}
	return te, tw
}

// merge adds the entries of u (a top list of later spheres than t's) to t,
// in u's order: t is then the top list of both.
func (t *relTop) merge(u *relTop) {
	for k := range u.v {
		if i := u.i[k]; i > 0 && u.v[k] > t.v[relTopN-1] {
			t.add(u.v[k], i-1)
		}
	}
}

// neighbourPass runs the neighbour pass and returns the pairs with a
// loose sphere; the parts hold the grown neighbours.
func (j *relJob) neighbourPass() int {
	j.do(relNeighPass)
	with := 0
	for c := range j.parts {
		with += j.parts[c].withLoose
	}
	return with
}

// markGrown makes the grown neighbours loose.
func (j *relJob) markGrown() {
	for c := range j.parts {
		for _, i := range j.parts[c].grown {
			j.loose[i] = true
		}
	}
}

// tightPass runs the tight pass: the two largest e of the tight spheres,
// whether all are finite, and their largest w.
func (j *relJob) tightPass() (e1, e2 float64, finite bool, u2 float64) {
	j.do(relTightPass)
	finite = true
	for c := range j.parts {
		pt := &j.parts[c]
		for _, e := range [2]float64{pt.e1, pt.e2} {
			if e > e2 {
				if e > e1 {
					e1, e2 = e, e1
				} else {
					e2 = e
				}
			}
		}
		finite = finite && pt.finite
		u2 = max(u2, pt.u2)
	}
	return e1, e2, finite, u2
}

// selectLoose is in.SelectLoose(l, ref, loose, t, limit) (Select's with
// loose nil), in ranges on the crew when the passes split.
func (s *Spheres) selectLoose(j *relJob, l *sphere.List, ref []geom.Vec3, loose []bool, t, limit int) bool {
	in := &l.Inner
	s.round.scans++ // a scan of the list: a step SplitAuto does not count
	if !s.passes() {
		if loose == nil {
			return in.Select(l, ref, t, limit)
		}
		return in.SelectLoose(l, ref, loose, t, limit)
	}
	if j == nil {
		j = s.relJobOf(l)
	}
	j.l, j.ref, j.loose, j.t, j.limit = l, ref, loose, t, limit
	j.sel = in.Parts(relParts)
	j.do(relPairsPass)
	ok := in.JoinParts(l, j.sel, t, limit)
	if relSplitCheck != nil {
		relSplitCheck(j, relTop{}, relTop{}, -1)
	}
	return ok
}

// relSplitCheck, when set (tests only), is called with relSelect's joined
// top lists and count of the pairs with a loose sphere before the grown
// marks, and with withLoose −1 after a split selection's join.
var relSplitCheck func(j *relJob, te, tw relTop, withLoose int)
