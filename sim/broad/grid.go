// Package broad is the first level of the global contact search of S0 §2.5:
// bounding spheres of bodies, inflated by a margin, are paired by a linked-cell
// scheme (Grid) and the pairs are cached between rebuilds by a Verlet scheme
// (Verlet). The second level (sub-region bounding volumes) and the narrow phase
// live elsewhere.
package broad

import (
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	"grainlab/sim/geom"
)

// Overlaps reports whether the spheres (a, ra) and (b, rb), each inflated by
// margin, overlap or touch. It is the exact predicate Grid.Pairs applies:
//
//	(a.X−b.X)² + (a.Y−b.Y)² + (a.Z−b.Z)² ≤ (ra + rb + 2·margin)²
//
// evaluated in float64 in exactly that order, without fused multiply-adds.
// It is symmetric in (a, ra) ↔ (b, rb) bit for bit.
func Overlaps(a, b geom.Vec3, ra, rb, margin float64) bool {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	s := ra + rb + 2*margin
	return float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= float64(s*s)
}

const (
	// slack widens every cell and query box by this relative amount, so that
	// rounding in cell coordinates (≤ about 2^-51·maxSpan ≈ 5e-4 cell on a
	// difference of two coordinates) never loses an overlapping pair.
	slack = 2e-3
	// boxEps (in cells) widens every box query further, for the same reason.
	boxEps = 2e-3
	// maxSpan bounds (bounding-box extent)/(cell size) on every level; beyond
	// it cells are enlarged, which keeps cell coordinates accurate (see slack).
	maxSpan = 1 << 40
	// maxLevel is the coarsest level; level L holds spheres whose inflated
	// diameter·(1+slack) lies in (h0·2^(L−1), h0·2^L].
	maxLevel = 60
	// coordBits bits of each cell coordinate enter a hash key. They wrap: far
	// cells may share a key, which costs distance tests but never loses or
	// repeats a pair (stencils and boxes are narrower than 2^coordBits).
	coordBits = 19
	coordMask = 1<<coordBits - 1
	// probeCost is the cost of probing one cell relative to one distance test
	// (used only to choose the cheaper direction of cross-level queries).
	probeCost = 1.5
)

// level is one grid of the hierarchy: either a dense padded box of cells or
// a hash of its non-empty cells.
type level struct {
	L        int      // level number
	h, inv   float64  // cell edge and its inverse
	rmax     float64  // largest inflated radius r+margin on this level
	n        int32    // bodies on this level
	s0       int32    // first slot (bodies sorted by level, then cell, then index)
	cbase    int32    // first global cell index
	ncell    int32    // dense: padded box cells; hash: non-empty cells
	dense    bool     // dense box (else hashed)
	qmin     [3]int64 // smallest occupied cell coordinates
	qmax     [3]int64 // largest occupied cell coordinates
	ny, nz   int64    // dense: padded dimensions in y and z
	hqBase   int32    // hash: index of this level's first cell in Grid.hq
	vol      float64  // volume of the occupied cell box (cost model)
	boxCells float64  // number of cells of the occupied cell box (cost model)
	// rsame is the radius of every body of the level when they all have
	// the same (oneLevel: a monodisperse set), else 0.
	rsame float64
}

// Grid is a hierarchical linked-cell grid over bounding spheres (S0 §2.5).
// Spheres are split into levels by inflated diameter in powers of two above
// the level-0 cell edge h0, which is sized from the bulk of the radius
// distribution (radii up to about 4× the median), so a few huge spheres sit on
// their own coarse level instead of inflating every cell. Each level's cell
// edge is its largest inflated diameter (×(1+2e-3)), so same-level pairs lie in
// adjacent cells (13-cell half stencil); cross-level pairs are found by box
// queries, from each small sphere into the coarse level or from each coarse
// sphere into the fine level (or by scanning it), whichever a cost model says
// is cheaper. A level is a dense padded cell array when its occupied box has
// at most 4·n+4096 cells, else a hash of non-empty cells, so far-away or
// runaway bodies cost nothing. The zero value is ready to use; a Grid reuses
// its buffers between calls and must not be used concurrently.
type Grid struct {
	// CellSize, when > 0, replaces the automatic level-0 size class h0.
	CellSize float64

	// Fork, when set, runs job(worker, lo, hi) over the parts [0, n), on
	// several workers at once, and returns when every part is done (the
	// parts write disjoint data). Pairs then searches the cells of a
	// single dense level in parts (rows.go); its result is the same.
	Fork func(n int, job func(worker, lo, hi int))

	// Invalid lists, after each Pairs call, the active bodies that were
	// skipped because their centre is not finite or their radius is NaN,
	// negative or +Inf. It is reused by the next call.
	Invalid []int

	h0 float64
	// oneR is the radius of every body of the last Pairs call when they
	// were all active and valid and had one radius r > 0 (oneLevel with
	// level.rsame), else 0.
	oneR float64
	lo   geom.Vec3
	levs [maxLevel + 1]level
	used []int // non-empty levels, ascending

	// per valid body k (valid bodies in index order)
	body  []int32
	lev   []uint8
	q     [][3]int64
	cell  []int32
	byLev []int32
	// cellOwn is the grid's own array of cells (cell's storage when the
	// output's room does not hold them: cells_room.go), kept between calls
	cellOwn []int32

	cstart []int32     // global cell → first slot; len total cells + 1
	hq     [][3]int64  // hash cells' coordinates
	table  []hashEntry // open addressing, key → global cell + 1
	hMask  uint64
	hBits  uint

	// per slot: position and body, packed (a test reads one slot's 32
	// bytes at once), and the radius apart (slR: not written when every
	// body of a single dense level has one radius, level.rsame)
	sl  []slotBody
	slR []float64
	// share, when set for one Pairs call (Verlet: the storage of its
	// reference positions, dead while it rebuilds), holds the slots in
	// place of an array of the grid's own (slotsFor); the grid keeps no
	// hold on it after the call.
	share []slotBody

	// parts (rows.go): the inputs of the call in progress, the job, the
	// parts' cells and outputs, the buckets of the pairs' lower bodies
	rowC   []geom.Vec3
	rowR   []float64
	rowM2  float64
	rowLev int
	rowJob func(worker, lo, hi int)
	phase  int
	pos    []int32
	rowOut [][2]int32
	part   [rowParts]rowPart
	cut    [rowParts + 1]int32 // part p: the level's cells cut[p]…cut[p+1]−1
	shift  uint                // bucket of body i: i >> shift
	nbk    int                 // number of buckets
	nBody  int                 // bodies 0…nBody−1
	bkAt   [maxBuckets]int     // where bucket b's pairs start in the result
	blk    int                 // the room of a bucket's block (buckets)
	ar     arena               // the blocks in the output's room (halfParts)
	rowAr  *arena              // &ar while the parts may take its blocks, else nil
	// lastPairs is the number of pairs of the last search in parts: the
	// output's room takes blocks only when they fit the slots' room.
	lastPairs int
	// lastBlocks and lastArena: the blocks the last search in parts took,
	// and how many of them in the output's room (tests).
	lastBlocks, lastArena int

	hist [2200]int32 // radius-exponent histogram (bin = exponent + 1100)
	cnt  []int32
	tmp  [][2]int32
}

// slotBody is one body in cell order: its centre and index (32 bytes:
// two a cache line; its radius is Grid.slR's).
type slotBody struct {
	X, Y, Z float64
	I       int32
}

type hashEntry struct {
	key uint64
	val int32 // global cell + 1; 0 = empty
}

// OneRadius returns r and true when every body of the last Pairs call
// was active and valid and had the radius r > 0 (the search of one dense
// level with one radius), else 0 and false.
func (g *Grid) OneRadius() (float64, bool) { return g.oneR, g.oneR > 0 }

// CellSize0 returns the level-0 size class h0 chosen by the last Pairs call.
func (g *Grid) CellSize0() float64 { return g.h0 }

// Levels returns the number of non-empty grid levels in the last Pairs call.
func (g *Grid) Levels() int { return len(g.used) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// validBody reports whether a body with centre c and radius r can be gridded.
// (x − x is 0 exactly when x is finite: NaN and ±Inf give NaN; short
// enough to be inlined in the grid's and the Verlet list's passes.)
func validBody(c geom.Vec3, r float64) bool {
	return c.X-c.X == 0 && c.Y-c.Y == 0 && c.Z-c.Z == 0 && r >= 0 && r-r == 0
}

func sanitizeMargin(m float64) float64 {
	if !(m >= 0) || math.IsInf(m, 1) {
		return 0
	}
	return m
}

// grow returns s with length n, reallocated with a quarter more room when
// its capacity is short (arrays whose length varies: pairs, cells).
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// sized returns s with length n, reallocated to exactly n when its capacity
// is short: for arrays of one entry a body, whose number is known (at 10⁶
// spheres the quarter of room of grow held ~20 bytes a sphere).
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Pairs returns, in out[:0] (reused, grown only when too small), every pair
// {i, j} with i < j of bodies that are both active and valid and for which
// Overlaps(centers[i], centers[j], radii[i], radii[j], margin) holds, i.e.
// |ci−cj| ≤ ri + rj + 2·margin: spheres inflated by margin overlap or touch.
// Pairs are sorted by i, then j. A nil active means every body is active;
// otherwise active(i) is called once per body and false bodies are ignored
// entirely. Bodies with a non-finite centre or a NaN, negative or +Inf radius
// are skipped and listed in g.Invalid. A NaN, negative or +Inf margin is
// treated as 0. len(radii) must be at least len(centers), and
// len(centers) < 2^31. Cost is O(N + pairs) for typical inputs, including one
// or a few huge spheres; after warm-up on inputs of similar size and layout
// the call does not allocate.
func (g *Grid) Pairs(centers []geom.Vec3, radii []float64, margin float64, active func(i int) bool, out [][2]int32) [][2]int32 {
	out = out[:0]
	g.Invalid = g.Invalid[:0]
	g.oneR = 0
	if g.share != nil {
		defer g.unshare()
	}
	for _, L := range g.used {
		g.levs[L] = level{}
	}
	g.used = g.used[:0]
	n := len(centers)
	if len(radii) < n {
		panic("broad: len(radii) < len(centers)")
	}
	if n > math.MaxInt32 {
		panic("broad: too many bodies")
	}
	margin = sanitizeMargin(margin)
	if active == nil && n >= rowMin && !(g.CellSize > 0 && finite(g.CellSize)) {
		// Equal or similar spheres in a compact set: the same steps in
		// parts, on several workers with Fork (rows.go).
		if out, ok := g.oneLevel(centers, radii, margin, out); ok {
			return out
		}
	}

	// 1. Valid active bodies, bounding box, radius histogram.
	g.body = g.body[:0]
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	minE, maxE := len(g.hist), -1
	for i := 0; i < n; i++ {
		if active != nil && !active(i) {
			continue
		}
		c, r := centers[i], radii[i]
		if !validBody(c, r) {
			g.Invalid = append(g.Invalid, i)
			continue
		}
		g.body = append(g.body, int32(i))
		lo = lo.Min(c)
		hi = hi.Max(c)
		e := expBin(r + margin)
		g.hist[e]++
		minE = min(minE, e)
		maxE = max(maxE, e)
	}
	nb := len(g.body)
	if nb < 2 {
		if nb == 1 {
			clear(g.hist[minE : maxE+1])
		}
		return out
	}
	g.lo = lo

	// 2. Level-0 size class from the bulk of the radius distribution.
	half := int32((nb + 1) / 2)
	eMed, acc := minE, int32(0)
	for e := minE; e <= maxE; e++ {
		acc += g.hist[e]
		if acc >= half {
			eMed = e
			break
		}
	}
	if eMed == 0 { // median radius is zero: size by the smallest positive radius
		for e := 1; e <= maxE; e++ {
			if g.hist[e] != 0 {
				eMed = e
				break
			}
		}
	}
	clear(g.hist[minE : maxE+1])
	bulkLim := math.Ldexp(1, eMed-1100+1) // bin e holds radii in [2^(e-1101), 2^(e-1100))
	rBulk, rMax := 0.0, 0.0
	for _, i := range g.body {
		r := radii[i] + margin
		rMax = max(rMax, r)
		if r < bulkLim {
			rBulk = max(rBulk, r)
		}
	}
	span := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	if math.IsInf(span, 1) {
		span = math.MaxFloat64
	}
	h0 := 2 * rBulk * (1 + slack)
	if g.CellSize > 0 && finite(g.CellSize) {
		h0 = g.CellSize
	}
	h0 = max(h0, 2*rMax*(1+slack)/(1<<maxLevel), span/maxSpan)
	if h0 == 0 || math.IsInf(h0, 1) {
		h0 = 1
	}
	g.h0 = h0

	// 3. Level of each body; per-level counts and largest radius.
	g.lev = sized(g.lev, nb)
	for k, i := range g.body {
		r := radii[i] + margin
		d := 2 * r * (1 + slack)
		L := 0
		if d > h0 {
			_, e := math.Frexp(d / h0)
			L = min(max(e-1, 0), maxLevel)
			for L < maxLevel && d > math.Ldexp(h0, L) {
				L++
			}
		}
		g.lev[k] = uint8(L)
		lv := &g.levs[L]
		if lv.n == 0 {
			g.used = append(g.used, L)
		}
		lv.n++
		lv.rmax = max(lv.rmax, r)
	}
	sortInts(g.used)

	// 4. Bodies by level (stable), cell edge per level.
	g.cnt = grow(g.cnt, maxLevel+2)
	clear(g.cnt)
	for _, L := range g.lev[:nb] {
		g.cnt[L+1]++
	}
	for L := 1; L <= maxLevel+1; L++ {
		g.cnt[L] += g.cnt[L-1]
	}
	for _, L := range g.used {
		lv := &g.levs[L]
		lv.L = L
		lv.s0 = g.cnt[L]
		h := max(2*lv.rmax*(1+slack), span/maxSpan)
		if L == 0 && g.CellSize > 0 && finite(g.CellSize) {
			h = max(h, g.CellSize)
		}
		if h == 0 || math.IsInf(h, 1) {
			h = max(span, 1)
			if math.IsInf(h, 1) {
				h = math.MaxFloat64
			}
		}
		lv.h, lv.inv = h, 1/h
	}
	g.byLev = sized(g.byLev, nb)
	for k := range nb {
		L := g.lev[k]
		g.byLev[g.cnt[L]] = int32(k)
		g.cnt[L]++
	}

	// 5. Cell coordinates; dense or hashed cells per level; global cell index.
	g.q = sized(g.q, nb)
	g.cell = sized(g.cellOwn, nb)
	g.cellOwn = g.cell
	g.hq = g.hq[:0]
	g.initHash(nb)
	total := int32(0)
	for _, L := range g.used {
		lv := &g.levs[L]
		ks := g.byLev[lv.s0 : lv.s0+lv.n]
		lv.qmin = [3]int64{math.MaxInt64, math.MaxInt64, math.MaxInt64}
		lv.qmax = [3]int64{-1, -1, -1}
		for _, k := range ks {
			c := centers[g.body[k]]
			q := [3]int64{cellCoord(c.X-lo.X, lv.inv), cellCoord(c.Y-lo.Y, lv.inv), cellCoord(c.Z-lo.Z, lv.inv)}
			g.q[k] = q
			for a := range 3 {
				lv.qmin[a] = min(lv.qmin[a], q[a])
				lv.qmax[a] = max(lv.qmax[a], q[a])
			}
		}
		dx, dy, dz := lv.qmax[0]-lv.qmin[0]+1, lv.qmax[1]-lv.qmin[1]+1, lv.qmax[2]-lv.qmin[2]+1
		lv.boxCells = float64(dx) * float64(dy) * float64(dz)
		lv.vol = lv.boxCells * lv.h * lv.h * lv.h
		padded := float64(dx+2) * float64(dy+2) * float64(dz+2)
		lv.cbase = total
		if padded <= 4*float64(lv.n)+4096 {
			lv.dense = true
			lv.ny, lv.nz = dy+2, dz+2
			lv.ncell = int32(padded)
			for _, k := range ks {
				g.cell[k] = total + int32(lv.local(g.q[k]))
			}
		} else {
			lv.hqBase = int32(len(g.hq))
			for _, k := range ks {
				q := g.q[k]
				id, fresh := g.lookupOrInsert(hashKey(L, q), total+lv.ncell)
				if fresh {
					lv.ncell++
					g.hq = append(g.hq, q)
				}
				g.cell[k] = id
			}
		}
		total += lv.ncell
	}

	// 6. Counting sort of bodies by global cell (levels contiguous, body order within a cell).
	g.cstart = grow(g.cstart, int(total)+1)
	cs := g.cstart
	clear(cs)
	for k := range nb {
		cs[g.cell[k]+1]++
	}
	for c := int32(1); c <= total; c++ {
		cs[c] += cs[c-1]
	}
	g.cnt = grow(g.cnt, int(total))
	copy(g.cnt, cs[:total])
	g.slotsFor(nb, centers)
	g.slR = sized(g.slR, nb)
	for k, i := range g.body {
		c := g.cell[k]
		p := g.cnt[c]
		g.cnt[c]++
		g.sl[p] = slotBody{centers[i].X, centers[i].Y, centers[i].Z, i}
		g.slR[p] = radii[i]
	}

	// 7. Enumerate candidate pairs: with Fork a single dense level in
	// parts, sorted in parts (rows.go); else by cells, then sorted.
	m2 := 2 * margin
	if g.Fork != nil && len(g.used) == 1 && g.levs[g.used[0]].dense && nb >= rowMin {
		return g.halfParts(g.used[0], n, m2, out)
	}
	tmp := g.tmp[:0]
	for _, L := range g.used {
		tmp = g.sameLevel(tmp, L, m2)
	}
	for a, L := range g.used {
		for _, M := range g.used[a+1:] {
			tmp = g.crossLevel(tmp, &g.levs[L], &g.levs[M], margin)
		}
	}
	g.tmp = tmp

	// 8. Counting sort by i into out, then each i's row sorted by j.
	out = grow(out, len(tmp))
	g.sortPairs(tmp, out, n)
	return out
}

// slotsFor sizes g.sl for nb slots: in g.share when it has the room and
// does not hold the centres being searched (its slots are written while
// they are read), else in the grid's own array.
func (g *Grid) slotsFor(nb int, centers []geom.Vec3) {
	if cap(g.share) >= nb && !overlaps(g.share, centers) {
		g.sl = g.share[:nb]
		return
	}
	g.sl = sized(g.sl, nb)
}

// unshare ends a Pairs call made with g.share: the grid drops its slots
// (in the shared storage, the lender's again; or an array of its own
// made for this call, when the share held the centres).
func (g *Grid) unshare() {
	g.sl, g.share = nil, nil
}

// overlaps reports whether the storage of s (all of its room) and of the
// centres c share a byte.
func overlaps(s []slotBody, c []geom.Vec3) bool {
	if cap(s) == 0 || len(c) == 0 {
		return false
	}
	s0 := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	s1 := s0 + uintptr(cap(s))*unsafe.Sizeof(slotBody{})
	c0 := uintptr(unsafe.Pointer(unsafe.SliceData(c)))
	c1 := c0 + uintptr(len(c))*unsafe.Sizeof(geom.Vec3{})
	return s0 < c1 && c0 < s1
}

// local returns the dense local cell index of cell coordinates q.
func (lv *level) local(q [3]int64) int64 {
	return ((q[0]-lv.qmin[0]+1)*lv.ny+(q[1]-lv.qmin[1]+1))*lv.nz + (q[2] - lv.qmin[2] + 1)
}

// sameLevel appends the overlapping pairs of two bodies on level L.
func (g *Grid) sameLevel(tmp [][2]int32, L int, m2 float64) [][2]int32 {
	lv := &g.levs[L]
	cs := g.cstart[lv.cbase : lv.cbase+lv.ncell+1]
	if lv.dense {
		// One bucket grown by append: i >> 31 is 0 for every body.
		var bk buckets
		bk.cur[0] = tmp
		g.halfCells(lv, 0, int64(lv.ncell), m2, &bk, 31)
		return bk.cur[0]
	}
	for c := int32(0); c < lv.ncell; c++ {
		a0, a1 := cs[c], cs[c+1]
		for a := a0; a < a1; a++ {
			tmp = g.test(tmp, a, a+1, a1, m2)
		}
		q := g.hq[lv.hqBase+c]
		for _, d := range halfStencil {
			nc := g.lookup(hashKey(L, [3]int64{q[0] + d[0], q[1] + d[1], q[2] + d[2]}))
			if nc < 0 {
				continue
			}
			b0, b1 := g.cstart[nc], g.cstart[nc+1]
			for a := a0; a < a1; a++ {
				tmp = g.test(tmp, a, b0, b1, m2)
			}
		}
	}
	return tmp
}

// halfCells appends the overlapping pairs {i, j}, i < j, of two bodies on
// the dense level lv that the 13-cell half stencil of cells c0…c1−1 finds,
// each to the bucket of i, bk[i >> shift]. Forward half stencil: the cell
// itself and (0,0,+1), which are contiguous in slot order, then the z-rows
// (0,+1,·), (+1,−1,·), (+1,0,·) and (+1,+1,·); each body of a cell against
// every range at once (the order of the pairs found does not matter: they
// are sorted after). The current bucket is kept in a local slice (in
// Morton order the lower bodies of a cell's pairs are mostly in one
// bucket). Two loops, one radius or several, each with its own registers.
func (g *Grid) halfCells(lv *level, c0, c1 int64, m2 float64, bk *buckets, shift uint) {
	if lv.rsame > 0 {
		g.halfCellsOne(lv, c0, c1, m2, bk, shift)
		return
	}
	g.halfCellsRadii(lv, c0, c1, m2, bk, shift)
}

// halfRanges sets rg[1:] to the non-empty z-rows of cell c's half stencil
// (offsets rows of their first cell) and rg[0]'s end to the end of cell
// c+1, and returns the number of ranges and their slots (rg[0] from the
// cell's start).
func halfRanges(cs []int32, c int64, rows *[4]int64, rg *[5][2]int32) (nr int, slots int32) {
	nr = 1 // rg[0]: the rest of the cell and (0,0,+1), set per body
	slots = cs[c+2] - cs[c]
	for _, off := range rows {
		if b0, b1 := cs[c+off], cs[c+off+3]; b0 < b1 {
			rg[nr] = [2]int32{b0, b1}
			nr++
			slots += b1 - b0
		}
	}
	rg[0][1] = cs[c+2]
	return nr, slots
}

// halfCellsOne is halfCells when every body of the level has one radius R
// (level.rsame): the test's bound (R + R + m2)², the same bits as
// (r_a + r_b + m2)² per pair, computed once; no radius read. A cell's
// pairs by cellPairs (SSE2 on amd64, half_amd64.s; cellPairsGo
// elsewhere) into a buffer of pairs of bodies, then dropped into the
// buckets.
func (g *Grid) halfCellsOne(lv *level, c0, c1 int64, m2 float64, bk *buckets, shift uint) {
	cs := g.cstart[lv.cbase : lv.cbase+lv.ncell+1]
	nz, nyz := lv.nz, lv.ny*lv.nz
	rows := [4]int64{nz - 1, nyz - nz - 1, nyz - 1, nyz + nz - 1}
	sl := g.sl
	var rg [5][2]int32
	kc := uint(0)
	cur := bk.cur[0]
	defer func() { bk.cur[kc] = cur }()
	s := lv.rsame + lv.rsame + m2
	s2 := float64(s * s)
	var buf [1024][2]int32
	hits := buf[:]
	for c := c0; c < c1; c++ {
		a0, a1 := cs[c], cs[c+1]
		if a0 == a1 {
			continue
		}
		nr, tot := halfRanges(cs, c, &rows, &rg)
		// At most every body against every slot of its ranges; a crowded
		// cell in even chunks of its bodies.
		if int(a1-a0)*int(tot) > len(hits) {
			cur, kc = crowdedCell(sl, a0, a1, &rg, nr, tot, s2, hits, bk, cur, kc, shift)
			continue
		}
		n := cellPairs(sl, a0, a1, &rg, nr, s2, hits)
		cur, kc = dropPairs(bk, cur, kc, hits[:n], shift)
	}
}

// crowdedCell is halfCellsOne's cell a0…a1−1 when its pairs may not fit
// buf: its bodies in chunks of an even k (the same pairs in the same
// order as one call) with k × tot ≤ len(buf), a heap buffer of two bodies'
// pairs when even two do not fit.
//
//go:noinline
func crowdedCell(sl []slotBody, a0, a1 int32, rg *[5][2]int32, nr int, tot int32, s2 float64, buf [][2]int32,
	bk *buckets, cur [][2]int32, kc uint, shift uint) ([][2]int32, uint) {
	k := int32(len(buf)/int(tot)) &^ 1
	if k < 2 {
		k = 2
		buf = make([][2]int32, 2*int(tot))
	}
	for a := a0; a < a1; a += k {
		n := cellPairs(sl, a, min(a+k, a1), rg, nr, s2, buf)
		cur, kc = dropPairs(bk, cur, kc, buf[:n], shift)
	}
	return cur, kc
}

// cellPairsGo is cellPairs in Go: halfCellsOne's loop of two bodies at
// once (a and e = a+1 against each other, then both against every range,
// set up once, each slot loaded once for the two tests) and a last odd
// body alone.
func cellPairsGo(sl []slotBody, a0, a1 int32, rg *[5][2]int32, nr int, s2 float64, out [][2]int32) int {
	n := 0
	a := a0
	for ; a+1 < a1; a += 2 {
		sa, se := &sl[a], &sl[a+1]
		xa, ya, za := sa.X, sa.Y, sa.Z
		xe, ye, ze := se.X, se.Y, se.Z
		if dx, dy, dz := xe-xa, ye-ya, ze-za; float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= s2 {
			out[n] = [2]int32{sa.I, se.I}
			n++
		}
		rg[0][0] = a + 2
		for _, r := range rg[:nr] {
			bs := sl[r[0]:r[1]]
			for b := range bs {
				sb := &bs[b]
				xb, yb, zb := sb.X, sb.Y, sb.Z
				dx, dy, dz := xb-xa, yb-ya, zb-za
				if float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= s2 {
					out[n] = [2]int32{sa.I, sb.I}
					n++
				}
				dx, dy, dz = xb-xe, yb-ye, zb-ze
				if float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= s2 {
					out[n] = [2]int32{se.I, sb.I}
					n++
				}
			}
		}
	}
	if a < a1 {
		rg[0][0] = a + 1
		sa := &sl[a]
		xa, ya, za := sa.X, sa.Y, sa.Z
		for _, r := range rg[:nr] {
			bs := sl[r[0]:r[1]]
			for b := range bs {
				sb := &bs[b]
				dx, dy, dz := sb.X-xa, sb.Y-ya, sb.Z-za
				if float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= s2 {
					out[n] = [2]int32{sa.I, sb.I}
					n++
				}
			}
		}
	}
	return n
}

// halfCellsRadii is halfCells when the radii differ: (r_a + r_b + m2)² a
// pair, the radii read from g.slR.
func (g *Grid) halfCellsRadii(lv *level, c0, c1 int64, m2 float64, bk *buckets, shift uint) {
	cs := g.cstart[lv.cbase : lv.cbase+lv.ncell+1]
	nz, nyz := lv.nz, lv.ny*lv.nz
	rows := [4]int64{nz - 1, nyz - nz - 1, nyz - 1, nyz + nz - 1}
	sl, slR := g.sl, g.slR
	var rg [5][2]int32
	kc := uint(0)
	cur := bk.cur[0]
	defer func() { bk.cur[kc] = cur }()
	for c := c0; c < c1; c++ {
		a0, a1 := cs[c], cs[c+1]
		if a0 == a1 {
			continue
		}
		nr, _ := halfRanges(cs, c, &rows, &rg)
		for a := a0; a < a1; a++ {
			rg[0][0] = a + 1
			sa := &sl[a]
			xa, ya, za, ra, ia := sa.X, sa.Y, sa.Z, slR[a], sa.I
			for _, r := range rg[:nr] {
				bs := sl[r[0]:r[1]]
				rs := slR[r[0]:r[1]]
				rs = rs[:len(bs)]
				for b := range bs {
					sb := &bs[b]
					dx, dy, dz := sb.X-xa, sb.Y-ya, sb.Z-za
					s := ra + rs[b] + m2
					if float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= float64(s*s) {
						// dropPairs' step for the pair {ia, sb.I}.
						i, j := ia, sb.I
						if j < i {
							i, j = j, i
						}
						if k := uint(i) >> shift & (maxBuckets - 1); k != kc || len(cur) == cap(cur) {
							cur, kc = bk.switchTo(kc, k, cur)
						}
						cur = append(cur, [2]int32{i, j})
					}
				}
			}
		}
	}
}

// dropPairs appends the pairs hits {a, b}, each as (min, max), to the
// buckets: cur is the last block of bucket kc (halfCells' current
// bucket); a pair whose lower body's bucket (bits shift… of its index) is
// another, or meets a full block, switches (switchTo). It returns the
// current bucket's block and number.
func dropPairs(bk *buckets, cur [][2]int32, kc uint, hits [][2]int32, shift uint) ([][2]int32, uint) {
	shift &= 63 // (no shift check: shift < 64)
	for x := range hits {
		i, j := hits[x][0], hits[x][1]
		if j < i {
			i, j = j, i
		}
		if k := uint(i) >> shift & (maxBuckets - 1); k != kc || len(cur) == cap(cur) {
			cur, kc = bk.switchTo(kc, k, cur)
		}
		n := len(cur) // < cap(cur): within the block's room
		cur = cur[:n+1]
		cur[n][0], cur[n][1] = i, j
	}
	return cur, kc
}

// switchTo is dropPairs' switch from bucket kc (its last block cur) to
// bucket k, whose last block, when full, is followed by a new one (next),
// or grown by append without blocks.
func (bk *buckets) switchTo(kc, k uint, cur [][2]int32) ([][2]int32, uint) {
	bk.cur[kc] = cur
	cur = bk.cur[k]
	if len(cur) == cap(cur) {
		if bk.blk > 0 {
			cur = bk.next(k, cur)
		} else {
			cur = slices.Grow(cur, 1)
		}
	}
	return cur, k
}

// buckets holds the pairs halfCells drops, by bucket of their lower body:
// bucket b's pairs are its full blocks, blocks[head[b]],
// blocks[link[head[b]]], … up to its last block last[b], whose pairs are
// cur[b]. With blocks (blk > 0: the search in parts) a bucket whose last
// block is full takes a new block: one of the call's output room (ar,
// shared by the parts: Session 25) while it has one, else the next of the
// part's pool, which is kept between calls: a bucket never outgrows an
// array, so a call allocates nothing once the output's room and the pool
// hold the part's pairs (plus a partial block a bucket), whichever
// buckets they fall in — at a renumbering they move from every bucket to
// a few (Session 21's carve gave each bucket the room it used at the last
// call and grew it by append past that: 145 MB of garbage in the 10⁶
// box's run). The pool keeps the blocks the last call took (endCall).
// Without (blk = 0: the serial search's one bucket) cur[0] grows by
// append.
type buckets struct {
	cur        [maxBuckets][][2]int32
	head, last [maxBuckets]int32 // −1: no block
	blocks     [][][2]int32      // the call's blocks in the order taken (a full one at its length)
	link       []int32           // the block after blocks[i] in its bucket
	pool       [][][2]int32      // the part's own blocks, kept between calls
	own        int               // blocks of pool taken in this call
	ar         *arena            // the blocks in the output's room; nil: none
	blk        int               // the room of a new block (pairs); 0: no blocks
}

// arena hands out blocks of blk pairs from buf, the room of a search's
// output (dead until the buckets are sorted), to the parts' buckets, in
// any order (the blocks' places do not change the pairs or their order:
// each bucket's blocks are linked, and sorted after).
type arena struct {
	buf  [][2]int32
	blk  int
	nblk int32
	n    int32 // blocks asked for (atomic; taken: min(n, nblk))
}

// take returns the next free block of a, empty with the room of blk
// pairs, or nil when a has none left.
func (a *arena) take() [][2]int32 {
	k := atomic.AddInt32(&a.n, 1) - 1
	if k >= a.nblk {
		return nil
	}
	lo := int(k) * a.blk
	return a.buf[lo : lo : lo+a.blk]
}

// taken returns the number of blocks a handed out.
func (a *arena) taken() int { return int(min(atomic.LoadInt32(&a.n), a.nblk)) }

// next retires bucket kc's full block cur and returns a new block, empty,
// as the bucket's last: the arena's while it has one, else the pool's
// next (made when the pool is used up).
//
//go:noinline
func (bk *buckets) next(kc uint, cur [][2]int32) [][2]int32 {
	i := int32(len(bk.blocks))
	var b [][2]int32
	if bk.ar != nil {
		b = bk.ar.take()
	}
	if b == nil {
		if bk.own == len(bk.pool) {
			bk.pool = append(bk.pool, make([][2]int32, 0, bk.blk))
		}
		b = bk.pool[bk.own][:0]
		bk.own++
	}
	bk.blocks = append(bk.blocks, b)
	bk.link = append(bk.link, -1)
	if l := bk.last[kc]; l >= 0 {
		bk.blocks[l] = cur
		bk.link[l] = i
	} else {
		bk.head[kc] = i
	}
	bk.last[kc] = i
	return b
}

// reset empties the buckets for a call with blocks of blk pairs, the
// arena ar first (nil: the pool's only).
func (bk *buckets) reset(blk int, ar *arena) {
	bk.own, bk.blk, bk.ar = 0, blk, ar
	bk.blocks, bk.link = bk.blocks[:0], bk.link[:0]
	for b := range bk.cur {
		bk.cur[b] = nil
		bk.head[b], bk.last[b] = -1, -1
	}
}

// endCall drops the call's blocks (the arena's are the output's room,
// the caller's after the call) and keeps in the pool only the blocks the
// call took: a search whose pairs fit the output's room keeps none.
func (bk *buckets) endCall() {
	clear(bk.blocks)
	bk.blocks = bk.blocks[:0]
	clear(bk.cur[:])
	clear(bk.pool[bk.own:])
	bk.pool = bk.pool[:bk.own]
	bk.ar = nil
}

// count returns the number of pairs in bucket b.
func (bk *buckets) count(b int) int {
	n := len(bk.cur[b])
	for i := bk.head[b]; i != bk.last[b]; i = bk.link[i] {
		n += len(bk.blocks[i])
	}
	return n
}

// crossLevel appends the overlapping pairs between fine level F and coarse level C.
func (g *Grid) crossLevel(tmp [][2]int32, F, C *level, margin float64) [][2]int32 {
	m2 := 2 * margin
	// Up: every fine body queries the coarse level; down: every coarse body queries the fine one.
	wu := (F.rmax + C.rmax) * (1 + slack)
	cellsU := min(cube(2*wu*C.inv+1), C.boxCells)
	rhoC := float64(C.n) / max(C.vol, math.SmallestNonzeroFloat64)
	rhoF := float64(F.n) / max(F.vol, math.SmallestNonzeroFloat64)
	costUp := float64(F.n) * (probeCost*cellsU + rhoC*min(cube(2*wu+C.h), C.vol))
	cellsD := min(cube(2*wu*F.inv+1), F.boxCells)
	costDown := float64(C.n) * min(probeCost*cellsD+rhoF*min(cube(2*wu+F.h), F.vol), float64(F.n))
	if costUp <= costDown {
		for a := F.s0; a < F.s0+F.n; a++ {
			tmp = g.box(tmp, a, C, (g.slR[a]+margin+C.rmax)*(1+slack), m2)
		}
	} else {
		for b := C.s0; b < C.s0+C.n; b++ {
			tmp = g.box(tmp, b, F, (g.slR[b]+margin+F.rmax)*(1+slack), m2)
		}
	}
	return tmp
}

func cube(x float64) float64 { return x * x * x }

// box appends the overlapping pairs between slot a and the bodies of level T
// whose cells meet the cube of half-width w around a (or all of T's bodies
// when scanning them is cheaper).
func (g *Grid) box(tmp [][2]int32, a int32, T *level, w float64, m2 float64) [][2]int32 {
	d := [3]float64{g.sl[a].X - g.lo.X, g.sl[a].Y - g.lo.Y, g.sl[a].Z - g.lo.Z}
	var c0, c1 [3]int64
	cells := 1.0
	wide := false
	for k := range 3 {
		l := math.Floor((d[k]-w)*T.inv - boxEps)
		u := math.Floor((d[k]+w)*T.inv + boxEps)
		l = max(l, float64(T.qmin[k]))
		u = min(u, float64(T.qmax[k]))
		if l > u {
			return tmp
		}
		c0[k], c1[k] = int64(l), int64(u)
		cells *= u - l + 1
		if u-l+1 >= 1<<coordBits {
			wide = true
		}
	}
	if wide || cells*probeCost > float64(T.n) {
		return g.test(tmp, a, T.s0, T.s0+T.n, m2)
	}
	if T.dense {
		cs := g.cstart[T.cbase:]
		nz := c1[2] - c0[2] + 1
		for x := c0[0]; x <= c1[0]; x++ {
			for y := c0[1]; y <= c1[1]; y++ {
				r := T.local([3]int64{x, y, c0[2]})
				tmp = g.test(tmp, a, cs[r], cs[r+nz], m2)
			}
		}
		return tmp
	}
	L := T.L
	for x := c0[0]; x <= c1[0]; x++ {
		for y := c0[1]; y <= c1[1]; y++ {
			for z := c0[2]; z <= c1[2]; z++ {
				if nc := g.lookup(hashKey(L, [3]int64{x, y, z})); nc >= 0 {
					tmp = g.test(tmp, a, g.cstart[nc], g.cstart[nc+1], m2)
				}
			}
		}
	}
	return tmp
}

// test appends, as (min, max) body indices, the pairs between slot a and the
// slots [b0, b1) that satisfy the Overlaps predicate.
func (g *Grid) test(tmp [][2]int32, a, b0, b1 int32, m2 float64) [][2]int32 {
	sa := g.sl[a]
	xa, ya, za, ra, ia := sa.X, sa.Y, sa.Z, g.slR[a], sa.I
	bs := g.sl[b0:b1]
	rs := g.slR[b0:b1]
	rs = rs[:len(bs)]
	for b := range bs {
		sb := &bs[b]
		dx, dy, dz := xa-sb.X, ya-sb.Y, za-sb.Z
		s := ra + rs[b] + m2
		if float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= float64(s*s) {
			ib := sb.I
			if ia < ib {
				tmp = append(tmp, [2]int32{ia, ib})
			} else {
				tmp = append(tmp, [2]int32{ib, ia})
			}
		}
	}
	return tmp
}

// sortPairs writes the distinct pairs src (i < j < n) to dst (same length)
// sorted by i, then j: a counting sort by i, then each row of one i sorted
// by j (insertion sort for the short rows of the bulk, pdqsort for the long
// rows of a huge sphere).
func (g *Grid) sortPairs(src, dst [][2]int32, n int) {
	g.cnt = grow(g.cnt, n+1)
	cnt := g.cnt
	clear(cnt)
	for _, p := range src {
		cnt[p[0]+1]++
	}
	for i := 1; i <= n; i++ {
		cnt[i] += cnt[i-1]
	}
	for _, p := range src {
		dst[cnt[p[0]]] = p
		cnt[p[0]]++
	}
	// cnt[i] is now the end of row i (the start of row i+1).
	start := int32(0)
	for i := 0; i < n; i++ {
		end := cnt[i]
		row := dst[start:end]
		start = end
		sortRow(row)
	}
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// halfStencil holds the 13 neighbour offsets that are lexicographically positive.
var halfStencil = func() [13][3]int64 {
	var h [13][3]int64
	k := 0
	for dx := int64(-1); dx <= 1; dx++ {
		for dy := int64(-1); dy <= 1; dy++ {
			for dz := int64(-1); dz <= 1; dz++ {
				if dx > 0 || (dx == 0 && (dy > 0 || (dy == 0 && dz > 0))) {
					h[k] = [3]int64{dx, dy, dz}
					k++
				}
			}
		}
	}
	return h
}()

// expBin returns the histogram bin of a non-negative radius: its binary exponent + 1100.
func expBin(r float64) int {
	if r == 0 {
		return 0
	}
	_, e := math.Frexp(r) // r in [2^(e-1), 2^e)
	return e + 1100
}

// cellCoord returns floor(d·inv) for d ≥ 0, clamped to [0, 2^41].
func cellCoord(d, inv float64) int64 {
	u := math.Floor(d * inv)
	if !(u >= 0) {
		return 0
	}
	if u > 1<<41 {
		return 1 << 41
	}
	return int64(u)
}

// hashKey packs a level and wrapped cell coordinates into a key.
func hashKey(L int, q [3]int64) uint64 {
	return uint64(L)<<(3*coordBits) | uint64(q[0]&coordMask)<<(2*coordBits) |
		uint64(q[1]&coordMask)<<coordBits | uint64(q[2]&coordMask)
}

func (g *Grid) initHash(n int) {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	g.table = grow(g.table, 1<<bits)
	clear(g.table)
	g.hMask = 1<<bits - 1
	g.hBits = bits
}

func (g *Grid) slot(key uint64) uint64 {
	key ^= key >> 31
	return (key * 0x9E3779B97F4A7C15) >> (64 - g.hBits)
}

// lookupOrInsert returns the cell of key, inserting it as cell next when absent.
func (g *Grid) lookupOrInsert(key uint64, next int32) (int32, bool) {
	for h := g.slot(key); ; h = (h + 1) & g.hMask {
		e := &g.table[h]
		if e.val == 0 {
			e.key, e.val = key, next+1
			return next, true
		}
		if e.key == key {
			return e.val - 1, false
		}
	}
}

// lookup returns the cell of key or −1.
func (g *Grid) lookup(key uint64) int32 {
	for h := g.slot(key); ; h = (h + 1) & g.hMask {
		e := g.table[h]
		if e.val == 0 {
			return -1
		}
		if e.key == key {
			return e.val - 1
		}
	}
}

// sortRow sorts one row of candidate pairs (all with the same first body)
// by their second body: insertion sort for short rows, else slices.SortFunc.
func sortRow(row [][2]int32) {
	if len(row) > 32 {
		slices.SortFunc(row, func(a, b [2]int32) int { return int(a[1] - b[1]) })
		return
	}
	for x := 1; x < len(row); x++ {
		for y := x; y > 0 && row[y][1] < row[y-1][1]; y-- {
			row[y], row[y-1] = row[y-1], row[y]
		}
	}
}
