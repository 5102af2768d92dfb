package contact

import (
	"fmt"
	"grainlab/sim/internal/fma"
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// refLists is the definition of a rebuild's feature lists (S0 §2.5), written
// with the AABB methods and no near sets: within g = ḡ + margin, region the
// overlap of the two bodies' boxes grown by g,
//   - vf: vertex of A in region, face of B whose box meets region, the vertex
//     in the face's box grown by g and within g of its plane (fv the same
//     with A and B exchanged), faces outer, vertices inner;
//   - ee: non-flat edges of A and of B whose boxes meet region and whose
//     boxes grown by g overlap, segment distance below g;
//   - ve: vertex of A in region, non-flat edge of B whose box meets region,
//     the vertex in the edge's box grown by g, closer than g (ev exchanged);
//   - vv: vertices of both in region, closer than g;
//
// all empty when apartAlongCentres proves the bodies apart by more than g,
// each list in the order of its loops, with the distance lower bounds of
// Cache.dists. Build must give these lists, in this order, bit for bit.
func refLists(a, b *Posed, gbar, margin float64) (lists [6][][2]int32, dists [6][]float64) {
	g := gbar + margin
	boxA, boxB := a.Box.Inflate(g), b.Box.Inflate(g)
	if !boxA.Overlaps(boxB) {
		return
	}
	if apartAlongCentres(a, b, g) {
		return // the hulls are apart by more than g: nothing within g (TestApartAlongCentresSound)
	}
	region := AABB{boxA.Min.Max(boxB.Min), boxA.Max.Min(boxB.Max)}
	in := func(p *Posed) (vs, es, fs []int32) {
		for i, v := range p.V {
			if region.Contains(v) {
				vs = append(vs, int32(i))
			}
		}
		for i, e := range p.Poly.Edges {
			if e.Kind != shape.Flat && segBox(p.V[e.V[0]], p.V[e.V[1]]).Overlaps(region) {
				es = append(es, int32(i))
			}
		}
		for i, f := range p.Poly.Faces {
			if triBox(p.V[f.V[0]], p.V[f.V[1]], p.V[f.V[2]]).Overlaps(region) {
				fs = append(fs, int32(i))
			}
		}
		return
	}
	va, ea, fa := in(a)
	vb, eb, fb := in(b)
	vf := func(p, q *Posed, vs, fs []int32, swap bool) (out [][2]int32, d []float64) {
		for _, fi := range fs {
			f := &q.Poly.Faces[fi]
			box := triBox(q.V[f.V[0]], q.V[f.V[1]], q.V[f.V[2]]).Inflate(g)
			for _, vi := range vs {
				x := p.V[vi]
				if pd := x.Sub(q.V[f.V[0]]).Dot(q.FaceNormal(fi)); box.Contains(x) && pd < g && pd > -g {
					if swap {
						out = append(out, [2]int32{fi, vi})
					} else {
						out = append(out, [2]int32{vi, fi})
					}
					d = append(d, vfDistLB(p, q, vi, fi))
				}
			}
		}
		return
	}
	ve := func(p, q *Posed, vs, es []int32, swap bool) (out [][2]int32, d []float64) {
		for _, ei := range es {
			e := &q.Poly.Edges[ei]
			box := segBox(q.V[e.V[0]], q.V[e.V[1]]).Inflate(g)
			for _, vi := range vs {
				x := p.V[vi]
				if d2 := pointSegDist2(x, q.V[e.V[0]], q.V[e.V[1]]); box.Contains(x) && d2 < g*g {
					if swap {
						out = append(out, [2]int32{ei, vi})
					} else {
						out = append(out, [2]int32{vi, ei})
					}
					d = append(d, math.Sqrt(d2))
				}
			}
		}
		return
	}
	lists[0], dists[0] = vf(a, b, va, fb, false)
	lists[1], dists[1] = vf(b, a, vb, fa, true)
	for _, i := range ea {
		e := &a.Poly.Edges[i]
		box := segBox(a.V[e.V[0]], a.V[e.V[1]]).Inflate(g)
		for _, j := range eb {
			f := &b.Poly.Edges[j]
			if !box.Overlaps(segBox(b.V[f.V[0]], b.V[f.V[1]])) {
				continue
			}
			if d2 := segSegDist2(a.V[e.V[0]], a.V[e.V[1]], b.V[f.V[0]], b.V[f.V[1]]); d2 < g*g {
				lists[2] = append(lists[2], [2]int32{i, j})
				dists[2] = append(dists[2], math.Sqrt(d2))
			}
		}
	}
	lists[3], dists[3] = ve(a, b, va, eb, false)
	lists[4], dists[4] = ve(b, a, vb, ea, true)
	for _, i := range va {
		for _, j := range vb {
			if a.V[i].Sub(b.V[j]).Norm2() < g*g {
				lists[5] = append(lists[5], [2]int32{i, j})
				dists[5] = append(dists[5], a.V[i].Dist(b.V[j]))
			}
		}
	}
	return
}

// Build lists exactly refLists' feature pairs, in its order, with the same
// distance bounds, on random close poses of two tetrapods, a cube and a
// tetrapod, and two cubes (flat edges), from apart to interpenetrating.
func TestBuildMatchesDefinition(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	cube := shape.Box(0.3, 0.3, 0.3)
	rng := rand.New(rand.NewSource(5))
	const gbar = 0.005
	var s Scratch
	listed, builds := 0, 0
	for _, sh := range [][2]*shape.Polyhedron{{tet, tet}, {cube, tet}, {tet, cube}, {cube, cube}} {
		for trial := 0; trial < 400; trial++ {
			rq := func() geom.Quat {
				return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			}
			var a, b Posed
			a.Update(sh[0], geom.V(rng.Float64(), rng.Float64(), rng.Float64()), rq(), false)
			dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
			d := (sh[0].Radius + sh[1].Radius) * (0.3 + 0.8*rng.Float64())
			b.Update(sh[1], a.X.Add(dir.Scale(d)), rq(), false)
			margin := gbar * float64(rng.Intn(40))
			var c Cache
			c.Build(&a, &b, gbar, margin, &s)
			builds++
			lists := checkAgainstDefinition(t, &c, &a, &b, gbar, margin, fmt.Sprintf("%s/%s trial %d", sh[0].Name, sh[1].Name, trial))
			for k := range lists {
				listed += len(lists[k])
			}
			if n := len(lists[0]) + len(lists[1]) + len(lists[2]) + len(lists[3]) + len(lists[4]) + len(lists[5]); c.Empty() != (n == 0) {
				t.Fatalf("trial %d: Empty() = %v", trial, c.Empty())
			}
		}
	}
	if listed < 1000 {
		t.Fatalf("only %d feature pairs listed in %d builds: the test checks little", listed, builds)
	}
	t.Logf("%d builds, %d feature pairs listed", builds, listed)
}

// pointTriDist returns the distance from x to the triangle (p, q, r)
// (closest point by regions, Ericson, Real-Time Collision Detection §5.1.5).
func pointTriDist(x, p, q, r geom.Vec3) float64 {
	ab, ac, ap := q.Sub(p), r.Sub(p), x.Sub(p)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return x.Dist(p)
	}
	bp := x.Sub(q)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return x.Dist(q)
	}
	if vc := d1*d4 - d3*d2; vc <= 0 && d1 >= 0 && d3 <= 0 {
		return x.Dist(p.Add(ab.Scale(d1 / (d1 - d3))))
	}
	cp := x.Sub(r)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return x.Dist(r)
	}
	if vb := d5*d2 - d1*d6; vb <= 0 && d2 >= 0 && d6 <= 0 {
		return x.Dist(p.Add(ac.Scale(d2 / (d2 - d6))))
	}
	if va := d3*d6 - d5*d4; va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return x.Dist(q.Add(r.Sub(q).Scale((d4 - d3) / ((d4 - d3) + (d5 - d6)))))
	}
	vc, vb, va := d1*d4-d3*d2, d5*d2-d1*d6, d3*d6-d5*d4
	den := 1 / (va + vb + vc)
	return x.Dist(p.Add(ab.Scale(vb * den)).Add(ac.Scale(vc * den)))
}

// surfaceDist returns the least distance between the surfaces of a and b
// by brute force: every vertex against every face both ways and every
// edge against every edge (the least distance of two polyhedral surfaces
// is reached at one of these pairs).
func surfaceDist(a, b *Posed) float64 {
	d := math.Inf(1)
	vf := func(p, q *Posed) {
		for _, x := range p.V {
			for _, f := range q.Poly.Faces {
				d = min(d, pointTriDist(x, q.V[f.V[0]], q.V[f.V[1]], q.V[f.V[2]]))
			}
		}
	}
	vf(a, b)
	vf(b, a)
	for _, e := range a.Poly.Edges {
		for _, f := range b.Poly.Edges {
			d = min(d, math.Sqrt(segSegDist2(a.V[e.V[0]], a.V[e.V[1]], b.V[f.V[0]], b.V[f.V[1]])))
		}
	}
	return d
}

// TestApartAlongCentresSound checks Build's emptiness proof: wherever
// apartAlongCentres proves two bodies apart by more than g, their surfaces
// are farther apart than g (brute force over every feature pair), on
// random close poses of tetrapods and cubes with g up to 0.2 m; and the
// proof is not vacuous (it holds at a good share of the poses, some within
// 10% of g); not finite poses never prove.
func TestApartAlongCentresSound(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	cube := shape.Box(0.3, 0.3, 0.3)
	rng := rand.New(rand.NewSource(7))
	proved, close, trials := 0, 0, 0
	for _, sh := range [][2]*shape.Polyhedron{{tet, tet}, {cube, tet}, {tet, cube}, {cube, cube}} {
		for trial := 0; trial < 500; trial++ {
			rq := func() geom.Quat {
				return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			}
			var a, b Posed
			a.Update(sh[0], geom.V(10*rng.Float64(), rng.Float64(), rng.Float64()), rq(), false)
			dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
			d := (sh[0].Radius + sh[1].Radius) * (0.4 + 0.8*rng.Float64())
			b.Update(sh[1], a.X.Add(dir.Scale(d)), rq(), false)
			sd := surfaceDist(&a, &b)
			trials++
			// g just below the hulls' gap along the centre line (the proof's
			// own limit: written with geom's methods), and at random.
			n := b.X.Sub(a.X).Unit()
			ha, hb := math.Inf(-1), math.Inf(1)
			for _, v := range a.V {
				ha = max(ha, v.Dot(n))
			}
			for _, v := range b.V {
				hb = min(hb, v.Dot(n))
			}
			for _, g := range []float64{(hb - ha) * (1 - 1e-9), 0.2 * rng.Float64()} {
				if !apartAlongCentres(&a, &b, g) {
					continue
				}
				proved++
				if !(sd > g) {
					t.Fatalf("%s/%s trial %d: proved apart by more than g = %g, surfaces %g apart", sh[0].Name, sh[1].Name, trial, g, sd)
				}
				if sd < 1.1*g {
					close++
				}
			}
		}
	}
	// Not finite poses never prove: a NaN rotation (every vertex NaN), a
	// NaN vertex, an infinite centre.
	var a, b Posed
	a.Update(tet, geom.V(0, 0, 0), geom.Quat{W: math.NaN()}, false)
	b.Update(tet, geom.V(10, 0, 0), geom.Quat{W: 1}, false)
	if apartAlongCentres(&a, &b, 0.01) || apartAlongCentres(&b, &a, 0.01) {
		t.Fatal("proved apart with a NaN rotation")
	}
	a.Update(tet, geom.V(0, 0, 0), geom.Quat{W: 1}, false)
	a.V[3].X = math.NaN()
	if apartAlongCentres(&a, &b, 0.01) || apartAlongCentres(&b, &a, 0.01) {
		t.Fatal("proved apart with a NaN vertex")
	}
	b.Update(tet, geom.V(math.Inf(1), 0, 0), geom.Quat{W: 1}, false)
	if apartAlongCentres(&a, &b, 0.01) || apartAlongCentres(&b, &a, 0.01) {
		t.Fatal("proved apart with an infinite centre")
	}
	if proved < trials/4 || close < 20 {
		t.Fatalf("proved %d times (%d within 10%% of g) in %d poses: the test checks little", proved, close, trials)
	}
	t.Logf("%d poses, proved apart %d times, %d of them with g within 10%% of the surfaces' distance", trials, proved, close)
}

// TestBuildPrefiltersAtThreshold checks the listings' box prefilters
// (nearSet.vbox in listVF and listVE, listVV's 2g box) where they could
// cut wrongly: a vertex of B placed at a vertex of A plus g·(1 + δ) along
// a coordinate axis or a random direction, δ from −0.5 to +0.5 down to
// ±1e-15, so that coordinates and distances sit at g to rounding. Build
// must list exactly refLists' pairs (which tests every pair), in order.
func TestBuildPrefiltersAtThreshold(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	cube := shape.Box(0.3, 0.3, 0.3)
	rng := rand.New(rand.NewSource(13))
	var s Scratch
	listed, vv, builds := 0, 0, 0
	for _, sh := range [][2]*shape.Polyhedron{{tet, tet}, {cube, tet}, {tet, cube}, {cube, cube}} {
		for trial := 0; trial < 300; trial++ {
			rq := func() geom.Quat {
				return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			}
			var a, b Posed
			a.Update(sh[0], geom.V(rng.Float64(), rng.Float64(), rng.Float64()), rq(), false)
			qb := rq()
			b.Update(sh[1], geom.V(0, 0, 0), qb, false)
			g := 0.001 + 0.05*rng.Float64()
			dir := [...]geom.Vec3{geom.V(1, 0, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()}[rng.Intn(4)]
			delta := [...]float64{-0.5, -1e-9, -1e-15, 0, 1e-15, 1e-9, 0.5}[rng.Intn(7)]
			// B's vertex j at A's vertex i + g(1 + δ)·dir, and B's centre
			// on the far side of it from A's centre when possible.
			i, j := rng.Intn(len(a.V)), rng.Intn(len(b.V))
			target := a.V[i].Add(dir.Scale(g * (1 + delta)))
			b.Update(sh[1], target.Sub(b.V[j]), qb, false)
			gbar, margin := g, 0.0
			if rng.Intn(2) == 0 {
				gbar, margin = g/3, 2*g/3
			}
			var c Cache
			c.Build(&a, &b, gbar, margin, &s)
			builds++
			lists := checkAgainstDefinition(t, &c, &a, &b, gbar, margin, fmt.Sprintf("%s/%s trial %d (δ %g)", sh[0].Name, sh[1].Name, trial, delta))
			for k := range lists {
				listed += len(lists[k])
			}
			vv += len(lists[5])
		}
	}
	if listed < 500 || vv < 50 {
		t.Fatalf("only %d feature pairs (%d vertex–vertex) listed in %d builds: the test checks little", listed, vv, builds)
	}
	t.Logf("%d builds, %d feature pairs listed, %d vertex–vertex", builds, listed, vv)
}

// checkAgainstDefinition fails t unless c's six lists (built from a and b
// with gbar and margin) are those of the definition (refLists), the
// distances bit for bit or within 1e-12 of lengths of order 1 where
// products may fuse; it returns the definition's lists.
func checkAgainstDefinition(t *testing.T, c *Cache, a, b *Posed, gbar, margin float64, what string) [6][][2]int32 {
	t.Helper()
	lists, dists := refLists(a, b, gbar, margin)
	got := [6][][2]int32{c.vf, c.fv, c.ee, c.ve, c.ev, c.vv}
	gotD := [6][]float64{c.dvf, c.dfv, c.dee, c.dve, c.dev, c.dvv}
	for k := range lists {
		if !slices.Equal(got[k], lists[k]) || !fma.Equal(gotD[k], dists[k], 1e-12, 1) {
			t.Fatalf("%s list %d: Build %v %v, definition %v %v", what, k, got[k], gotD[k], lists[k], dists[k])
		}
	}
	return lists
}
