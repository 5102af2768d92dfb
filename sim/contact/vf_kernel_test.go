package contact

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// vfProject is vertexFace's use of vfSolve: VertexFace's p and ok (p
// meaningless when ok is false).
func vfProject(x, f1, f2, f3, p *geom.Vec3) bool {
	switch vfSolve(x, f1, f2, f3, p) {
	case 0:
		return false
	case 1:
		return true
	}
	_, _, q, ok := VertexFace(*x, *f1, *f2, *f3)
	*p = q
	return ok
}

// TestVFProjectMatchesVertexFace runs vfSolve (on amd64 the SSE2
// assembly of vf_amd64.s) as vertexFace does and VertexFace on the same random and degenerate
// inputs — triangles of order 1, slivers (a corner on the opposite edge's
// line, two corners equal), projections on an edge or at a corner (the
// tie band), within a few ParamTol of an edge's band on either side, far outside, coordinates NaN, ±Inf, ±0, denormal, huge, tiny
// — and requires the same ok and, when ok, the same bits of the
// projection.
func TestVFProjectMatchesVertexFace(t *testing.T) {
	r := rand.New(rand.NewSource(64))
	rv := func(p float64) geom.Vec3 {
		return geom.Vec3{X: eeRandVal(r, p), Y: eeRandVal(r, p), Z: eeRandVal(r, p)}
	}
	oks, ties := 0, 0
	const n = 300000
	for i := 0; i < n; i++ {
		p := 0.0
		if i%4 == 3 {
			p = 0.05
		}
		f1, f2, f3 := rv(p), rv(p), rv(p)
		switch r.Intn(8) {
		case 0: // sliver: f3 on the line of f1, f2
			f3 = geom.Lerp(f1, f2, r.NormFloat64())
		case 1: // two corners equal
			f2 = f1
		}
		c := f2.Sub(f1).Cross(f3.Sub(f1))
		var x geom.Vec3
		switch r.Intn(7) {
		case 6: // a barycentric coordinate within a few ParamTol of 0
			t1, t2 := f2.Sub(f1).Scale(0.5), f3.Sub(f1).Scale(0.5)
			u := -1 + 2*ParamTol*6*(r.Float64()-0.5)
			v := -1 + 2*r.Float64()*(1-math.Abs(u+1))
			if r.Intn(2) == 0 {
				u, v = v, u
			}
			x = f2.Add(f3).Scale(0.5).AddScaled(u, t1).AddScaled(v, t2).AddScaled(r.NormFloat64(), c)
		case 0: // above an edge's point
			x = geom.Lerp(f2, f3, r.Float64()).AddScaled(r.NormFloat64(), c)
		case 1: // above a corner
			x = []geom.Vec3{f1, f2, f3}[r.Intn(3)].AddScaled(r.NormFloat64(), c)
		case 2: // above the centroid
			x = f1.Add(f2).Add(f3).Scale(1.0/3).AddScaled(r.NormFloat64(), c)
		default:
			x = rv(p)
		}
		var got geom.Vec3
		ok1 := vfProject(&x, &f1, &f2, &f3, &got)
		zeta, theta, want, ok2 := VertexFace(x, f1, f2, f3)
		if ok1 != ok2 {
			t.Fatalf("case %d: ok %v, VertexFace %v (x %v, f %v %v %v)", i, ok1, ok2, x, f1, f2, f3)
		}
		if !ok2 {
			continue
		}
		oks++
		if !vfInside(zeta, theta) {
			ties++
		}
		if math.Float64bits(got.X) != math.Float64bits(want.X) || math.Float64bits(got.Y) != math.Float64bits(want.Y) ||
			math.Float64bits(got.Z) != math.Float64bits(want.Z) {
			t.Fatalf("case %d: projection %v, VertexFace %v", i, got, want)
		}
	}
	t.Logf("%d inputs, %d valid projections, %d of them by degenInTriangle", n, oks, ties)
	if oks < n/10 || ties == 0 {
		t.Fatalf("%d valid, %d ties: the comparison is too weak", oks, ties)
	}
}
