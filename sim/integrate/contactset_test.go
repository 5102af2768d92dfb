package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
)

// A cube settled on a face, an edge or a vertex carries its weight on exactly
// 4, 2 or 1 vertex–face contacts, shared equally (S0 §2.4.2, Fig. 4 and ex. 1).
func TestCubeRestingContactSets(t *testing.T) {
	const m, grav = 1.0, 9.81
	cases := []struct {
		name string
		q    geom.Quat
		want int
	}{
		{"face", geom.QIdent(), 4},
		{"edge", geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4), 2},
		{"vertex", geom.QAxisAngle(geom.V(0, 1, 0), -math.Atan(1/math.Sqrt2)).Mul(geom.QAxisAngle(geom.V(1, 0, 0), math.Pi/4)), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := groundWorld(t, cubeParams(1.0, 0))
			b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, c.q)
			lowestAt(b, 0.9e-3)
			w.AddBody(b)
			// On an edge or a vertex the cube is balanced by symmetry only
			// (an unstable equilibrium); 0.3 s of damping settles it first.
			run(t, w, 0.3, nil)
			cs := activeContacts(w)
			n := countKinds(cs)
			if n[snap.VF] != c.want || len(cs) != c.want {
				t.Fatalf("contacts %v (total %d), want %d VF", n, len(cs), c.want)
			}
			W := m * grav
			sum := 0.0
			for _, k := range cs {
				sum += k.Fn
				if math.Abs(k.Fn-W/float64(c.want)) > 0.01*W/float64(c.want) {
					t.Errorf("contact force %.6g N, want W/%d = %.6g N (±1%%)", k.Fn, c.want, W/float64(c.want))
				}
			}
			if fz := w.Walls[0].Force.Z; math.Abs(fz-W) > 0.01*W {
				t.Errorf("ground reaction %.6g N, want %.6g N (±1%%)", fz, W)
			}
		})
	}
}
