package contact

import (
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
)

// Key identifies a contact between two sub-regions of a body pair (A, B), so
// that its friction history carries over from step to step (S0 §2.4.3).
// For VF and VE, Swap false means the vertex belongs to A and the face/edge to
// B; Swap true means the face/edge belongs to A and the vertex to B.
type Key struct {
	Kind   snap.ContactKind
	Swap   bool
	FA, FB int32
}

// Rule names the contact-hierarchy rule that suppressed a candidate.
type Rule uint8

const (
	// NoRule marks an active contact.
	NoRule Rule = iota
	// ConcaveEdge: a vertex–edge candidate on a concave edge whose vertex
	// already touches a face of that edge (S0 §3.6, Fig. 9).
	ConcaveEdge
	// EdgeFace: a vertex–edge candidate on a convex edge whose vertex already
	// touches one of the edge's faces (the face carries the vertex).
	EdgeFace
	// VertexVertex: a vertex–vertex candidate where either vertex already
	// touches a face or edge attached to the other (S0 §3.6).
	VertexVertex
	// CoplanarFace: a vertex touching two coplanar faces joined by a flat edge
	// keeps only the closer one.
	CoplanarFace
)

var ruleNames = [...]string{"", "concave-edge", "edge-face", "vertex-vertex", "coplanar-face"}

func (r Rule) String() string { return ruleNames[r] }

// Contact is one pointwise interaction between bodies A and B.
type Contact struct {
	Key
	PA, PB geom.Vec3 // contact points on A and B
	N      geom.Vec3 // unit normal from B to A: g = PA − PB = Gn·N (S0 eq. 29, 31)
	Gn     float64   // normal gap g_n = |g|

	Rule Rule // NoRule when active
	New  bool // no contact with this key in the previous step
	Flip bool // the normal reversed since the previous step: a penetration (S0 §2.4.5)

	// Filled by the contact laws.
	Fn   float64   // total normal force magnitude (elastic + damping), ≥ 0
	Ft   geom.Vec3 // friction force acting on A
	Fric law.FrictionState
	Epot float64 // stored energy of the normal law and the tangential spring
}

// Active reports whether the contact is not suppressed by the hierarchy.
func (c *Contact) Active() bool { return c.Rule == NoRule }

// Point returns the contact point used for output (midpoint of the gap vector).
func (c *Contact) Point() geom.Vec3 { return geom.Lerp(c.PA, c.PB, 0.5) }

// Scratch holds per-worker buffers so that detection does not allocate.
type Scratch struct {
	va, ea, fa, vb, eb, fb []int32
}

// Detect finds every pointwise contact with gap below gbar between a and b,
// applies the contact hierarchy, and matches each contact with prev (the
// pair's contacts of the previous step) to carry friction state. It appends
// to out and returns it.
func Detect(a, b *Posed, gbar float64, prev []Contact, out []Contact, s *Scratch) []Contact {
	start := len(out)
	boxA, boxB := a.Box.Inflate(gbar), b.Box.Inflate(gbar)
	if !boxA.Overlaps(boxB) {
		return out
	}
	s.va, s.ea, s.fa = a.near(boxB, s.va, s.ea, s.fa)
	s.vb, s.eb, s.fb = b.near(boxA, s.vb, s.eb, s.fb)

	out = vertexFace(a, b, s.va, s.fb, false, gbar, prev, out)
	out = vertexFace(b, a, s.vb, s.fa, true, gbar, prev, out)
	out = edgeEdge(a, b, s.ea, s.eb, gbar, prev, out)
	out = vertexEdge(a, b, s.va, s.eb, false, gbar, prev, out)
	out = vertexEdge(b, a, s.vb, s.ea, true, gbar, prev, out)
	out = vertexVertex(a, b, s.va, s.vb, gbar, prev, out)

	applyHierarchy(a.Poly, b.Poly, out[start:])
	for i := start; i < len(out); i++ {
		c := &out[i]
		if p := find(prev, c.Key); p != nil {
			c.Fric = p.Fric
			c.New = false
			if p.N.Dot(c.N) < 0 {
				c.Flip = true
			}
		} else {
			c.New = true
		}
	}
	return out
}

func find(cs []Contact, k Key) *Contact {
	for i := range cs {
		if cs[i].Key == k {
			return &cs[i]
		}
	}
	return nil
}

// vertexFace tests vertices of p against faces of q (S0 Appendix eq. 64–66).
// swap says p is body B of the pair.
func vertexFace(p, q *Posed, verts, faces []int32, swap bool, gbar float64, prev, out []Contact) []Contact {
	for _, fi := range faces {
		f := &q.Poly.Faces[fi]
		f1, f2, f3 := q.V[f.V[0]], q.V[f.V[1]], q.V[f.V[2]]
		n := q.FN[fi]
		for _, vi := range verts {
			x := p.V[vi]
			d := x.Sub(f1).Dot(n) // signed distance above the face plane
			if d >= gbar || d <= -gbar {
				continue
			}
			_, _, proj, ok := VertexFace(x, f1, f2, f3)
			if !ok {
				continue
			}
			k := Key{Kind: snap.VF, Swap: swap, FA: vi, FB: fi}
			if swap {
				k.FA, k.FB = fi, vi
			}
			if d <= 0 {
				// Behind the face: only meaningful as a flip of an existing contact.
				if find(prev, k) != nil {
					out = append(out, mk(k, x, proj, swap, true))
				}
				continue
			}
			out = append(out, mk(k, x, proj, swap, false))
		}
	}
	return out
}

// mk builds a contact from the point xp on the "vertex" body p and xq on q.
func mk(k Key, xp, xq geom.Vec3, swap, flip bool) Contact {
	c := Contact{Key: k, Flip: flip}
	if swap {
		c.PA, c.PB = xq, xp
	} else {
		c.PA, c.PB = xp, xq
	}
	g := c.PA.Sub(c.PB)
	c.Gn = g.Norm()
	if c.Gn > 0 {
		c.N = g.Scale(1 / c.Gn)
	}
	return c
}

// edgeEdge tests non-flat edges of a against those of b (S0 Appendix eq. 67–69).
func edgeEdge(a, b *Posed, ea, eb []int32, gbar float64, prev, out []Contact) []Contact {
	for _, i := range ea {
		e := &a.Poly.Edges[i]
		a1, a2 := a.V[e.V[0]], a.V[e.V[1]]
		boxA := segBox(a1, a2).Inflate(gbar)
		for _, j := range eb {
			f := &b.Poly.Edges[j]
			b1, b2 := b.V[f.V[0]], b.V[f.V[1]]
			if !boxA.Overlaps(segBox(b1, b2)) {
				continue
			}
			_, _, pa, pb, ok := EdgeEdge(a1, a2, b1, b2)
			if !ok {
				continue
			}
			g := pa.Sub(pb)
			if g.Norm2() >= gbar*gbar {
				continue
			}
			out = append(out, mk(Key{Kind: snap.EE, FA: i, FB: j}, pa, pb, false, false))
		}
	}
	return out
}

// vertexEdge tests vertices of p against non-flat edges of q (S0 Appendix eq. 70).
func vertexEdge(p, q *Posed, verts, edges []int32, swap bool, gbar float64, prev, out []Contact) []Contact {
	for _, ei := range edges {
		e := &q.Poly.Edges[ei]
		b1, b2 := q.V[e.V[0]], q.V[e.V[1]]
		box := segBox(b1, b2).Inflate(gbar)
		for _, vi := range verts {
			x := p.V[vi]
			if !box.Contains(x) {
				continue
			}
			_, proj, ok := VertexEdge(x, b1, b2)
			if !ok || x.Sub(proj).Norm2() >= gbar*gbar {
				continue
			}
			k := Key{Kind: snap.VE, Swap: swap, FA: vi, FB: ei}
			if swap {
				k.FA, k.FB = ei, vi
			}
			out = append(out, mk(k, x, proj, swap, false))
		}
	}
	return out
}

// vertexVertex tests vertex pairs (S0 §2.4.2: the normal joins the two vertices).
func vertexVertex(a, b *Posed, va, vb []int32, gbar float64, prev, out []Contact) []Contact {
	for _, i := range va {
		x := a.V[i]
		for _, j := range vb {
			if x.Sub(b.V[j]).Norm2() >= gbar*gbar {
				continue
			}
			out = append(out, mk(Key{Kind: snap.VV, FA: i, FB: j}, x, b.V[j], false, false))
		}
	}
	return out
}

// faceHas reports whether face f of poly has vertex v.
func faceHas(poly *shape.Polyhedron, f, v int32) bool {
	fv := poly.Faces[f].V
	return fv[0] == v || fv[1] == v || fv[2] == v
}

func edgeHas(poly *shape.Polyhedron, e, v int32) bool {
	ev := poly.Edges[e].V
	return ev[0] == v || ev[1] == v
}
