package broad

import (
	"math"

	"grainlab/sim/geom"
)

// Rows: the pairs of a single dense level found body by body, in the order
// Pairs returns them, without a sort. This is the common case of the sphere
// path (equal or similar spheres: one level; a compact pile: dense cells),
// built as LAMMPS builds a half list without Newton's third law (`npair
// half/bin/newtoff`): each body i scans the 27 cells around its own and
// keeps the bodies j > i, so the pairs come out by i, and each row is
// sorted by j on the spot (a few entries). Twice the distance tests of
// the 13-cell half stencil, half of them cut short by the index test, but
// no sort of all pairs, and the bodies split into parts that share
// nothing: with Fork the parts run on several workers. The pairs, and
// their order, are those of the general search (every pair once, sorted
// by i, then j), so the result does not depend on the number of parts.

// rowParts is the number of parts the rows are split into when Fork is
// set (more parts than workers: a worker of a shared machine that falls
// behind leaves its parts to the others).
const rowParts = 8

// rowMin is the smallest number of bodies whose rows are split into parts.
const rowMin = 4096

// rowPart is one part's output (on its own cache lines).
type rowPart struct {
	out        [][2]int32
	at         int // where out goes in the result
	lo, hi     geom.Vec3
	rmin, rmax float64
	ok         bool
	_          [64]byte
}

// rows writes the pairs of the single dense level L to out[:0], by body.
func (g *Grid) rows(centers []geom.Vec3, radii []float64, L int, m2 float64, out [][2]int32) [][2]int32 {
	nb := len(g.body)
	g.rowC, g.rowR, g.rowM2, g.rowLev = centers, radii, m2, L
	defer func() { g.rowC, g.rowR = nil, nil }()
	if nb < rowMin {
		return g.rowRange(0, nb, out[:0])
	}
	g.fork(phaseRows)
	return g.join(out)
}

// join returns the parts' rows, in part order, in out (grown when too
// small), each part copying its own.
func (g *Grid) join(out [][2]int32) [][2]int32 {
	total := 0
	for p := range g.part {
		g.part[p].at = total
		total += len(g.part[p].out)
	}
	out = grow(out, total)
	g.rowOut = out
	g.fork(phaseJoin)
	g.rowOut = nil
	return out
}

// The phases of a parallel search (Grid.phase): the bodies' bounds, their
// cells, their slots, the rows, the rows joined.
const (
	phaseScan = iota
	phaseCells
	phaseSlots
	phaseRows
	phaseJoin
)

// fork runs phase ph over the bodies in rowParts parts, with Fork when set.
func (g *Grid) fork(ph int) {
	g.phase = ph
	if g.Fork == nil {
		for p := range rowParts {
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
	g.Fork(rowParts, g.rowJob)
}

// runPart runs the current phase over part p of the bodies.
func (g *Grid) runPart(p int) {
	n := len(g.rowC)
	if g.phase >= phaseSlots {
		n = len(g.body)
	}
	lo, hi := p*n/rowParts, (p+1)*n/rowParts
	pt := &g.part[p]
	switch g.phase {
	case phaseScan:
		pt.lo, pt.hi, pt.rmin, pt.rmax, pt.ok = scanRange(g.rowC[lo:hi], g.rowR[lo:hi], g.rowM2/2)
	case phaseCells:
		g.cellRange(lo, hi)
	case phaseSlots:
		g.slotRange(lo, hi)
	case phaseRows:
		pt.out = g.rowRange(lo, hi, pt.out[:0])
	case phaseJoin:
		copy(g.rowOut[pt.at:], pt.out)
	}
}

// scanRange returns the bounding box of the centres, the smallest and
// largest inflated radius r + margin, and whether every body is valid.
func scanRange(centers []geom.Vec3, radii []float64, margin float64) (lo, hi geom.Vec3, rmin, rmax float64, ok bool) {
	lo = geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi = lo.Neg()
	rmin, rmax = math.Inf(1), 0
	radii = radii[:len(centers)]
	for i, c := range centers {
		r := radii[i]
		if !validBody(c, r) {
			return lo, hi, rmin, rmax, false
		}
		lo = lo.Min(c)
		hi = hi.Max(c)
		r += margin
		rmin = min(rmin, r)
		rmax = max(rmax, r)
	}
	return lo, hi, rmin, rmax, true
}

// cellRange sets the cells of bodies lo…hi−1 of the single dense level 0.
func (g *Grid) cellRange(lo, hi int) {
	lv := &g.levs[0]
	for k := lo; k < hi; k++ {
		c := g.rowC[k]
		q := [3]int64{cellCoord(c.X-g.lo.X, lv.inv), cellCoord(c.Y-g.lo.Y, lv.inv), cellCoord(c.Z-g.lo.Z, lv.inv)}
		g.cell[k] = int32(lv.local(q))
	}
}

// slotRange writes the slots of bodies lo…hi−1 (at g.cnt[k], their places).
func (g *Grid) slotRange(lo, hi int) {
	centers, radii := g.rowC, g.rowR
	for k := lo; k < hi; k++ {
		i := g.body[k]
		c := centers[i]
		g.sl[g.pos[k]] = slotBody{c.X, c.Y, c.Z, radii[i], i}
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
	g.fork(phaseScan)
	lo, hi := g.part[0].lo, g.part[0].hi
	rmin, rmax := g.part[0].rmin, g.part[0].rmax
	for p := range g.part {
		pt := &g.part[p]
		if !pt.ok {
			return out, false
		}
		lo, hi = lo.Min(pt.lo), hi.Max(pt.hi)
		rmin, rmax = min(rmin, pt.rmin), max(rmax, pt.rmax)
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
	g.body = sized(g.body, n)
	for i := range g.body {
		g.body[i] = int32(i)
	}
	g.cell = sized(g.cell, n)
	g.fork(phaseCells)
	// Slots in cell order, bodies in index order within a cell: the
	// counting is serial, the slots are written in parts.
	total := lv.ncell
	g.cstart = grow(g.cstart, int(total)+1)
	cs := g.cstart
	clear(cs)
	for _, c := range g.cell[:n] {
		cs[c+1]++
	}
	for c := int32(1); c <= total; c++ {
		cs[c] += cs[c-1]
	}
	g.cnt = grow(g.cnt, int(total))
	copy(g.cnt, cs[:total])
	g.pos = sized(g.pos, n)
	for k, c := range g.cell[:n] {
		g.pos[k] = g.cnt[c]
		g.cnt[c]++
	}
	g.sl = sized(g.sl, n)
	g.fork(phaseSlots)
	if g.Fork == nil {
		// One worker: the 13-cell half stencil and a sort of all pairs
		// take fewer instructions than the rows (Pairs' general step 7).
		g.tmp = g.sameLevel(g.tmp[:0], 0, 2*margin)
		out = grow(out, len(g.tmp))
		g.sortPairs(g.tmp, out, n)
		return out, true
	}
	g.fork(phaseRows)
	return g.join(out), true
}

// rowRange appends the rows of the valid bodies k = lo…hi−1 to out.
func (g *Grid) rowRange(lo, hi int, out [][2]int32) [][2]int32 {
	lv := &g.levs[g.rowLev]
	m2 := g.rowM2
	cs := g.cstart[lv.cbase : lv.cbase+lv.ncell+1]
	nz, nyz := int32(lv.nz), int32(lv.ny*lv.nz)
	// The 27 cells around a cell as 9 z-rows of 3 cells, contiguous in
	// slot order: the row (dx, dy, −1…+1) starts dx·nyz + dy·nz − 1 cells
	// from it (the level is padded by a cell on every side).
	var rowOff [9]int32
	for a := range 3 {
		for b := range 3 {
			rowOff[3*a+b] = int32(a-1)*nyz + int32(b-1)*nz - 1
		}
	}
	sl, centers, radii := g.sl, g.rowC, g.rowR
	for k := lo; k < hi; k++ {
		c := g.cell[k] - lv.cbase
		i := g.body[k]
		start := len(out)
		ca := centers[i]
		xa, ya, za, ra := ca.X, ca.Y, ca.Z, radii[i]
		for _, off := range rowOff {
			bs := sl[cs[c+off]:cs[c+off+3]]
			for b := range bs {
				// The distance first: rarely true, so well predicted,
				// where the index test alone is a coin toss.
				sb := &bs[b]
				dx, dy, dz := xa-sb.X, ya-sb.Y, za-sb.Z
				s := ra + sb.R + m2
				if float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= float64(s*s) && sb.I > i {
					out = append(out, [2]int32{i, sb.I})
				}
			}
		}
		row := out[start:]
		sortRow(row)
	}
	return out
}
