package app

import (
	"fmt"
	"slices"

	"grainlab/sim/audit"
	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// overlap is one interpenetration found by the audit: two bodies (or a
// body and a wall), the kind and the depth estimate.
type overlap struct {
	A, B   string
	Kind   string
	Depth  float64
	Smooth bool // between spheres: a contact force, not an error
}

func (o overlap) String() string {
	what := "interpenetrate"
	if o.Kind == audit.KindWall {
		what = "crosses wall"
		return fmt.Sprintf("body %q %s %q by %.3g m", o.A, what, o.B, o.Depth)
	}
	if o.Smooth {
		what = "overlap"
	}
	return fmt.Sprintf("bodies %q and %q %s by %.3g m (%s)", o.A, o.B, what, o.Depth, o.Kind)
}

// findOverlaps runs the independent penetration audit (sim/audit: exact
// triangle–triangle and point-in-mesh tests, pairs by bounding boxes) on
// the polyhedral bodies and the enabled walls of w at their current poses,
// and a sphere–sphere overlap test (sort and sweep along x).
func findOverlaps(w *world.World) []overlap {
	var solids []audit.Solid
	var walls []audit.Surface
	var sphere []int
	for i, b := range w.Bodies {
		if b.Kind == body.Sphere {
			sphere = append(sphere, i)
			continue
		}
		if b.Kind != body.Polyhedral || b.Poly == nil {
			continue
		}
		vs := make([]geom.Vec3, len(b.Poly.Verts))
		for i, v := range b.Poly.Verts {
			vs[i] = b.ToWorld(v)
		}
		if b.Wall >= 0 {
			if w.Walls[b.Wall].Enabled {
				walls = append(walls, audit.Surface{Name: b.Name, Verts: vs, Tris: b.Poly.Tris()})
			}
			continue
		}
		solids = append(solids, audit.Solid{Name: b.Name, Verts: vs, Tris: b.Poly.Tris()})
	}
	var out []overlap
	for _, v := range audit.Check(solids, walls, 0) {
		switch v.Kind {
		case audit.KindInvalid:
			continue // non-finite poses are the finite guard's business
		case audit.KindWall:
			out = append(out, overlap{A: solids[v.A].Name, B: walls[v.B].Name, Kind: v.Kind, Depth: v.Depth})
		default:
			out = append(out, overlap{A: solids[v.A].Name, B: solids[v.B].Name, Kind: v.Kind, Depth: v.Depth})
		}
	}
	// Spheres: sorted by the low end of their x extent, each compared with
	// the following ones whose extent starts before its own ends.
	slices.SortFunc(sphere, func(i, j int) int {
		a, b := w.Bodies[i], w.Bodies[j]
		switch lo, lo2 := a.X.X-a.R, b.X.X-b.R; {
		case lo < lo2:
			return -1
		case lo > lo2:
			return 1
		}
		return i - j
	})
	for k, i := range sphere {
		a := w.Bodies[i]
		for _, j := range sphere[k+1:] {
			b := w.Bodies[j]
			if b.X.X-b.R > a.X.X+a.R {
				break
			}
			if d := a.R + b.R - a.X.Sub(b.X).Norm(); d > 0 {
				out = append(out, overlap{A: a.Name, B: b.Name, Kind: "sphere-overlap", Depth: d, Smooth: true})
			}
		}
	}
	return out
}

// auditWorld returns one line per overlap found in w (all of them, for the
// periodic --audit warnings).
func auditWorld(w *world.World) []string {
	var msgs []string
	for _, o := range findOverlaps(w) {
		msgs = append(msgs, o.String())
	}
	return msgs
}
