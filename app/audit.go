package app

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"grainlab/sim/audit"
	"grainlab/sim/body"
	"grainlab/sim/contact"
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
// and a sphere–sphere overlap test (sort and sweep along x). The solid
// pairs are shared out over the world's workers (Settings.Workers).
func findOverlaps(w *world.World) []overlap {
	var sphere []int
	for i, b := range w.Bodies {
		if b.Kind == body.Sphere {
			sphere = append(sphere, i)
		}
	}
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
	return append(out, sphereOverlaps(w, sphere)...)
}

// sphereOverlaps returns the overlapping pairs among the spheres w.Bodies[i],
// i in idx, in O(N): a grid of cells one largest diameter wide, the spheres
// sorted by cell (z, y, x), and each compared with those of its own and the
// 13 forward neighbouring cells (each pair once). A pair is named lower body
// index first, the pairs in that order. Spheres with a non-finite centre or
// radius are the finite guard's business and left out.
func sphereOverlaps(w *world.World, idx []int) []overlap {
	type cellOf struct {
		c [3]int64 // z, y, x
		i int      // body index
	}
	rmax := 0.0
	for _, i := range idx {
		if b := w.Bodies[i]; b.R > rmax && !math.IsInf(b.R, 1) {
			rmax = b.R
		}
	}
	size := 2 * rmax
	if !(size > 0) {
		return nil // no sphere has a radius: nothing overlaps
	}
	cell := func(x float64) int64 { // monotone, clamped: neighbours stay neighbours
		return int64(math.Max(-1<<50, math.Min(1<<50, math.Floor(x/size))))
	}
	sp := make([]cellOf, 0, len(idx))
	for _, i := range idx {
		b := w.Bodies[i]
		if !b.X.IsFinite() || !(b.R >= 0) || math.IsInf(b.R, 1) {
			continue
		}
		sp = append(sp, cellOf{[3]int64{cell(b.X.Z), cell(b.X.Y), cell(b.X.X)}, i})
	}
	cmp3 := func(a, b [3]int64) int {
		for d := range 3 {
			if a[d] != b[d] {
				return cmp.Compare(a[d], b[d])
			}
		}
		return 0
	}
	slices.SortFunc(sp, func(a, b cellOf) int {
		if c := cmp3(a.c, b.c); c != 0 {
			return c
		}
		return a.i - b.i
	})
	// rows: the first entry of each (z, y) row of cells, in sorted order.
	type row struct {
		z, y       int64
		start, end int
	}
	var rows []row
	for k := range sp {
		if k == 0 || sp[k].c[0] != sp[k-1].c[0] || sp[k].c[1] != sp[k-1].c[1] {
			rows = append(rows, row{z: sp[k].c[0], y: sp[k].c[1], start: k})
		}
		rows[len(rows)-1].end = k + 1
	}
	findRow := func(z, y int64) (int, int) {
		r, ok := slices.BinarySearchFunc(rows, [2]int64{z, y}, func(r row, t [2]int64) int {
			if r.z != t[0] {
				return cmp.Compare(r.z, t[0])
			}
			return cmp.Compare(r.y, t[1])
		})
		if !ok {
			return 0, 0
		}
		return rows[r].start, rows[r].end
	}
	type pair struct{ a, b int }
	var pairs []pair
	test := func(i, j int) {
		a, b := w.Bodies[i], w.Bodies[j]
		if d := a.R + b.R - a.X.Sub(b.X).Norm(); d > 0 {
			pairs = append(pairs, pair{min(i, j), max(i, j)})
		}
	}
	// The forward half of the 3×3 rows around a row: itself, then (y+1), and
	// the three rows at z+1.
	forward := [][2]int64{{0, 1}, {1, -1}, {1, 0}, {1, 1}}
	for _, r := range rows {
		// cached ranges of the forward rows
		var fr [4][2]int
		for f, d := range forward {
			fr[f][0], fr[f][1] = findRow(r.z+d[0], r.y+d[1])
		}
		for k := r.start; k < r.end; k++ {
			x := sp[k].c[2]
			// own row: later entries of the same cell and of cell x+1
			for m := k + 1; m < r.end && sp[m].c[2] <= x+1; m++ {
				test(sp[k].i, sp[m].i)
			}
			for f := range forward {
				lo, hi := fr[f][0], fr[f][1]
				m := lo + sort.Search(hi-lo, func(t int) bool { return sp[lo+t].c[2] >= x-1 })
				for ; m < hi && sp[m].c[2] <= x+1; m++ {
					test(sp[k].i, sp[m].i)
				}
			}
		}
	}
	slices.SortFunc(pairs, func(p, q pair) int {
		if p.a != q.a {
			return p.a - q.a
		}
		return p.b - q.b
	})
	out := make([]overlap, 0, len(pairs))
	for _, p := range pairs {
		a, b := w.Bodies[p.a], w.Bodies[p.b]
		out = append(out, overlap{A: a.Name, B: b.Name, Kind: "sphere-overlap", Depth: a.R + b.R - a.X.Sub(b.X).Norm(), Smooth: true})
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
		if !o.Smooth {
			msgs = append(msgs, o.String())
		}
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
