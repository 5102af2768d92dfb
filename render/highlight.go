package render

import (
	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Highlight is the world geometry of a contact's two features for the
// inspector's overlay: a vertex is a point, an edge a segment, a face its
// triangle's three edges. Smooth (SQ) contacts and features a snapshot's
// mesh does not list (a recorded run has no edge table) give nothing.
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
	return h
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
