package world

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// TestAddGhostsAsImagesRandomBoxes (review r4): random boxes (negative
// corners, both axes narrower than two bands), radii changing per step
// (the band moves), non-finite centres, bodies on both edges and the
// ghosts replaced from outside between steps (as history.go's restore
// does): addGhosts agrees with the old code in ghosts, centres, radii and
// rebuilds.
func TestAddGhostsAsImagesRandomBoxes(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for c := 0; c < 200; c++ {
		lo := geom.V(rng.NormFloat64(), rng.NormFloat64(), 0)
		l := geom.V(0.01+0.05*rng.Float64(), 0.01+0.05*rng.Float64(), 0.3)
		p := Periodic{X: rng.Intn(3) > 0, Y: rng.Intn(3) > 0, Lo: lo, Hi: lo.Add(l)}
		nb := 1 + rng.Intn(30)
		skin := 1e-3 * rng.Float64()
		mk := func() *World {
			w := &World{Periodic: p, skin: skin}
			for i := 0; i < nb; i++ {
				w.movable = append(w.movable, i)
			}
			return w
		}
		wa, wb := mk(), mk()
		pos := make([]geom.Vec3, nb)
		rad := make([]float64, nb)
		for step := 0; step < 60; step++ {
			for i := range pos {
				pos[i] = geom.V(lo.X+l.X*(1.2*rng.Float64()-0.1), lo.Y+l.Y*(1.2*rng.Float64()-0.1), rng.Float64())
				rad[i] = 0.001 + 0.01*rng.Float64()
			}
			gmax := 1e-4 * rng.Float64()
			if step%5 == 0 {
				rmax := slices.Max(rad)
				b := 2*rmax + gmax + skin
				k := rng.Intn(nb)
				switch rng.Intn(4) {
				case 0:
					pos[k].X = p.Lo.X + b
				case 1:
					pos[k].X = p.Hi.X - b
				case 2:
					pos[k].Y = p.Lo.Y + b
				case 3:
					pos[k].Y = p.Hi.Y - b
				}
			}
			if step%13 == 0 {
				pos[rng.Intn(nb)].X = math.NaN()
				pos[rng.Intn(nb)].Y = math.Inf(-1)
			}
			if step%7 == 3 { // the ghosts replaced from outside (a restore)
				for _, w := range []*World{wa, wb} {
					w.ghosts = append(w.ghosts[:0], ghost{0, geom.V(p.Hi.X-p.Lo.X, 0, 0)})
				}
			}
			if step%11 == 5 { // steps where nothing moves
				step++
			}
			for _, w := range []*World{wa, wb} {
				w.centers = append(w.centers[:0], pos...)
				w.radii = append(w.radii[:0], rad...)
			}
			wa.addGhosts(gmax)
			wb.addGhostsImages(gmax)
			if !slices.Equal(wa.ghosts, wb.ghosts) {
				t.Fatalf("case %d step %d: ghosts\n%v\nwant\n%v", c, step, wa.ghosts, wb.ghosts)
			}
			eq := func(x, y []geom.Vec3) bool {
				return slices.EqualFunc(x, y, func(a, b geom.Vec3) bool {
					return math.Float64bits(a.X) == math.Float64bits(b.X) && math.Float64bits(a.Y) == math.Float64bits(b.Y) && math.Float64bits(a.Z) == math.Float64bits(b.Z)
				})
			}
			if !eq(wa.centers, wb.centers) || !slices.Equal(wa.radii, wb.radii) {
				t.Fatalf("case %d step %d: centres or radii differ", c, step)
			}
			ra, _ := wa.verlet.Update(wa.centers, wa.radii, skin)
			rb, _ := wb.verlet.Update(wb.centers, wb.radii, skin)
			if ra != rb {
				t.Fatalf("case %d step %d: rebuilt %v, reference %v", c, step, ra, rb)
			}
		}
	}
}
