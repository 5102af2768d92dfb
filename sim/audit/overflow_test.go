package audit

import (
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// TestOverflowNotClean: near the float range (|x|+|y|+|z| overflows: the
// dop slack +Inf, bounds ±Inf or NaN) the dops must not make crossing or
// nested cubes clean (review r1, session 13: fails if the dops are trusted
// there and overlaps treats NaN as apart).
func TestOverflowNotClean(t *testing.T) {
	b := shape.Box(1, 1, 1)
	for _, f := range []float64{0.9e308, 0.6e308, 1e5, 0} {
		for _, sc := range []float64{1e304, 1e300, 1} {
			if f > 1e300 && sc == 1 {
				continue // a 1 m cube at 1e308 collapses to a point
			}
			mk := func(dx float64, s float64) Solid {
				vs := make([]geom.Vec3, len(b.Verts))
				for i, v := range b.Verts {
					vs[i] = v.Scale(s).Add(geom.V(dx*sc, 0, 0)).Add(geom.V(f, f, -f))
				}
				return Solid{Verts: vs, Tris: b.Tris()}
			}
			for name, pair := range map[string][]Solid{
				"crossing": {mk(0, sc), mk(0.5, sc)},
				"nested":   {mk(0, sc), mk(0.1, sc*0.2)},
			} {
				if got := Check(pair, nil, 0); len(got) == 0 {
					t.Fatalf("offset %g size %g, %s cubes: reported clean", f, sc, name)
				}
			}
		}
	}
}
