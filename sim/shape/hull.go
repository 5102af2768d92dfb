package shape

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"grainlab/sim/geom"
)

// hullFacet is one planar face of a convex hull: its outward unit normal and
// its vertices (indices into the point set) counter-clockwise seen from
// outside, with collinear points removed.
type hullFacet struct {
	n    geom.Vec3
	poly []int
}

// convexHullFacets returns the facets of the convex hull of pts. Points
// within eps of a supporting plane count as on it, so coplanar sets (such as
// a polygonal ring) come out as one polygonal facet rather than as an
// arbitrary triangulation. It enumerates supporting planes through every
// triple of points: O(n⁴) in the worst case, meant for a few hundred points.
func convexHullFacets(pts []geom.Vec3, eps float64) ([]hullFacet, error) {
	n := len(pts)
	if n < 4 {
		return nil, errors.New("convex hull needs at least 4 points")
	}
	seen := map[string]bool{}
	var out []hullFacet
	var on []int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			for k := j + 1; k < n; k++ {
				nrm := pts[j].Sub(pts[i]).Cross(pts[k].Sub(pts[i]))
				l := nrm.Norm()
				if l <= eps*(pts[j].Dist(pts[i])+pts[k].Dist(pts[i])) {
					continue // (nearly) collinear triple: no well-defined plane
				}
				nrm = nrm.Scale(1 / l)
				d := nrm.Dot(pts[i])
				pos, neg := false, false
				on = on[:0]
				for m, q := range pts {
					s := nrm.Dot(q) - d
					switch {
					case s > eps:
						pos = true
					case s < -eps:
						neg = true
					default:
						on = append(on, m)
					}
					if pos && neg {
						break
					}
				}
				if pos && neg {
					continue
				}
				if !pos && !neg {
					return nil, errors.New("convex hull of coplanar points")
				}
				if pos {
					nrm = nrm.Neg()
				}
				key := fmt.Sprint(on)
				if seen[key] {
					continue
				}
				seen[key] = true
				poly := polygon2D(pts, on, nrm, eps)
				if len(poly) < 3 {
					return nil, fmt.Errorf("convex hull facet %v collapsed", on)
				}
				out = append(out, hullFacet{n: nrm, poly: poly})
			}
		}
	}
	return out, nil
}

// polygon2D returns the convex polygon of the coplanar points idx (plane
// normal n) counter-clockwise about n, by Andrew's monotone chain.
func polygon2D(pts []geom.Vec3, idx []int, n geom.Vec3, eps float64) []int {
	e1 := n.AnyPerp()
	e2 := n.Cross(e1) // (e1, e2, n) right-handed: CCW in (e1, e2) is CCW about n
	type p2 struct {
		x, y float64
		i    int
	}
	ps := make([]p2, len(idx))
	for k, i := range idx {
		ps[k] = p2{pts[i].Dot(e1), pts[i].Dot(e2), i}
	}
	sort.Slice(ps, func(a, b int) bool {
		if ps[a].x != ps[b].x {
			return ps[a].x < ps[b].x
		}
		return ps[a].y < ps[b].y
	})
	// cross of (b−a)×(c−a); a left turn must beat eps·|b−a| to keep b.
	turn := func(a, b, c p2) bool {
		bx, by := b.x-a.x, b.y-a.y
		cr := bx*(c.y-a.y) - by*(c.x-a.x)
		return cr > eps*math.Hypot(c.x-a.x, c.y-a.y)
	}
	hull := make([]p2, 0, 2*len(ps))
	for _, pass := range []int{0, 1} {
		start := len(hull)
		for k := range ps {
			q := ps[k]
			if pass == 1 {
				q = ps[len(ps)-1-k]
			}
			for len(hull) >= start+2 && !turn(hull[len(hull)-2], hull[len(hull)-1], q) {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, q)
		}
		hull = hull[:len(hull)-1] // the last point starts the other chain
	}
	res := make([]int, len(hull))
	for k, q := range hull {
		res[k] = q.i
	}
	return res
}
