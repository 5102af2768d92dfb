package broad

import (
	"math"
	"unsafe"

	"grainlab/sim/geom"
)

// Verlet caches the Grid pairs of spheres inflated by Margin + skin/2 and
// reuses them while no body can have closed the skin (S0 §2.5, "Verlet
// lists"). Guarantee: after every Update the returned list contains every
// pair of valid, active bodies with |ci−cj| ≤ ri + rj + 2·Margin for the
// centres and radii just passed, provided the set of active bodies changed
// only together with a call to Invalidate (changes of Margin, skin, body
// count, validity and radius growth are detected). The zero value is ready
// to use; a Verlet must not be used concurrently.
type Verlet struct {
	// Grid builds the lists; its Invalid field reports skipped bodies of the last build.
	Grid Grid
	// Margin is the inflation the guarantee is stated for (0 = bare spheres).
	Margin float64
	// Active, when non-nil, selects the bodies taking part (see Grid.Pairs).
	Active func(i int) bool

	refPos []geom.Vec3
	// refBuf is refPos's storage, 32 bytes a body: the grid's slots
	// during a rebuild (Grid.share; the reference is rewritten after the
	// search), so that the grid keeps no array of slots of its own (32
	// bytes a body, Session 24)
	refBuf []slotBody
	// refRad is each body's radius at the build, NaN for a body invalid
	// then (a valid radius is finite: NaN marks the invalid without an
	// array of flags); nil when every body was valid with the one radius
	// refOne (Grid.OneRadius: a sphere pack of one species, 8 bytes a
	// body not kept)
	refRad []float64
	refOne float64
	pairs  [][2]int32
	// own is the array of the pairs of a rebuild without SetOut (kept for
	// the next); out, when outSet, the room SetOut gave the next Update.
	own     [][2]int32
	out     [][2]int32
	outSet  bool
	skin    float64
	margin  float64
	built   bool
	maxDisp float64
	builds  int
	calls   int

	// Update in parts with Grid.Fork: the inputs, the job, the results.
	cur   []geom.Vec3
	rad   []float64
	phase int
	job   func(worker, lo, hi int)
	part  [rowParts]verletPart
}

// verletPart is one part's result of the displacement test.
type verletPart struct {
	need   bool
	d1, d2 float64
	_      [64]byte
}

// The phases of Update in parts.
const (
	verletTest = iota
	verletCopy
)

// fork runs phase ph of Update over rowParts parts of the bodies with Grid.Fork.
func (v *Verlet) fork(ph int) {
	v.phase = ph
	if v.job == nil {
		v.job = func(_, lo, hi int) {
			n := len(v.cur)
			for p := lo; p < hi; p++ {
				a, b := p*n/rowParts, (p+1)*n/rowParts
				if v.phase == verletTest {
					pt := &v.part[p]
					pt.need, pt.d1, pt.d2 = v.test(v.cur, v.rad, a, b)
				} else {
					v.copyRef(v.cur, v.rad, a, b)
				}
			}
		}
	}
	v.Grid.Fork(rowParts, v.job)
}

// test is Update's displacement test over the bodies lo…hi−1: whether one
// of them needs a rebuild (else the two largest squared displacements).
func (v *Verlet) test(centers []geom.Vec3, radii []float64, lo, hi int) (need bool, d1, d2 float64) {
	if v.refRad == nil {
		return v.testOne(centers, radii, lo, hi)
	}
	refPos, refRad := v.refPos[:hi], v.refRad[:hi]
	for i := lo; i < hi; i++ {
		if v.Active != nil && !v.Active(i) {
			continue
		}
		c, r, p := centers[i], radii[i], refPos[i]
		dx, dy, dz := c.X-p.X, c.Y-p.Y, c.Z-p.Z
		d := dx*dx + dy*dy + dz*dz                               // c.Sub(p).Norm2()
		if !(d <= math.MaxFloat64 && r >= 0 && r <= refRad[i]) { // movedSlow's case (a NaN refRad: invalid at the build)
			var nd bool
			if nd, d = movedSlow(c, r, refRad[i], d); nd {
				return true, d1, d2
			}
		}
		d1, d2 = KeepTwoLargest(d1, d2, d)
	}
	return false, d1, d2
}

// testOne is test when every body had the radius v.refOne at the build
// (refRad nil): the same test with refRad[i] = refOne.
func (v *Verlet) testOne(centers []geom.Vec3, radii []float64, lo, hi int) (need bool, d1, d2 float64) {
	refPos, rr := v.refPos[:hi], v.refOne
	for i := lo; i < hi; i++ {
		if v.Active != nil && !v.Active(i) {
			continue
		}
		c, r, p := centers[i], radii[i], refPos[i]
		dx, dy, dz := c.X-p.X, c.Y-p.Y, c.Z-p.Z
		d := dx*dx + dy*dy + dz*dz
		if !(d <= math.MaxFloat64 && r >= 0 && r <= rr) {
			var nd bool
			if nd, d = movedSlow(c, r, rr, d); nd {
				return true, d1, d2
			}
		}
		d1, d2 = KeepTwoLargest(d1, d2, d)
	}
	return false, d1, d2
}

// movedSlow is the displacement test of a body with centre c, radius r
// and squared displacement d against its entry at the build (radius rr,
// NaN when the body was invalid) when d is not finite, the radius not in
// [0, rr] or the entry not valid (a finite d from a valid entry means a
// finite centre; with a radius in [0, rr] the body is as valid as at the
// build and has not grown: nothing more to check): whether it needs a
// rebuild, else the displacement to count (0, nothing, for a body invalid
// now and then).
func movedSlow(c geom.Vec3, r, rr float64, d float64) (need bool, _ float64) {
	ok, okRef := validBody(c, r), rr == rr
	if ok != okRef {
		return true, 0
	}
	if !ok {
		return false, 0
	}
	return r > rr, d
}

// Test is Update's displacement test of the bodies lo…hi−1 alone, at the
// centres and radii given, against the last build: whether one of them
// needs a rebuild (always when there is no build to compare with or hi is
// beyond it), else their two largest squared displacements, which the
// caller merges over its parts with KeepTwoLargest for UpdateTested. It
// only reads v: parts of the bodies may be tested in any order and on
// any goroutine between two Updates (a caller that places the bodies in
// parallel tests each part as it is placed).
func (v *Verlet) Test(centers []geom.Vec3, radii []float64, lo, hi int) (need bool, d1, d2 float64) {
	if !v.built || hi > len(v.refPos) || lo < 0 || lo > hi {
		return true, 0, 0
	}
	return v.test(centers, radii, lo, hi)
}

// copyRef stores the bodies lo…hi−1 as the build's reference (the radius
// of an invalid body as NaN; no radii when they have one, refOne).
func (v *Verlet) copyRef(centers []geom.Vec3, radii []float64, lo, hi int) {
	copy(v.refPos[lo:hi], centers[lo:hi])
	if v.refRad == nil {
		return
	}
	rr := v.refRad[lo:hi]
	for k, c := range centers[lo:hi] {
		r := radii[lo+k]
		if !validBody(c, r) {
			r = math.NaN()
		}
		rr[k] = r
	}
}

// Invalidate forces the next Update to rebuild the list.
func (v *Verlet) Invalidate() { v.built = false }

// Builds returns how many times the list has been rebuilt.
func (v *Verlet) Builds() int { return v.builds }

// Calls returns how many times Update has been called.
func (v *Verlet) Calls() int { return v.calls }

// MaxDisplacement returns the largest displacement of a valid active body
// between the last build and the last Update (0 right after a rebuild).
func (v *Verlet) MaxDisplacement() float64 { return v.maxDisp }

// Ref returns the centres the list was last built for, or nil when the next
// Update must rebuild. While Update does not rebuild, no active body is
// farther than the skin from its entry here (the largest displacement alone
// is at most the sum of the two largest). The slice is owned by v.
func (v *Verlet) Ref() []geom.Vec3 {
	if !v.built {
		return nil
	}
	return v.refPos
}

// Pairs returns the current list (as returned by the last Update). After a
// rebuild into a SetOut array the list is the caller's and holds what the
// caller wrote there (the sphere path turns its candidates into its own
// pairs in place): read it as Verlet candidates only when v owns it.
func (v *Verlet) Pairs() [][2]int32 { return v.pairs }

// SetOut gives the next Update call, should it rebuild, buf's array for
// its pairs (buf[:0], grown when too small, as Grid.Pairs' out): the list
// is then the caller's, which may write to it (Pairs and the Updates that
// do not rebuild return it as the caller left it) and need not keep a
// second copy of the candidates. An Update without SetOut writes to an
// array of v's own. The next Update call uses buf or forgets it.
func (v *Verlet) SetOut(buf [][2]int32) { v.out, v.outSet = buf[:0], true }

// Update returns the candidate pairs for the given centres and radii and
// whether the list was rebuilt. It rebuilds when forced (first call,
// Invalidate, a change of len(centers), skin or Margin), when a body's
// validity changed, when any radius grew since the last build, or when the
// two largest displacements since the last build sum to more than skin (so
// never while every body moved at most skin/2, the standard criterion, but
// one fast body alone may use up to the whole skin). The returned slice is
// owned by v and valid until the next Update, unless the rebuild wrote into
// a SetOut array: then it is the caller's, to edit. A NaN, negative or +Inf skin
// is treated as 0 (rebuild whenever anything moves).
func (v *Verlet) Update(centers []geom.Vec3, radii []float64, skin float64) (rebuilt bool, pairs [][2]int32) {
	return v.UpdateTested(centers, radii, skin, 0, false, 0, 0)
}

// UpdateTested is Update for a caller that has tested the bodies
// 0…tested−1 with Test (at these centres and radii, since the last
// Update): need is whether one of them needs a rebuild, d1 ≥ d2 their two
// largest squared displacements. It tests only the rest, and decides as
// Update would: the same rebuilds, the same list.
func (v *Verlet) UpdateTested(centers []geom.Vec3, radii []float64, skin float64, tested int, need bool, d1, d2 float64) (rebuilt bool, pairs [][2]int32) {
	v.calls++
	out, outSet := v.out, v.outSet
	v.out, v.outSet = nil, false
	skin = sanitizeMargin(skin)
	margin := sanitizeMargin(v.Margin)
	n := len(centers)
	if len(radii) < n {
		panic("broad: len(radii) < len(centers)")
	}
	if tested = min(max(tested, 0), n); tested == 0 {
		need, d1, d2 = false, 0, 0 // d1, d2: the two largest squared displacements
	}
	need = need || !v.built || n != len(v.refPos) || skin != v.skin || margin != v.margin
	split := v.Grid.Fork != nil && v.Active == nil && n >= rowMin && tested == 0
	if split {
		v.cur, v.rad = centers, radii[:n]
		defer func() { v.cur, v.rad = nil, nil }()
	}
	if !need {
		if split {
			// The test in parts: a body that needs a rebuild needs it
			// whichever part finds it, and the two largest displacements
			// of the parts' are the two largest.
			v.fork(verletTest)
			for p := range v.part {
				pt := &v.part[p]
				need = need || pt.need
				d1, d2 = KeepTwoLargest(d1, d2, pt.d1)
				d1, d2 = KeepTwoLargest(d1, d2, pt.d2)
			}
		} else if tested == 0 {
			need, d1, d2 = v.test(centers, radii, 0, n)
		} else if tested < n {
			nd, e1, e2 := v.test(centers, radii, tested, n)
			need = nd
			d1, d2 = KeepTwoLargest(d1, d2, e1)
			d1, d2 = KeepTwoLargest(d1, d2, e2)
		}
		if !need && math.Sqrt(d1)+math.Sqrt(d2) > skin {
			need = true
		}
	}
	if !need {
		v.maxDisp = math.Sqrt(d1)
		return false, v.pairs
	}
	v.refBuf = sized(v.refBuf, n)
	v.refPos, v.built = nil, false // (its storage: the grid's slots until copyRef)
	v.Grid.share = v.refBuf
	if outSet {
		v.pairs = v.Grid.Pairs(centers, radii, margin+skin/2, v.Active, out)
	} else {
		v.pairs = v.Grid.Pairs(centers, radii, margin+skin/2, v.Active, v.own)
		v.own = v.pairs
	}
	v.refPos = refView(v.refBuf, n)
	if r, one := v.Grid.OneRadius(); one {
		v.refRad, v.refOne = nil, r
	} else {
		v.refRad, v.refOne = sized(v.refRad, n), 0
	}
	if split {
		v.fork(verletCopy)
	} else {
		v.copyRef(centers, radii, 0, n)
	}
	v.skin, v.margin, v.built, v.maxDisp = skin, margin, true, 0
	v.builds++
	return true, v.pairs
}

// Spare returns the room of the reference's storage beyond the reference
// (refBuf holds the grid's slots during a rebuild, 32 bytes a body; the
// reference after it, 24): 8 bytes a body, dead until the next Update,
// which writes the slots there (an Invalidate keeps it: the sphere path's
// renumbering invalidates the list before its rebuild). The caller may use
// it as scratch until then (its contents are unspecified); nil without a
// build.
func (v *Verlet) Spare() []byte {
	n := len(v.refPos)
	if n == 0 || n > len(v.refBuf) {
		return nil
	}
	total := cap(v.refBuf) * int(unsafe.Sizeof(slotBody{}))
	used := n * int(unsafe.Sizeof(geom.Vec3{}))
	base := unsafe.Pointer(unsafe.SliceData(v.refBuf))
	return unsafe.Slice((*byte)(unsafe.Add(base, used)), total-used)
}

// refView is the first n·24 bytes of b's storage (n·32 bytes, n ≤
// len(b)) as n centres; nil for n = 0.
func refView(b []slotBody, n int) []geom.Vec3 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*geom.Vec3)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// KeepTwoLargest returns the two largest of d1 ≥ d2 and d, largest first
// (a rebuild test's two largest displacements, merged over parts).
func KeepTwoLargest(d1, d2, d float64) (float64, float64) {
	if d > d2 {
		if d > d1 {
			return d, d1
		}
		return d1, d
	}
	return d1, d2
}
