package shape

import (
	"sort"

	"grainlab/sim/geom"
)

// selfIntersectRel: a crossing counts when the signed volumes of its
// orientation tests exceed selfIntersectRel·d³ (d the bounding-box diagonal),
// so that faces that merely touch within rounding are not reported.
const selfIntersectRel = 1e-12

// checkSelfIntersection reports two faces of a closed mesh that cross each
// other, which would make the divergence-theorem mass properties silently
// wrong. Candidate pairs come from a sweep over the faces' bounding boxes
// along x; a pair is tested edge against triangle both ways (two non-coplanar
// triangles intersect iff an edge of one crosses the other). Faces sharing an
// edge are neighbours by construction and are skipped; faces sharing one
// vertex are tested with the edge opposite it. Coplanar overlaps are not
// detected (the edge orientation check catches the folded ones).
func (p *Polyhedron) checkSelfIntersection(diag float64, orig []int32) error {
	n := len(p.Faces)
	type box struct{ lo, hi geom.Vec3 }
	boxes := make([]box, n)
	order := make([]int, n)
	for f, fc := range p.Faces {
		a, b, c := p.Verts[fc.V[0]], p.Verts[fc.V[1]], p.Verts[fc.V[2]]
		boxes[f] = box{a.Min(b).Min(c), a.Max(b).Max(c)}
		order[f] = f
	}
	sort.Slice(order, func(i, j int) bool { return boxes[order[i]].lo.X < boxes[order[j]].lo.X })
	eps := selfIntersectRel * diag * diag * diag
	var active []int
	for _, f := range order {
		bf := boxes[f]
		keep := active[:0]
		for _, g := range active {
			if boxes[g].hi.X >= bf.lo.X {
				keep = append(keep, g)
			}
		}
		active = keep
		for _, g := range active {
			bg := boxes[g]
			if bg.hi.Y < bf.lo.Y || bf.hi.Y < bg.lo.Y || bg.hi.Z < bf.lo.Z || bf.hi.Z < bg.lo.Z {
				continue
			}
			if p.facesCross(f, g, eps) {
				a, b := min(f, g), max(f, g)
				fa := p.Faces[a].V
				return faceErr(p.Name, ErrSelfIntersect, a, [3]int32{orig[fa[0]], orig[fa[1]], orig[fa[2]]},
					"self-intersecting: crosses face %d; the enclosed volume and mass would be wrong", b)
			}
		}
		active = append(active, f)
	}
	return nil
}

// facesCross reports whether faces f and g cross (see checkSelfIntersection).
func (p *Polyhedron) facesCross(f, g int, eps float64) bool {
	vf, vg := p.Faces[f].V, p.Faces[g].V
	shared, si, sj := 0, -1, -1
	for i, a := range vf {
		for j, b := range vg {
			if a == b {
				shared, si, sj = shared+1, i, j
			}
		}
	}
	tf := [3]geom.Vec3{p.Verts[vf[0]], p.Verts[vf[1]], p.Verts[vf[2]]}
	tg := [3]geom.Vec3{p.Verts[vg[0]], p.Verts[vg[1]], p.Verts[vg[2]]}
	switch shared {
	case 0:
		for i := 0; i < 3; i++ {
			if segCrossesTri(tf[i], tf[(i+1)%3], tg, eps) || segCrossesTri(tg[i], tg[(i+1)%3], tf, eps) {
				return true
			}
		}
		return false
	case 1:
		return segCrossesTri(tf[(si+1)%3], tf[(si+2)%3], tg, eps) || segCrossesTri(tg[(sj+1)%3], tg[(sj+2)%3], tf, eps)
	}
	return false // neighbours across an edge (or the same face)
}

// orient is the signed volume 6·V of the tetrahedron (a, b, c, d).
func orient(a, b, c, d geom.Vec3) float64 {
	return b.Sub(a).Cross(c.Sub(a)).Dot(d.Sub(a))
}

// segCrossesTri reports whether segment pq passes through the interior of
// triangle t, every orientation test clear of zero by more than eps.
func segCrossesTri(p, q geom.Vec3, t [3]geom.Vec3, eps float64) bool {
	dp, dq := orient(t[0], t[1], t[2], p), orient(t[0], t[1], t[2], q)
	if !(dp > eps && dq < -eps || dp < -eps && dq > eps) {
		return false
	}
	s0, s1, s2 := orient(p, q, t[0], t[1]), orient(p, q, t[1], t[2]), orient(p, q, t[2], t[0])
	return s0 > eps && s1 > eps && s2 > eps || s0 < -eps && s1 < -eps && s2 < -eps
}
