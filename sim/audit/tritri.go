package audit

import (
	"math"

	"grainlab/sim/geom"
)

// Triangle–triangle classification with exact predicates, in the spirit of
// Guigue & Devillers (2003): every decision is the sign of an orientation
// determinant, so it is exact for the float64 inputs. The question asked is
// whether two closed triangles *penetrate*, not whether they merely touch:
//
//   - non-coplanar: each triangle must have vertices strictly on both sides
//     of the other's plane, and the two chords T1∩π2 and T2∩π1 (on the line
//     π1∩π2) must overlap in a segment of positive length. Touching at a
//     point, along an edge, or a vertex resting on a face is not penetration.
//   - coplanar: only triangles with the same outward normal direction whose
//     interiors overlap (positive area) count — the two solids then share
//     volume just beneath them. Faces in contact back to back (opposite
//     normals) are touching.
//
// Degenerate (zero-area) triangles never penetrate.

// triClass is the result of classify.
type triClass uint8

const (
	triApart    triClass = iota // disjoint or merely touching
	triCrossing                 // proper transversal crossing
	triCoplanar                 // coplanar, same facing, overlapping interiors
)

// classify returns how triangles a and b meet.
func classify(a, b *[3]geom.Vec3) triClass {
	pa, pb := newPlane(a), newPlane(b)
	return classifyPlanes(a, b, &pa, &pb)
}

// classifyPlanes is classify with the triangles' planes (newPlane) given.
func classifyPlanes(a, b *[3]geom.Vec3, pla, plb *plane) triClass {
	sa := plb.sides(b, a)
	if sa[0] == 0 && sa[1] == 0 && sa[2] == 0 {
		if coplanarOverlap(a, b) {
			return triCoplanar
		}
		return triApart
	}
	if !straddles(sa) {
		return triApart
	}
	sb := pla.sides(a, b)
	if !straddles(sb) {
		return triApart
	}
	// Chord endpoints, each as the line through two vertices of its triangle
	// that meets the common line π1∩π2 exactly there, with the sign σ of the
	// other plane's normal along that line.
	ea, eb := chordEnds(sa), chordEnds(sb)
	// sign(λ) > 0 ⇔ the A endpoint comes before the B endpoint along π1∩π2.
	le, ge := true, true // all A ends ≤ all B ends; all A ends ≥ all B ends
	for _, x := range ea {
		for _, y := range eb {
			l := orient3d(a[x.k], a[(x.k+1)%3], b[y.k], b[(y.k+1)%3]) * x.sigma * y.sigma
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

// chordEnd is an endpoint of a triangle's chord on the other's plane: the
// line through vertices k and k+1 (mod 3), and σ, the side of vertex k+1.
type chordEnd struct {
	k, sigma int
}

// chordEnds returns the two chord endpoints of a triangle whose vertices lie
// on the sides s of the other's plane (straddling).
func chordEnds(s [3]int) [2]chordEnd {
	var e [2]chordEnd
	n := 0
	for k := range 3 {
		k1 := (k + 1) % 3
		if s[k] == 0 || s[k]*s[k1] < 0 {
			e[n] = chordEnd{k, s[k1]}
			n++
		}
	}
	return e
}

// straddles reports whether s has both a positive and a negative entry.
func straddles(s [3]int) bool {
	pos := s[0] > 0 || s[1] > 0 || s[2] > 0
	neg := s[0] < 0 || s[1] < 0 || s[2] < 0
	return pos && neg
}

// coplanarOverlap reports whether two exactly coplanar triangles face the same
// way and their interiors overlap.
func coplanarOverlap(a, b *[3]geom.Vec3) bool {
	na := a[1].Sub(a[0]).Cross(a[2].Sub(a[0]))
	nb := b[1].Sub(b[0]).Cross(b[2].Sub(b[0]))
	if na.Dot(nb) <= 0 { // opposite facing (or degenerate)
		return false
	}
	// Project on the coordinate plane most aligned with the triangles: the
	// projected coordinates are input coordinates, so orient2d stays exact.
	i, j := dropAxis(na)
	pa := proj(a, i, j)
	pb := proj(b, i, j)
	oa := orient2d(pa[0], pa[1], pa[2], pa[3], pa[4], pa[5])
	ob := orient2d(pb[0], pb[1], pb[2], pb[3], pb[4], pb[5])
	if oa == 0 || ob == 0 {
		return false
	}
	return !separates2d(pa, oa, pb) && !separates2d(pb, ob, pa)
}

// dropAxis returns the two coordinate axes kept when projecting along the
// dominant component of n.
func dropAxis(n geom.Vec3) (int, int) {
	x, y, z := abs(n.X), abs(n.Y), abs(n.Z)
	switch {
	case x >= y && x >= z:
		return 1, 2
	case y >= z:
		return 2, 0
	}
	return 0, 1
}

func proj(t *[3]geom.Vec3, i, j int) [6]float64 {
	return [6]float64{t[0].Idx(i), t[0].Idx(j), t[1].Idx(i), t[1].Idx(j), t[2].Idx(i), t[2].Idx(j)}
}

// separates2d reports whether an edge line of triangle p (orientation o)
// has all of q weakly on its outer side.
func separates2d(p [6]float64, o int, q [6]float64) bool {
	for k := range 3 {
		k1 := (k + 1) % 3
		out := true
		for m := range 3 {
			if orient2d(p[2*k], p[2*k+1], p[2*k1], p[2*k1+1], q[2*m], q[2*m+1])*o > 0 {
				out = false
				break
			}
		}
		if out {
			return true
		}
	}
	return false
}

// crossDepth returns the translational penetration depth of two triangles by
// the separating-axis theorem (axes: both normals and the nine edge cross
// products), and a point on their intersection. It is a local estimate and a
// lower bound of the depth of the solids they bound. Float arithmetic.
func crossDepth(a, b *[3]geom.Vec3) (float64, geom.Vec3) {
	depth := math.Inf(1)
	try := func(ax geom.Vec3) {
		n2 := ax.Norm2()
		if !(n2 > 0) {
			return
		}
		ax = ax.Scale(1 / math.Sqrt(n2))
		amin, amax := span(a, ax)
		bmin, bmax := span(b, ax)
		depth = min(depth, amax-bmin, bmax-amin)
	}
	ea := [3]geom.Vec3{a[1].Sub(a[0]), a[2].Sub(a[1]), a[0].Sub(a[2])}
	eb := [3]geom.Vec3{b[1].Sub(b[0]), b[2].Sub(b[1]), b[0].Sub(b[2])}
	na, nb := ea[0].Cross(ea[1]), eb[0].Cross(eb[1])
	try(na)
	try(nb)
	for _, e := range ea {
		for _, f := range eb {
			c := e.Cross(f)
			if c.Norm2() > 1e-20*e.Norm2()*f.Norm2() {
				try(c)
			}
		}
	}
	if math.IsInf(depth, 1) {
		depth = 0
	}
	return max(depth, 0), chordMid(a, b, na, nb)
}

// coplanarDepth returns the in-plane penetration depth of two coplanar
// triangles (2-D separating axes: the six in-plane edge normals) and the
// midpoint of their centroids.
func coplanarDepth(a, b *[3]geom.Vec3) (float64, geom.Vec3) {
	n := a[1].Sub(a[0]).Cross(a[2].Sub(a[0]))
	depth := math.Inf(1)
	for _, t := range [2]*[3]geom.Vec3{a, b} {
		for k := range 3 {
			ax := n.Cross(t[(k+1)%3].Sub(t[k]))
			n2 := ax.Norm2()
			if !(n2 > 0) {
				continue
			}
			ax = ax.Scale(1 / math.Sqrt(n2))
			amin, amax := span(a, ax)
			bmin, bmax := span(b, ax)
			depth = min(depth, amax-bmin, bmax-amin)
		}
	}
	if math.IsInf(depth, 1) {
		depth = 0
	}
	ca := a[0].Add(a[1]).Add(a[2])
	cb := b[0].Add(b[1]).Add(b[2])
	return max(depth, 0), ca.Add(cb).Scale(1.0 / 6)
}

func span(t *[3]geom.Vec3, ax geom.Vec3) (float64, float64) {
	p0, p1, p2 := t[0].Dot(ax), t[1].Dot(ax), t[2].Dot(ax)
	return min(p0, p1, p2), max(p0, p1, p2)
}

// chordMid returns the midpoint of the overlap of the chords a∩π_b and b∩π_a
// (float arithmetic; for reporting only).
func chordMid(a, b *[3]geom.Vec3, na, nb geom.Vec3) geom.Vec3 {
	ca, okA := chord(a, b[0], nb)
	cb, okB := chord(b, a[0], na)
	if !okA || !okB {
		return a[0].Add(a[1]).Add(a[2]).Add(b[0]).Add(b[1]).Add(b[2]).Scale(1.0 / 6)
	}
	d := na.Cross(nb)
	t := [4]float64{ca[0].Dot(d), ca[1].Dot(d), cb[0].Dot(d), cb[1].Dot(d)}
	// the overlap is [max of the mins, min of the maxes]
	pick := func(x, y int, useMax bool) geom.Vec3 {
		pts := [4]geom.Vec3{ca[0], ca[1], cb[0], cb[1]}
		if (t[x] > t[y]) == useMax {
			return pts[x]
		}
		return pts[y]
	}
	loA, hiA := pick(0, 1, false), pick(0, 1, true)
	loB, hiB := pick(2, 3, false), pick(2, 3, true)
	lo := loA
	if loB.Dot(d) > loA.Dot(d) {
		lo = loB
	}
	hi := hiA
	if hiB.Dot(d) < hiA.Dot(d) {
		hi = hiB
	}
	return lo.Add(hi).Scale(0.5)
}

// chord returns the segment where triangle t crosses the plane through p with normal n.
func chord(t *[3]geom.Vec3, p, n geom.Vec3) ([2]geom.Vec3, bool) {
	var out [2]geom.Vec3
	k := 0
	d := [3]float64{t[0].Sub(p).Dot(n), t[1].Sub(p).Dot(n), t[2].Sub(p).Dot(n)}
	for i := 0; i < 3 && k < 2; i++ {
		j := (i + 1) % 3
		switch {
		case d[i] == 0:
			out[k] = t[i]
			k++
		case d[i]*d[j] < 0:
			out[k] = geom.Lerp(t[i], t[j], d[i]/(d[i]-d[j]))
			k++
		}
	}
	return out, k == 2
}
