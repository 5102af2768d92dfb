package sphere

import (
	"math"

	"grainlab/sim/geom"
)

// The inner list in a moving frame (session 23; docs/performance.md,
// "Session 23: the inner list in the falling frame"). For any common
// vector c (the displacement of a reference motion since the list's build:
// the free fall of a falling box), the triangle inequality gives
//
//	|x_I − x_J| ≥ r_IJ − (|d_I − c| + |d_J − c|),  d = x − ref,
//
// so Select's argument holds with D replaced by E = √E1 + √E2, the two
// largest |d_i − c|², which stay near zero while the spheres fall together
// although D (the absolute displacements) grows with the fall. A sphere
// stopped by a wall or a contact spoils E for every pair: such spheres are
// made *loose* — every pair with a loose sphere is an inner pair whatever
// its distance (SelectLoose) — and E is taken over the other spheres, the
// tight ones, only (RelDisplaced). Any c is sound (a poor c only makes E
// large); the pairs are those of Select for E, plus the loose spheres'.

// SelectLoose is Select with loose spheres: P and K become the pairs of l
// with a loose sphere (loose[I] or loose[J]) and the other pairs of level
// t (dist2(ref_I − ref_J) < S_t); Out is the smallest reference d² of the
// pairs left out (one class; every such pair has two tight spheres). Why
// they hold every pair the kernels can find within its cut-off while the
// tight spheres' bound E (RelBound) is at most t·Δ (or, by Holds, while
// S(E) ≤ Out): a pair with a loose sphere is selected; a pair of two tight
// spheres has |x_I − x_J| ≥ r_IJ − E_exact with E_exact ≤ E(1 + 5ε) +
// 2⁻³²·c (RelBound), and Select's argument goes on unchanged (its margin
// 2⁻³⁰(c + t·Δ) covers these as it covers D's 4ε). loose must hold a flag a sphere of the
// list (nil: none loose, Select's pairs). Same limit and result as Select.
func (in *Inner) SelectLoose(l *List, ref []geom.Vec3, loose []bool, t, limit int) bool {
	if loose == nil {
		return in.Select(l, ref, t, limit)
	}
	in.P, in.K = in.P[:0], in.K[:0]
	P := l.P
	in.Out = 0
	if len(l.Class) == 1 {
		// One class (Select's fast path): also the smallest d² of the
		// pairs left out (Holds).
		s, out := innerBound(l.Class[0].Cut2, in.Delta, t), math.Inf(1)
		for k := range P {
			p := &P[k]
			if !loose[p.I] && !loose[p.J] {
				a, b := &ref[p.I], &ref[p.J]
				if d2 := dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z); !(d2 < s) {
					out = min(out, d2)
					continue
				}
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
			p := &P[k]
			if !loose[p.I] && !loose[p.J] {
				if pc := l.ClassOf(k); pc != last {
					last, s = pc, innerBound(pc.Cut2, in.Delta, t)
				}
				a, b := &ref[p.I], &ref[p.J]
				if !(dist2(a.X-b.X, a.Y-b.Y, a.Z-b.Z) < s) {
					continue
				}
			}
			if !in.add(p, k, limit) {
				return false
			}
		}
	}
	in.Held, in.On = t+1, true
	return true
}

// RelDisplaced returns the two largest squared relative displacements e =
// |(x_i − ref_i) − c|² of the tight spheres (loose[i] false; every sphere
// when loose is nil), each computed as written (the difference to the
// reference first, then c), and whether every one is finite (a NaN or
// infinity: false, and the bound is then not to be used).
func RelDisplaced(x, ref []geom.Vec3, c geom.Vec3, loose []bool) (e1, e2 float64, finite bool) {
	finite = true
	for i := range x {
		if loose != nil && loose[i] {
			continue
		}
		a, b := &x[i], &ref[i]
		e := dist2(a.X-b.X-c.X, a.Y-b.Y-c.Y, a.Z-b.Z-c.Z)
		if !(e <= math.MaxFloat64) {
			finite = false
		}
		if e > e2 {
			if e > e1 {
				e1, e2 = e, e1
			} else {
				e2 = e
			}
		}
	}
	return e1, e2, finite
}

// RelBound is the bound E on |d_I − c| + |d_J − c| of every pair of two
// tight spheres, from RelDisplaced's two largest e1 ≥ e2, given a bound
// dabs on every tight sphere's |d| = |x − ref| (the skin while the list is
// kept) and the smallest cut-off c0 of the list's classes; +Inf (no level)
// when dabs > 2²⁰·c0. Rounding: each component of (x − ref) − c is rounded
// twice, an error of at most ε(|d_k| + 2|q_k|) on the computed q_k (ε =
// 2⁻⁵³), so the exact |d − c| ≤ |q|(1 + 2ε) + ε|d|, and |q| ≤ √e(1 + 2ε)
// (e's products, sums and root): |d_I − c| + |d_J − c| ≤ (√e1 + √e2)(1 +
// 5ε) + 2ε·dabs. The absolute term is not relative to E (the differences
// to the reference hold the whole bulk motion) but to the cut-off: with
// dabs ≤ 2²⁰·c0 it is at most 2⁻³²·c, inside Select's margin 2⁻³⁰(c + t·Δ)
// beside its few ε (as is the relative 5ε).
func RelBound(e1, e2, dabs, c0 float64) float64 {
	if !(dabs <= 0x1p20*c0) {
		return math.Inf(1)
	}
	return math.Sqrt(e1) + math.Sqrt(e2)
}
