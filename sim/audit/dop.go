package audit

import (
	"math"

	"grainlab/sim/geom"
)

// A 26-DOP ("discrete oriented polytope", Klosowski et al. 1998, IEEE TVCG
// 4(1)) bounds a point set by its extent along 13 fixed directions: the
// three axes, the six face diagonals and the four space diagonals. The
// directions' entries are 0 or ±1, so a projection is at most two float
// additions and its rounding error is small and bounded (dopSlack). Every
// interval is widened by that bound: a dop holds the exact projections of
// the exact float64 points, so two dops apart on one direction prove the
// points' convex hulls disjoint — for the meshes, that no triangle of the
// one can meet a triangle of the other and that no vertex of the one lies
// in the other's hull. The dops only skip work whose answer is then known
// (nothing penetrates); the verdicts are those of the exact tests.
const dopDirs = 13

// dop is the extent of a point set along the 13 directions, widened.
type dop struct{ lo, hi [dopDirs]float64 }

// project returns the float projections of p on the 13 directions
// (x, y, z, x±y, x±z, y±z, x+y+z, x+y−z, x−y+z, −x+y+z), each
// evaluated left to right.
func project(p geom.Vec3) [dopDirs]float64 {
	x, y, z := p.X, p.Y, p.Z
	return [dopDirs]float64{x, y, z, x + y, x - y, x + z, x - z, y + z, y - z,
		x + y + z, x + y - z, x - y + z, -x + y + z}
}

// dopSlack returns the widening that makes the dops of points of verts
// rigorous: with m = max |x|+|y|+|z| over verts, a projection (at most two
// additions) is off the exact one by at most 2.01u·m (u = 2⁻⁵³; each
// addition errs by u times its result's magnitude, Higham 2002, §2.2), and
// a widened bound fl(p ∓ e) by at most u·m(1+9u) more. e = 8u·m covers both
// with room; the 2⁻¹⁰⁰⁰ floor covers coordinates so small that 8u·m
// underflows.
func dopSlack(verts []geom.Vec3) float64 {
	m := 0.0
	for _, v := range verts {
		m = max(m, abs(v.X)+abs(v.Y)+abs(v.Z))
	}
	return 0x1p-50*m + 0x1p-1000
}

// emptyDop returns the dop of no points (every interval empty).
func emptyDop() dop {
	var d dop
	for k := range dopDirs {
		d.lo[k], d.hi[k] = math.Inf(1), math.Inf(-1)
	}
	return d
}

// addProj grows d by projections p (unwidened; finite: plain comparisons,
// not min and max, which test for NaN).
func (d *dop) addProj(p *[dopDirs]float64) {
	for k := range dopDirs {
		if p[k] < d.lo[k] {
			d.lo[k] = p[k]
		}
		if p[k] > d.hi[k] {
			d.hi[k] = p[k]
		}
	}
}

// widen widens every interval of d by e (dopSlack).
func (d *dop) widen(e float64) {
	for k := range dopDirs {
		d.lo[k], d.hi[k] = d.lo[k]-e, d.hi[k]+e
	}
}

// overlaps reports whether d and c meet on every direction (closed
// intervals): false proves the exact points of the one apart from the
// other's convex hull.
func (d *dop) overlaps(c *dop) bool {
	for k := range dopDirs {
		if d.lo[k] > c.hi[k] || c.lo[k] > d.hi[k] {
			return false
		}
	}
	return true
}

// intersect returns the dop of the common part of d and c's intervals.
func (d *dop) intersect(c *dop) dop {
	var r dop
	for k := range dopDirs {
		r.lo[k], r.hi[k] = max(d.lo[k], c.lo[k]), min(d.hi[k], c.hi[k])
	}
	return r
}

// tdop is a triangle's dop on the ten diagonal directions only (its box
// has the axes), in float32 rounded outwards (down32, up32): a looser bound
// in a third of the memory of a dop.
type tdop struct{ lo, hi [dopDirs - 3]float32 }

// down32 and up32 round x to a float32 at most, and at least, x: the
// nearest one, stepped one float32 outwards when it lies on the wrong side
// (by its bits, as math.Nextafter32 does, without the calls).
func down32(x float64) float32 {
	f := float32(x)
	if float64(f) > x {
		switch {
		case f > 0:
			f = math.Float32frombits(math.Float32bits(f) - 1)
		case f < 0:
			f = math.Float32frombits(math.Float32bits(f) + 1)
		default: // ±0 above a tiny negative x
			f = -math.SmallestNonzeroFloat32
		}
	}
	return f
}

func up32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		switch {
		case f > 0:
			f = math.Float32frombits(math.Float32bits(f) + 1)
		case f < 0:
			f = math.Float32frombits(math.Float32bits(f) - 1)
		default: // ±0 below a tiny positive x
			f = math.SmallestNonzeroFloat32
		}
	}
	return f
}

// triDop sets d to the widened dop of the triangle with vertex
// projections p, q, r (slack e).
func triDop(d *tdop, p, q, r *[dopDirs]float64, e float64) {
	for k := 3; k < dopDirs; k++ {
		lo, hi := p[k], p[k]
		if q[k] < lo {
			lo = q[k]
		} else if q[k] > hi {
			hi = q[k]
		}
		if r[k] < lo {
			lo = r[k]
		} else if r[k] > hi {
			hi = r[k]
		}
		d.lo[k-3], d.hi[k-3] = down32(lo-e), up32(hi+e)
	}
}

// meets reports whether t and c overlap on every diagonal direction:
// false proves them apart, as dop.overlaps does.
func (t *tdop) meets(c *tdop) bool {
	for k := range t.lo {
		if t.lo[k] > c.hi[k] || c.lo[k] > t.hi[k] {
			return false
		}
	}
	return true
}

// meetsDop is meets with a dop's diagonal directions.
func (t *tdop) meetsDop(c *dop) bool {
	for k := range t.lo {
		if float64(t.lo[k]) > c.hi[k+3] || c.lo[k+3] > float64(t.hi[k]) {
			return false
		}
	}
	return true
}

// vertexOut reports whether vertex i of m is proved outside the hull whose
// dop is c.
func (m *mesh) vertexOut(i int32, c *dop) bool {
	p := &m.proj[i]
	e := m.slack
	for k := range dopDirs {
		if p[k]-e > c.hi[k] || p[k]+e < c.lo[k] {
			return true
		}
	}
	return false
}

// setDop fills m.proj, m.slack, m.dop and m.tdop (a solid's, after
// prepare), in proj and tdop (len(m.verts) and len(m.tris) long).
func (m *mesh) setDop(proj [][dopDirs]float64, tdop []tdop) {
	m.proj, m.tdop, m.slack, m.dop = proj, tdop, dopSlack(m.verts), emptyDop()
	for i, v := range m.verts {
		m.proj[i] = project(v)
		m.dop.addProj(&m.proj[i])
	}
	m.dop.widen(m.slack)
	for t, f := range m.idx {
		triDop(&m.tdop[t], &proj[f[0]], &proj[f[1]], &proj[f[2]], m.slack)
	}
	if math.IsInf(m.slack, 0) || math.IsNaN(m.slack) {
		// Near the float range (|x|+|y|+|z| overflows) or with a NaN vertex
		// the bounds above are ±Inf or NaN: the dops then prove nothing, and
		// are made to say so (every interval the whole line) rather than to
		// rely on comparisons with NaN being false (review r1, session 13).
		inf := math.Inf(1)
		for k := range dopDirs {
			m.dop.lo[k], m.dop.hi[k] = -inf, inf
		}
		for t := range m.tdop {
			for k := range m.tdop[t].lo {
				m.tdop[t].lo[k], m.tdop[t].hi[k] = float32(-inf), float32(inf)
			}
		}
	}
}
