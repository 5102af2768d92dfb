package audit

import (
	"cmp"
	"math"
	"slices"

	"grainlab/sim/geom"
)

// The audit as it was before session 10 (dd12301), kept as a test oracle:
// every vertex inside the other solid's box gets the float generalised
// winding number over all of the other's triangles, and every triangle test
// evaluates its orientations with orient3d. Check must find the same
// violations (kinds, depths, points, order).

// oracleCheck is Check as of dd12301 (one worker).
func oracleCheck(solids []Solid, walls []Surface, tol float64) []Violation {
	if !(tol >= 0) {
		tol = 0
	}
	var out []Violation
	ms := make([]mesh, len(solids))
	for i, s := range solids {
		ms[i] = prepare(s.Verts, s.Tris)
		if !ms[i].ok {
			out = append(out, Violation{A: i, B: i, Kind: KindInvalid})
		}
	}
	ws := make([]mesh, len(walls))
	for i, w := range walls {
		ws[i] = prepare(w.Verts, w.Tris)
		if !ws[i].ok {
			out = append(out, Violation{A: -1, B: i, Kind: KindInvalid})
		}
	}
	for _, p := range boxPairs(ms) {
		out = oracleSolidPair(out, &ms[p[0]], &ms[p[1]], p[0], p[1], tol)
	}
	for i := range ms {
		if !ms[i].ok {
			continue
		}
		for j := range ws {
			if ws[j].ok {
				out = oracleWallPair(out, &ms[i], &ws[j], i, j, tol)
			}
		}
	}
	return out
}

func oracleCandidates(m *mesh, box aabb) []int32 {
	var dst []int32
	for t := range m.boxes {
		if m.boxes[t].overlaps(box) {
			dst = append(dst, int32(t))
		}
	}
	slices.SortFunc(dst, func(a, b int32) int { return cmp.Compare(m.boxes[a].lo.X, m.boxes[b].lo.X) })
	return dst
}

func oracleSweep(a, b *mesh, ca, cb []int32, f func(ta, tb int32)) {
	i, j := 0, 0
	for i < len(ca) && j < len(cb) {
		ba, bb := a.boxes[ca[i]], b.boxes[cb[j]]
		if ba.lo.X <= bb.lo.X {
			for k := j; k < len(cb) && b.boxes[cb[k]].lo.X <= ba.hi.X; k++ {
				if ba.overlaps(b.boxes[cb[k]]) {
					f(ca[i], cb[k])
				}
			}
			i++
		} else {
			for k := i; k < len(ca) && a.boxes[ca[k]].lo.X <= bb.hi.X; k++ {
				if bb.overlaps(a.boxes[ca[k]]) {
					f(ca[k], cb[j])
				}
			}
			j++
		}
	}
}

func oracleSolidPair(out []Violation, a, b *mesh, ia, ib int, tol float64) []Violation {
	var tri, inside record
	box := a.box.intersect(b.box)
	oracleSweep(a, b, oracleCandidates(a, box), oracleCandidates(b, box), func(ta, tb int32) {
		pa, pb := &a.tris[ta], &b.tris[tb]
		switch oracleClassify(pa, pb) {
		case triCrossing:
			d, p := crossDepth(pa, pb)
			if tol == 0 || d > tol {
				tri.add(d, p)
			}
		case triCoplanar:
			d, p := coplanarDepth(pa, pb)
			if tol == 0 || d > tol {
				tri.add(d, p)
			}
		}
	})
	oracleContainment(&inside, a, b, tol)
	oracleContainment(&inside, b, a, tol)
	if tri.hit {
		out = append(out, Violation{A: ia, B: ib, Kind: KindTriangle, Point: tri.point, Depth: tri.depth})
	}
	if inside.hit {
		out = append(out, Violation{A: ia, B: ib, Kind: KindVertexInside, Point: inside.point, Depth: inside.depth})
	}
	return out
}

func oracleContainment(r *record, a, b *mesh, tol float64) {
	size := b.box.hi.Sub(b.box.lo)
	onSurface := 1e-12 * max(size.X, size.Y, size.Z)
	for _, v := range a.verts {
		if !b.box.containsStrict(v) {
			continue
		}
		if math.Abs(winding(v, b.tris)) <= 0.5 {
			continue
		}
		if d := distance(v, b.tris); d > onSurface && d > tol {
			r.add(d, v)
		}
	}
}

func oracleClassify(a, b *[3]geom.Vec3) triClass {
	var sa, sb [3]int
	for k := range 3 {
		sa[k] = orient3d(b[0], b[1], b[2], a[k])
	}
	if sa[0] == 0 && sa[1] == 0 && sa[2] == 0 {
		if coplanarOverlap(a, b) {
			return triCoplanar
		}
		return triApart
	}
	if !straddles(sa) {
		return triApart
	}
	for k := range 3 {
		sb[k] = orient3d(a[0], a[1], a[2], b[k])
	}
	if !straddles(sb) {
		return triApart
	}
	type end struct {
		u, w  geom.Vec3
		sigma int
	}
	var ea, eb [2]end
	chords := func(t *[3]geom.Vec3, s [3]int, e *[2]end) {
		n := 0
		for k := range 3 {
			k1 := (k + 1) % 3
			if s[k] == 0 || s[k]*s[k1] < 0 {
				e[n] = end{t[k], t[k1], s[k1]}
				n++
			}
		}
	}
	chords(a, sa, &ea)
	chords(b, sb, &eb)
	le, ge := true, true
	for _, x := range ea {
		for _, y := range eb {
			l := orient3d(x.u, x.w, y.u, y.w) * x.sigma * y.sigma
			if l < 0 {
				le = false
			}
			if l > 0 {
				ge = false
			}
		}
	}
	if le || ge {
		return triApart
	}
	return triCrossing
}

func oracleWallPair(out []Violation, a, w *mesh, ia, iw int, tol float64) []Violation {
	var rec record
	half := a.box.hi.Sub(a.box.lo).Scale(0.5)
	mid := a.box.lo.Add(half)
	for t := range w.tris {
		tri := &w.tris[t]
		n := tri[1].Sub(tri[0]).Cross(tri[2].Sub(tri[0]))
		nn := n.Norm()
		if !(nn > 0) {
			continue
		}
		n = n.Scale(1 / nn)
		if n.Dot(mid.Sub(tri[0]))-(abs(n.X)*half.X+abs(n.Y)*half.Y+abs(n.Z)*half.Z) >= -tol {
			continue
		}
		for _, v := range a.verts {
			d := n.Dot(v.Sub(tri[0]))
			if d < -tol && inPrism(v, tri, n) {
				rec.add(-d, v)
			}
		}
		if !w.boxes[t].overlaps(a.box) {
			continue
		}
		for s := range a.tris {
			if !a.boxes[s].overlaps(w.boxes[t]) {
				continue
			}
			switch oracleClassify(&a.tris[s], tri) {
			case triCrossing:
				if d, p := crossDepth(&a.tris[s], tri); tol == 0 || d > tol {
					rec.add(d, p)
				}
			case triCoplanar:
				if d, p := coplanarDepth(&a.tris[s], tri); tol == 0 || d > tol {
					rec.add(d, p)
				}
			}
		}
	}
	if rec.hit {
		out = append(out, Violation{A: ia, B: iw, Kind: KindWall, Point: rec.point, Depth: rec.depth})
	}
	return out
}
