// Package broad is the first level of the global contact search of S0 §2.5:
// bounding spheres of bodies, inflated by a margin, are paired by a linked-cell
// scheme (Grid) and the pairs are cached between rebuilds by a Verlet scheme
// (Verlet). The second level (sub-region bounding volumes) and the narrow phase
// live elsewhere.
package broad

import (
	"math"

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

// slack widens every cell by this relative amount so that rounding in the
// cell-coordinate computation (about 2^-51·maxSpan ≈ 5e-4 cells on a
// difference of two coordinates) can never put two overlapping spheres two
// cells apart.
const slack = 2e-3

// maxSpan bounds (bounding-box extent)/(level-0 cell size): beyond it the cell
// size is enlarged, which keeps cell coordinates exact enough (see slack).
const maxSpan = 1 << 40

// maxLevel is the coarsest grid level; cell sizes are h0·2^level.
const maxLevel = 60

// Grid is a hierarchical hashed linked-cell grid over bounding spheres. Level
// L has cubic cells of edge h0·2^L anchored at the minimum corner of the
// bounding box of the centres; a sphere lives on the finest level whose cell
// edge is at least its inflated diameter (times 1+1e-3), so any overlapping
// pair lies in adjacent cells of the coarser one's level. Level 0 is sized
// from the bulk of the radius distribution (radii up to about 4× the median),
// so a few huge spheres land on coarse levels and cost O(N) each at worst
// instead of inflating every cell. The zero value is ready to use; a Grid
// keeps its buffers between calls and must not be used concurrently.
type Grid struct {
	// CellSize, when > 0, fixes the level-0 cell edge instead of the automatic choice.
	CellSize float64

	// Invalid lists, after each Pairs call, the active bodies that were
	// skipped because their centre is not finite or their radius is NaN,
	// negative or +Inf. It is reused by the next call.
	Invalid []int

	h0      float64 // level-0 cell edge of the last call
	nLevels int     // number of non-empty levels of the last call
	nCells  int     // number of non-empty cells of the last call

	// per valid body, in body order
	body  []int32
	q     [][3]int64
	level []uint8
	cell  []int32

	// per cell
	cellLevel []uint8
	cellQ     [][3]int64 // cell coordinates at its own level (unwrapped)
	cellStart []int32    // bodies of cell c are slots cellStart[c]..cellStart[c+1]-1

	// per slot (bodies sorted by cell, then by body index)
	sIdx []int32
	sX   []float64
	sY   []float64
	sZ   []float64
	sR   []float64

	// open-addressing hash of (level, cell coordinates) → cell+1 (0 = empty);
	// keys are compared in full against cellLevel/cellQ, so nothing aliases.
	hVal  []int32
	hMask uint64
	hBits uint

	hist [2200]int32 // radius-exponent histogram (index = exponent+1100)
	cnt  []int32
	tmp  [][2]int32
	tmp2 [][2]int32
}

// CellSize0 returns the level-0 cell edge chosen by the last Pairs call.
func (g *Grid) CellSize0() float64 { return g.h0 }

// Levels returns the number of non-empty grid levels in the last Pairs call.
func (g *Grid) Levels() int { return g.nLevels }

// Cells returns the number of non-empty cells in the last Pairs call.
func (g *Grid) Cells() int { return g.nCells }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// validBody reports whether a body with centre c and radius r can be gridded.
func validBody(c geom.Vec3, r float64) bool {
	return finite(c.X) && finite(c.Y) && finite(c.Z) && r >= 0 && !math.IsInf(r, 1)
}

func sanitizeMargin(m float64) float64 {
	if !(m >= 0) || math.IsInf(m, 1) {
		return 0
	}
	return m
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
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
// len(centers) < 2^31. Cost is O(N + pairs) for any radius spread; after
// warm-up on inputs of similar size the call does not allocate.
func (g *Grid) Pairs(centers []geom.Vec3, radii []float64, margin float64, active func(i int) bool, out [][2]int32) [][2]int32 {
	out = out[:0]
	g.Invalid = g.Invalid[:0]
	g.nLevels, g.nCells = 0, 0
	n := len(centers)
	if len(radii) < n {
		panic("broad: len(radii) < len(centers)")
	}
	if n > math.MaxInt32 {
		panic("broad: too many bodies")
	}
	margin = sanitizeMargin(margin)

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

	// 2. Level-0 cell edge from the bulk of the radius distribution.
	half := int32((nb + 1) / 2)
	eMed, acc := minE, int32(0)
	for e := minE; e <= maxE; e++ {
		acc += g.hist[e]
		if acc >= half {
			eMed = e
			break
		}
	}
	if eMed == 0 { // median radius is zero: size cells by the smallest positive radius
		for e := 1; e <= maxE; e++ {
			if g.hist[e] != 0 {
				eMed = e
				break
			}
		}
	}
	clear(g.hist[minE : maxE+1])
	// Bulk: radii below 2^(eMed+1) (bin eMed holds radii in [2^(e-1), 2^e)).
	bulkLim := math.Ldexp(1, eMed-1100+1)
	rBulk, rMax := 0.0, 0.0
	for _, i := range g.body {
		r := radii[i] + margin
		rMax = max(rMax, r)
		if r < bulkLim {
			rBulk = max(rBulk, r)
		}
	}
	h0 := 2 * rBulk * (1 + slack)
	if g.CellSize > 0 && finite(g.CellSize) {
		h0 = g.CellSize
	}
	span := max(hi.X-lo.X, hi.Y-lo.Y, hi.Z-lo.Z)
	if math.IsInf(span, 1) { // centres near ±MaxFloat64
		span = math.MaxFloat64
	}
	h0 = max(h0, span/maxSpan, 2*rMax*(1+slack)/(1<<maxLevel))
	if h0 == 0 || math.IsInf(h0, 1) {
		if span > 0 {
			h0 = span
		} else {
			h0 = 1
		}
	}
	g.h0 = h0
	inv := 1 / h0

	// 3. Levels, cell coordinates and keys; hash cells.
	g.q = grow(g.q, nb)
	g.level = grow(g.level, nb)
	g.cell = grow(g.cell, nb)
	g.initHash(nb)
	g.cellLevel = g.cellLevel[:0]
	g.cellQ = g.cellQ[:0]
	g.cnt = g.cnt[:0]
	var levelMask uint64
	for k, i := range g.body {
		c := centers[i]
		d := 2 * (radii[i] + margin) * (1 + slack)
		L := 0
		if d > h0 {
			_, e := math.Frexp(d * inv)
			L = max(e-1, 0)
			for L < maxLevel && d > math.Ldexp(h0, L) {
				L++
			}
		}
		q := [3]int64{cellCoord(c.X-lo.X, inv), cellCoord(c.Y-lo.Y, inv), cellCoord(c.Z-lo.Z, inv)}
		g.q[k] = q
		g.level[k] = uint8(L)
		levelMask |= 1 << uint(L)
		ql := [3]int64{q[0] >> uint(L), q[1] >> uint(L), q[2] >> uint(L)}
		id, fresh := g.lookupOrInsert(L, ql, int32(len(g.cellQ)))
		if fresh {
			g.cellLevel = append(g.cellLevel, uint8(L))
			g.cellQ = append(g.cellQ, ql)
			g.cnt = append(g.cnt, 0)
		}
		g.cell[k] = id
		g.cnt[id]++
	}
	nc := len(g.cellQ)
	g.nCells = nc
	for m := levelMask; m != 0; m &= m - 1 {
		g.nLevels++
	}

	// 4. Counting sort of bodies by cell (stable: body order within a cell).
	g.cellStart = grow(g.cellStart, nc+1)
	s := int32(0)
	for c := 0; c < nc; c++ {
		g.cellStart[c] = s
		s += g.cnt[c]
		g.cnt[c] = g.cellStart[c]
	}
	g.cellStart[nc] = s
	g.sIdx = grow(g.sIdx, nb)
	g.sX = grow(g.sX, nb)
	g.sY = grow(g.sY, nb)
	g.sZ = grow(g.sZ, nb)
	g.sR = grow(g.sR, nb)
	for k, i := range g.body {
		c := g.cell[k]
		p := g.cnt[c]
		g.cnt[c]++
		g.sIdx[p] = i
		g.sX[p], g.sY[p], g.sZ[p] = centers[i].X, centers[i].Y, centers[i].Z
		g.sR[p] = radii[i]
	}

	// 5. Enumerate candidate pairs.
	m2 := 2 * margin
	tmp := g.tmp[:0]
	for c := 0; c < nc; c++ {
		L := int(g.cellLevel[c])
		cq := g.cellQ[c]
		a0, a1 := g.cellStart[c], g.cellStart[c+1]
		// Same cell.
		for a := a0; a < a1; a++ {
			for b := a + 1; b < a1; b++ {
				if g.near(a, b, m2) {
					tmp = append(tmp, [2]int32{g.sIdx[a], g.sIdx[b]})
				}
			}
		}
		// Same level, half stencil (13 forward neighbours).
		for _, d := range halfStencil {
			nc := g.lookup(L, [3]int64{cq[0] + d[0], cq[1] + d[1], cq[2] + d[2]})
			if nc < 0 {
				continue
			}
			tmp = g.cross(tmp, a0, a1, g.cellStart[nc], g.cellStart[nc+1], m2)
		}
		// Coarser non-empty levels, full stencil.
		for L2 := L + 1; levelMask>>uint(L2) != 0; L2++ {
			if levelMask>>uint(L2)&1 == 0 {
				continue
			}
			sh := uint(L2 - L)
			pq := [3]int64{cq[0] >> sh, cq[1] >> sh, cq[2] >> sh}
			for dx := int64(-1); dx <= 1; dx++ {
				for dy := int64(-1); dy <= 1; dy++ {
					for dz := int64(-1); dz <= 1; dz++ {
						nc := g.lookup(L2, [3]int64{pq[0] + dx, pq[1] + dy, pq[2] + dz})
						if nc < 0 {
							continue
						}
						tmp = g.cross(tmp, a0, a1, g.cellStart[nc], g.cellStart[nc+1], m2)
					}
				}
			}
		}
	}
	g.tmp = tmp

	// 6. Two-pass counting (LSD radix) sort: by j into tmp2, then stably by i into out.
	g.tmp2 = grow(g.tmp2, len(tmp))
	out = grow(out, len(tmp))
	g.countSort(tmp, g.tmp2, 1, n)
	g.countSort(g.tmp2, out, 0, n)
	return out
}

// near tests slots a and b with the Overlaps predicate.
func (g *Grid) near(a, b int32, m2 float64) bool {
	dx, dy, dz := g.sX[a]-g.sX[b], g.sY[a]-g.sY[b], g.sZ[a]-g.sZ[b]
	s := g.sR[a] + g.sR[b] + m2
	return float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= float64(s*s)
}

// cross appends the overlapping pairs between slots [a0,a1) and [b0,b1), as (min, max).
func (g *Grid) cross(tmp [][2]int32, a0, a1, b0, b1 int32, m2 float64) [][2]int32 {
	for a := a0; a < a1; a++ {
		xa, ya, za, ra, ia := g.sX[a], g.sY[a], g.sZ[a], g.sR[a], g.sIdx[a]
		for b := b0; b < b1; b++ {
			dx, dy, dz := xa-g.sX[b], ya-g.sY[b], za-g.sZ[b]
			s := ra + g.sR[b] + m2
			if float64(dx*dx)+float64(dy*dy)+float64(dz*dz) <= float64(s*s) {
				ib := g.sIdx[b]
				if ia < ib {
					tmp = append(tmp, [2]int32{ia, ib})
				} else {
					tmp = append(tmp, [2]int32{ib, ia})
				}
			}
		}
	}
	return tmp
}

// countSort stably scatters src into dst (same length) by component k of each pair; indices are < n.
func (g *Grid) countSort(src, dst [][2]int32, k, n int) {
	g.cnt = grow(g.cnt, n+1)
	cnt := g.cnt
	clear(cnt)
	for _, p := range src {
		cnt[p[k]+1]++
	}
	for i := 1; i <= n; i++ {
		cnt[i] += cnt[i-1]
	}
	for _, p := range src {
		dst[cnt[p[k]]] = p
		cnt[p[k]]++
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

// cellCoord returns floor(d·inv) for d ≥ 0, clamped to [0, 2^40].
func cellCoord(d, inv float64) int64 {
	u := math.Floor(d * inv)
	if !(u >= 0) {
		return 0
	}
	if u > 1<<40 {
		return 1 << 40
	}
	return int64(u)
}

func (g *Grid) initHash(n int) {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	size := 1 << bits
	g.hVal = grow(g.hVal, size)
	clear(g.hVal)
	g.hMask = uint64(size - 1)
	g.hBits = bits
}

func (g *Grid) slot(L int, q [3]int64) uint64 {
	k := uint64(q[0])*0x9E3779B97F4A7C15 ^ uint64(q[1])*0xC2B2AE3D27D4EB4F ^
		uint64(q[2])*0x165667B19E3779F9 ^ uint64(L)*0x27D4EB2F165667C5
	k ^= k >> 29
	return (k * 0xBF58476D1CE4E5B9) >> (64 - g.hBits)
}

// lookupOrInsert returns the cell (L, q), inserting it as cell next when absent.
func (g *Grid) lookupOrInsert(L int, q [3]int64, next int32) (int32, bool) {
	for h := g.slot(L, q); ; h = (h + 1) & g.hMask {
		v := g.hVal[h]
		if v == 0 {
			g.hVal[h] = next + 1
			return next, true
		}
		if int(g.cellLevel[v-1]) == L && g.cellQ[v-1] == q {
			return v - 1, false
		}
	}
}

// lookup returns the cell (L, q) or −1.
func (g *Grid) lookup(L int, q [3]int64) int32 {
	for h := g.slot(L, q); ; h = (h + 1) & g.hMask {
		v := g.hVal[h]
		if v == 0 {
			return -1
		}
		if int(g.cellLevel[v-1]) == L && g.cellQ[v-1] == q {
			return v - 1
		}
	}
}
