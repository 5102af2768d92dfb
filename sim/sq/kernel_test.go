package sq

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// refEval is S1 eq. (1), (14)–(17) written out with math.Pow on |x/a|, |y/b|,
// |z/c| and explicit signs: f, ∇f and the Hessian at the body-frame point x
// (x and y not both zero).
func refEval(s Shape, x geom.Vec3) (float64, geom.Vec3, geom.Mat3) {
	X, Y, Z := math.Abs(x.X)/s.A, math.Abs(x.Y)/s.B, math.Abs(x.Z)/s.C
	n1, n2 := s.N1, s.N2
	p := n1 / n2
	nu := math.Pow(X, n2) + math.Pow(Y, n2)
	f := math.Pow(nu, p) + math.Pow(Z, n1) - 1 // S1 eq. (1)
	sx, sy, sz := sgn(x.X), sgn(x.Y), sgn(x.Z)
	g := geom.Vec3{
		X: n1 / s.A * math.Pow(nu, p-1) * math.Pow(X, n2-1) * sx, // S1 eq. (14)
		Y: n1 / s.B * math.Pow(nu, p-1) * math.Pow(Y, n2-1) * sy,
		Z: n1 / s.C * math.Pow(Z, n1-1) * sz,
	}
	var h geom.Mat3
	h[0][0] = n1 / (s.A * s.A) * math.Pow(nu, p-1) * ((n2-1)*math.Pow(X, n2-2) + (n1-n2)*math.Pow(X, 2*n2-2)/nu) // S1 eq. (15)
	h[1][1] = n1 / (s.B * s.B) * math.Pow(nu, p-1) * ((n2-1)*math.Pow(Y, n2-2) + (n1-n2)*math.Pow(Y, 2*n2-2)/nu)
	h[0][1] = n1 * (n1 - n2) / (s.A * s.B) * math.Pow(nu, p-2) * math.Pow(X, n2-1) * math.Pow(Y, n2-1) * sx * sy
	h[1][0] = h[0][1]
	h[2][2] = n1 * (n1 - 1) / (s.C * s.C) * math.Pow(Z, n1-2) // S1 eq. (15)
	return f, g, h
}

// kernelShapes are the exponent cases of the kernel: n1 = n2 integer (the
// product fast path), n1 = n2 non-integer, n1 ≠ n2 (integer and not), and
// the special ratios n1 = 2n2 and 2n1 = n2.
var kernelShapes = []Shape{
	{1, 0.8, 0.6, 2, 2}, {1, 0.8, 0.6, 3, 3}, {1, 0.8, 0.6, 4, 4}, {1, 0.8, 0.6, 5, 5},
	{1, 0.8, 0.6, 6, 6}, {1, 0.8, 0.6, 7, 7}, {1, 0.8, 0.6, 8, 8}, {1, 0.8, 0.6, 10, 10},
	{1, 0.8, 0.6, 13, 13}, {1, 0.8, 0.6, 20, 20},
	{0.7, 1.2, 0.9, 6.5, 6.5}, {0.7, 1.2, 0.9, 2.3, 2.3},
	{0.7, 1.2, 0.9, 4, 10}, {0.7, 1.2, 0.9, 10, 4}, {0.7, 1.2, 0.9, 3.3, 7.1}, {0.7, 1.2, 0.9, 7.1, 3.3},
	{0.7, 1.2, 0.9, 8, 4}, {0.7, 1.2, 0.9, 4, 8}, {0.7, 1.2, 0.9, 2, 9.5},
}

// kernelPoints returns random body-frame points in 1.4 times the bounding box
// of s, a fifth of them on a coordinate plane (x = 0, y = 0 or z = 0, with
// signed zeros), never on the z-axis.
func kernelPoints(rng *rand.Rand, s Shape, m int) []geom.Vec3 {
	out := make([]geom.Vec3, 0, m)
	for len(out) < m {
		x := geom.Vec3{X: s.A * 1.4 * (2*rng.Float64() - 1), Y: s.B * 1.4 * (2*rng.Float64() - 1), Z: s.C * 1.4 * (2*rng.Float64() - 1)}
		if rng.Intn(5) == 0 {
			z := math.Copysign(0, 2*rng.Float64()-1)
			switch rng.Intn(3) {
			case 0:
				x.X = z
			case 1:
				x.Y = z
			default:
				x.Z = z
			}
		}
		if x.X == 0 && x.Y == 0 {
			continue
		}
		out = append(out, x)
	}
	return out
}

// closeRel reports |got − want| ≤ tol·(|want| + floor).
func closeRel(got, want, tol, floor float64) bool {
	return math.Abs(got-want) <= tol*(math.Abs(want)+floor)
}

// The shape-function kernel (evalFG + hess, with the product fast path for
// n1 = n2 integer, repeated squaring for other integers and math.Pow
// otherwise) against S1 eq. (1), (14)–(17) written with math.Pow, and
// against itself with every specialisation switched off: f, ∇f and the
// Hessian to 1e-12 relative (the Hessian relative to its largest entry for
// the entries that vanish) on random points, on and off the coordinate planes.
func TestKernelAgainstPow(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(51)))
	for _, s := range kernelShapes {
		q := s.prep()
		gen := q
		gen.same, gen.i1, gen.i2, gen.pk = 0, 0, 0, 0 // the general math.Pow path
		worst := 0.0
		for _, x := range kernelPoints(rng, s, 400) {
			rf, rg, rh := refEval(s, x)
			for _, k := range []*prep{&q, &gen} {
				var e evalOut
				k.evalFG(x, &e)
				hb := k.hess(&e)
				h := geom.Mat3{{hb.xx, hb.xy, 0}, {hb.xy, hb.yy, 0}, {0, 0, hb.zz}}
				hmax := 0.0
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						hmax = math.Max(hmax, math.Abs(rh[i][j]))
					}
				}
				ok := closeRel(e.f, rf, 1e-12, 1) &&
					closeRel(e.g.X, rg.X, 1e-12, 1e-300) && closeRel(e.g.Y, rg.Y, 1e-12, 1e-300) && closeRel(e.g.Z, rg.Z, 1e-12, 1e-300)
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						ok = ok && closeRel(h[i][j], rh[i][j], 1e-12, 1e-3*hmax)
						worst = math.Max(worst, math.Abs(h[i][j]-rh[i][j])/(math.Abs(rh[i][j])+1e-3*hmax+1e-300))
					}
				}
				if !ok {
					t.Fatalf("%+v at %v (generic %v): f %.17g ∇f %v H %v, want %.17g %v %v", s, x, k == &gen, e.f, e.g, h, rf, rg, rh)
				}
			}
		}
		t.Logf("%+v: worst relative Hessian deviation %.2g", s, worst)
	}
}

// ipow and powParts against math.Pow for every integer exponent the kernel
// can see, at random bases in [0, 1.5] and at 0.
func TestIntegerPowers(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(52)))
	for n := 2; n <= MaxBlockiness; n++ {
		for k := 0; k < 50; k++ {
			x := 1.5 * rng.Float64()
			if k == 0 {
				x = 0
			}
			m2, m1, m0 := powParts(x, float64(n), n)
			w2, w1, w0 := math.Pow(x, float64(n-2)), math.Pow(x, float64(n-1)), math.Pow(x, float64(n))
			if !closeRel(m2, w2, 1e-14, 1e-300) || !closeRel(m1, w1, 1e-14, 1e-300) || !closeRel(m0, w0, 1e-14, 1e-300) {
				t.Fatalf("n = %d, x = %g: %g %g %g, want %g %g %g", n, x, m2, m1, m0, w2, w1, w0)
			}
		}
	}
}

// gaugeStep scales the Newton step on F into the one on the gauge
// (1 + F)^(1/n1) − 1: against the exact factor from the root, to the order
// of the cubic series' remainder (|F|³) near the surface and to rounding
// beyond |F| = 1/4, where it takes the root.
func TestGaugeStep(t *testing.T) {
	for _, n := range []float64{2, 3, 4, 6.5, 10, 20} {
		q := Shape{1, 1, 1, n, n}.prep()
		for _, f := range []float64{-0.9, -0.5, -0.3, -0.2, -0.1, -1e-2, -1e-4, 1e-4, 1e-2, 0.1, 0.2, 0.3, 1, 5} {
			gm1 := math.Expm1(math.Log1p(f) / n) // (1 + F)^(1/n) − 1 without cancellation
			want := gm1 * n * (1 + f) / ((1 + gm1) * f)
			got := q.gaugeStep(f)
			tol := 1e-14
			if math.Abs(f) < 0.25 {
				tol += math.Abs(f * f * f)
			}
			if math.Abs(got-want) > tol*math.Abs(want) {
				t.Errorf("n = %g, F = %g: factor %.15g, want %.15g", n, f, got, want)
			}
		}
	}
}

// The mean and Gaussian curvature with the block structure of the Hessian
// against the full matrix forms (S1 eq. 39–40) with the Hessian of refEval,
// at random surface points, to 1e-10 relative.
func TestCurvatureBlockForm(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(53)))
	for _, s := range kernelShapes {
		for k := 0; k < 100; k++ {
			x := s.Project(randDir(rng))
			if x.X == 0 && x.Y == 0 {
				continue
			}
			_, g, h := refEval(s, x)
			g2 := g.Norm2()
			km := (g2*h.Trace() - g.Dot(h.MulV(g))) / (2 * g2 * math.Sqrt(g2))
			adj := geom.Mat3{
				{h[1][1]*h[2][2] - h[1][2]*h[2][1], h[0][2]*h[2][1] - h[0][1]*h[2][2], h[0][1]*h[1][2] - h[0][2]*h[1][1]},
				{h[1][2]*h[2][0] - h[1][0]*h[2][2], h[0][0]*h[2][2] - h[0][2]*h[2][0], h[0][2]*h[1][0] - h[0][0]*h[1][2]},
				{h[1][0]*h[2][1] - h[1][1]*h[2][0], h[0][1]*h[2][0] - h[0][0]*h[2][1], h[0][0]*h[1][1] - h[0][1]*h[1][0]},
			}
			kg := g.Dot(adj.MulV(g)) / (g2 * g2)
			scale := math.Abs(km) + 1e-3 // curvatures are O(1) here; flat face centres give 0
			if got := s.MeanCurvature(x); math.Abs(got-km) > 1e-10*scale {
				t.Fatalf("%+v at %v: K_mean %.15g, want %.15g", s, x, got, km)
			}
			if got := s.GaussianCurvature(x); math.Abs(got-kg) > 1e-10*(math.Abs(kg)+scale*scale) {
				t.Fatalf("%+v at %v: κ₁κ₂ %.15g, want %.15g", s, x, got, kg)
			}
		}
	}
}

func ExampleSeparated() {
	a := Shape{1, 0.8, 0.6, 4, 4}
	pa := Pose{Q: geom.QIdent()}
	far := Pose{X: geom.V(3, 0, 0), Q: geom.QIdent()}
	near := Pose{X: geom.V(1.9, 0, 0), Q: geom.QIdent()}
	fmt.Println(Separated(a, pa, a, far, nil), Separated(a, pa, a, near, nil))
	// Output: true false
}

// TestKernelSigns: evalFG's gradient signs (signOf) and sign(x)·sign(y)
// (sign bits xor'ed) equal the math.Copysign forms bit for bit, signed
// zeros, subnormals and infinities included — but for NaN: an infinite
// coordinate gives ∞·0 = NaN, which signOf leaves −NaN (its sign bit set)
// where Copysign gave it the coordinate's sign (signOf's doc), so two NaNs
// pass whatever their sign bits. hess's n1 = n2 branch equals the general
// expression of S1 eq. (15) bit for bit (f_xy's signed zero too) wherever
// x, y and 1/ν are finite (elsewhere the general one is NaN and the branch
// finite: not compared).
func TestKernelSigns(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-300, -1e-300, 0.3, -0.3, 0.999, -0.999, 5, -5, math.Inf(1), math.Inf(-1)}
	for _, s := range []Shape{{A: 1, B: 0.7, C: 0.5, N1: 10, N2: 10}, {A: 1, B: 0.7, C: 0.5, N1: 4, N2: 6}, {A: 1, B: 0.7, C: 0.5, N1: 2.5, N2: 3.5}} {
		q := s.prep()
		for _, x := range vals {
			for _, y := range vals {
				for _, z := range vals[:6] {
					var e evalOut
					q.evalFG(geom.Vec3{X: x, Y: y, Z: z}, &e)
					X, Y, Z := math.Abs(x)*q.ia, math.Abs(y)*q.ib, math.Abs(z)*q.ic
					_, x1, _ := powParts(X, q.n2, q.i2)
					_, y1, _ := powParts(Y, q.n2, q.i2)
					_, z1, _ := powParts(Z, q.n1, q.i1)
					want := geom.Vec3{X: math.Copysign(q.gx*x1*e.nup1, x), Y: math.Copysign(q.gy*y1*e.nup1, y), Z: math.Copysign(q.gz*z1, z)}
					sxy := math.Copysign(1, x) * math.Copysign(1, y)
					// hess: the general expression of S1 eq. (15) with d = n1 − n2
					h := q.hess(&e)
					hw := h
					if e.nu > 0 && 1/e.nu < math.Inf(1) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
						d, inu, c := q.n1-q.n2, 1/e.nu, q.n1*e.nup1
						hw.xx = c * q.ia * q.ia * ((q.n2-1)*e.x2 + d*e.x1*e.x1*inu)
						hw.yy = c * q.ib * q.ib * ((q.n2-1)*e.y2 + d*e.y1*e.y1*inu)
						hw.xy = c * q.ia * q.ib * d * e.x1 * e.y1 * inu * sxy
					}
					for i, p := range [][2]float64{{e.g.X, want.X}, {e.g.Y, want.Y}, {e.g.Z, want.Z}, {e.sxy, sxy}, {h.xx, hw.xx}, {h.yy, hw.yy}, {h.xy, hw.xy}} {
						if math.Float64bits(p[0]) != math.Float64bits(p[1]) && !(math.IsNaN(p[0]) && math.IsNaN(p[1])) {
							t.Fatalf("%v at (%g, %g, %g): component %d is %g, Copysign gives %g", s, x, y, z, i, p[0], p[1])
						}
					}
				}
			}
		}
	}
}
