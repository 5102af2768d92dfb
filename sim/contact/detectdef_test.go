package contact

import (
	"grainlab/sim/internal/fma"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// detectDef is Detect by its definition, for tests: every listed feature
// pair solved (no skip) by the local problems of degen.go — VertexFace
// after the plane test (S0 App. eq. 64–66), EdgeEdge (eq. 67–69),
// VertexEdge (eq. 70) — with the gap tests on geom's vector methods, each
// contact built as a literal; then the hierarchy and the match with prev
// as Detect does them. Detect's written-out loops (edgeEdges, vertexFaces,
// mk) must give the same contacts, bit for bit, in the same order.
func detectDef(a, b *Posed, gbar float64, c *Cache, prev []Contact) []Contact {
	var out []Contact
	add := func(k Key, xp, xq geom.Vec3, swap, flip bool) {
		ct := Contact{Key: k, Flip: flip, PA: xp, PB: xq}
		if swap {
			ct.PA, ct.PB = xq, xp
		}
		g := ct.PA.Sub(ct.PB) // S0 eq. (29)
		if ct.Gn = g.Norm(); ct.Gn > 0 {
			ct.N = g.Scale(1 / ct.Gn)
		}
		out = append(out, ct)
	}
	vf := func(p, q *Posed, vi, fi int32, swap bool) {
		f := &q.Poly.Faces[fi]
		f1, x := q.V[f.V[0]], p.V[vi]
		d := x.Sub(f1).Dot(q.FaceNormal(fi))
		if d >= gbar || d <= -gbar {
			return
		}
		_, _, proj, ok := VertexFace(x, f1, q.V[f.V[1]], q.V[f.V[2]])
		if !ok {
			return
		}
		k := Key{Kind: snap.VF, Swap: swap, FA: vi, FB: fi}
		if swap {
			k.FA, k.FB = fi, vi
		}
		if d > 0 || find(prev, k) != nil {
			add(k, x, proj, swap, d <= 0)
		}
	}
	ve := func(p, q *Posed, vi, ei int32, swap bool) {
		e := &q.Poly.Edges[ei]
		x := p.V[vi]
		_, proj, ok := VertexEdge(x, q.V[e.V[0]], q.V[e.V[1]])
		if !ok || x.Sub(proj).Norm2() >= gbar*gbar {
			return
		}
		k := Key{Kind: snap.VE, Swap: swap, FA: vi, FB: ei}
		if swap {
			k.FA, k.FB = ei, vi
		}
		add(k, x, proj, swap, false)
	}
	for _, p := range c.vf {
		vf(a, b, p[0], p[1], false)
	}
	for _, p := range c.fv {
		vf(b, a, p[1], p[0], true)
	}
	for _, p := range c.ee {
		e, f := &a.Poly.Edges[p[0]], &b.Poly.Edges[p[1]]
		_, _, pa, pb, ok := EdgeEdge(a.V[e.V[0]], a.V[e.V[1]], b.V[f.V[0]], b.V[f.V[1]])
		if ok && pa.Sub(pb).Norm2() < gbar*gbar {
			add(Key{Kind: snap.EE, FA: p[0], FB: p[1]}, pa, pb, false, false)
		}
	}
	for _, p := range c.ve {
		ve(a, b, p[0], p[1], false)
	}
	for _, p := range c.ev {
		ve(b, a, p[1], p[0], true)
	}
	for _, p := range c.vv {
		if x, y := a.V[p[0]], b.V[p[1]]; x.Sub(y).Norm2() < gbar*gbar {
			add(Key{Kind: snap.VV, FA: p[0], FB: p[1]}, x, y, false, false)
		}
	}
	if len(out) == 0 {
		return out
	}
	applyHierarchy(a.Poly, b.Poly, out)
	for i := range out {
		c := &out[i]
		if p := find(prev, c.Key); p != nil {
			c.Fric = p.Fric
			c.New, c.G0, c.Fn0 = false, p.Gn, p.Fn
			c.Flip = c.Flip || p.N.Dot(c.N) < 0
		} else {
			c.New = true
		}
	}
	return out
}

// sameContacts reports whether two contact lists are equal field by field
// (nil and empty alike).
func sameContacts(x, y []Contact) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		// Bit for bit; where products may fuse (fma.MayFuse) the definition's
		// written-out geometry rounds differently: points by ~1e-16 m, and the
		// normal g/‖g‖ by that over the gap (2e-12 at a 26 µm gap seen), so
		// 1e-9 of quantities of order 1.
		if !fma.Equal(x[i], y[i], 1e-9, 1) {
			return false
		}
	}
	return true
}
