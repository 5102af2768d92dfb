package sphere

import (
	"math"
	"math/bits"

	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// Hooke evaluates the frictionless Hookean law F_n = k_n δ − m_eff γ_n v_n
// (S2 eq. 20; law.Smooth's HookeLAMMPS normal force, specialised for speed
// and pinned to it by TestHookeKernel; v_n = (v_I − v_J)·n > 0 separating),
// clamped at 0 when limit (LAMMPS limit_damping; else the dashpot may pull),
// with m_eff γ_n = Damp of the pair's class, on pairs [lo, hi) of the
// states s (centres from s.X), δ = r_I + r_J − |x_I − x_J| (S2 §2.2). The force F_n n on I (n
// from J to I) is added to F of I and subtracted from F of J in pair order
// when direct, else stored in FP[k] (PrepareSplit). The force is central: no moment. It
// returns the number of touching pairs and their elastic energy Σ k_n δ²/2
// (S2 eq. 27). Touch is set for every pair, Fn for the touching ones.
func (l *List) Hooke(s *Flat, lo, hi int, kn float64, limit, direct bool) (n int, epot float64) {
	if direct && l.Shift == nil {
		return l.hookeRows(s, lo, hi, &rowsLaw{kn, limit, math.MaxInt32}, 0, 0)
	}
	P := l.P[lo:hi]
	touch, fnk := l.Touch[lo:hi], l.Fn[lo:hi]
	touch, fnk = touch[:len(P)], fnk[:len(P)]
	var fp []geom.Vec3
	if !direct {
		fp = l.FP[lo:hi]
		fp = fp[:len(P)]
	}
	var shift []geom.Vec3
	if l.Shift != nil {
		shift = l.Shift[lo:hi]
		shift = shift[:len(P)]
	}
	S, X := s.L, s.X
	for k := range P {
		p := &P[k]
		c := l.ClassOf(lo + k)
		xa, xb := X[p.I], X[p.J]
		if shift != nil {
			xb = xb.Add(shift[k])
		}
		ov, nx, ny, nz, ok := c.overlap(xa.X-xb.X, xa.Y-xb.Y, xa.Z-xb.Z)
		if !ok {
			touch[k] = false
			continue
		}
		a, b := &S[p.I], &S[p.J]
		vn := (a.V.X-b.V.X)*nx + (a.V.Y-b.V.Y)*ny + (a.V.Z-b.V.Z)*nz // > 0 separating
		fn := kn*ov - c.Damp*vn                                      // S2 eq. (20), law.Smooth.Normal
		if limit && fn < 0 {
			fn = 0 // no tension: limit_damping
		}
		f := geom.Vec3{X: float64(fn * nx), Y: float64(fn * ny), Z: float64(fn * nz)}
		if direct {
			a.F = a.F.Add(f)
			b.F = b.F.Sub(f)
		} else {
			fp[k] = f
		}
		touch[k] = true
		fnk[k] = fn
		n++
		epot += 0.5 * kn * ov * ov // S2 eq. (27)
	}
	return n, epot
}

// overlap returns the overlap δ = r_a + r_b − |d| (S2 §2.2) of a pair whose
// centres are d = (dx, dy, dz) apart and the unit normal d/|d| (+z for
// concentric centres, SphereSphere's convention); ok is false beyond the
// pair's cut-off or without overlap.
func (p *PairClass) overlap(dx, dy, dz float64) (ov, nx, ny, nz float64, ok bool) {
	// Written to stay within the inlining budget (a call a touching pair:
	// 15.3 million in 534 steps of the 10⁵ box): the results beyond ok are
	// meaningless without it.
	if d2 := dist2(dx, dy, dz); d2 < p.Cut2 {
		dist := math.Sqrt(d2)
		if ov = p.RSum - dist; ov > 0 {
			ok, nz = true, 1
			if dist > 0 {
				inv := 1 / dist
				nx, ny, nz = inv*dx, inv*dy, inv*dz
			}
		}
	}
	return
}

// dist2 is the squared length dx² + dy² + dz² of the kernels' cut-off
// tests, each product rounded (no fused multiply-add), so that the scan
// loops and overlap get the same bits on every platform.
func dist2(dx, dy, dz float64) float64 {
	return float64(dx*dx) + float64(dy*dy) + float64(dz*dz)
}

// hookeRows is Hooke for direct sums without periodic images on the pairs
// [lo, hi) — the loop the settled box spends its time in — adding each
// pair's force to those of its spheres numbered below own (math.MaxInt32:
// both; HookePart's rows: the part's) and the pairs' contacts and energies
// to the counts n and epot given, in pair order.
//
// Most listed pairs do not touch (on the falling lattice of `make
// bench-lammps`, 1 in 400): the loop clears Touch, tests each pair's
// cut-off only, holding few values, and hands the pairs within it to
// hookeTouch, which computes their overlap, force and energy (the same
// arithmetic: the squared distance is recomputed there, the same bits).
func (l *List) hookeRows(s *Flat, lo, hi int, r *rowsLaw, n int, epot float64) (int, float64) {
	if len(l.Class) == 1 {
		return l.hookeRowsOne(s, lo, hi, r, n, epot)
	}
	if l.Inner.On {
		return l.hookeRowsInner(s, lo, hi, r, n, epot)
	}
	P := l.P[lo:hi]
	clear(l.Touch[lo:hi]) // hookeTouch sets the pairs that touch
	X := s.X
	for k := range P {
		p := &P[k]
		c := l.ClassOf(lo + k)
		xa, xb := &X[p.I], &X[p.J]
		dx, dy, dz := xa.X-xb.X, xa.Y-xb.Y, xa.Z-xb.Z
		if !(dist2(dx, dy, dz) < c.Cut2) { // overlap's cut-off test
			continue
		}
		n, epot = l.hookeTouch(s, c, p, lo+k, r, n, epot)
	}
	return n, epot
}

// hookeTouch is hookeRows' work on pair k (p, of class c) within its
// cut-off: its overlap (overlap), and if it touches its normal force F_n =
// k_n δ − m_eff γ_n v_n (S2 eq. 20, law.Smooth.Normal), added to the
// spheres numbered below r.own, its Touch set and its Fn, and its contact
// and energy k_n δ²/2 (S2 eq. 27) added to n and epot (the caller has
// cleared Touch: a pair within its cut-off that does not touch keeps
// false).
func (l *List) hookeTouch(s *Flat, c *PairClass, p *Pair, k int, r *rowsLaw, n int, epot float64) (int, float64) {
	xa, xb := &s.X[p.I], &s.X[p.J]
	ov, nx, ny, nz, ok := c.overlap(xa.X-xb.X, xa.Y-xb.Y, xa.Z-xb.Z)
	if !ok {
		return n, epot // Touch[k] is false (cleared by the loop)
	}
	a, b := &s.L[p.I], &s.L[p.J]
	vn := (a.V.X-b.V.X)*nx + (a.V.Y-b.V.Y)*ny + (a.V.Z-b.V.Z)*nz
	fn := r.kn*ov - c.Damp*vn // S2 eq. (20), law.Smooth.Normal
	if r.limit && fn < 0 {
		fn = 0 // limit_damping
	}
	f := geom.Vec3{X: float64(fn * nx), Y: float64(fn * ny), Z: float64(fn * nz)}
	if p.I < r.own {
		a.F = a.F.Add(f)
	}
	if p.J < r.own {
		b.F = b.F.Sub(f)
	}
	l.Touch[k] = true
	l.Fn[k] = fn
	return n + 1, epot + 0.5*r.kn*ov*ov // S2 eq. (27)
}

// rowsLaw is what hookeRows needs of the law and the part: k_n, LAMMPS'
// limit_damping and the spheres whose forces it adds to (below own).
type rowsLaw struct {
	kn    float64
	limit bool
	own   int32
}

// hookeRowsOne is hookeRows when every pair is of one class (one species:
// a monodisperse system): the class's cut-off is read once, not once a
// pair. The same arithmetic.
func (l *List) hookeRowsOne(s *Flat, lo, hi int, r *rowsLaw, n int, epot float64) (int, float64) {
	clear(l.Touch[lo:hi]) // hookeTouch sets the pairs that touch
	X, c := s.X, &l.Class[0]
	cut2 := c.Cut2
	if in := &l.Inner; in.On {
		// The inner pairs of [lo, hi) (inner.go): the same pairs within
		// the cut-off, in the same order.
		a, b := in.span(lo, hi)
		P, K := in.P[a:b], in.K[a:b]
		K = K[:len(P)]
		for k := 0; k < len(P); {
			j, m, next := within(P, X, k, cut2)
			for ; m != 0; m &= m - 1 {
				i := j + bits.TrailingZeros(m)
				n, epot = l.hookeTouch(s, c, &P[i], int(K[i]), r, n, epot)
			}
			k = next
		}
		return n, epot
	}
	P := l.P[lo:hi]
	for k := 0; k < len(P); {
		j, m, next := within(P, X, k, cut2) // the pairs j + i, bit i of m, in [k, next)
		for ; m != 0; m &= m - 1 {
			i := j + bits.TrailingZeros(m)
			n, epot = l.hookeTouch(s, c, &P[i], lo+i, r, n, epot)
		}
		k = next
	}
	return n, epot
}

// hookeRowsInner is hookeRows (several classes) on the inner pairs of
// [lo, hi) (inner.go): the same pairs within their cut-offs, in the same
// order, the same arithmetic.
func (l *List) hookeRowsInner(s *Flat, lo, hi int, r *rowsLaw, n int, epot float64) (int, float64) {
	clear(l.Touch[lo:hi]) // hookeTouch sets the pairs that touch
	in := &l.Inner
	a, b := in.span(lo, hi)
	P, K := in.P[a:b], in.K[a:b]
	K = K[:len(P)]
	X := s.X
	for i := range P {
		p := &P[i]
		k := int(K[i])
		c := l.ClassOf(k)
		xa, xb := &X[p.I], &X[p.J]
		if !(dist2(xa.X-xb.X, xa.Y-xb.Y, xa.Z-xb.Z) < c.Cut2) { // overlap's cut-off test
			continue
		}
		n, epot = l.hookeTouch(s, c, p, k, r, n, epot)
	}
	return n, epot
}

// withinGo returns the first pair k ≥ k0 of P whose centres (in X) lie
// within the cut-off, |x_I − x_J|² < cut2 (overlap's test), or len(P): the
// scan of hookeRowsOne (through within: on amd64 below GOAMD64=v3 the same
// scan in SSE2 assembly, within_amd64.s, the same pairs, up to eight a
// call; elsewhere, with -tags purego or GOAMD64=v3, this loop:
// within_other.go), whose call of hookeTouch stays out of the loop (a loop holding the call kept its
// values across it: 30 instructions a pair). Not inlined: on its own, the
// loop keeps every value in a register. X is indexed by uint32(p.I): the
// pairs (8 bytes) are read at base + 8k, and the compiler folds a
// zero-extending load of that address (MOVL 0(P)(k*8)) but not a
// sign-extending one (two LEAQs more a pair); the bounds checks are the
// same (a negative index is out of range either way).
//
//go:noinline
func withinGo(P []Pair, X []geom.Vec3, k int, cut2 float64) int {
	for n, p := range P[k:] {
		xa, xb := &X[uint32(p.I)], &X[uint32(p.J)]
		if dist2(xa.X-xb.X, xa.Y-xb.Y, xa.Z-xb.Z) < cut2 {
			return k + n
		}
	}
	return len(P)
}

// Smooth evaluates the general smooth law of each pair (laws[Law[k]]:
// Hookean or Hertzian normal force, tangential spring with history and
// Coulomb cap, rolling resistance; law.Smooth) on pairs [lo, hi) of the
// states s (centres from s.X), with radii r by species (sphere k's r[spec[k]]) and dt the time since the last accepted
// evaluation. The friction history comes from PrevHist where PrevTouch and
// goes to Hist. The force on I and the moments are added to F and T in pair
// order when direct, else stored in FP (PrepareSplit), TPA, TPB, M. It returns the number
// of touching pairs and their stored energy.
func (l *List) Smooth(s *Flat, lo, hi int, laws []law.Smooth, r []float64, spec []int32, dt float64, direct bool) (n int, epot float64) {
	S, R := s.L, s.R
	for k := lo; k < hi; k++ {
		pr := &l.P[k]
		pc := l.ClassOf(k)
		xa, xb := s.X[pr.I], s.X[pr.J]
		if l.Shift != nil {
			xb = xb.Add(l.Shift[k])
		}
		if !(xa.Sub(xb).Norm2() < pc.Cut2) {
			l.Touch[k] = false
			continue
		}
		a, b := &S[pr.I], &S[pr.J]
		ra, rb := &R[pr.I], &R[pr.J]
		rI, rJ := r[spec[pr.I]], r[spec[pr.J]]
		ov, nrm, pt, ok := SphereSphere(xa, xb, rI, rJ) // S2 §2.2
		if !ok {
			l.Touch[k] = false
			continue
		}
		// The contact point of the world's smooth contacts: the midpoint of
		// the deepest points, as contact.Contact.Point computes it.
		pt = geom.Lerp(pt.AddScaled(-0.5*ov, nrm), pt.AddScaled(0.5*ov, nrm), 0.5)
		p := &laws[0]
		if l.Law != nil {
			p = &laws[l.Law[k]]
		}
		var h law.FrictionState
		if l.PrevTouch[k] {
			h = l.PrevHist[k]
		}
		c := EvalSmooth(p, nrm, pt, xa, xb, a.V, b.V, ra.W, rb.W, ov, pc.MEff, rI, rJ, dt, &h)
		l.Hist[k] = h
		l.Touch[k], l.Fn[k], l.Delta[k], l.Ft[k], l.M[k], l.Epot[k] = true, c.Fn, ov, c.Ft, c.M, c.Epot
		n++
		epot += c.Epot
		f := nrm.Scale(c.Fn).Add(c.Ft) // on I
		ta, tb := pt.Sub(xa).Cross(f), pt.Sub(xb).Cross(f)
		if direct {
			a.F, ra.T = a.F.Add(f), ra.T.Add(ta).Add(c.M)
			b.F, rb.T = b.F.Sub(f), rb.T.Sub(tb).Sub(c.M)
		} else {
			l.FP[k], l.TPA[k], l.TPB[k] = f, ta, tb
		}
	}
	return n, epot
}

// HookePart is Hooke, direct, on one part of a list sorted by (lower,
// higher) sphere number without periodic images, when the spheres are
// split between workers in ranges: the part owns the spheres own0 ≤ k <
// own1, and its rows are the pairs [lo, hi), those whose lower sphere it
// owns. It adds to each sphere it owns the forces of all its pairs in
// pair order, as Hooke direct does over the whole list, so that every sum
// has the same bits whatever the parts: first the pairs of cross (pair
// indices, ascending over the slices in order) whose higher sphere it owns
// and lower another part's, then its rows (a row's pair adds to the
// higher sphere too when the part owns it; else that sphere's part
// evaluates the pair in its cross). It sets Touch and Fn of its rows only
// (cross pairs are another part's rows), and returns the number of
// touching pairs and their energy Σ k_n δ²/2 (S2 eq. 27) over [e0, e1),
// summed in pair order from zero as Hooke does on a chunk: e0 ≤ lo and
// e1 ≤ hi (the pairs [e0, lo) are evaluated for their energy only).
func (l *List) HookePart(s *Flat, cross [][]int32, own0, own1 int32, lo, hi, e0, e1 int, kn float64, limit bool) (n int, epot float64) {
	S, X, P := s.L, s.X, l.P
	for _, ks := range cross {
		for _, k := range ks {
			p := &P[k]
			f, _, _, ok := l.ClassOf(int(k)).hookeForce(S, X, p, kn, limit)
			if !ok {
				continue
			}
			if own0 <= p.I && p.I < own1 {
				S[p.I].F = S[p.I].F.Add(f)
			} else {
				S[p.J].F = S[p.J].F.Sub(f)
			}
		}
	}
	for k := e0; k < min(lo, e1); k++ { // the head of the chunk: an earlier part's row
		p := &P[k]
		if _, _, ov, ok := l.ClassOf(k).hookeForce(S, X, p, kn, limit); ok {
			n++
			epot += 0.5 * kn * ov * ov // S2 eq. (27)
		}
	}
	// The rows: the lower sphere is the part's (≥ own0), the higher one
	// too when below own1; those from e1 on are the next chunk's (their
	// count and energy are the next part's).
	e, r := max(lo, e1), rowsLaw{kn, limit, own1}
	n, epot = l.hookeRows(s, lo, e, &r, n, epot)
	l.hookeRows(s, e, hi, &r, 0, 0)
	return n, epot
}

// hookeForce is Hooke's force on I of pair p (S2 eq. 20, the arithmetic of
// the kernels' loops), with its normal force and overlap; ok is false when
// the pair does not touch.
//
// Fused multiply-adds: the Go spec lets the compiler fuse x*y + z into one
// FMA rounded once (GOAMD64=v3, arm64, …); an explicit conversion
// float64(x*y) forbids it. The force F_n n is added to the spheres where it
// is made (Hooke direct, hookeTouch) and returned or stored to be added
// elsewhere (here, FP for Gather), so each of its products is converted
// (float64(fn * nx)) in every kernel: all paths add the same rounded
// values, for any number of workers (TestHookeKernel). On amd64 v1 the
// conversions change nothing.
func (c *PairClass) hookeForce(S []Lin, X []geom.Vec3, p *Pair, kn float64, limit bool) (f geom.Vec3, fn, ov float64, ok bool) {
	xa, xb := &X[p.I], &X[p.J]
	ov, nx, ny, nz, ok := c.overlap(xa.X-xb.X, xa.Y-xb.Y, xa.Z-xb.Z)
	if !ok {
		return f, 0, 0, false
	}
	a, b := &S[p.I], &S[p.J]
	vn := (a.V.X-b.V.X)*nx + (a.V.Y-b.V.Y)*ny + (a.V.Z-b.V.Z)*nz
	fn = kn*ov - c.Damp*vn // S2 eq. (20), law.Smooth.Normal
	if limit && fn < 0 {
		fn = 0 // limit_damping
	}
	return geom.Vec3{X: float64(fn * nx), Y: float64(fn * ny), Z: float64(fn * nz)}, fn, ov, true
}
