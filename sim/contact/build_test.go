package contact

import (
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
// each list in the order of its loops, with the distance lower bounds of
// Cache.dists. Build must give these lists, in this order, bit for bit.
func refLists(a, b *Posed, gbar, margin float64) (lists [6][][2]int32, dists [6][]float64) {
	g := gbar + margin
	boxA, boxB := a.Box.Inflate(g), b.Box.Inflate(g)
	if !boxA.Overlaps(boxB) {
		return
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
			lists, dists := refLists(&a, &b, gbar, margin)
			got := [6][][2]int32{c.vf, c.fv, c.ee, c.ve, c.ev, c.vv}
			gotD := [6][]float64{c.dvf, c.dfv, c.dee, c.dve, c.dev, c.dvv}
			for k := range lists {
				// Distances: bit for bit; 1e-12 of lengths of order 1 where products may fuse.
				if !slices.Equal(got[k], lists[k]) || !fma.Equal(gotD[k], dists[k], 1e-12, 1) {
					t.Fatalf("%s/%s trial %d list %d: Build %v %v, definition %v %v", sh[0].Name, sh[1].Name, trial, k, got[k], gotD[k], lists[k], dists[k])
				}
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
