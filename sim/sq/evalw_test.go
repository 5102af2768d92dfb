package sq

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"grainlab/sim/geom"
)

// TestEvalWLayout checks the field offsets that evalw_amd64.s reads and writes.
func TestEvalWLayout(t *testing.T) {
	var ps posed
	var q prep
	var e evalOut
	got := []uintptr{
		unsafe.Offsetof(ps.c), unsafe.Offsetof(ps.r), unsafe.Offsetof(ps.ident), unsafe.Offsetof(ps.q),
		unsafe.Offsetof(q.ia), unsafe.Offsetof(q.ib), unsafe.Offsetof(q.ic),
		unsafe.Offsetof(q.gx), unsafe.Offsetof(q.gy), unsafe.Offsetof(q.gz),
		unsafe.Offsetof(e.f), unsafe.Offsetof(e.g), unsafe.Offsetof(e.x2), unsafe.Offsetof(e.x1),
		unsafe.Offsetof(e.y2), unsafe.Offsetof(e.y1), unsafe.Offsetof(e.z2),
		unsafe.Offsetof(e.nu), unsafe.Offsetof(e.nup1), unsafe.Offsetof(e.sxy),
	}
	want := []uintptr{0, 24, 32, 40, 0, 8, 16, 80, 88, 96, 0, 8, 32, 40, 48, 56, 64, 72, 80, 88}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("offset %d: %d, the assembly assumes %d", i, got[i], want[i])
		}
	}
}

// evalOutBits returns e's fields as bits.
func evalOutBits(e *evalOut) [12]uint64 {
	v := [12]float64{e.f, e.g.X, e.g.Y, e.g.Z, e.x2, e.x1, e.y2, e.y1, e.z2, e.nu, e.nup1, e.sxy}
	var b [12]uint64
	for i, x := range v {
		b[i] = math.Float64bits(x)
	}
	return b
}

// TestEvalW10SameBits: evalW's n1 = n2 = 10 kernels (SSE2 on amd64 below v3:
// one shape, two shapes at one point, evalFG's)
// give evalWGo's and evalFG's bits field by field, on random rotated shapes at random
// points near and far from the surface, on the body axes and planes (±0
// coordinates, ν = 0), and at non-finite points.
func TestEvalW10SameBits(t *testing.T) {
	if !evalWAsm {
		t.Log("no assembly on this build: the kernels are evalWGo and evalFG")
	}
	rng := rand.New(rand.NewSource(16))
	special := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	n := 0
	for k := 0; k < 4000; k++ {
		s := Shape{A: 0.2 + rng.Float64(), B: 0.2 + rng.Float64(), C: 0.2 + rng.Float64(), N1: 10, N2: 10}
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		m := q.Mat()
		if k%10 == 0 { // axis-aligned rotations: exact zeros in the products
			m = geom.Identity()
		}
		var pr prep
		s.prepInto(&pr, 1/(1+rng.Float64()))
		ps := posed{c: geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}, r: &m, q: &pr}
		if k%7 == 0 {
			ps.c = geom.Vec3{}
		}
		for j := 0; j < 20; j++ {
			sc := math.Pow(10, rng.Float64()*4-2)
			w := geom.Vec3{X: ps.c.X + sc*rng.NormFloat64(), Y: ps.c.Y + sc*rng.NormFloat64(), Z: ps.c.Z + sc*rng.NormFloat64()}
			switch j % 5 {
			case 1: // on a body axis or plane of an axis-aligned shape
				if rng.Intn(2) == 0 {
					w.X = ps.c.X
				}
				if rng.Intn(2) == 0 {
					w.Y = ps.c.Y
				}
			case 2:
				w.X = special[rng.Intn(len(special))]
			case 3:
				w = geom.Vec3{X: special[rng.Intn(len(special))], Y: special[rng.Intn(len(special))], Z: special[rng.Intn(len(special))]}
			}
			var a, b evalOut
			a.f, b.f = 7, 7
			if j%4 == 0 { // evalFG's kernel: the point taken as body-frame
				evalFG10SSE2(&pr, &w, &a)
				pr.evalFG(w, &b)
			} else if j%4 == 2 { // the pair kernel: ps and a second shape, either ident or not
				ps2 := posed{r: &identM, ident: true, q: &pr}
				if k%3 == 0 {
					ps2 = posed{c: geom.Vec3{X: 0.1}, r: &m, q: &pr}
				}
				var a2, b2 evalOut
				first, second := &ps, &ps2
				if k%2 == 0 {
					first, second = second, first
				}
				evalW2SSE2(first, second, &w, &a, &a2)
				first.evalWGo(w, &b)
				second.evalWGo(w, &b2)
				if evalOutBits(&a2) != evalOutBits(&b2) && !math.IsNaN(a2.f) {
					t.Fatalf("pair kernel, second shape: asm %+v, Go %+v", a2, b2)
				}
			} else { // the one-shape kernel: rotated, or ident (j%4 == 3, even k)
				p1 := &ps
				if j%4 == 3 && k%2 == 0 {
					p1 = &posed{r: &identM, ident: true, q: &pr}
				}
				evalW1SSE2(p1, &w, &a)
				p1.evalWGo(w, &b)
			}
			if evalOutBits(&a) != evalOutBits(&b) {
				// two NaNs may differ in sign or payload only
				ba, bb := evalOutBits(&a), evalOutBits(&b)
				for i := range ba {
					fa, fb := math.Float64frombits(ba[i]), math.Float64frombits(bb[i])
					// sxy takes the sign bits of x and y: of a NaN coordinate,
					// which NaN's sign depends on the operands' order in the
					// compiled sums (x86 returns the first of two NaNs)
					nanXY := math.IsNaN(a.nu) && math.IsNaN(b.nu)
					if ba[i] != bb[i] && !(math.IsNaN(fa) && math.IsNaN(fb)) && !(i == 11 && nanXY) {
						t.Fatalf("shape %+v, r %v, c %v, w %v: field %d: asm %v (%#x), Go %v (%#x)", s, m, ps.c, w, i, fa, ba[i], fb, bb[i])
					}
				}
			}
			n++
		}
	}
	t.Logf("%d evaluations compared", n)
}
