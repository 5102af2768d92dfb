package app

import (
	"fmt"

	"grainlab/sim/audit"
	"grainlab/sim/contact"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// overlap is one interpenetration found by the audit: two bodies (or a
// body and a wall), the kind and the depth estimate.
type overlap struct {
	A, B  string
	Kind  string
	Depth float64
}

func (o overlap) String() string {
	if o.Kind == audit.KindWall {
		return fmt.Sprintf("body %q crosses wall %q by %.3g m", o.A, o.B, o.Depth)
	}
	return fmt.Sprintf("bodies %q and %q interpenetrate by %.3g m (%s)", o.A, o.B, o.Depth, o.Kind)
}

// findOverlaps runs the independent penetration audit (sim/audit: exact
// triangle–triangle and point-in-mesh tests, pairs by bounding boxes) on
// the polyhedral bodies and the enabled walls of w at their current poses,
// shared out over the world's workers (Settings.Workers). Overlapping
// spheres and superquadrics are no error (their overlap is a contact
// force): deepSmoothOverlaps reports the deep ones from the world's own
// contacts.
func findOverlaps(w *world.World) []overlap {
	solids, walls := audit.WorldMeshes(w)
	var out []overlap
	for _, v := range audit.CheckWorkers(solids, walls, 0, w.Settings.Workers) {
		switch v.Kind {
		case audit.KindInvalid:
			continue // non-finite poses are the finite guard's business
		case audit.KindWall:
			out = append(out, overlap{A: solids[v.A].Name, B: walls[v.B].Name, Kind: v.Kind, Depth: v.Depth})
		default:
			out = append(out, overlap{A: solids[v.A].Name, B: solids[v.B].Name, Kind: v.Kind, Depth: v.Depth})
		}
	}
	return out
}

// auditWorld returns the findings of a periodic audit (--audit): one line
// per interpenetration of polyhedra (or a polyhedron and a wall), and one
// line summarising the smooth contacts that overlap deeply (deepSmooth),
// so that a settled pack of spheres reports nothing.
func auditWorld(w *world.World) []string {
	var msgs []string
	for _, o := range findOverlaps(w) {
		msgs = append(msgs, o.String())
	}
	if m := deepSmoothOverlaps(w); m != "" {
		msgs = append(msgs, m)
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
		ba, bb := w.BodyRec(a), w.BodyRec(b) // the static fields: no record made (sphere blocks)
		r := min(ba.R, bb.R)
		if ba.Wall >= 0 {
			r = bb.R
		} else if bb.Wall >= 0 {
			r = ba.R
		}
		rel := -k.Gn / r
		if !(rel > deepSmooth) {
			return
		}
		n++
		if rel > worstRel {
			worstRel = rel
			worst = overlap{A: w.BodyName(a), B: w.BodyName(b), Depth: -k.Gn}
		}
	})
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d smooth contact(s) overlap by more than %g of the smaller radius (deepest: %q and %q by %.3g m, %.0f%%): "+
		"a large contact force acts at once", n, deepSmooth, worst.A, worst.B, worst.Depth, 100*worstRel)
}
