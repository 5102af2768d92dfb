package app

import (
	"fmt"
	"slices"

	"grainlab/sim/audit"
	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
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

// deepSmooth is the overlap, as a fraction of the smaller bounding radius,
// beyond which a smooth contact at the start is reported: a settled pack
// overlaps by far less (its weight over the stiffness), a body placed into
// another by a large part of its size.
const deepSmooth = 0.1

// deepSmoothOverlaps summarises, in one line, the smooth contacts (spheres,
// superquadrics, against each other, polyhedra or walls; the world's own
// detection after integrate.Start) whose overlap exceeds deepSmooth of the
// smaller bounding radius: "" when there are none. Such an overlap is not an
// error — the law pushes the bodies apart — but the large force it makes at
// once is rarely what was meant.
func deepSmoothOverlaps(w *world.World) string {
	n := 0
	var worst overlap
	worstRel := 0.0
	w.EachContact(func(a, b int, k *contact.Contact) {
		if k.Kind != snap.SQ || !k.Active() || !(k.Gn < 0) {
			return
		}
		r := min(w.Bodies[a].R, w.Bodies[b].R)
		if w.Bodies[a].Wall >= 0 {
			r = w.Bodies[b].R
		} else if w.Bodies[b].Wall >= 0 {
			r = w.Bodies[a].R
		}
		rel := -k.Gn / r
		if !(rel > deepSmooth) {
			return
		}
		n++
		if rel > worstRel {
			worstRel = rel
			worst = overlap{A: w.Bodies[a].Name, B: w.Bodies[b].Name, Depth: -k.Gn}
		}
	})
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d smooth contact(s) overlap by more than %g of the smaller radius (deepest: %q and %q by %.3g m, %.0f%%): "+
		"a large contact force acts at once", n, deepSmooth, worst.A, worst.B, worst.Depth, 100*worstRel)
}
