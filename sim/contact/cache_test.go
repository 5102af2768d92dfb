package contact

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// The second-level cache (S0 §2.5) never misses a contact: along random
// trajectories of two tetrapods (and a cube against a tetrapod) that hover
// within the skin of each other, Detect with a persistent cache (rebuilt only
// when Stale) returns exactly the contacts of Detect with a cache rebuilt
// from scratch at every step.
func TestCacheMatchesFreshSearch(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	shapes := [][2]*shape.Polyhedron{{tet, tet}, {shape.Box(0.3, 0.3, 0.3), tet}}
	rng := rand.New(rand.NewSource(7))
	const gbar = 0.005
	compared, withContacts, rebuilds := 0, 0, 0
	for _, sh := range shapes {
		for traj := 0; traj < 20; traj++ {
			// Start B somewhere near A and find a pose where they are close
			// but not overlapping: move B along a random direction until the
			// closest contact distance is small.
			qa := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			qb := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
			var a, b Posed
			var cache Cache
			var s Scratch
			a.Update(sh[0], geom.Vec3{}, qa, false)
			dist := sh[0].Radius + sh[1].Radius
			for ; dist > 0; dist -= 0.002 {
				b.Update(sh[1], dir.Scale(dist), qb, false)
				if closest(&a, &b) < 0.6*gbar {
					break
				}
			}
			if dist <= 0 {
				continue
			}
			xb := dir.Scale(dist)
			v := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(2e-4)
			w := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(2e-3)
			var cur []Contact
			for step := 0; step < 200; step++ {
				xb = xb.Add(v)
				qb = qb.Integrate(w, 1)
				b.Update(sh[1], xb, qb, false)
				if closest(&a, &b) <= 0 {
					break // interpenetrating: outside what detection promises
				}
				if cache.Stale(&a, &b, gbar) {
					cache.Build(&a, &b, gbar, 2*gbar, &s)
					rebuilds++
				}
				cur = Detect(&a, &b, gbar, &cache, nil, cur[:0])
				var fresh Cache
				fresh.Build(&a, &b, gbar, 0, &s)
				want := Detect(&a, &b, gbar, &fresh, nil, nil)
				if !sameSet(cur, want) {
					t.Fatalf("step %d: cached search found %d contacts, fresh search %d", step, len(cur), len(want))
				}
				compared++
				if len(want) > 0 {
					withContacts++
				}
			}
		}
	}
	t.Logf("%d steps compared (%d with contacts), %d cache rebuilds", compared, withContacts, rebuilds)
	if withContacts < 200 {
		t.Fatalf("only %d steps had contacts: the test is not exercising detection", withContacts)
	}
	if rebuilds*5 > compared {
		t.Errorf("%d rebuilds in %d steps: the cache is rebuilt too often to help", rebuilds, compared)
	}
}

// closest returns the smallest vertex–face gap between a and b (a cheap
// proximity measure for setting up the trajectories; negative when a vertex
// is behind a face it projects onto).
func closest(a, b *Posed) float64 {
	d := math.Inf(1)
	for _, pair := range [][2]*Posed{{a, b}, {b, a}} {
		p, q := pair[0], pair[1]
		for fi, f := range q.Poly.Faces {
			f1, f2, f3 := q.V[f.V[0]], q.V[f.V[1]], q.V[f.V[2]]
			for _, x := range p.V {
				if _, _, _, ok := VertexFace(x, f1, f2, f3); ok {
					if g := x.Sub(f1).Dot(q.FaceNormal(int32(fi))); math.Abs(g) < math.Abs(d) {
						d = g
					}
				}
			}
		}
	}
	return d
}

func sameSet(a, b []Contact) bool {
	if len(a) != len(b) {
		return false
	}
	for _, c := range a {
		found := false
		for _, d := range b {
			if c.Key == d.Key && c.Rule == d.Rule && math.Abs(c.Gn-d.Gn) < 1e-15 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// The segment distances used to build the lists agree with dense sampling.
func TestSegmentDistances(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	rv := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	for i := 0; i < 2000; i++ {
		p1, p2, q1, q2, x := rv(), rv(), rv(), rv(), rv()
		if i%10 == 0 {
			p2 = p1.Add(q2.Sub(q1)) // parallel segments
		}
		best, bestP := math.Inf(1), math.Inf(1)
		const n = 400
		for a := 0; a <= n; a++ {
			pa := geom.Lerp(p1, p2, float64(a)/n)
			bestP = math.Min(bestP, x.Sub(geom.Lerp(q1, q2, float64(a)/n)).Norm2())
			for b := 0; b <= n; b += 4 {
				best = math.Min(best, pa.Sub(geom.Lerp(q1, q2, float64(b)/n)).Norm2())
			}
		}
		if d := segSegDist2(p1, p2, q1, q2); d > best+1e-12 || math.Sqrt(best)-math.Sqrt(d) > 0.02 {
			t.Fatalf("segment distance %g, sampled %g", math.Sqrt(d), math.Sqrt(best))
		}
		if d := pointSegDist2(x, q1, q2); d > bestP+1e-12 || math.Sqrt(bestP)-math.Sqrt(d) > 0.01 {
			t.Fatalf("point–segment distance %g, sampled %g", math.Sqrt(d), math.Sqrt(bestP))
		}
	}
}

// angleBound never underestimates the rotation angle, and is tight for small angles.
func TestAngleBound(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 100000; i++ {
		p := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		ang := math.Pi * rng.Float64()
		if i%2 == 0 {
			ang *= 1e-3
		}
		q := geom.QAxisAngle(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), ang).Mul(p)
		th := p.AngleTo(q)
		b := angleBound(p, q)
		if b < th*(1-1e-7) { // both sides round at ~1e-8 relative for tiny angles
			t.Fatalf("bound %g below the angle %g", b, th)
		}
		if th < 0.1 && b > th*1.01 {
			t.Fatalf("bound %g not tight for a small angle %g", b, th)
		}
	}
}

// Stale writes its quaternion products out by hand; it must decide exactly
// as the bound |Δt| + θ·R written with geom's Quat methods, here on random
// moves of a tetrapod around the margin (half of them stale).
func TestStaleMatchesQuatForm(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	const gbar, margin = 0.005, 0.01
	stale := 0
	for trial := 0; trial < 2000; trial++ {
		var a, b Posed
		var c Cache
		var s Scratch
		a.Update(tet, geom.V(rng.Float64(), rng.Float64(), rng.Float64()), rq(), false)
		b.Update(tet, a.X.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.3)), rq(), false)
		c.Build(&a, &b, gbar, margin, &s)
		// Move both a little: a small rotation and a shift of the order of the margin.
		turn := func(q geom.Quat) geom.Quat {
			return q.Integrate(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), 0.01*rng.Float64())
		}
		a.Update(tet, a.X.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.002)), turn(a.Q), false)
		b.Update(tet, b.X.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.002)), turn(b.Q), false)
		th := angleBound(c.refQ, a.Q.Conj().Mul(b.Q))
		dB := a.Q.InvRotate(b.X.Sub(a.X)).Sub(c.refT).Norm() + th*b.Poly.Radius
		dA := b.Q.InvRotate(a.X.Sub(b.X)).Sub(c.refS).Norm() + th*a.Poly.Radius
		want := dB > c.margin && dA > c.margin
		if got := c.Stale(&a, &b, gbar); got != want {
			t.Fatalf("trial %d: Stale = %v, the Quat form says %v (dA %g dB %g margin %g)", trial, got, want, dA, dB, c.margin)
		}
		if want {
			stale++
		}
	}
	if stale < 200 || stale > 1800 {
		t.Fatalf("%d of 2000 moves stale: the test does not probe both sides", stale)
	}
	t.Logf("%d of 2000 moves stale", stale)
}

// Stale decides many placements from the bound it carries between
// consecutive placements (staleTrack); every answer must be the full
// test's. Steady motions of two tetrapods, each step a shift of about
// 0.5 mm and a turn of up to 2 mrad about a fixed axis (so A's turn sweeps
// B's centre, 0.5 to 4 m away, by up to 8 mm; half of the walks turn both
// bodies together), rebuilt when stale, against
// the bound |Δt| + θ·R written with geom's Quat methods. Dropping either
// term of the carried bound's growth makes it fail.
func TestStaleTrackMatchesFullTest(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(7))
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	rv := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	const gbar, margin = 0.005, 0.01
	var s Scratch
	tracked, stale, steps := 0, 0, 0
	for walk := 0; walk < 100; walk++ {
		var a, b Posed
		var c Cache
		a.Update(tet, rv(1), rq(), false)
		b.Update(tet, a.X.Add(rv(0.3)), rq(), false)
		c.Build(&a, &b, gbar, margin, &s)
		// Steady motions (the bound is then nearly tight): a shift and a turn per step.
		va, vb, wa, wb := rv(0.0003), rv(0.0003), rv(1).Unit(), rv(1).Unit()
		ra, rb := 0.002*rng.Float64(), 0.002*rng.Float64()
		if walk%2 == 1 { // turning together, B farther: only A's frame turns B's centre
			b.Update(tet, a.X.Add(rv(1).Unit().Scale(4)), b.Q, false)
			c.Build(&a, &b, gbar, margin, &s)
			vb, wb, rb = va, wa, ra
		}
		for step := 0; step < 200; step++ {
			a.Update(tet, a.X.Add(va), a.Q.Integrate(wa, ra), false)
			b.Update(tet, b.X.Add(vb), b.Q.Integrate(wb, rb), false)
			th := angleBound(c.refQ, a.Q.Conj().Mul(b.Q))
			dB := a.Q.InvRotate(b.X.Sub(a.X)).Sub(c.refT).Norm() + th*b.Poly.Radius
			dA := b.Q.InvRotate(a.X.Sub(b.X)).Sub(c.refS).Norm() + th*a.Poly.Radius
			want := dB > c.margin && dA > c.margin
			before := c.trk
			got := c.Stale(&a, &b, gbar)
			if got != want {
				t.Fatalf("walk %d step %d: Stale = %v, the full test says %v (dA %g dB %g margin %g)", walk, step, got, want, dA, dB, c.margin)
			}
			steps++
			if before.on && before.genA+1 == a.gen && c.trk.genA == a.gen && c.trk.dB != dB && !got {
				tracked++ // decided by the carried bound (a full test restarts it at dB)
			}
			if got {
				stale++
				c.Build(&a, &b, gbar, margin, &s)
			}
		}
	}
	if tracked < steps/4 || stale < 200 {
		t.Fatalf("%d of %d placements decided by the carried bound, %d stale: the test does not probe both paths", tracked, steps, stale)
	}
	t.Logf("%d of %d placements decided by the carried bound, %d stale", tracked, steps, stale)
}
