package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// sameOrBothNaN reports whether a and b agree field by field, two NaNs
// (any sign/payload) counting as equal.
func sameOrBothNaN(a, b *evalOut) (int, bool) {
	ba, bb := evalOutBits(a), evalOutBits(b)
	for i := range ba {
		fa, fb := math.Float64frombits(ba[i]), math.Float64frombits(bb[i])
		if ba[i] != bb[i] && !(math.IsNaN(fa) && math.IsNaN(fb)) {
			if i == 11 && math.IsNaN(a.nu) && math.IsNaN(b.nu) {
				continue
			}
			return i, false
		}
	}
	return 0, true
}

// TestReviewEvalW10Extremes (review r4): sizes from 1e-150 to 1e150, points
// from 1e-300 to 1e300 (over/underflow of |x/a|^10), exact poles and axes
// in the body frame, subnormals, ±0; all three kernels against the Go code.
func TestReviewEvalW10Extremes(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	n := 0
	for k := 0; k < 3000; k++ {
		size := math.Pow(10, rng.Float64()*300-150)
		s := Shape{A: size * (0.2 + rng.Float64()), B: size * (0.2 + rng.Float64()), C: size * (0.2 + rng.Float64()), N1: 10, N2: 10}
		var pr prep
		s.prepInto(&pr, 1)
		if pr.same != 10 {
			t.Fatalf("same %d", pr.same)
		}
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		m := q.Mat()
		if k%4 == 0 {
			m = geom.Identity()
		}
		ps := posed{c: geom.Vec3{X: size * rng.NormFloat64(), Y: size * rng.NormFloat64()}, r: &m, q: &pr}
		pid := posed{r: &identM, ident: true, q: &pr}
		for j := 0; j < 30; j++ {
			sc := size * math.Pow(10, rng.Float64()*40-20)
			if j%6 == 5 {
				sc = math.Pow(10, rng.Float64()*600-300)
			}
			var x geom.Vec3
			switch j % 5 {
			case 0: // a pole or an axis point on the surface or near
				f := 1 + (rng.Float64()-0.5)*1e-3*float64(j%3)
				switch rng.Intn(3) {
				case 0:
					x = geom.Vec3{X: math.Copysign(s.A*f, rng.NormFloat64())}
				case 1:
					x = geom.Vec3{Y: math.Copysign(s.B*f, rng.NormFloat64())}
				default:
					x = geom.Vec3{Z: math.Copysign(s.C*f, rng.NormFloat64())}
				}
			case 1: // subnormal / tiny
				x = geom.Vec3{X: 5e-324 * float64(rng.Intn(5)-2), Y: -5e-324, Z: math.SmallestNonzeroFloat64 * 1e10}
			default:
				x = geom.Vec3{X: sc * rng.NormFloat64(), Y: sc * rng.NormFloat64(), Z: sc * rng.NormFloat64()}
			}
			w := m.MulV(x).Add(ps.c) // the body-frame point x in the frame
			var a, b, a2, b2 evalOut
			a.f, b.f, a2.f, b2.f = 7, 7, 7, 7
			evalFG10SSE2(&pr, &x, &a)
			pr.evalFG(x, &b)
			if i, ok := sameOrBothNaN(&a, &b); !ok {
				t.Fatalf("evalFG s %+v x %v field %d: asm %+v Go %+v", s, x, i, a, b)
			}
			evalW1SSE2(&ps, &w, &a)
			ps.evalWGo(w, &b)
			if i, ok := sameOrBothNaN(&a, &b); !ok {
				t.Fatalf("evalW1 s %+v w %v field %d: asm %+v Go %+v", s, w, i, a, b)
			}
			evalW1SSE2(&pid, &x, &a)
			pid.evalWGo(x, &b)
			if i, ok := sameOrBothNaN(&a, &b); !ok {
				t.Fatalf("evalW1 ident s %+v x %v field %d", s, x, i)
			}
			evalW2SSE2(&ps, &pid, &w, &a, &a2)
			ps.evalWGo(w, &b)
			pid.evalWGo(w, &b2)
			if i, ok := sameOrBothNaN(&a, &b); !ok {
				t.Fatalf("evalW2 A field %d", i)
			}
			if i, ok := sameOrBothNaN(&a2, &b2); !ok {
				t.Fatalf("evalW2 B field %d", i)
			}
			evalW2SSE2(&pid, &ps, &w, &a2, &a)
			if i, ok := sameOrBothNaN(&a, &b); !ok {
				t.Fatalf("evalW2 swapped B field %d", i)
			}
			if i, ok := sameOrBothNaN(&a2, &b2); !ok {
				t.Fatalf("evalW2 swapped A field %d", i)
			}
			n++
		}
	}
	t.Logf("%d points, evalWAsm=%v", n, evalWAsm)
}

// TestReviewEvalW10Aliasing (review r4): evalW2SSE2 with A == B and ea == eb
// (the same evalOut twice): the result is B's, as with the two Go calls.
func TestReviewEvalW10Aliasing(t *testing.T) {
	s := Shape{A: 0.3, B: 0.2, C: 0.25, N1: 10, N2: 10}
	var pr prep
	s.prepInto(&pr, 1)
	m := geom.Quat{W: 1, X: 0.3, Y: -0.2, Z: 0.1}.Normalize().Mat()
	A := posed{c: geom.Vec3{X: 0.1}, r: &m, q: &pr}
	B := posed{c: geom.Vec3{Y: -0.05}, r: &m, q: &pr}
	w := geom.Vec3{X: 0.2, Y: 0.1, Z: -0.1}
	var e, g evalOut
	evalW2SSE2(&A, &B, &w, &e, &e)
	B.evalWGo(w, &g)
	if evalOutBits(&e) != evalOutBits(&g) {
		t.Fatalf("aliased outputs: %+v vs %+v", e, g)
	}
}
