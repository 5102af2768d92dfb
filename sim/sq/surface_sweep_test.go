package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// Continuity over a convex edge: a particle (n up to 10) whose extreme point
// against u(θ) = (sin θ, 0, cos θ) pokes δ = 1% of its size into the cube edge
// x = z = 1, swept from θ = −20° (over the top face) to 110° (over the side
// face) in 0.02° steps, always has exactly one contact; when the owning
// feature switches (facet → edge → facet) the gap jumps by at most 10% of δ
// and the normal by at most 1°, and the normal turns from +z to +x.
func TestSurfaceEdgeSweepContinuity(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(47)))
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	cube := mustSurface(t, cv, ct)
	pw := Pose{Q: geom.QIdent()}
	shapes := 12
	if testing.Short() {
		shapes = 4
	}
	worstGap, worstAng := 0.0, 0.0
	switches := 0
	var out []SurfaceContact
	for k := 0; k < shapes; k++ {
		s := randShape(rng, 10).Scaled(0.3)
		size := math.Max(s.A, math.Max(s.B, s.C))
		delta := 0.01 * size
		q := randQuat(rng)
		var prev SurfaceContact
		const steps = 6500
		for i := 0; i <= steps; i++ {
			th := (-20 + 130*float64(i)/steps) * math.Pi / 180
			u := geom.V(math.Sin(th), 0, math.Cos(th))
			out = s.SurfaceContacts(placeNear(s, q, geom.V(1, 0.1, 1), u, delta), cube, pw, 0, out[:0])
			if len(out) != 1 {
				t.Fatalf("%+v at θ = %.2f°: %d contacts %+v", s, th*180/math.Pi, len(out), out)
			}
			c := out[0]
			if i == 0 && c.Normal.Dist(geom.V(0, 0, 1)) > 1e-12 || i == steps && c.Normal.Dist(geom.V(1, 0, 0)) > 1e-12 {
				t.Fatalf("%+v at θ = %.2f°: normal %v", s, th*180/math.Pi, c.Normal)
			}
			if i > 0 && c.Feature != prev.Feature {
				switches++
				dg := math.Abs(c.Gap-prev.Gap) / delta
				da := math.Acos(math.Min(1, c.Normal.Dot(prev.Normal))) * 180 / math.Pi
				worstGap, worstAng = math.Max(worstGap, dg), math.Max(worstAng, da)
				if dg > 0.1 || da > 1 {
					t.Errorf("%+v at θ = %.2f°: switch %d → %d jumps the gap by %.3g·δ and the normal by %.3g°", s, th*180/math.Pi, prev.Feature, c.Feature, dg, da)
				}
			}
			prev = c
		}
	}
	if switches < 2*shapes {
		t.Errorf("only %d feature switches in %d sweeps", switches, shapes)
	}
	t.Logf("%d switches; worst gap jump %.3g·δ (tol 0.1), normal jump %.3g° (tol 1°)", switches, worstGap, worstAng)
}
