package contact

import (
	"grainlab/sim/internal/fma"
	"math"
	"math/rand"
	"reflect"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
)

// Detect skips a listed feature pair whose distance at the build is at
// least ḡ plus the relative motion that Stale proved since the build
// (skipBound). Along random trajectories of two tetrapods (and a cube
// against a tetrapod) that close in, touch and press slightly into each
// other while both move and turn, with a persistent cache rebuilt only when
// Stale, Detect returns exactly — every field, in the same order — what it
// returns when it solves every listed pair, including the flips of
// penetrating vertex–face contacts (prev is the previous step's result).
// The test counts the skipped pairs, so that it exercises the skip on all
// three bounds (the build's, staleTrack's and the full test's).
func TestDetectSkipMatchesFullLists(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	shapes := [][2]*shape.Polyhedron{{tet, tet}, {shape.Box(0.3, 0.3, 0.3), tet}}
	rng := rand.New(rand.NewSource(17))
	const gbar = 0.005
	rv := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	var listed, skipped, contacts, flips, steps int
	var byBound [3]int // skipped pairs under the build's, staleTrack's and the full test's bound
	for _, sh := range shapes {
		for traj := 0; traj < 30; traj++ {
			qa, qb := rq(), rq()
			dir := rv(1).Unit()
			var a, b Posed
			var cache Cache
			var s Scratch
			xa := rv(0.3)
			a.Update(sh[0], xa, qa, false)
			dist := sh[0].Radius + sh[1].Radius
			for ; dist > 0; dist -= 0.002 {
				b.Update(sh[1], xa.Add(dir.Scale(dist)), qb, false)
				if closest(&a, &b) < 2*gbar {
					break
				}
			}
			if dist <= 0 {
				continue
			}
			xb := xa.Add(dir.Scale(dist))
			// B drifts towards A; both jitter and turn.
			vb := dir.Scale(-gbar / 60).Add(rv(1e-4))
			va := rv(1e-4)
			wa, wb := rv(1e-3), rv(2e-3)
			var prev, cur, full []Contact
			for step := 0; step < 240; step++ {
				xa, xb = xa.Add(va), xb.Add(vb)
				qa, qb = qa.Integrate(wa, 1), qb.Integrate(wb, 1)
				a.Update(sh[0], xa, qa, false)
				b.Update(sh[1], xb, qb, false)
				if closest(&a, &b) < -0.6*gbar {
					break // deeper than detection promises to follow
				}
				bound := 1 // staleTrack's unless it is the build's or the full test's
				if cache.Stale(&a, &b, gbar) {
					cache.Build(&a, &b, gbar, 2*gbar, &s)
					bound = 0
				} else if !cache.trk.on {
					bound = 2
				}
				cur = Detect(&a, &b, gbar, &cache, prev, cur[:0])
				noSkip := cache
				noSkip.skip.a = nil // limit is +Inf: every listed pair is solved
				full = Detect(&a, &b, gbar, &noSkip, prev, full[:0])
				if !reflect.DeepEqual(cur, full) {
					t.Fatalf("%s–%s trajectory %d step %d: with the skip %d contacts %+v, without %d %+v",
						sh[0].Name, sh[1].Name, traj, step, len(cur), cur, len(full), full)
				}
				if def := detectDef(&a, &b, gbar, &cache, prev); !sameContacts(cur, def) {
					t.Fatalf("%s–%s trajectory %d step %d: Detect %d contacts %+v, its definition %d %+v",
						sh[0].Name, sh[1].Name, traj, step, len(cur), cur, len(def), def)
				}
				lim := cache.limit(&a, &b, gbar)
				for _, d := range [][]float64{cache.dvf, cache.dfv, cache.dee, cache.dve, cache.dev, cache.dvv} {
					for _, x := range d {
						listed++
						if x >= lim {
							skipped++
							byBound[bound]++
						}
					}
				}
				for _, c := range cur {
					if c.Flip {
						flips++
					}
				}
				contacts += len(cur)
				steps++
				prev = append(prev[:0], cur...)
			}
		}
	}
	t.Logf("%d steps, %d contacts (%d flips), %d of %d listed pairs skipped (build %d, tracked %d, full test %d)",
		steps, contacts, flips, skipped, listed, byBound[0], byBound[1], byBound[2])
	if contacts < 2000 || flips == 0 {
		t.Fatalf("%d contacts, %d flips: the trajectories do not exercise detection", contacts, flips)
	}
	if skipped*5 < listed || byBound[0] == 0 || byBound[1] == 0 || byBound[2] == 0 {
		t.Fatalf("%d of %d listed pairs skipped (by bound %v): the test does not exercise the skip", skipped, listed, byBound)
	}
}

// Detect skips nothing at placements for which no bound was proved: after
// a placement that Stale did not see, or for other Posed values.
func TestDetectSkipNeedsProvedPlacement(t *testing.T) {
	pa, pb, gbar := tetrapodPairInContact(t)
	var c Cache
	var s Scratch
	c.Build(pa, pb, gbar, 2*gbar, &s)
	if l := c.limit(pa, pb, gbar); !(l > gbar && l < 1.01*gbar) {
		t.Fatalf("limit at the build's placements %g, want just above ḡ = %g", l, gbar)
	}
	pb.Update(pb.Poly, pb.X.Add(geom.V(gbar, 0, 0)), pb.Q, false) // not seen by Stale
	if l := c.limit(pa, pb, gbar); !math.IsInf(l, 1) {
		t.Fatalf("limit %g after an unseen placement, want +Inf", l)
	}
	if c.Stale(pa, pb, gbar) {
		t.Fatal("a move of ḡ made the cache stale (margin 2ḡ)")
	}
	if l := c.limit(pa, pb, gbar); !(l > 2*gbar && l < 3.1*gbar) {
		t.Fatalf("limit %g after Stale, want ḡ + motion ≈ 2ḡ = %g", l, 2*gbar)
	}
	qa, qb := *pa, *pb // the same poses in other Posed values
	if l := c.limit(&qa, &qb, gbar); !math.IsInf(l, 1) {
		t.Fatalf("limit %g for other Posed values, want +Inf", l)
	}
	st, _ := c.State()
	var r Cache
	r.SetState(st)
	if l := r.limit(pa, pb, gbar); !math.IsInf(l, 1) {
		t.Fatalf("limit %g of a restored cache, want +Inf", l)
	}
}

// triBound never exceeds the distance from a point to a triangle, and
// equals it where the point projects inside the triangle.
func TestTriBoundBelowDistance(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	rv := func() geom.Vec3 { return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()) }
	inside, tight := 0, 0
	for i := 0; i < 20000; i++ {
		f1, f2, f3, x := rv(), rv(), rv(), rv().Scale(2)
		n := f2.Sub(f1).Cross(f3.Sub(f1))
		if n.Norm() < 1e-3 {
			continue
		}
		n = n.Unit()
		if i%2 == 0 {
			n = n.Neg() // either orientation
		}
		d := x.Sub(f1).Dot(n)
		var tb triBound
		tb.set(f1, f2, f3, n)
		lb := tb.distLB(x, d)
		// The exact distance: to the plane when the projection is inside,
		// else to the nearest edge.
		exact := math.Sqrt(min(pointSegDist2(x, f1, f2), pointSegDist2(x, f2, f3), pointSegDist2(x, f3, f1)))
		if _, _, _, ok := VertexFace(x, f1, f2, f3); ok {
			exact = math.Abs(d)
			inside++
			if math.Abs(lb-exact) > 1e-12 {
				t.Fatalf("projection inside: bound %g, distance %g", lb, exact)
			}
		}
		if lb > exact*(1+1e-12)+1e-15 {
			t.Fatalf("bound %g above the distance %g", lb, exact)
		}
		if lb > 0.999*exact {
			tight++
		}
	}
	t.Logf("%d inside, %d of 20000 within 0.1%%", inside, tight)
	if inside < 1000 || tight < 5000 {
		t.Fatalf("%d inside, %d tight: too few cases", inside, tight)
	}
}

// edgeEdges, EdgeEdge written out with early rejections, gives the same
// contacts, bit for bit, as EdgeEdge followed by the gap test: on every
// edge pair of two tetrapods at random poses, some with the same
// orientation (parallel edges), with skins that accept from none to all.
func TestEdgeEdgeEarlyExitSameBits(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(29))
	var a, b Posed
	var got []Contact
	found, parallel := 0, 0
	for trial := 0; trial < 40; trial++ {
		qa := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		qb := qa
		if trial%4 != 0 {
			qb = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		}
		a.Update(tet, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.1), qa, false)
		b.Update(tet, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.5), qb, false)
		gbar := []float64{0.01, 0.1, 0.5, 2}[trial%4]
		for i := range tet.Edges {
			for j := range tet.Edges {
				e, f := &tet.Edges[i], &tet.Edges[j]
				_, _, pa, pb, ok := EdgeEdge(a.V[e.V[0]], a.V[e.V[1]], b.V[f.V[0]], b.V[f.V[1]])
				var want []Contact
				if ok && pa.Sub(pb).Norm2() < gbar*gbar {
					want = mk(nil, Key{Kind: snap.EE, FA: int32(i), FB: int32(j)}, pa, pb, false, false)
					found++
				}
				if za, zb, _, _, _ := EdgeEdge(a.V[e.V[0]], a.V[e.V[1]], b.V[f.V[0]], b.V[f.V[1]]); za == 0 && zb == 0 && !ok {
					parallel++
				}
				got = edgeEdges(&a, &b, [][2]int32{{int32(i), int32(j)}}, []float64{0}, math.Inf(1), gbar, got[:0])
				// Bit for bit; 1e-12 of lengths of order 1 where products may fuse.
				if len(got) != len(want) || (len(got) == 1 && !fma.Equal(got[0], want[0], 1e-12, 1)) {
					t.Fatalf("trial %d edges %d, %d: edgeEdges %+v, EdgeEdge %+v", trial, i, j, got, want)
				}
			}
		}
	}
	t.Logf("%d contacts, %d parallel pairs", found, parallel)
	if found < 1000 || parallel < 100 {
		t.Fatalf("%d contacts, %d parallel pairs: too few cases", found, parallel)
	}
}

// A cache restored from its state (SetState, as a restarted run or a
// restored history gets it) skips as a built one does once Stale has
// proved a motion bound at some placement: its distances are then those
// of that placement less the bound (fill). Along the trajectories of
// TestDetectSkipMatchesFullLists, the cache is saved and restored every
// 5 steps; Detect with the skip equals Detect without it throughout.
func TestDetectSkipAfterRestore(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(31))
	const gbar = 0.005
	rv := func(s float64) geom.Vec3 {
		return geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(s)
	}
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	var restores, skippedAfter, contacts int
	for traj := 0; traj < 30; traj++ {
		qa, qb := rq(), rq()
		dir := rv(1).Unit()
		var a, b Posed
		var cache Cache
		var s Scratch
		xa := rv(0.3)
		a.Update(tet, xa, qa, false)
		dist := 2 * tet.Radius
		for ; dist > 0; dist -= 0.002 {
			b.Update(tet, xa.Add(dir.Scale(dist)), qb, false)
			if closest(&a, &b) < 2*gbar {
				break
			}
		}
		if dist <= 0 {
			continue
		}
		xb := xa.Add(dir.Scale(dist))
		vb := dir.Scale(-gbar / 60).Add(rv(1e-4))
		va, wa, wb := rv(1e-4), rv(1e-3), rv(4e-3)
		var prev, cur, full []Contact
		restored := false
		for step := 0; step < 240; step++ {
			if step%20 == 10 {
				wb = wb.Neg() // turn back: the motion since a restore can exceed the bound since the build
			}
			xa, xb = xa.Add(va), xb.Add(vb)
			qa, qb = qa.Integrate(wa, 1), qb.Integrate(wb, 1)
			a.Update(tet, xa, qa, false)
			b.Update(tet, xb, qb, false)
			if closest(&a, &b) < -0.6*gbar {
				break
			}
			if step%5 == 2 {
				if st, ok := cache.State(); ok {
					cache = Cache{}
					cache.SetState(st)
					restores++
					restored = true
				}
			}
			if cache.Stale(&a, &b, gbar) {
				cache.Build(&a, &b, gbar, 2*gbar, &s)
				restored = false
			}
			cur = Detect(&a, &b, gbar, &cache, prev, cur[:0])
			noSkip := cache
			noSkip.skip.a = nil
			full = Detect(&a, &b, gbar, &noSkip, prev, full[:0])
			if !reflect.DeepEqual(cur, full) {
				t.Fatalf("trajectory %d step %d: with the skip %d contacts, without %d", traj, step, len(cur), len(full))
			}
			if restored {
				lim := cache.limit(&a, &b, gbar)
				for _, d := range [][]float64{cache.dvf, cache.dfv, cache.dee, cache.dve, cache.dev, cache.dvv} {
					for _, x := range d {
						if x >= lim {
							skippedAfter++
						}
					}
				}
			}
			contacts += len(cur)
			prev = append(prev[:0], cur...)
		}
	}
	t.Logf("%d restores, %d contacts, %d pairs skipped by restored caches", restores, contacts, skippedAfter)
	if restores < 50 || contacts < 1000 || skippedAfter == 0 {
		t.Fatalf("%d restores, %d contacts, %d skipped: the test does not exercise restored caches", restores, contacts, skippedAfter)
	}
}

// A restored cache's distances must be lowered by the motion bound of the
// placement they were taken at: a pair can come back to where it was at
// the build. Build with a pair in contact, move B away by 1.5ḡ (the cache
// stays valid, margin 2ḡ), restore the cache there and let it fill, then
// put B back (two placements, so Stale runs its full test: bound ≈ 0).
// Detect must find the contacts of the build again, bit for bit.
func TestDetectSkipAfterRestoreTurnBack(t *testing.T) {
	pa, pb, gbar := tetrapodPairInContact(t)
	var c Cache
	var s Scratch
	c.Build(pa, pb, gbar, 2*gbar, &s)
	want := Detect(pa, pb, gbar, &c, nil, nil)
	if len(want) == 0 {
		t.Fatal("no contact")
	}
	poly, x0, q0 := pb.Poly, pb.X, pb.Q
	pb.Update(poly, x0.AddScaled(-1.5*gbar, want[0].N), q0, false) // N points from B to A
	if c.Stale(pa, pb, gbar) {
		t.Fatal("stale after a move of 1.5ḡ")
	}
	st, _ := c.State()
	var r Cache
	r.SetState(st)
	if r.Stale(pa, pb, gbar) {
		t.Fatal("restored cache stale")
	}
	Detect(pa, pb, gbar, &r, nil, nil) // fills the distances here
	pb.Update(poly, x0, q0, false)
	pb.Update(poly, x0, q0, false) // a placement Stale does not see: its full test runs
	if r.Stale(pa, pb, gbar) {
		t.Fatal("stale back at the build's pose")
	}
	if got := Detect(pa, pb, gbar, &r, nil, nil); !reflect.DeepEqual(got, want) {
		t.Fatalf("back at the build's pose: %d contacts, want %d", len(got), len(want))
	}
}
