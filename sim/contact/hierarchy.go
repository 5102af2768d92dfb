package contact

import (
	"grainlab/sim/shape"
	"grainlab/sim/snap"
)

// applyHierarchy suppresses candidates that would count one pointwise
// interaction twice (S0 §2.4.4 and §3.6, Fig. 9). Suppressed contacts stay in
// the list with the rule that suppressed them, so the window can show them.
// cs holds the candidates of one body pair; it is small (tens at most).
func applyHierarchy(pa, pb *shape.Polyhedron, cs []Contact) {
	// The kinds present decide which rules can apply (most pairs have
	// edge–edge contacts only): a rule's pass is skipped when it has
	// nothing to suppress or nothing to compare with.
	var nVF, nVE, nVV int
	for i := range cs {
		switch cs[i].Kind {
		case snap.VF:
			nVF++
		case snap.VE:
			nVE++
		case snap.VV:
			nVV++
		}
	}
	applyRules(pa, pb, cs, nVF, nVE, nVV)
}

// applyRules is applyHierarchy given the counts of vertex–face, vertex–edge
// and vertex–vertex candidates in cs (Detect knows them from its lists:
// one pass over the candidates fewer).
func applyRules(pa, pb *shape.Polyhedron, cs []Contact, nVF, nVE, nVV int) {
	if nVF >= 2 {
		coplanarFaces(pa, pb, cs)
	}
	if nVE > 0 && nVF > 0 {
		edgeFaces(pa, pb, cs)
	}
	if nVV > 0 {
		vertexVertex(pa, pb, cs)
	}
}

// coplanarFaces applies rule CoplanarFace to cs (applyHierarchy).
func coplanarFaces(pa, pb *shape.Polyhedron, cs []Contact) {
	// Rule CoplanarFace: a vertex over two coplanar faces keeps the closer.
	for i := range cs {
		ci := &cs[i]
		if ci.Kind != snap.VF || ci.Rule != NoRule {
			continue
		}
		for j := range cs {
			cj := &cs[j]
			if i == j || cj.Kind != snap.VF || cj.Swap != ci.Swap || cj.Rule != NoRule {
				continue
			}
			vi, fi := vfParts(ci)
			vj, fj := vfParts(cj)
			if vi != vj {
				continue
			}
			poly := pb
			if ci.Swap {
				poly = pa
			}
			if sharesFlatEdge(poly, fi, fj) && (cj.Gn < ci.Gn || (cj.Gn == ci.Gn && fj < fi)) {
				ci.Rule = CoplanarFace
				break
			}
		}
	}
}

// edgeFaces applies rules ConcaveEdge and EdgeFace to cs (applyHierarchy).
func edgeFaces(pa, pb *shape.Polyhedron, cs []Contact) {
	// Rules ConcaveEdge and EdgeFace: a vertex–edge candidate is dropped when
	// the same vertex already touches a face adjacent to that edge.
	for i := range cs {
		ci := &cs[i]
		if ci.Kind != snap.VE {
			continue
		}
		v, e := veParts(ci)
		poly := pb
		if ci.Swap {
			poly = pa
		}
		edge := &poly.Edges[e]
		for j := range cs {
			cj := &cs[j]
			if cj.Kind != snap.VF || cj.Swap != ci.Swap {
				continue
			}
			vj, fj := vfParts(cj)
			if vj == v && (fj == edge.F[0] || fj == edge.F[1]) {
				if edge.Kind == shape.Concave {
					ci.Rule = ConcaveEdge
				} else {
					ci.Rule = EdgeFace
				}
				break
			}
		}
	}
}

// vertexVertex applies rule VertexVertex to cs (applyHierarchy).
func vertexVertex(pa, pb *shape.Polyhedron, cs []Contact) {
	// Rule VertexVertex: dropped when either vertex already touches a face or
	// an edge attached to the other vertex, or an edge pair at both vertices does.
	for i := range cs {
		ci := &cs[i]
		if ci.Kind != snap.VV {
			continue
		}
		va, vb := ci.FA, ci.FB
		for j := range cs {
			cj := &cs[j]
			if j == i || cj.Rule != NoRule {
				continue
			}
			if attached(pa, pb, cj, va, vb) {
				ci.Rule = VertexVertex
				break
			}
		}
	}
}

// attached reports whether contact c joins vertex va of A (or a feature
// attached to it) to a feature attached to vertex vb of B.
func attached(pa, pb *shape.Polyhedron, c *Contact, va, vb int32) bool {
	switch c.Kind {
	case snap.VF:
		if !c.Swap { // vertex of A on face of B
			return c.FA == va && faceHas(pb, c.FB, vb)
		}
		return c.FB == vb && faceHas(pa, c.FA, va)
	case snap.VE:
		if !c.Swap { // vertex of A on edge of B
			return c.FA == va && edgeHas(pb, c.FB, vb)
		}
		return c.FB == vb && edgeHas(pa, c.FA, va)
	case snap.EE:
		return edgeHas(pa, c.FA, va) && edgeHas(pb, c.FB, vb)
	}
	return false
}

// vfParts returns (vertex, face) of a VF contact.
func vfParts(c *Contact) (v, f int32) {
	if c.Swap {
		return c.FB, c.FA
	}
	return c.FA, c.FB
}

// veParts returns (vertex, edge) of a VE contact.
func veParts(c *Contact) (v, e int32) {
	if c.Swap {
		return c.FB, c.FA
	}
	return c.FA, c.FB
}

// sharesFlatEdge reports whether faces f and g are joined by a Flat edge.
func sharesFlatEdge(p *shape.Polyhedron, f, g int32) bool {
	for _, e := range p.Faces[f].E {
		ed := &p.Edges[e]
		if ed.Kind == shape.Flat && (ed.F[0] == g || ed.F[1] == g) {
			return true
		}
	}
	return false
}
