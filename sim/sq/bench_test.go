package sq

import (
	"fmt"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// benchPairs returns k slightly overlapping pairs (δ ≈ 1% of the size) of two
// superquadrics with n1 = n2 = n at random orientations.
func benchPairs(n float64, k int) (Shape, Shape, []Pose, []Pose) {
	rng := rand.New(rand.NewSource(7))
	a, b := Shape{1, 0.8, 0.6, n, n}, Shape{0.7, 1, 0.9, n, n}
	dirs := fibSphere(2000)
	pas, pbs := make([]Pose, k), make([]Pose, k)
	for i := range pas {
		qa, qb, d := randQuat(rng), randQuat(rng), randDir(rng)
		t := touchDist(a, qa, b, qb, d, dirs)
		pas[i], pbs[i] = Pose{Q: qa}, Pose{X: d.Scale(t - 0.01), Q: qb}
	}
	return a, b, pas, pbs
}

var benchSink ContactResult

// benchContact runs Contact over the pairs; step perturbs pose B each call
// (sign alternating) and warm selects warm starts from the previous call.
func benchContact(bm *testing.B, n, step float64, warm bool) {
	const k = 32
	a, b, pas, pbs := benchPairs(n, k)
	pts := make([]geom.Vec3, k)
	for i := range pts {
		r := Contact(a, pas[i], b, pbs[i], nil)
		if !r.Converged {
			bm.Fatalf("setup pair %d: %v", i, r.Err)
		}
		pts[i] = r.Point
	}
	rot := geom.QAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, step)
	rotBack := rot.Conj()
	shift := geom.Vec3{X: 0.3, Y: -0.2, Z: 0.1}.Scale(step)
	iters, fails := 0, 0
	bm.ResetTimer()
	for it := 0; it < bm.N; it++ {
		i := it % k
		pb := pbs[i]
		if (it/k)%2 == 0 {
			pb.Q, pb.X = rot.Mul(pb.Q), pb.X.Add(shift)
		} else {
			pb.Q, pb.X = rotBack.Mul(pb.Q), pb.X.Sub(shift)
		}
		pbs[i] = pb
		var w *geom.Vec3
		if warm {
			w = &pts[i]
		}
		r := Contact(a, pas[i], b, pb, w)
		if warm {
			pts[i] = r.Point
		}
		iters += r.Iter
		if !r.Converged {
			fails++
		}
		benchSink = r
	}
	bm.ReportMetric(float64(iters)/float64(bm.N), "newton/op")
	if fails > 0 {
		bm.Fatalf("%d of %d contacts did not converge", fails, bm.N)
	}
}

// BenchmarkContactStatic: warm start from the previous converged point, pose change 1e-6.
func BenchmarkContactStatic(bm *testing.B) {
	for _, n := range []float64{2, 4, 6, 8, 10} {
		bm.Run(fmt.Sprintf("n=%g", n), func(bm *testing.B) { benchContact(bm, n, 1e-6, true) })
	}
}

// BenchmarkContactMoving: warm start with a DEM-like pose change of 2e-3 per call.
func BenchmarkContactMoving(bm *testing.B) {
	for _, n := range []float64{2, 4, 6, 8, 10} {
		bm.Run(fmt.Sprintf("n=%g", n), func(bm *testing.B) { benchContact(bm, n, 2e-3, true) })
	}
}

// BenchmarkContactCold: no warm start, blockiness continuation from spheres.
func BenchmarkContactCold(bm *testing.B) {
	for _, n := range []float64{2, 4, 6, 8, 10} {
		bm.Run(fmt.Sprintf("n=%g", n), func(bm *testing.B) { benchContact(bm, n, 1e-6, false) })
	}
}

var evalSink geom.Mat3

func BenchmarkEval(bm *testing.B) {
	for _, n := range []float64{2, 4, 6.5, 10} {
		bm.Run(fmt.Sprintf("n=%g", n), func(bm *testing.B) {
			s := Shape{1, 0.8, 0.6, n, n}
			ps := s.posed(Pose{Q: geom.QAxisAngle(geom.V(1, 2, 3), 0.4)}, geom.Vec3{}, 1)
			var e evalOut
			x := geom.V(0.3, 0.4, 0.5)
			for i := 0; i < bm.N; i++ {
				ps.evalW(x, &e)
				evalSink = ps.hessW(&e).mat()
				x.X += 1e-9
			}
		})
	}
}

var sepSink bool

// BenchmarkSeparated: the separating-plane test on pairs 2% apart, with the
// midway point of the unmoved pair as the hint, and without a hint.
func BenchmarkSeparated(bm *testing.B) {
	for _, n := range []float64{2, 4, 10} {
		for _, hint := range []bool{true, false} {
			bm.Run(fmt.Sprintf("n=%g/hint=%v", n, hint), func(bm *testing.B) {
				const k = 32
				a, b, pas, pbs := benchPairs(n, k)
				pts := make([]geom.Vec3, k)
				for i := range pbs {
					pbs[i].X = pbs[i].X.Scale(1.02 * (pbs[i].X.Norm() + 0.01) / pbs[i].X.Norm())
					pts[i] = Contact(a, pas[i], b, pbs[i], nil).Point
				}
				bm.ResetTimer()
				for it := 0; it < bm.N; it++ {
					i := it % k
					var h *geom.Vec3
					if hint {
						h = &pts[i]
					}
					sepSink = Separated(a, pas[i], b, pbs[i], h)
				}
			})
		}
	}
}
