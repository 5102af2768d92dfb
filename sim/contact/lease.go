package contact

import (
	"math"
	"sync/atomic"
)

// Travel is a body's accumulated motion over its placements (Posed.Update):
// X counts quanta of travQ metres of its centre's motion, T quanta of travQ
// radians of its rotation, each placement's bounds (Posed.moved: dx and
// theta) rounded up to whole quanta. The counts are whole numbers below
// 2⁵³ held in float64, so their sums and differences are exact. An unknown
// (+Inf), NaN or huge motion counts travBig quanta; the sums saturate at
// travCap, so they never decrease.
type Travel struct{ X, T float64 }

const (
	travQ     = 0x1p-36 // the quantum: 2⁻³⁶ m (≈ 1.5e-11 m) or rad
	travBig   = 0x1p40  // the count of one unknown or huge motion (16 m or rad)
	travCap   = 0x1p50  // the saturation of a sum
	travGrant = 0x1p49  // a lease is granted only below this sum
	travWorn  = 0x1p48  // from this sum on, the counts should restart (Worn)
)

// quanta returns v in whole quanta rounded up (v·2³⁶ is exact, a power of
// two), or travBig when v is not below travBig quanta (+Inf, NaN, huge).
func quanta(v float64) float64 {
	s := v * (1 / travQ)
	if !(s < travBig) {
		return travBig
	}
	if !(s > 0) { // 0 (a fixed body) or −0
		return 0
	}
	return math.Ceil(s)
}

// add counts one placement's motion m.
func (t *Travel) add(m motion) {
	t.X = min(t.X+quanta(m.dx), travCap)
	t.T = min(t.T+quanta(m.theta), travCap)
}

// Travel returns p's accumulated motion over all its placements.
func (p *Posed) Travel() Travel { return p.trav }

// Worn reports whether t has counted half the travel above which Grant
// gives no lease (2⁴⁸ quanta: 4096 m or rad, or 256 unknown motions): the
// bodies' counts should restart (RestartTravel) before leases stop.
func (t Travel) Worn() bool { return t.X >= travWorn || t.T >= travWorn }

// RestartTravel sets p's travel back to zero. The leases granted on the
// travel of p (and of any body whose count restarts with it) must be
// dropped first: their counts are those before, and a sum that went down
// would let a lease hold past its limit.
func (p *Posed) RestartTravel() { p.trav = Travel{} }

// Lease is a proof, kept outside the Cache in a few words, that an EMPTY
// cache is not stale (Cache.Stale would answer false) for as long as its two
// bodies have travelled little since the lease was granted: Holds decides it
// from the bodies' Travel alone, without the poses or the cache. A lease is
// revoked by any change of its cache (Build, Invalidate, SetState, a new
// Grant); the zero Lease never holds.
//
// The bound (staleTrack's, summed; for a lease granted from Stale's dA,
// Swapped, A and B exchange their roles, see Grant): at the grant, the
// tracked bound of Stale gives dB₀ ≥ the full test's dB (B's displacement
// in A's frame since the build, |Δt| + θ·R_B, S0 §2.5), th₀ ≥ its relative angle bound and d₀ ≥
// |X_B − X_A|. Each later placement of A or B, with centre motion δ and
// rotation bound θ (Posed.moved), adds at most δ_A + δ_B + θ_A·D +
// 1.01·(θ_A + θ_B)·R_B to dB and 1.01·(θ_A + θ_B) to th while th ≤ 0.5
// (staleTrack), D ≥ |X_B − X_A| before the move ≤ d₀ + Σ(δ_A + δ_B). With
// ΔX, ΔT_A, ΔT_B the Travel sums since the grant (each ≥ the δ or θ sums,
// rounded up), and Σ(δ_A + δ_B) ≤ travQ·ΔX ≤ margin while the lease holds
// (D ≤ D̄ = d₀ + margin):
//
//	dB ≤ dB₀ + travQ·(ΔX + ΔT_A·(D̄ + 1.01·R_B) + ΔT_B·1.01·R_B) =: dB₀ + β
//	th ≤ th₀ + 1.01·travQ·(ΔT_A + ΔT_B) ≤ th₀ + β/R_B.
//
// Holds requires β < lim = (1 − 1e-9)·min(margin·(1 − 1e-6) − dB₀,
// (0.5 − th₀)·R_B): then th ≤ 0.5 at every placement since the grant (the
// sums only grow) and dB ≤ margin·(1 − 1e-6), below which the full test
// finds dB ≤ margin (staleTrack's allowance for its rounding): the cache is
// not stale — Stale's own answer, at every placement while the lease holds.
// The 1e-9 covers Holds' own rounding (two products and two sums of
// non-negative numbers: at most 5 ulp) and that of the coefficients. A sum
// that saturates moves by at least travCap − travGrant quanta since the
// grant, far above any lim, and so does an unknown motion (travBig quanta:
// 16 m > lim ≤ 8 m; 16 rad·1.01·R_B > 0.5·R_B ≥ lim).
//
// Holds works in quanta: β/travQ = ΔX + ΔT_A·ka + ΔT_B·kb against
// lim/travQ (scalings by a power of two: exact).
//
// A lease may also carry a weighted test (SetWeights, Fast): a cheaper
// sufficient condition for Holds, read first by the world's pass.
type Lease struct {
	thr          atomic.Uint64 // float64 bits of the weighted test's threshold (Fast); −Inf when none, NaN when revoked
	lim          atomic.Uint64 // float64 bits of lim/travQ; NaN when revoked
	ka, kb       float64       // D̄ + 1.01·R_B and 1.01·R_B, rounded up
	x0, ta0, tb0 float64       // X_A + X_B, T_A, T_B at the grant
	swap         bool          // granted from Stale's dA (Grant): ka is 1.01·R_A, kb the lever
}

// Swapped reports whether the lease was granted from A's displacement in
// B's frame (Grant): its coefficient of B's turn is the lever D̄ + 1.01·R_A
// and that of A's turn 1.01·R_A, the other way round from a lease granted
// from B's.
func (l *Lease) Swapped() bool { return l.swap }

// Holds reports whether the lease still proves its cache not stale for
// bodies A and B that have travelled ta and tb (Posed.Travel of the same
// Posed values as at the grant).
func (l *Lease) Holds(ta, tb Travel) bool {
	// Whole numbers below 2⁵¹ that never decrease: the differences are
	// exact and ≥ 0.
	dx := ta.X + tb.X - l.x0
	da := ta.T - l.ta0
	db := tb.T - l.tb0
	return dx+da*l.ka+db*l.kb < math.Float64frombits(l.lim.Load())
}

// Revoke makes the lease fail from now on (safe from any goroutine): its
// limit becomes NaN, below which no β is, whatever the other fields hold (a
// revoked lease's counts may be those of another pair's bodies, so that β
// is negative).
func (l *Lease) Revoke() {
	l.lim.Store(revoked)
	l.thr.Store(revoked)
}

// Weigh returns t's weighted travel X + w·T, the quantity of the weighted
// test (Fast) for a body whose weight is w.
func (t Travel) Weigh(w float64) float64 { return t.X + w*t.T }

// SetWeights gives a lease that holds its weighted test for bodies A and B
// weighted wa and wb (Weigh), when wa ≥ ka and wb ≥ kb (else none): Fast(s)
// with s = ta.Weigh(wa) + tb.Weigh(wb) for A's and B's travel ta and tb
// (the same weights) then implies what Holds(ta, tb) proves. With ΔX_A,
// ΔT_A, ΔX_B, ΔT_B ≥ 0 the travel since the grant, β/travQ = ΔX_A + ΔX_B +
// ΔT_A·ka + ΔT_B·kb ≤ ΔU := ΔX_A + wa·ΔT_A + ΔX_B + wb·ΔT_B, so ΔU ≤ lim/travQ
// is enough (Holds' own condition, less its rounding allowance). With U and
// U₀ the exact weighted sums now and at the grant, s and s₀ their values
// in float64 (each one product and two sums of non-negative numbers:
// within 4ε of U, U₀, ε = 2⁻⁵³) and thr = (s₀ + lim/travQ)·(1 − 1e-12)
// rounded (within 2ε more): s < thr, or even s ≤ thr, gives U − U₀ ≤
// thr·(1 + 4ε) − s₀·(1 − 4ε) ≤ lim/travQ + (s₀ + lim/travQ)·(7ε − 1e-12)
// + 4ε·s₀ < lim/travQ. The test is one sum and one comparison; the world's pass
// keeps s's two terms per body (pairLeases), so a pair costs a few loads.
// Revoke (and so any change of the cache) ends the weighted test too.
func (l *Lease) SetWeights(wa, wb float64) {
	lim := math.Float64frombits(l.lim.Load())
	if !(lim > 0) { // revoked
		return
	}
	if !(wa >= l.ka) || !(wb >= l.kb) || math.IsInf(wa, 0) || math.IsInf(wb, 0) {
		l.thr.Store(noWeights)
		return
	}
	s0 := l.x0 + wa*l.ta0 + wb*l.tb0
	l.thr.Store(math.Float64bits((s0 + lim) * (1 - 1e-12)))
	// A Revoke on another worker between the load of lim and this store
	// (a record still pointed to by a pair that lost it at a Verlet
	// rebuild) stored lim first: seen here, the weighted test ends too
	// (review rv3).
	if !(math.Float64frombits(l.lim.Load()) > 0) {
		l.thr.Store(revoked)
	}
}

// Fast reports whether the lease's weighted test holds for the weighted
// travel s = ta.Weigh(wa) + tb.Weigh(wb) of its bodies (SetWeights' weights):
// then Holds(ta, tb)'s proof holds too. It fails when the lease has no
// weighted test (−Inf), is revoked (NaN) or is the zero Lease (0: s ≥ 0).
func (l *Lease) Fast(s float64) bool { return s < l.Weighted() }

// Weighted returns the threshold of the lease's weighted test (Fast is
// s < Weighted()): NaN when the lease is revoked, so that its caller can
// tell a revoked lease (NaN) from one that Holds may still prove.
func (l *Lease) Weighted() float64 { return math.Float64frombits(l.thr.Load()) }

// noWeights is the threshold of a lease without a weighted test: −Inf.
var noWeights = math.Float64bits(math.Inf(-1))

// revoked is the limit of a revoked lease: NaN's bits.
var revoked = math.Float64bits(math.NaN())

// revokeLease revokes the lease granted for c, if any.
func (c *Cache) revokeLease() {
	if c.lease != nil {
		c.lease.Revoke()
		c.lease = nil
	}
}

// Grant gives l a lease on c for the placements a and b when c is built,
// empty, and Stale's last test proved it not stale at exactly these
// placements with its tracked bound, or with its full test through A's
// displacement in B's frame (Stale returned false for them and nothing
// changed since); it revokes c's previous lease. It reports whether l
// holds a lease now (else l is revoked).
//
// The second kind (Swapped) is the first with A and B exchanged: with dA₀
// the full test's dA (A's displacement in B's frame since the build,
// |Δt| + θ·R_A, S0 §2.5), A's centre in B's frame moves by at most δ_A +
// δ_B + θ_B·D at a placement and thetaBound by at most 1.01·(θ_A + θ_B)
// (staleTrack's argument, the roles exchanged), so
//
//	dA ≤ dA₀ + travQ·(ΔX + ΔT_A·1.01·R_A + ΔT_B·(D̄ + 1.01·R_A)),
//
// Holds' sum with ka = 1.01·R_A and kb = D̄ + 1.01·R_A, its limit
// min(margin·(1 − 1e-6) − dA₀, (0.5 − th₀)·R_A). Below it the full test finds dA ≤
// margin (if it reaches dA: dB ≤ margin answers the same): not stale.
// With a tracked dB, Grant also computes dA at these placements (the full
// test's formula, with the tracked angle and distance bounds, which bound
// the full test's) and gives the swapped kind when its limit over its use
// at the bodies' last motions (Posed.moved) is 1.25 times the other's: the
// kind that lasts longer, whichever body turns more.
func (c *Cache) Grant(a, b *Posed, l *Lease) bool {
	c.revokeLease()
	s, p := &c.trk, b // the tracked bound of B's displacement, B the moving body
	if w := &c.swp; !s.on && w.on {
		s, p = w, a // A's displacement in B's frame, A the moving body
	}
	if !c.built || c.listed || !s.on || a.gen != s.genA || b.gen != s.genB ||
		a.trav.X >= travGrant || b.trav.X >= travGrant || a.trav.T >= travGrant || b.trav.T >= travGrant {
		l.Revoke()
		return false
	}
	rp := 1.01 * p.Poly.Radius
	lim := (1 - 1e-9) * min(c.margin*(1-1e-6)-s.dB, (0.5-s.th)*p.Poly.Radius)
	if p == b {
		// The other kind may last longer: A's displacement in B's frame
		// at these placements, as the full test computes it, with the
		// tracked angle bound (≥ the full test's); chosen when the
		// bodies' last motions would use up its limit more slowly.
		ma, mb := a.moved, b.moved
		ra := 1.01 * a.Poly.Radius
		dA := b.Q.InvRotate(a.X.Sub(b.X)).Sub(c.refS).Norm() + s.th*a.Poly.Radius
		limA := (1 - 1e-9) * min(c.margin*(1-1e-6)-dA, (0.5-s.th)*a.Poly.Radius)
		lever := s.d + c.margin
		cn := ma.dx + mb.dx + ma.theta*(lever+rp) + mb.theta*rp
		cs := ma.dx + mb.dx + ma.theta*ra + mb.theta*(lever+ra)
		if limA > 0 && limA*cn > 1.25*lim*cs {
			p, rp, lim = a, ra, limA
		}
	}
	if !(lim > 0 && lim <= travBig/2*travQ) {
		l.Revoke()
		return false
	}
	kt, kp := (s.d+c.margin+rp)*(1+1e-9), rp*(1+1e-9) // the turning frame's lever, the moving body's
	if l.swap = p == a; l.swap {
		l.ka, l.kb = kp, kt
	} else {
		l.ka, l.kb = kt, kp
	}
	l.x0, l.ta0, l.tb0 = a.trav.X+b.trav.X, a.trav.T, b.trav.T
	l.thr.Store(noWeights) // no weighted test until SetWeights
	l.lim.Store(math.Float64bits(lim * (1 / travQ)))
	c.lease = l
	return true
}
