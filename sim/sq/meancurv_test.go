package sq

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"grainlab/sim/geom"
)

// TestMeanCurv10Layout checks the prep offsets that meanCurv10SSE2 reads
// beyond TestEvalWLayout's (n1, n2, hz) and that n1 = n2 = 10 is pk = 1.
func TestMeanCurv10Layout(t *testing.T) {
	var q prep
	got := []uintptr{unsafe.Offsetof(q.n1), unsafe.Offsetof(q.n2), unsafe.Offsetof(q.hz)}
	want := []uintptr{24, 32, 104}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("offset %d: %d, the assembly assumes %d", i, got[i], want[i])
		}
	}
	s := Shape{A: 1, B: 2, C: 3, N1: 10, N2: 10}
	s.prepInto(&q, 1)
	if q.same != 10 || q.pk != 1 {
		t.Fatalf("same %d, pk %d: the kernel takes hess's n1 = n2 branch", q.same, q.pk)
	}
}

// TestMeanCurv10SameBits: the mean-curvature kernel of Prepared.RadiusAt
// (meanCurv10SSE2: x = rᵀ(w − c), evalFG, hess and S1 eq. 39 for
// n1 = n2 = 10, in SSE2 on amd64 below v3) gives meanCurvAt's bits and
// meanCurvature's at p.ToLocal(w), on random rotated and axis-aligned
// shapes at points on, near and far from the surface, on the body axes and
// planes (±0, ν = 0: the Hessian's zero branch, ∇f = 0 at the centre), and
// at non-finite points (two NaNs may differ in sign or payload only). And
// RadiusAt gives CurvatureRadius at p.ToLocal(w) to the bit (mean and
// Gauss). Where the compiler may fuse FMAs (GOAMD64=v3) the kernel is
// meanCurvAt itself and only that comparison runs.
func TestMeanCurv10SameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	special := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	n, zero := 0, 0
	for k := 0; k < 3000; k++ {
		s := Shape{A: 0.2 + rng.Float64(), B: 0.2 + rng.Float64(), C: 0.2 + rng.Float64(), N1: 10, N2: 10}
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		if k%10 == 0 {
			q = geom.Quat{W: 1}
		}
		p := s.Prepare()
		c := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if k%13 == 0 {
			c = geom.Vec3{}
		}
		p.Place(c, q)
		for j := 0; j < 20; j++ {
			sc := math.Pow(10, rng.Float64()*4-2)
			w := geom.Vec3{X: c.X + sc*rng.NormFloat64(), Y: c.Y + sc*rng.NormFloat64(), Z: c.Z + sc*rng.NormFloat64()}
			switch j % 6 {
			case 1: // on a body axis or plane of an axis-aligned shape
				if rng.Intn(2) == 0 {
					w.X = c.X
				}
				if rng.Intn(2) == 0 {
					w.Y = c.Y
				}
			case 2:
				w.Z = special[rng.Intn(len(special))]
			case 3:
				w = geom.Vec3{X: special[rng.Intn(len(special))], Y: special[rng.Intn(len(special))], Z: special[rng.Intn(len(special))]}
			case 4: // on the surface: a random direction scaled to the radial root
				x := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
				if g := p.unit.root1(p.unit.phi(x)); g > 0 {
					w = p.x.Add(mulV(&p.r, x.Scale(1/g)))
				}
			case 5:
				w = c // ∇f = 0
			}
			got := meanCurv10SSE2(&p.unit, &p.r, &p.x, &w)
			want := p.unit.meanCurvAt(&p.r, &p.x, w)
			ref := p.unit.meanCurvature(p.ToLocal(w))
			for i, v := range []float64{want, ref} {
				if i == 1 && !evalWAsm {
					continue // from v3 on either route's products may fuse into FMAs (TestRadiusAtSameBits compares there)
				}
				if math.Float64bits(got) != math.Float64bits(v) && !(math.IsNaN(got) && math.IsNaN(v)) {
					t.Fatalf("shape %+v, q %v, c %v, w %v: kernel %v (%#x), Go %v (%#x)", s, q, c, w, got, math.Float64bits(got), v, math.Float64bits(v))
				}
			}
			if got == 0 {
				zero++
			}
			if j%2 == 0 && evalWAsm {
				for _, m := range []RadiusMethod{RadiusMean, RadiusGauss} {
					r := p.RadiusAt(m, w, 3, 0.5)
					r0 := p.CurvatureRadius(m, p.ToLocal(w), 3, 0.5)
					if math.Float64bits(r) != math.Float64bits(r0) && !(math.IsNaN(r) && math.IsNaN(r0)) {
						t.Fatalf("shape %+v, w %v, method %d: RadiusAt %v, CurvatureRadius %v", s, w, m, r, r0)
					}
				}
			}
			n++
		}
	}
	if zero == 0 {
		t.Fatal("no point with a zero curvature (∇f = 0 or the flat branch): the test misses a branch")
	}
	t.Logf("%d points compared, %d with k = 0", n, zero)
}
