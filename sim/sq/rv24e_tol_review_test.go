package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// TestRv24eTightTolReach (review r5): how often a warm-started midway-point
// solve at Tol 1e-12 (the implicit integrators' setting) misses where the
// same solve at 1e-8 converges. A miss is a dropped contact in
// World.narrowSmoothIn (failed → e.cur empty, SQFailures++). Every pair in
// contact (≥ 200 a shape, up to 500) must reach 1e-12, warm and cold.
func TestRv24eTightTolReach(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	rq := func(s float64) geom.Quat {
		v := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		return geom.QFromRotVec(v.Scale(s))
	}
	for _, c := range []struct {
		name    string
		a       Shape
		aligned bool
	}{
		{"sphere n2", Shape{1e-3, 1e-3, 1e-3, 2, 2}, false},
		{"n4", Shape{1e-3, 1e-3, 1e-3, 4, 4}, false},
		{"n10 cube random", Shape{1e-3, 1e-3, 1e-3, 10, 10}, false},
		{"n10 cube face-to-face", Shape{1e-3, 1e-3, 1e-3, 10, 10}, true},
		{"n10 bed grain", Shape{1.5e-3, 1e-3, 0.8e-3, 10, 10}, true},
		{"n10 elongated 6:1", Shape{3e-3, 0.5e-3, 0.5e-3, 10, 10}, false},
		{"n10 elongated 6:1 aligned", Shape{3e-3, 0.5e-3, 0.5e-3, 10, 10}, true},
		{"n6 elongated 10:1", Shape{5e-3, 0.5e-3, 0.5e-3, 6, 6}, false},
		{"n2 elongated 10:1", Shape{5e-3, 0.5e-3, 0.5e-3, 2, 2}, false},
	} {
		tried, loose, tight, iters8, iters12, cold := 0, 0, 0, 0, 0, 0
		worst := 0.0
		for k := 0; k < 3000 && tried < 500; k++ {
			var pa, pb Pose
			pa.Q, pb.Q = rq(3), rq(3)
			r := max(c.a.A, c.a.B, c.a.C)
			dir := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			dir = dir.Scale(1 / dir.Norm())
			if c.aligned {
				pa.Q = rq(3)
				pb.Q = pa.Q.Mul(rq(1e-3))
				ax := []geom.Vec3{{X: c.a.A * 2}, {Y: c.a.B * 2}, {Z: c.a.C * 2}}[rng.Intn(3)]
				off := geom.Vec3{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}.Scale(0.6 * min(c.a.A, c.a.B, c.a.C))
				pb.X = pa.Q.Rotate(ax.Scale(0.999).Add(off))
			} else {
				pb.X = dir.Scale(r * (0.5 + 1.5*rng.Float64()))
			}
			r0 := ContactWith(Options{Tol: 1e-8, MaxIter: 60}, c.a, pa, c.a, pb, nil)
			if !r0.Converged || !r0.InContact {
				continue
			}
			tried++
			// the next evaluation: B moved by 1e-9 m and 1e-7 rad
			pb2 := pb
			pb2.X = pb.X.Add(geom.Vec3{X: 1e-9, Y: -1e-9, Z: 0.5e-9})
			pb2.Q = pb.Q.Mul(rq(1e-7))
			w := r0.Point
			r8 := ContactWith(Options{Tol: 1e-8, MaxIter: 60}, c.a, pa, c.a, pb2, &w)
			w = r0.Point
			r12 := ContactWith(Options{Tol: 1e-12, MaxIter: 60}, c.a, pa, c.a, pb2, &w)
			if !r8.Converged {
				loose++
			}
			if !r12.Converged {
				tight++
				if e, ok := r12.Err.(*ConvergenceError); ok {
					worst = math.Max(worst, e.Residual)
				}
			}
			if rc := ContactWith(Options{Tol: 1e-12, MaxIter: 60}, c.a, pa, c.a, pb2, nil); !rc.Converged {
				cold++
			}
			iters8 += r8.Iter
			iters12 += r12.Iter
		}
		t.Logf("%-26s pairs %3d  missed at 1e-8: %3d  at 1e-12: %3d (worst |Φ| %.2g), cold at 1e-12: %d  mean iters %.2f → %.2f",
			c.name, tried, loose, tight, worst, cold, float64(iters8)/float64(max(tried, 1)), float64(iters12)/float64(max(tried, 1)))
		if tried < 200 || tight > 0 || cold > 0 {
			t.Errorf("%s: %d pairs in contact; at 1e-12 %d warm and %d cold solves did not reach the tolerance", c.name, tried, tight, cold)
		}
	}
}
