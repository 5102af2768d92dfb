package broad

import (
	"math"
	"math/bits"
	"sort"
	"unsafe"

	"grainlab/sim/geom"
)

// Parts: the pairs of a single dense level found in parts, in the order
// Pairs returns them. This is the common case of the sphere path (equal or
// similar spheres: one level; a compact pile: dense cells). The cells split
// into parts of about equal numbers of slots, each part searching its
// cells' 13-cell half stencil (sameLevel's loop) and dropping each pair
// {i, j}, i < j, into the bucket of its lower body i (a range of 2^shift
// bodies); then each bucket, gathered from every part, is sorted by i (a
// counting sort over the bucket's bodies) and each of its rows by j, into
// its place in the result (the buckets follow one another). The work is the
// serial half stencil and counting sort's, split: with Fork the parts and
// the buckets run on several workers. The pairs, and their order, are
// those of the general search (every pair once, sorted by i, then j), so
// the result does not depend on the number of parts or workers. (Session
// 9 found the rows body by body over the 27 cells around each body, as
// LAMMPS' `npair half/bin/newtoff`, which needs no sort of all pairs but
// makes twice the distance tests: 1.4× the instructions.)

// rowParts is the number of parts the bodies and the cells are split into
// when Fork is set (more parts than workers: a worker of a shared machine
// that falls behind leaves its parts to the others).
const rowParts = 8

// rowMin is the smallest number of bodies searched in parts.
const rowMin = 4096

// bucketBits: the pairs are sorted in at most 2^bucketBits buckets of their
// lower body (at least half as many for 2^bucketBits bodies or more).
const (
	bucketBits = 4
	maxBuckets = 1 << bucketBits
)

// rowPart is one part's state (on its own cache lines).
type rowPart struct {
	bk         buckets // phaseHalf: the part's pairs by bucket
	lo, hi     geom.Vec3
	rmin, rmax float64 // of r + margin
	r0         float64 // the radius of the part's first body
	one        bool    // every body of the part has radius r0
	ok         bool
	_          [64]byte
}

// halfParts writes the pairs of the single dense level L of bodies below n
// to out (grown when too small), sorted by i, then j, in parts.
func (g *Grid) halfParts(L, n int, m2 float64, out [][2]int32) [][2]int32 {
	lv := &g.levs[L]
	g.rowLev, g.rowM2 = L, m2
	cs := g.cstart[lv.cbase : lv.cbase+lv.ncell+1]
	// Cells in parts of about equal slots.
	s0, ns := cs[0], int(cs[lv.ncell]-cs[0])
	g.cut[0], g.cut[rowParts] = 0, lv.ncell
	for p := 1; p < rowParts; p++ {
		want := s0 + int32(p*ns/rowParts)
		g.cut[p] = int32(sort.Search(int(lv.ncell), func(c int) bool { return cs[c] >= want }))
	}
	g.shift = uint(max(0, bits.Len(uint(n-1))-bucketBits))
	g.nbk = (n-1)>>g.shift + 1
	g.nBody = n
	g.blk = min(max(n/128, 32), 4096)
	// The parts' blocks in out's room while it has room (dead until the
	// sort; Session 25): the pairs are then sorted into the slots' room
	// (dead after the half stencil) and copied to out, when the last
	// call's pairs fit there.
	g.ar = arena{blk: g.blk}
	if cap(out) < g.blk && g.lastPairs == 0 {
		// No room given and no search before (a list's first build):
		// out made with the room the pairs need, estimated from a
		// sample of the cells, so that the blocks go there and no pool
		// is made (25 MB at 10⁶ spheres, held with the slots and out at
		// the first build: a set-up's peak).
		out = make([][2]int32, 0, g.samplePairs(lv, m2))
	}
	ar := (*arena)(nil)
	if room := cap(out) / g.blk; room > 0 && g.lastPairs <= slotRoom(g.sl) && !pairsInSlots(out, g.sl) {
		g.ar.buf, g.ar.nblk = out[:cap(out)], int32(min(room, math.MaxInt32))
		ar = &g.ar
	}
	g.rowAr = ar
	g.fork(phaseHalf, rowParts)
	g.rowAr = nil
	total := 0
	for b := range g.nbk {
		g.bkAt[b] = total
		for p := range g.part {
			total += g.part[p].bk.count(b)
		}
	}
	g.lastPairs = total
	g.cnt = grow(g.cnt, n+g.nbk)
	switch {
	case ar == nil || ar.taken() == 0: // out holds no block: the pairs straight there
		out = grow(out, total)
		g.rowOut = out
		g.fork(phaseSort, g.nbk)
	case total <= slotRoom(g.sl): // sorted in the slots' room, then copied
		g.rowOut = slotPairs(g.sl, total)
		g.fork(phaseSort, g.nbk)
		out = grow(out, total)
		copy(out, g.rowOut)
	default: // out holds blocks and the slots' room is short: a new array
		out = make([][2]int32, total, total+total/4)
		g.rowOut = out
		g.fork(phaseSort, g.nbk)
	}
	g.rowOut = nil
	g.ar.buf = nil
	g.lastBlocks, g.lastArena = 0, 0
	if ar != nil {
		g.lastArena = ar.taken()
	}
	for p := range g.part {
		g.lastBlocks += len(g.part[p].bk.blocks)
		g.part[p].bk.endCall()
	}
	return out
}

// pairSample, sampleRun: samplePairs searches runs of sampleRun
// consecutive cells, one in pairSample on average, picked by a hash of the
// run's number (a fixed stride beats with the columns: every 17th run of 8
// met one z band of every column when nz was a multiple of 17).
const (
	pairSample = 17
	sampleRun  = 8
)

// samplePairs returns the room for the pairs of the dense level lv that
// a search in parts likely needs: the pairs a body of the sampled cells'
// half stencils finds, times the bodies, a quarter more (the room grow
// gives, and the parts' partial last blocks), and a block a part.
func (g *Grid) samplePairs(lv *level, m2 float64) int {
	// blk 0: one slice a bucket, grown by append, counted and emptied
	// after each run (its room kept: a run's pairs).
	var bk buckets
	for b := range bk.head {
		bk.head[b], bk.last[b] = -1, -1
	}
	cs := g.cstart[lv.cbase : lv.cbase+lv.ncell+1]
	bodies, pairs, nc := 0, 0, int64(lv.ncell)
	for c := int64(0); c < nc; c += sampleRun {
		// Runs picked by a hash of their number: no beat with the
		// columns (nz a multiple of 17) or any other period.
		if h := uint64(c/sampleRun) * 0x9e3779b97f4a7c15; (h>>32)%pairSample != 0 {
			continue
		}
		c1 := min(c+sampleRun, nc)
		if a0, a1 := cs[c], cs[c1]; a0 < a1 {
			bodies += int(a1 - a0)
			g.halfCells(lv, c, c1, m2, &bk, g.shift)
			for b := range bk.cur {
				pairs += len(bk.cur[b])
				bk.cur[b] = bk.cur[b][:0]
			}
		}
	}
	est := 0
	if bodies > 0 {
		est = int(float64(pairs) / float64(bodies) * float64(lv.n))
	}
	return est + est/4 + rowParts*g.blk
}

// slotRoom returns the number of pairs the storage of the slots sl (all
// of its room, 32 bytes a slot) holds.
func slotRoom(sl []slotBody) int {
	return cap(sl) * int(unsafe.Sizeof(slotBody{})/unsafe.Sizeof([2]int32{}))
}

// slotPairs returns the first n pairs of the storage of the slots sl
// (n ≤ slotRoom(sl)).
func slotPairs(sl []slotBody, n int) [][2]int32 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*[2]int32)(unsafe.Pointer(unsafe.SliceData(sl))), n)
}

// pairsInSlots reports whether the storage of the pairs p and of the
// slots s (all of their room) share a byte.
func pairsInSlots(p [][2]int32, s []slotBody) bool {
	if cap(p) == 0 || cap(s) == 0 {
		return false
	}
	p0 := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
	p1 := p0 + uintptr(cap(p))*unsafe.Sizeof([2]int32{})
	s0 := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	s1 := s0 + uintptr(cap(s))*unsafe.Sizeof(slotBody{})
	return p0 < s1 && s0 < p1
}

// The phases of a parallel search (Grid.phase): the bodies' bounds, their
// cells, their slots, the half stencil by cells, the buckets sorted.
const (
	phaseScan = iota
	phaseCells
	phaseSlots
	phaseHalf
	phaseSort
)

// fork runs phase ph over its n parts, with Fork when set.
func (g *Grid) fork(ph, n int) {
	g.phase = ph
	if g.Fork == nil {
		for p := range n {
			g.runPart(p)
		}
		return
	}
	if g.rowJob == nil {
		g.rowJob = func(_, lo, hi int) {
			for p := lo; p < hi; p++ {
				g.runPart(p)
			}
		}
	}
	g.Fork(n, g.rowJob)
}

// runPart runs the current phase over its part p.
func (g *Grid) runPart(p int) {
	n := len(g.rowC)
	lo, hi := p*n/rowParts, (p+1)*n/rowParts
	switch g.phase {
	case phaseScan:
		pt := &g.part[p]
		pt.lo, pt.hi, pt.rmin, pt.rmax, pt.r0, pt.one, pt.ok = scanRange(g.rowC[lo:hi], g.rowR[lo:hi], g.rowM2/2)
	case phaseCells:
		g.cellRange(lo, hi)
	case phaseSlots:
		g.slotRange(lo, hi)
	case phaseHalf:
		bk := &g.part[p].bk
		bk.reset(g.blk, g.rowAr)
		g.halfCells(&g.levs[g.rowLev], int64(g.cut[p]), int64(g.cut[p+1]), g.rowM2, bk, g.shift)
	case phaseSort:
		g.sortBucket(p)
	}
}

// sortBucket writes the pairs of bucket b, gathered from every part, to
// their place in g.rowOut: by i (a counting sort over the bucket's bodies,
// in g.cnt's share of the bucket), then each row by j.
func (g *Grid) sortBucket(b int) {
	lo := b << g.shift
	hi := min(lo+1<<g.shift, g.nBody)
	cnt := g.cnt[lo+b : hi+b+1] // bucket b's share: one more than its bodies
	clear(cnt)
	for p := range g.part {
		bk := &g.part[p].bk
		for i := bk.head[b]; i != bk.last[b]; i = bk.link[i] {
			for _, q := range bk.blocks[i] {
				cnt[int(q[0])-lo+1]++
			}
		}
		for _, q := range bk.cur[b] {
			cnt[int(q[0])-lo+1]++
		}
	}
	cnt[0] = int32(g.bkAt[b])
	for k := 1; k < len(cnt); k++ {
		cnt[k] += cnt[k-1]
	}
	out := g.rowOut
	for p := range g.part {
		bk := &g.part[p].bk
		for i := bk.head[b]; i != bk.last[b]; i = bk.link[i] {
			for _, q := range bk.blocks[i] {
				k := int(q[0]) - lo
				out[cnt[k]] = q
				cnt[k]++
			}
		}
		for _, q := range bk.cur[b] {
			k := int(q[0]) - lo
			out[cnt[k]] = q
			cnt[k]++
		}
	}
	// cnt[k] is now the end of row lo+k.
	start := int32(g.bkAt[b])
	for _, end := range cnt[:hi-lo] {
		sortRow(out[start:end])
		start = end
	}
}

// scanRange returns the bounding box of the centres, the smallest and
// largest inflated radius r + margin, the first body's radius r0 and
// whether every radius is r0 (one), and whether every body is valid.
func scanRange(centers []geom.Vec3, radii []float64, margin float64) (lo, hi geom.Vec3, rmin, rmax, r0 float64, one, ok bool) {
	lo = geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi = lo.Neg()
	rmin, rmax = math.Inf(1), 0
	radii = radii[:len(centers)]
	one = true
	if len(radii) > 0 {
		r0 = radii[0]
	}
	for i, c := range centers {
		r := radii[i]
		if !validBody(c, r) {
			return lo, hi, rmin, rmax, r0, false, false
		}
		lo = lo.Min(c)
		hi = hi.Max(c)
		if r != r0 {
			one = false
		}
		r += margin
		rmin = min(rmin, r)
		rmax = max(rmax, r)
	}
	return lo, hi, rmin, rmax, r0, one, true
}

// cellRange sets the cells of bodies lo…hi−1 of the single dense level 0.
// Their cellCoord by truncation: c − lo ≥ 0 (lo is the bounds' minimum)
// and, the level being dense, (c − lo)·inv ≤ the bounds' cell + 1, a small
// finite number, so int64 truncates it to its floor and no clamp applies.
func (g *Grid) cellRange(lo, hi int) {
	lv := &g.levs[0]
	inv, x0, y0, z0 := lv.inv, g.lo.X, g.lo.Y, g.lo.Z
	nz, nyz := lv.nz, lv.ny*lv.nz
	// local(q) with qmin = 0: ((x+1)·ny + y+1)·nz + z+1.
	base := nyz + nz + 1
	cell := g.cell[lo:hi]
	for k, c := range g.rowC[lo:hi] {
		x, y, z := int64((c.X-x0)*inv), int64((c.Y-y0)*inv), int64((c.Z-z0)*inv)
		cell[k] = int32(x*nyz + y*nz + z + base)
	}
}

// slotRange writes the slots of bodies lo…hi−1 (at their cell's start
// g.cstart[g.cell[k]] plus their rank in the cell g.pos[k]), and their
// radii in g.slR unless they all have one (level.rsame). Every body is
// valid and active here (oneLevel), so the k-th body is body k: g.body,
// the general steps' list of valid bodies, is not written.
func (g *Grid) slotRange(lo, hi int) {
	centers, radii, cs := g.rowC, g.rowR, g.cstart
	cell, pos := g.cell[lo:hi], g.pos[lo:hi]
	if g.levs[0].rsame > 0 { // one radius: no radii per slot (halfCells reads none)
		for k, c := range centers[lo:hi] {
			g.sl[cs[cell[k]]+pos[k]] = slotBody{c.X, c.Y, c.Z, int32(lo + k)}
		}
		return
	}
	for k, c := range centers[lo:hi] {
		i := lo + k
		p := cs[cell[k]] + pos[k]
		g.sl[p] = slotBody{c.X, c.Y, c.Z, int32(i)}
		g.slR[p] = radii[i]
	}
}

// oneLevel is Pairs for every body valid and active, on a single dense
// level (similar radii: within a factor 2, in one power of two; a compact
// set: at most 4n + 4096 cells): the same levels, cells, slots
// and pairs as Pairs' general steps, each step in parts (on several
// workers with Fork) but the counting of the cells. It reports false, having set nothing the
// general steps need, when the bodies do not qualify.
func (g *Grid) oneLevel(centers []geom.Vec3, radii []float64, margin float64, out [][2]int32) ([][2]int32, bool) {
	n := len(centers)
	g.rowC, g.rowR, g.rowM2, g.rowLev = centers, radii[:n], 2*margin, 0
	defer func() { g.rowC, g.rowR = nil, nil }()
	g.fork(phaseScan, rowParts)
	lo, hi := g.part[0].lo, g.part[0].hi
	rmin, rmax := g.part[0].rmin, g.part[0].rmax
	r0, one := g.part[0].r0, true
	for p := range g.part {
		pt := &g.part[p]
		if !pt.ok {
			return out, false
		}
		lo, hi = lo.Min(pt.lo), hi.Max(pt.hi)
		rmin, rmax = min(rmin, pt.rmin), max(rmax, pt.rmax)
		one = one && pt.one && (pt.r0 == r0 || pt.lo.X > pt.hi.X) // (an empty part has no body)
	}
	// One level: every inflated radius in the median's binade, so that
	// Pairs' bulk is every body and h0 their largest diameter.
	if !(rmin > 0) || expBin(rmin) != expBin(rmax) {
		return out, false
	}
	span := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	if math.IsInf(span, 1) {
		span = math.MaxFloat64
	}
	h0 := max(2*rmax*(1+slack), 2*rmax*(1+slack)/(1<<maxLevel), span/maxSpan)
	if h0 == 0 || math.IsInf(h0, 1) {
		h0 = 1
	}
	h := max(2*rmax*(1+slack), span/maxSpan)
	if h == 0 || math.IsInf(h, 1) {
		h = max(span, 1)
		if math.IsInf(h, 1) {
			h = math.MaxFloat64
		}
	}
	lv := level{L: 0, h: h, inv: 1 / h, rmax: rmax, n: int32(n), dense: true}
	// One radius, and it is > 0: rsame = 0 means "radii in slR" to
	// slotRange and halfCells, so bodies of radius 0 (valid: validBody)
	// take the radii path (review r2: an unsized slR otherwise).
	one = one && r0 > 0
	if one {
		lv.rsame = r0
	}
	// The occupied cells: cellCoord is monotone, so the bounds' cells.
	lv.qmax = [3]int64{cellCoord(hi.X-lo.X, lv.inv), cellCoord(hi.Y-lo.Y, lv.inv), cellCoord(hi.Z-lo.Z, lv.inv)}
	dx, dy, dz := lv.qmax[0]+1, lv.qmax[1]+1, lv.qmax[2]+1
	lv.boxCells = float64(dx) * float64(dy) * float64(dz)
	lv.vol = lv.boxCells * lv.h * lv.h * lv.h
	padded := float64(dx+2) * float64(dy+2) * float64(dz+2)
	if padded > 4*float64(n)+4096 {
		return out, false
	}
	lv.ny, lv.nz = dy+2, dz+2
	lv.ncell = int32(padded)
	g.lo, g.h0 = lo, h0
	g.levs[0] = lv
	g.used = append(g.used[:0], 0)
	g.cellsFor(out, n) // in out's room when it holds them (cells_room.go)
	g.fork(phaseCells, rowParts)
	// Slots in cell order, bodies in index order within a cell: the
	// counting is serial (one pass: each body's rank in its cell, then
	// the cells' starts), the slots are written in parts at their cell's
	// start plus their rank.
	total := lv.ncell
	g.cstart = grow(g.cstart, int(total)+1)
	cs := g.cstart
	clear(cs)
	// Each body's rank in its cell lives in g.cnt's room, which the
	// buckets' sort (phaseSort: n + nbk entries) reuses after the slots:
	// one array of 4 bytes a body kept between calls, not two.
	g.cnt = sized(g.cnt, n+maxBuckets)
	g.pos = g.cnt[:n]
	pos := g.pos
	for k, c := range g.cell[:n] {
		r := cs[c+1]
		pos[k] = r
		cs[c+1] = r + 1
	}
	for c := int32(1); c <= total; c++ {
		cs[c] += cs[c-1]
	}
	g.slotsFor(n, centers)
	if !one {
		g.slR = sized(g.slR, n)
	}
	g.fork(phaseSlots, rowParts)
	g.endCells() // the half stencil reads the slots and cstart only
	out = g.halfParts(0, n, 2*margin, out)
	g.keepCells(out, n) // (cells_room.go)
	g.oneR = lv.rsame
	return out, true
}
