package contact

import "grainlab/sim/geom"

// AnyWithin reports whether some feature pair of a and b lies within d:
// the same answer as whether Build(a, b, d, 0, s) lists any feature pair
// (Empty false) — the same tests on the same near sets, in the same
// floating-point form — but it returns at the first pair found and stores
// no list and no distance. For a certificate that no point of one surface
// is within d of the other (a pair's separation) without building lists
// that are thrown away.
func AnyWithin(a, b *Posed, d float64, s *Scratch) bool {
	g := d + 0 // Build's ḡ + margin with margin 0
	boxA, boxB := a.Box.Inflate(g), b.Box.Inflate(g)
	if !boxA.Overlaps(boxB) {
		return false
	}
	region := AABB{boxA.Min.Max(boxB.Min), boxA.Max.Min(boxB.Max)}
	na, nb := &s.a, &s.b
	a.near(region, na)
	b.near(region, nb)
	// Vertex–vertex first (the cheapest test), then vertex–face both ways,
	// vertex–edge both ways and edge–edge.
	for _, i := range na.verts {
		for _, j := range nb.verts {
			if a.V[i].Sub(b.V[j]).Norm2() < g*g {
				return true
			}
		}
	}
	if anyVF(b, na, nb.faces, nb.fbox, g) || anyVF(a, nb, na.faces, na.fbox, g) {
		return true
	}
	if anyVE(a, b, na, nb.edges, nb.ebox, g) || anyVE(b, a, nb, na.edges, na.ebox, g) {
		return true
	}
	nb.soa()
	lox, hix, loy, hiy, loz, hiz := nb.lox, nb.hix[:len(nb.lox)], nb.loy[:len(nb.lox)], nb.hiy[:len(nb.lox)], nb.loz[:len(nb.lox)], nb.hiz[:len(nb.lox)]
	edgesB := nb.edges[:len(nb.lox)]
	for k, i := range na.edges {
		bx := na.ebox[k].Inflate(g)
		ea := &a.Poly.Edges[i]
		a1, a2 := a.V[ea.V[0]], a.V[ea.V[1]]
		for l, j := range edgesB {
			if !(bx.Min.X <= hix[l] && lox[l] <= bx.Max.X) ||
				!(bx.Min.Y <= hiy[l] && loy[l] <= bx.Max.Y) ||
				!(bx.Min.Z <= hiz[l] && loz[l] <= bx.Max.Z) {
				continue
			}
			eb := &b.Poly.Edges[j]
			if segSegDist2(a1, a2, b.V[eb.V[0]], b.V[eb.V[1]]) < g*g {
				return true
			}
		}
	}
	return false
}

// anyVF reports whether listVF would list a pair: a vertex of np within g
// of the plane and inside the box grown by g of one of q's faces.
func anyVF(q *Posed, np *nearSet, faces []int32, fbox []AABB, g float64) bool {
	vx, vy, vz := np.vx[:len(np.verts)], np.vy[:len(np.verts)], np.vz[:len(np.verts)]
	for k, fi := range faces {
		box := fbox[k].Inflate(g)
		var f1, n geom.Vec3 // the face's first corner and normal, once a vertex is in its box
		plane := false
		for l := range vx {
			x, y, z := vx[l], vy[l], vz[l]
			if !(x >= box.Min.X && x <= box.Max.X && y >= box.Min.Y && y <= box.Max.Y && z >= box.Min.Z && z <= box.Max.Z) {
				continue
			}
			if !plane {
				f1, n, plane = q.V[q.Poly.Faces[fi].V[0]], q.FaceNormal(fi), true
			}
			if d := (x-f1.X)*n.X + (y-f1.Y)*n.Y + (z-f1.Z)*n.Z; d < g && d > -g {
				return true
			}
		}
	}
	return false
}

// anyVE reports whether listVE would list a pair: a vertex of p among np inside
// the box grown by g of one of q's edges and closer than g to it.
func anyVE(p, q *Posed, np *nearSet, edges []int32, ebox []AABB, g float64) bool {
	verts := np.verts
	vx, vy, vz := np.vx[:len(verts)], np.vy[:len(verts)], np.vz[:len(verts)]
	for k, ei := range edges {
		box := ebox[k].Inflate(g)
		e := &q.Poly.Edges[ei]
		b1, b2 := q.V[e.V[0]], q.V[e.V[1]]
		for l, vi := range verts {
			if !(vx[l] >= box.Min.X && vx[l] <= box.Max.X && vy[l] >= box.Min.Y && vy[l] <= box.Max.Y &&
				vz[l] >= box.Min.Z && vz[l] <= box.Max.Z) {
				continue
			}
			if pointSegDist2(p.V[vi], b1, b2) < g*g {
				return true
			}
		}
	}
	return false
}
