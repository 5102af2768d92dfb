package audit

import (
	"fmt"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// TestRV5LatticeSameAsOracle (review rv5): axis-aligned boxes on a half-integer
// lattice (rays from vertices run along edges and through vertices, faces are
// coplanar with neighbours' faces, points lie on faces), some open (a
// triangle dropped), some as triangle soups (duplicate vertices), some
// inverted, walls on lattice planes, at scales 1, 1e100, 1e-100 and
// 1e-6 at an offset of 1e3: Check's
// verdicts equal the oracle's. (At 1e-150 and 1e150 they differ: both
// break there, see TestRV5ScaleInvariance.)
func TestRV5LatticeSameAsOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	id := geom.Quat{W: 1}
	n := 0
	for _, sc := range []float64{1, 1e100, 1e-100, 1e-6} {
		off := geom.V(1e3, -1e3, 1e3).Scale(float64(map[bool]int{true: 1}[sc == 1e-6]))
		for round := range 60 {
			var solids []Solid
			for i := range 12 {
				c := geom.V(float64(rng.Intn(6)), float64(rng.Intn(6)), float64(rng.Intn(6))).Scale(0.5 * sc).Add(off)
				h := geom.V(float64(1+rng.Intn(3)), float64(1+rng.Intn(3)), float64(1+rng.Intn(3))).Scale(0.5 * sc)
				s := box("b", c, h, id)
				switch (i + round) % 5 {
				case 1: // open
					s.Tris = s.Tris[:len(s.Tris)-1]
				case 2: // soup: duplicate vertices
					var vs []geom.Vec3
					var ts [][3]int32
					for _, tr := range s.Tris {
						k := int32(len(vs))
						vs = append(vs, s.Verts[tr[0]], s.Verts[tr[1]], s.Verts[tr[2]])
						ts = append(ts, [3]int32{k, k + 1, k + 2})
					}
					s.Verts, s.Tris = vs, ts
				case 3: // inverted
					ts := make([][3]int32, len(s.Tris))
					for k, tr := range s.Tris {
						ts[k] = [3]int32{tr[0], tr[2], tr[1]}
					}
					s.Tris = ts
				}
				solids = append(solids, s)
			}
			gz := float64(rng.Intn(3))*0.5*sc + off.Z
			walls := []Surface{ground(gz, 10*sc)}
			for k := range walls[0].Verts {
				walls[0].Verts[k] = walls[0].Verts[k].Add(geom.V(off.X, off.Y, 0))
			}
			for _, tol := range []float64{0, 0.25 * sc} {
				n += len(sameAsOracle(t, fmt.Sprintf("lattice scale %g round %d", sc, round), solids, walls, tol))
			}
		}
	}
	t.Logf("%d violations, all as the oracle's", n)
}
