package render

import (
	"math"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// PickBody returns the non-wall body first hit by the ray origin + t·dir
// (dir need not be unit; t is in metres along the normalised ray): a ray vs
// bounding-sphere test, then ray vs the mesh triangles in the body frame.
func PickBody(s *snap.Snapshot, origin, dir geom.Vec3) (index int, t float64, ok bool) {
	index, t = -1, math.Inf(1)
	if s == nil || dir.Norm2() == 0 || !dir.IsFinite() || !origin.IsFinite() {
		return -1, 0, false
	}
	d := dir.Unit()
	walls := wallMask(s, nil)
	for i := range s.Bodies {
		if walls[i] {
			continue
		}
		b := &s.Bodies[i]
		r := bodyRadius(s, b)
		oc := origin.Sub(b.Pos)
		bb := oc.Dot(d)
		disc := bb*bb - (oc.Norm2() - r*r)
		if disc < 0 {
			continue
		}
		sq := math.Sqrt(disc)
		if -bb+sq < 0 || -bb-sq > t {
			continue
		}
		if b.Mesh < 0 || b.Mesh >= len(s.Meshes) || len(s.Meshes[b.Mesh].Tris) == 0 {
			th := math.Max(-bb-sq, 0) // no mesh: the sphere is the body
			if th < t {
				index, t = i, th
			}
			continue
		}
		q := b.Rot.Normalize()
		o := q.InvRotate(oc)
		dl := q.InvRotate(d)
		m := &s.Meshes[b.Mesh]
		nv := int32(len(m.Verts))
		for _, tri := range m.Tris {
			if tri[0] < 0 || tri[1] < 0 || tri[2] < 0 || tri[0] >= nv || tri[1] >= nv || tri[2] >= nv {
				continue
			}
			if th, hit := rayTri(o, dl, m.Verts[tri[0]], m.Verts[tri[1]], m.Verts[tri[2]]); hit && th < t {
				index, t = i, th
			}
		}
	}
	if index < 0 {
		return -1, 0, false
	}
	return index, t, true
}

// rayTri is the two-sided Möller–Trumbore test; it returns t > 0 of the hit.
func rayTri(o, d, a, b, c geom.Vec3) (float64, bool) {
	e1, e2 := b.Sub(a), c.Sub(a)
	p := d.Cross(e2)
	det := e1.Dot(p)
	if math.Abs(det) < 1e-300 {
		return 0, false
	}
	inv := 1 / det
	s := o.Sub(a)
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return 0, false
	}
	t := e2.Dot(q) * inv
	return t, t > 0
}

// PickContact returns the contact whose point is nearest to the ray (within
// radius metres of it, in front of the origin), regardless of view filters.
func PickContact(s *snap.Snapshot, origin, dir geom.Vec3, radius float64) (int, bool) {
	return pickContact(s, nil, origin, dir, radius)
}

// PickContactView is PickContact restricted to the contacts v currently shows.
func PickContactView(s *snap.Snapshot, v *View, origin, dir geom.Vec3, radius float64) (int, bool) {
	return pickContact(s, v, origin, dir, radius)
}

func pickContact(s *snap.Snapshot, v *View, origin, dir geom.Vec3, radius float64) (int, bool) {
	if s == nil || dir.Norm2() == 0 || !(radius >= 0) {
		return -1, false
	}
	d := dir.Unit()
	best, bestD, bestT := -1, math.Inf(1), math.Inf(1)
	for i := range s.Contacts {
		c := &s.Contacts[i]
		if v != nil && !v.ContactVisible(c) {
			continue
		}
		w := c.Point.Sub(origin)
		t := w.Dot(d)
		if t < 0 {
			continue
		}
		dist := w.AddScaled(-t, d).Norm()
		if dist > radius {
			continue
		}
		if dist < bestD-1e-12 || (math.Abs(dist-bestD) <= 1e-12 && t < bestT) {
			best, bestD, bestT = i, dist, t
		}
	}
	return best, best >= 0
}

// PickContactScreen returns the visible contact (per v's filters; v may be
// nil) whose marker the user sees at pixel (px, py) of a w×h viewport,
// within radiusPx pixels. What is seen wins: a marker not hidden behind a
// body beats a hidden one (drawn faint or not at all), and among markers
// drawn under the cursor (within the marker radius, View.MarkerPx) the one
// nearest the eye wins, so a suppressed marker in front is picked rather
// than a hidden VF marker behind it; otherwise the nearest in pixels.
func PickContactScreen(s *snap.Snapshot, v *View, cam *Camera, px, py float64, w, h int, radiusPx float64) (int, bool) {
	if s == nil || cam == nil {
		return -1, false
	}
	f, _, _ := cam.Basis()
	eye := cam.Eye()
	markerPx := 5.0
	if v != nil && v.MarkerPx > 0 {
		markerPx = float64(v.MarkerPx)
	}
	under := (markerPx + 1) * (markerPx + 1)
	type cand struct {
		rank  int     // 0 seen and under the cursor, 1 seen, 2 hidden under, 3 hidden
		d2, z float64 // squared pixel distance, depth
		i     int
	}
	best := cand{rank: 4, i: -1}
	better := func(a, b cand) bool {
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.rank%2 == 0 { // under the cursor: the front one is drawn on top
			if a.z != b.z {
				return a.z < b.z
			}
			return a.d2 < b.d2
		}
		if math.Abs(a.d2-b.d2) > 1e-9 {
			return a.d2 < b.d2
		}
		return a.z < b.z
	}
	for i := range s.Contacts {
		c := &s.Contacts[i]
		if v != nil && !v.ContactVisible(c) {
			continue
		}
		x, y, ok := cam.Project(c.Point, w, h)
		if !ok {
			continue
		}
		d2 := (x-px)*(x-px) + (y-py)*(y-py)
		if d2 > radiusPx*radiusPx {
			continue
		}
		k := cand{d2: d2, z: c.Point.Sub(eye).Dot(f), i: i}
		if d2 > under {
			k.rank = 1
		}
		if markerHidden(s, eye, c.Point, markerPx*cam.PixelSize(c.Point, h)+s.SkinGap) {
			k.rank += 2
		}
		if better(k, best) {
			best = k
		}
	}
	return best.i, best.i >= 0
}

// markerHidden reports whether a body (not a wall: walls are see-through)
// lies between the eye and p, more than tol in front of p.
func markerHidden(s *snap.Snapshot, eye, p geom.Vec3, tol float64) bool {
	d := p.Sub(eye)
	dist := d.Norm()
	if !(dist > 0) {
		return false
	}
	_, t, ok := PickBody(s, eye, d)
	return ok && t < dist-tol
}

// DragPoint returns where the ray through pixel (px, py) meets the plane
// through anchor facing the camera (for Ctrl-drag spring forces).
func (c *Camera) DragPoint(px, py float64, w, h int, anchor geom.Vec3) geom.Vec3 {
	o, d := c.Ray(px, py, w, h)
	f, _, _ := c.Basis()
	den := d.Dot(f)
	if math.Abs(den) < 1e-12 {
		return anchor
	}
	t := anchor.Sub(o).Dot(f) / den
	return o.AddScaled(t, d)
}
