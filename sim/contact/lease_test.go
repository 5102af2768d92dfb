package contact

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// A lease that holds proves the full staleness test's answer false (S0
// §2.5: B's displacement in A's frame |Δt| + θ·R below the margin, or A's
// in B's): steady walks of two tetrapods whose lists are empty (their
// centres 2R + 5 cm to 2R + 2 m apart), each step a shift of about 0.2 mm
// and a turn of up to 0.5 mrad (A's turn sweeps B's centre by up to 1.3 mm),
// some steps placing one body twice; Stale only runs when the lease fails
// (as in the world's pass) and a lease is granted after every Stale that
// answered false with its tracked bound. At every placement where the lease
// holds, the full test written with geom's Quat methods must find the cache
// not stale; so must it wherever the lease's weighted test (SetWeights,
// Fast: weights fixed per walk, A's above its coefficient ka while the
// centres stay within 1.2 times their first distance) holds. Dropping the
// lever D̄ of A's turn, the ΔX term or dB₀ from
// the limit makes it fail, and so do weights below the coefficients; the
// test also checks that leases decide most placements and hold
// to within a fifth of the margin of the full test's bound, and that the
// weighted test decides most of the placements that leases decide.
func TestLeaseMatchesFullTest(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(11))
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	rv := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	const gbar, margin = 0.005, 0.01
	var s Scratch
	held, steps, stale, close, fast, swapped, swapClose := 0, 0, 0, 0, 0, 0, 0
	for walk := 0; walk < 200; walk++ {
		var a, b Posed
		var c Cache
		var l Lease
		a.Update(tet, rv(1), rq(), false)
		b.Update(tet, a.X.Add(rv(1).Unit().Scale(2*tet.Radius+0.05+2*rng.Float64())), rq(), false)
		c.Build(&a, &b, gbar, margin, &s)
		if !c.Empty() {
			t.Fatalf("walk %d: the bodies are listed", walk)
		}
		// The weights of the weighted test (as the world's pass sets
		// them, from bounds of the pair's distance and radii): heavy for
		// the body whose turn moves the other's centre, light for the one
		// whose turn counts by its own size.
		heavy := (1.2*a.X.Sub(b.X).Norm() + margin + 1.01*tet.Radius) * (1 + 1e-6)
		light := 1.01 * tet.Radius * (1 + 1e-9)
		va, vb, wa, wb := rv(0.0001), rv(0.0001), rv(1).Unit(), rv(1).Unit()
		ra, rb := 0.0005*rng.Float64(), 0.0005*rng.Float64()
		switch walk % 3 {
		case 1: // turning together: only A's frame turns B's centre
			vb, wb, rb = va, wa, ra
		case 2: // A turns fast, B slowly, and the other way round: A's displacement in B's frame decides (swapped leases)
			ra, rb = 0.001+0.001*rng.Float64(), 0.0002+0.0004*rng.Float64()
		}
		for step := 0; step < 300; step++ {
			if walk%3 == 2 && step%60 == 40 { // then B turns fast for a while, the swapped leases' lever
				ra, rb = rb, ra
			}
			a.Update(tet, a.X.Add(va), a.Q.Integrate(wa, ra), false)
			if step%7 == 3 { // a placement of A alone, then another
				a.Update(tet, a.X.Add(va), a.Q.Integrate(wa, ra), false)
			}
			b.Update(tet, b.X.Add(vb), b.Q.Integrate(wb, rb), false)
			th := angleBound(c.refQ, a.Q.Conj().Mul(b.Q))
			dB := a.Q.InvRotate(b.X.Sub(a.X)).Sub(c.refT).Norm() + th*b.Poly.Radius
			dA := b.Q.InvRotate(a.X.Sub(b.X)).Sub(c.refS).Norm() + th*a.Poly.Radius
			want := dB > c.margin && dA > c.margin
			steps++
			ka, kb := heavy, light
			if l.Swapped() {
				ka, kb = light, heavy
			}
			if l.Fast(a.Travel().Weigh(ka) + b.Travel().Weigh(kb)) {
				if want {
					t.Fatalf("walk %d step %d: the weighted test holds, the full test says stale (dA %g dB %g margin %g)", walk, step, dA, dB, c.margin)
				}
				fast++
			}
			if l.Holds(a.Travel(), b.Travel()) {
				if want {
					t.Fatalf("walk %d step %d: the lease holds, the full test says stale (dA %g dB %g margin %g)", walk, step, dA, dB, c.margin)
				}
				held++
				if dB > 0.8*c.margin {
					close++
				}
				if l.Swapped() {
					swapped++
					if dA > 0.8*c.margin {
						swapClose++
					}
				}
				continue
			}
			got := c.Stale(&a, &b, gbar)
			if got != want {
				t.Fatalf("walk %d step %d: Stale = %v, the full test says %v", walk, step, got, want)
			}
			if got {
				stale++
				c.Build(&a, &b, gbar, margin, &s)
				if l.Holds(a.Travel(), b.Travel()) {
					t.Fatalf("walk %d step %d: a lease holds after a rebuild", walk, step)
				}
				continue
			}
			if c.Grant(&a, &b, &l) {
				ka, kb := heavy, light
				if l.Swapped() {
					ka, kb = light, heavy
				}
				l.SetWeights(ka, kb)
			}
		}
	}
	t.Logf("%d of %d placements decided by a lease (%d with dB above 0.8 margin, %d by the weighted test, %d by swapped leases, %d of them with dA above 0.8 margin), %d stale", held, steps, close, fast, swapped, swapClose, stale)
	if held < steps/2 || close < 100 || stale < 200 || fast < held/2 || swapped < 1000 || swapClose < 100 {
		t.Fatalf("%d of %d placements decided by a lease, %d with dB above 0.8 margin, %d stale: the test does not probe the bound", held, steps, close, stale)
	}
}

// A lease never holds once its cache changed (for any travel, also below
// the counts of its grant), nor when granted on a listed cache, nor as a
// zero value, and an unknown motion (a new shape) ends it; its weighted
// test needs weights at least its coefficients and ends with it.
func TestLeaseRevoked(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	const gbar, margin = 0.005, 0.01
	var s Scratch
	var a, b Posed
	var c Cache
	var l Lease
	if l.Holds(a.Travel(), b.Travel()) {
		t.Fatal("the zero lease holds")
	}
	a.Update(tet, geom.Vec3{}, geom.Quat{W: 1}, false)
	b.Update(tet, geom.V(2*tet.Radius+0.1, 0, 0), geom.Quat{W: 1}, false)
	grant := func() {
		t.Helper()
		c.Build(&a, &b, gbar, margin, &s)
		if c.Stale(&a, &b, gbar) || !c.Grant(&a, &b, &l) || !l.Holds(a.Travel(), b.Travel()) {
			t.Fatal("no lease on an empty, fresh cache")
		}
	}
	grant()
	c.Build(&a, &b, gbar, margin, &s)
	if l.Holds(a.Travel(), b.Travel()) {
		t.Fatal("the lease holds after Build")
	}
	// A revoked lease fails for any travel, also below the counts at its
	// grant (a slot reused for another pair's bodies: β < 0).
	if l.Holds(Travel{}, Travel{}) {
		t.Fatal("a revoked lease holds for bodies that travelled less than its own")
	}
	grant()
	c.Invalidate()
	if l.Holds(a.Travel(), b.Travel()) {
		t.Fatal("the lease holds after Invalidate")
	}
	grant()
	st, _ := c.State()
	c.SetState(st)
	if l.Holds(a.Travel(), b.Travel()) {
		t.Fatal("the lease holds after SetState")
	}
	grant()
	var l2 Lease
	c.Stale(&a, &b, gbar)
	c.Grant(&a, &b, &l2)
	if l.Holds(a.Travel(), b.Travel()) || !l2.Holds(a.Travel(), b.Travel()) {
		t.Fatal("a second grant left the first lease holding")
	}
	// The weighted test: none with a weight below the lease's coefficient,
	// and none once revoked.
	grant()
	s0 := a.Travel().Weigh(l.ka) + b.Travel().Weigh(l.kb)
	l.SetWeights(l.ka*(1-1e-9), l.kb)
	if l.Fast(s0) {
		t.Fatal("a weighted test with A's weight below ka")
	}
	l.SetWeights(l.ka, l.kb*(1-1e-9))
	if l.Fast(s0) {
		t.Fatal("a weighted test with B's weight below kb")
	}
	l.SetWeights(l.ka, l.kb)
	if !l.Fast(s0) {
		t.Fatal("no weighted test at the grant")
	}
	c.Invalidate()
	if l.Fast(s0) || l.Fast(0) {
		t.Fatal("the weighted test holds after Invalidate")
	}
	grant()
	box := shape.Box(0.1, 0.1, 0.1)
	b.Update(box, b.X, b.Q, false) // a new shape: unknown motion
	if l.Holds(a.Travel(), b.Travel()) {
		t.Fatal("the lease holds after a new shape")
	}
	// A listed cache gets no lease.
	b.Update(tet, geom.V(0.5*tet.Radius, 0, 0), geom.Quat{W: 1}, false)
	c.Build(&a, &b, gbar, margin, &s)
	if c.Empty() {
		t.Fatal("overlapping tetrapods list nothing")
	}
	c.Stale(&a, &b, gbar)
	if c.Grant(&a, &b, &l) || l.Holds(a.Travel(), b.Travel()) {
		t.Fatal("a lease on a listed cache")
	}
	if q := quanta(math.Inf(1)); q != travBig {
		t.Fatalf("quanta(+Inf) = %g", q)
	}
	if q := quanta(math.NaN()); q != travBig {
		t.Fatalf("quanta(NaN) = %g", q)
	}
}
