package sq

import (
	"fmt"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

var surfSink []SurfaceContact

// BenchmarkSurfaceContacts: one SurfaceContacts call for a particle (sphere,
// or n1 = n2 = n) poking 1% of its size into a 4×4-split floor (one facet
// contact), the same floor split into 100×100 quads, a concave box corner (three), a convex cube edge (one edge
// contact) and a cube corner (one vertex contact); 32 random orientations.
func BenchmarkSurfaceContacts(bm *testing.B) {
	fv, ft := floorMesh(3, 4)
	iv, it := boxMesh(geom.V(-3, -3, 0), geom.V(3, 3, 6), true)
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	floor, box, cube := mustSurface(bm, fv, ft), mustSurface(bm, iv, it), mustSurface(bm, cv, ct)
	bv, bt := floorMesh(3, 100) // 20000 triangles, one facet
	big := mustSurface(bm, bv, bt)
	type scene struct {
		name string
		surf *Surface
		x, u geom.Vec3
		want int
	}
	scenes := []scene{
		{"floor", floor, geom.V(0.3, 0.2, 0), geom.V(0, 0, 1), 1},
		{"floor100", big, geom.V(0.3, 0.2, 0), geom.V(0, 0, 1), 1},
		{"corner3", box, geom.V(-3, -3, 0), geom.V(0, 0, 0), 3},
		{"edge", cube, geom.V(1, 0.1, 1), geom.V(1, 0, 1.3).Unit(), 1},
		{"vertex", cube, geom.V(1, 1, 1), geom.V(1, 0.9, 1.2).Unit(), 1},
	}
	shapes := []struct {
		name string
		s    Shape
	}{{"sphere", Sphere(0.4)}}
	for _, n := range []float64{2, 4, 6, 8, 10} {
		shapes = append(shapes, struct {
			name string
			s    Shape
		}{fmt.Sprintf("n=%g", n), Shape{0.5, 0.4, 0.3, n, n}})
	}
	for _, sc := range scenes {
		for _, sh := range shapes {
			bm.Run(sc.name+"/"+sh.name, func(bm *testing.B) {
				rng := rand.New(rand.NewSource(9))
				const k = 32
				poses := make([]Pose, k)
				size := 0.5
				if sh.name == "sphere" {
					size = 0.4
				}
				for i := range poses {
					q := randQuat(rng)
					if sc.want == 3 { // touch the three walls of the corner
						var c geom.Vec3
						for _, e := range []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
							_, h := sh.s.SupportWorld(Pose{Q: q}, e.Neg())
							c = c.AddScaled(sc.x.Dot(e)+h-0.01*size, e)
						}
						poses[i] = Pose{X: c, Q: q}
					} else {
						poses[i] = placeNear(sh.s, q, sc.x, sc.u, 0.01*size)
					}
				}
				pw := Pose{Q: geom.QIdent()}
				total := 0
				bm.ResetTimer()
				for i := 0; i < bm.N; i++ {
					surfSink = sh.s.SurfaceContacts(poses[i%k], sc.surf, pw, 0, surfSink[:0])
					total += len(surfSink)
				}
				bm.ReportMetric(float64(total)/float64(bm.N), "contacts/op")
			})
		}
	}
}
