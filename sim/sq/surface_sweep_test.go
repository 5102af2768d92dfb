package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// Continuity over convex edges and corners: a particle (n up to 10) whose
// extreme point against u pokes δ = 1% of its size into the cube at x is
// swept with u along a great circle in 3000 steps (each feature switch
// located to 1e-12 rad by bisection): over the edge x = z = 1
// from the top face (θ = −20°) to the side face (110°), and over the corner
// (1, 1, 1) from above the top face through the corner's cone into the region
// of the vertical edge. There is always exactly one contact, the corner path
// visits the vertex; when the owning feature switches (facet ↔ edge ↔ vertex)
// the normal jumps by at most 1° and the gap by at most 25% of δ: at the
// switch the facet reports the depth of the extreme point, the edge or vertex
// the depth along the contact line through the feature point, which is
// smaller by O(δ²/ρ) (ρ the local radius of curvature of the particle).
// Exactly one contact also holds at every bisection point, i.e. within
// rounding of a region boundary (where both owners report and the duplicate
// is dropped).
func TestSurfaceSweepContinuity(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(47)))
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	cube := mustSurface(t, cv, ct)
	pw := Pose{Q: geom.QIdent()}
	shapes := 10
	if testing.Short() {
		shapes = 3
	}
	paths := []struct {
		name   string
		x      geom.Vec3
		u0, u1 geom.Vec3 // unit ends of the great-circle arc
		ang    float64
		kind   uint8 // a kind that must occur along the path
	}{
		{"edge", geom.V(1, 0.1, 1), geom.V(-math.Sin(20*math.Pi/180), 0, math.Cos(20*math.Pi/180)), geom.V(1, 0, 0), 130, KindEdge},
		{"corner", geom.V(1, 1, 1), geom.V(-0.3, -0.2, 1).Unit(), geom.V(1, 1.2, -0.3).Unit(), 0, KindVertex},
	}
	var out []SurfaceContact
	for _, path := range paths {
		// the great circle from u0 towards u1
		w := path.u1.Sub(path.u0.Scale(path.u1.Dot(path.u0))).Unit()
		total := math.Acos(path.u0.Dot(path.u1))
		if path.ang > 0 {
			total = path.ang * math.Pi / 180
		}
		worstGap, worstAng := 0.0, 0.0
		switches := 0
		for k := 0; k < shapes; k++ {
			s := randShape(rng, 10).Scaled(0.3)
			size := math.Max(s.A, math.Max(s.B, s.C))
			delta := 0.01 * size
			q := randQuat(rng)
			at := func(th float64) []SurfaceContact {
				u := path.u0.Scale(math.Cos(th)).AddScaled(math.Sin(th), w)
				return s.SurfaceContacts(placeNear(s, q, path.x, u, delta), cube, pw, 0, out[:0])
			}
			var prev SurfaceContact
			kinds := map[uint8]bool{}
			const steps = 3000
			for i := 0; i <= steps; i++ {
				th := total * float64(i) / steps
				out = at(th)
				if len(out) != 1 {
					t.Fatalf("%s, %+v at step %d: %d contacts %+v", path.name, s, i, len(out), out)
				}
				c := out[0]
				kinds[c.Kind] = true
				if i > 0 && c.Feature != prev.Feature {
					// localise the switch by bisection and compare both sides
					switches++
					lo, hi := total*float64(i-1)/steps, th
					a, b := prev, c
					for it := 0; it < 40; it++ {
						mid := (lo + hi) / 2
						out = at(mid)
						switch {
						case len(out) != 1:
							t.Fatalf("%s, %+v at θ = %g: %d contacts %+v", path.name, s, mid, len(out), out)
						case out[0].Feature == a.Feature:
							lo, a = mid, out[0]
						default:
							hi, b = mid, out[0]
						}
					}
					dg := math.Abs(b.Gap-a.Gap) / delta
					da := math.Acos(math.Min(1, b.Normal.Dot(a.Normal))) * 180 / math.Pi
					worstGap, worstAng = math.Max(worstGap, dg), math.Max(worstAng, da)
					if dg > 0.25 || da > 1 {
						t.Errorf("%s, %+v at step %d: switch %d → %d jumps the gap by %.3g·δ and the normal by %.3g°", path.name, s, i, a.Feature, b.Feature, dg, da)
					}
				}
				prev = c
			}
			if !kinds[path.kind] || len(kinds) < 2 {
				t.Errorf("%s, %+v: kinds seen %v, want kind %d among them", path.name, s, kinds, path.kind)
			}
		}
		t.Logf("%s: %d switches; worst gap jump %.3g·δ (tol 0.25), normal jump %.3g° (tol 1°)", path.name, switches, worstGap, worstAng)
	}
}
