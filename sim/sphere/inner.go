package sphere

import (
	"math"
	"sort"

	"grainlab/sim/geom"
)

// The inner list: a two-level Verlet list. The list holds every pair whose
// centres were within the cut-off plus the skin at its build (the
// reference centres ref, fixed for its lifetime); a pair whose reference
// distance r_IJ = |ref_I − ref_J| is at least cut_IJ + D, where D bounds
// |x_I − ref_I| + |x_J − ref_J| (the two largest displacements since the
// build, √D1 + √D2, the Verlet test's own sum: |x_I − x_J| ≥ r_IJ − D),
// cannot be within its cut-off at that state. Inner keeps, beside the
// list, the pairs with r_IJ below cut_IJ + t·Δ for a level t: the kernels
// (hookeRows, hookeRowsOne) test only those, an ordered subsequence of the
// list, so the pairs within the cut-off, their order and every sum are
// those of the whole scan.

// InnerLevels is the number of levels of an inner list: level t (0 ≤ t <
// InnerLevels) holds the pairs that can be within their cut-off while D ≤
// t·Δ; beyond the last, the kernels scan the whole list.
const InnerLevels = 8

// innerMargin is the inner list's relative margin for rounding: the
// squared distances, the roots and the sum √D1 + √D2 are each a few ulps
// (2⁻⁵³ each) from the exact values; 2⁻³⁰ covers them many times.
const innerMargin = 0x1p-30

// Inner is a list's inner list (the pairs that can be within their
// cut-off while the displacements stay within a bound) and its storage,
// reused from list to list (List.TakeScratch moves it). P and K hold at
// most the selection's limit (12 bytes a pair: the sphere path's limit, a
// quarter of the list, makes it 3 bytes a listed pair, 9 MB at 10⁶
// spheres).
type Inner struct {
	// On: the kernels scan P (pairs K[i] of the list, ascending) instead
	// of the whole list; set by the owner (Select), cleared by Off.
	On bool
	P  []Pair  // the inner pairs, copies of the list's, in list order
	K  []int32 // their indices in the list
	// Delta is Δ, the levels' width (the owner's, set before Level).
	Delta float64
	// Held is one more than the level of P and K: 0 when none is
	// selected (since Off, or a List's zero value).
	Held int
	// Dead: the owner gave the inner list up for this list (a level held
	// most of its pairs).
	Dead bool
	// Out: one class, the smallest dist2(ref_I − ref_J) of the pairs the
	// selection left out (+Inf: none), else 0 (Holds).
	Out float64
	// Prev is the owner's last D (the growth of D: when a level is worth
	// selecting).
	Prev float64
	// The moving frame (inner_rel.go), the owner's: Loose flags the loose
	// spheres of the last selection made by SelectLoose; Rel reports that
	// its tight spheres' bound E0 + 2·Grow still holds (E0 at the
	// selection, U the bound on their speeds relative to the reference
	// motion, Grow each one's travel relative to it since, XMax the
	// largest |coordinate| a centre can have).
	Loose             []bool
	Rel               bool
	E0, U, Grow, XMax float64
	// LastH is the half step of the last Drift the bound followed (its
	// kick's rounding); RelDead: a selection by SelectLoose failed for
	// this list (the owner does not try again until the next build).
	LastH   float64
	RelDead bool
	// Watch and WatchK: what the owner checks each step about the tight
	// spheres (the world's wall slots, and the list indices of the inner
	// pairs with a tight sphere).
	Watch, WatchK []int32
	// Walls: the owner's watch per wall of the tight spheres' slots (see
	// RelWall), indexed by the owner's walls.
	Walls []RelWall
	// RelSelects counts the selections SelectLoose made for the owner
	// (not reset by Off: tests and notes read it).
	RelSelects int
	// parts: the storage of split selections (inner_split.go); taken:
	// their running total of selected pairs (added by batches).
	parts []InnerPart
	taken int64 // sync/atomic
	// Scratch is the owner's storage for its split selections, kept with
	// the list from selection to selection (the world's relJob).
	Scratch any
}

// Off makes the kernels scan the whole list and forgets the pairs
// selected: the list was rebuilt.
func (in *Inner) Off() {
	in.On, in.Held, in.Dead, in.Prev, in.Rel, in.RelDead = false, 0, false, 0, false, false
}

// Level returns the level D needs: the smallest t < InnerLevels with D ≤
// t·Δ, or −1 when none (the whole list; also for a D that is not a
// number).
func (in *Inner) Level(d float64) int {
	for t := range InnerLevels {
		if d <= float64(t)*in.Delta {
			return t
		}
	}
	return -1
}

// Holds reports whether the pairs selected hold every pair that can be
// within its cut-off while D ≤ d: d needs a level below the one held, or
// (one class) S(d) = ((c + d)(1 + margin))² is at most Out, the smallest
// dist2(ref_I − ref_J) of the pairs left out — they are then all beyond
// S(d), the bound of Select's argument with d for t·Δ (the falling box's
// lattice: the empty level 0 or 1 holds until D reaches the neighbours'
// gap, not only the level's t·Δ).
func (in *Inner) Holds(l *List, d float64) bool {
	if in.Held == 0 {
		return false
	}
	if t := in.Level(d); t >= 0 && t < in.Held {
		return true
	}
	return len(l.Class) == 1 && innerS(l.Class[0].Cut2, d) <= in.Out
}

// innerS is ((c + e)·(1 + margin))², c = √cut2.
func innerS(cut2, e float64) float64 {
	e = (math.Sqrt(cut2) + e) * (1 + innerMargin)
	return e * e
}

// innerBound is S_t = ((c + t·Δ)·(1 + margin))² for a class of cut-off c
// = √Cut2: level t holds the pairs with dist2(ref_I − ref_J) < S_t.
func innerBound(cut2, delta float64, t int) float64 { return innerS(cut2, float64(t)*delta) }

// Select makes P and K the pairs of l of level t (0 ≤ t < InnerLevels) —
// those with dist2(ref_I − ref_J) < S_t = ((c + t·Δ)(1 + margin))², c =
// √Cut2 of the pair's class, ref the reference centres of the list's
// build, indexed as its spheres — and turns the inner list on. Why level t
// holds every pair the kernels can find within its cut-off while D ≤ t·Δ
// (Level): a kernel's dist2(x_I − x_J) < Cut2 means the exact |x_I − x_J|
// < c(1 + 4ε) (ε = 2⁻⁵³: the differences, products, sums and c's root
// each rounded once); the triangle inequality gives the exact r_IJ = |ref_I
// − ref_J| ≤ |x_I − x_J| + D_exact, with D_exact ≤ D(1 + 4ε) (√D1 + √D2
// of squared displacements computed as the kernels' distances, or a bound
// on them), so r_IJ < (c + D)(1 + 4ε)², and the computed d² ≤ r_IJ²(1 +
// 5ε): below S_t with room to spare for S_t's own rounding (a few ε against
// margin = 2⁻³⁰). A reference that is not a number puts its pairs in no
// level (a D that is not a number, in no level either, never gets here).
// The list must have no periodic images (Shift nil). When
// the level has more than limit pairs, Select stops there, turns the inner
// list off and returns false (P and K then empty).
func (in *Inner) Select(l *List, ref []geom.Vec3, t, limit int) bool {
	in.P, in.K = in.P[:0], in.K[:0]
	P := l.P
	in.Out = 0
	if len(l.Class) == 1 {
		// One class: also the smallest d² of the pairs left out (Holds).
		s, out := innerBound(l.Class[0].Cut2, in.Delta, t), math.Inf(1)
		for k := range P {
			p := &P[k]
			a, b := &ref[p.I], &ref[p.J]
			d2 := dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z)
			if !(d2 < s) {
				out = min(out, d2)
				continue
			}
			if !in.add(p, k, limit) {
				return false
			}
		}
		in.Out = out
	} else {
		var last *PairClass
		s := 0.0
		for k := range P {
			if pc := l.ClassOf(k); pc != last {
				last, s = pc, innerBound(pc.Cut2, in.Delta, t)
			}
			p := &P[k]
			a, b := &ref[p.I], &ref[p.J]
			if dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z) < s {
				if !in.add(p, k, limit) {
					return false
				}
			}
		}
	}
	in.Held, in.On = t+1, true
	return true
}

// add appends pair p, the list's k-th, to the selection; at limit pairs
// already, it turns the inner list off instead, empties P and K (as a
// failed split selection does: JoinParts) and returns false (Select,
// SelectLoose: the level holds too many pairs).
func (in *Inner) add(p *Pair, k, limit int) bool {
	if len(in.P) == limit {
		in.On, in.Held = false, 0
		in.P, in.K = in.P[:0], in.K[:0]
		return false
	}
	if len(in.P) == cap(in.P) || len(in.K) == cap(in.K) {
		in.grow(limit)
	}
	in.P = append(in.P, *p)
	in.K = append(in.K, int32(k))
	return true
}

// grow doubles the storage of P and K (at least innerMinCap pairs, at
// most limit), keeping their pairs: append grows a large slice by about a
// quarter, so a selection of m pairs into short storage left ≈ 4m pairs
// of garbage (7.4 MB over the 10⁶-sphere box's 207 steps, Session 23);
// doubling leaves less than m. The caller holds fewer than limit pairs.
func (in *Inner) grow(limit int) {
	c := min(limit, max(2*len(in.P), innerMinCap))
	if cap(in.P) < c {
		in.P = append(make([]Pair, 0, c), in.P...)
	}
	if cap(in.K) < c {
		in.K = append(make([]int32, 0, c), in.K...)
	}
}

// innerMinCap is the least storage grow makes, in pairs.
const innerMinCap = 1024

// span returns the inner pairs [a, b) whose list indices are in [lo, hi).
func (in *Inner) span(lo, hi int) (a, b int) {
	K := in.K
	a = sort.Search(len(K), func(i int) bool { return int(K[i]) >= lo })
	b = a + sort.Search(len(K)-a, func(i int) bool { return int(K[a+i]) >= hi })
	return a, b
}

// RelWall is the moving frame's watch of one wall (the owner's: a plane
// of unit normal N): the tight spheres' slots on it stay off it while the
// frame's travel along N since the selection, less its bound on the tight
// spheres' travel relative to the frame, keeps them at their margin. On:
// the wall has a slot of a tight sphere. M: the margin, the least d − r'
// of those slots (d their centre's distance from the plane, r' the radius
// the owner's test needs) at the last refresh, less the frame's travel C
// and its error EC then, plus the tight spheres' relative travel bound
// then; Slack the roundings the test must cover. V and EV: the frame's
// velocity along N and its error; G and EG: g·N and its error; C and EC:
// the frame's travel along N since the selection and its error (computed
// values; the errors bound them against the exact reference motion).
type RelWall struct {
	On                  bool
	M, Slack            float64
	V, EV, G, EG, C, EC float64
}
