package render

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Highlight is the world geometry of a contact's two features for the
// inspector's overlay: a vertex is a point, an edge a segment, a face its
// triangle's three edges, each segment clipped to the ball of
// HighlightRadii free-body radii around the contact point (a wall's face
// spans the whole box: unclipped it is a line across the view). Smooth
// (SQ) contacts and features a snapshot's mesh does not list (a recording
// made before recordings kept edge tables) give nothing.
type Highlight struct {
	Points []geom.Vec3
	Segs   [][2]geom.Vec3
}

// ContactHighlight returns the features of contact i of s in world
// coordinates (S0 §2.4.2: VF is a vertex of one body on a face of the other;
// Contact.Swap says whose vertex).
func ContactHighlight(s *snap.Snapshot, i int) Highlight {
	var h Highlight
	if s == nil || i < 0 || i >= len(s.Contacts) {
		return h
	}
	c := &s.Contacts[i]
	var ka, kb byte // 'v' vertex, 'e' edge, 'f' face
	switch c.Kind {
	case snap.VF:
		ka, kb = 'v', 'f'
	case snap.VE:
		ka, kb = 'v', 'e'
	case snap.EE:
		ka, kb = 'e', 'e'
	case snap.VV:
		ka, kb = 'v', 'v'
	default:
		return h
	}
	if c.Swap {
		ka, kb = kb, ka
	}
	h.add(s, c.A, ka, c.FeatA)
	h.add(s, c.B, kb, c.FeatB)
	if r := highlightRadius(s, c); r > 0 && c.Point.IsFinite() {
		kept := h.Segs[:0]
		for _, sg := range h.Segs {
			if a, b, ok := clipToBall(sg[0], sg[1], c.Point, r); ok {
				kept = append(kept, [2]geom.Vec3{a, b})
			}
		}
		h.Segs = kept
	}
	return h
}

// HighlightRadii is the radius, in radii of the contact's free body, of
// the ball around the contact point that ContactHighlight clips to.
const HighlightRadii = 2

// highlightRadius is HighlightRadii times the smaller radius of the
// contact's free (not fixed) bodies; 0 (no clipping) when neither has one.
func highlightRadius(s *snap.Snapshot, c *snap.Contact) float64 {
	r := math.Inf(1)
	for _, bi := range []int{c.A, c.B} {
		if bi < 0 || bi >= len(s.Bodies) || s.Bodies[bi].Fixed {
			continue
		}
		if br := s.Bodies[bi].Radius; br > 0 && br < r {
			r = br
		}
	}
	if math.IsInf(r, 1) {
		return 0
	}
	return HighlightRadii * r
}

// clipToBall returns the part of segment a–b inside the ball of radius r
// around c (ok false when none): |a + t(b−a) − c|² ≤ r² for t in [0, 1].
func clipToBall(a, b, c geom.Vec3, r float64) (geom.Vec3, geom.Vec3, bool) {
	d, m := b.Sub(a), a.Sub(c)
	qa, qb, qc := d.Dot(d), 2*m.Dot(d), m.Dot(m)-r*r
	if qa == 0 {
		return a, b, qc <= 0
	}
	disc := qb*qb - 4*qa*qc
	if disc < 0 {
		return a, b, false
	}
	sq := math.Sqrt(disc)
	t0, t1 := math.Max((-qb-sq)/(2*qa), 0), math.Min((-qb+sq)/(2*qa), 1)
	if t0 > t1 {
		return a, b, false
	}
	return a.AddScaled(t0, d), a.AddScaled(t1, d), true
}

func (h *Highlight) add(s *snap.Snapshot, bi int, kind byte, f int32) {
	if bi < 0 || bi >= len(s.Bodies) || f < 0 {
		return
	}
	b := &s.Bodies[bi]
	if b.Mesh < 0 || b.Mesh >= len(s.Meshes) {
		return
	}
	m := &s.Meshes[b.Mesh]
	q := b.Rot.Normalize()
	nv := int32(len(m.Verts))
	world := func(v int32) (geom.Vec3, bool) {
		if v < 0 || v >= nv {
			return geom.Vec3{}, false
		}
		return b.Pos.Add(q.Rotate(m.Verts[v])), true
	}
	seg := func(a, b int32) {
		pa, oka := world(a)
		pb, okb := world(b)
		if oka && okb {
			h.Segs = append(h.Segs, [2]geom.Vec3{pa, pb})
		}
	}
	switch kind {
	case 'v':
		if p, ok := world(f); ok {
			h.Points = append(h.Points, p)
		}
	case 'e':
		if int(f) < len(m.Edges) {
			seg(m.Edges[f][0], m.Edges[f][1])
		}
	case 'f':
		if int(f) < len(m.Tris) {
			t := m.Tris[f]
			seg(t[0], t[1])
			seg(t[1], t[2])
			seg(t[2], t[0])
		}
	}
}

// OnlyBodyContacts returns s with only the contacts of body b (a shallow
// copy: bodies, meshes and walls are shared), for "show only this body's
// contacts"; b < 0 returns s itself.
func OnlyBodyContacts(s *snap.Snapshot, b int) *snap.Snapshot {
	if s == nil || b < 0 {
		return s
	}
	c := *s
	c.Contacts = nil
	for i := range s.Contacts {
		if k := &s.Contacts[i]; k.A == b || k.B == b {
			c.Contacts = append(c.Contacts, *k)
		}
	}
	return &c
}
