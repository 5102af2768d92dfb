package world

import (
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// addGhostsImages is addGhosts as it was before session 22 (Periodic.images
// per body, then slices.Equal): the reference of TestAddGhostsAsImages.
func (w *World) addGhostsImages(gmax float64) {
	rmax := 0.0
	for _, r := range w.radii {
		rmax = max(rmax, r)
	}
	band := 2*rmax + gmax + w.skin
	nm := len(w.movable)
	prev := w.ghosts
	w.ghosts = w.ghostBuf[:0]
	var shifts []geom.Vec3
	for k := 0; k < nm; k++ {
		shifts = w.Periodic.images(w.centers[k], band, shifts[:0])
		for _, s := range shifts {
			w.ghosts = append(w.ghosts, ghost{int32(k), s})
		}
	}
	if !slices.Equal(prev, w.ghosts) {
		w.verlet.Invalidate()
	}
	w.ghostBuf = prev[:0]
	for _, g := range w.ghosts {
		w.centers = append(w.centers, w.centers[g.k].Add(g.shift))
		w.radii = append(w.radii, w.radii[g.k])
	}
}

// TestAddGhostsAsImages: addGhosts (the shifts written out per body) makes
// the same ghosts, centres and radii as Periodic.images did, in the same
// order, and invalidates the Verlet list exactly when the reference does
// (seen as the same rebuilds of the next Verlet.Update): 40 bodies moving
// by small random steps in boxes periodic in x, y or both (and neither),
// some placed exactly on a band's edge, over 300 steps each, so that the
// set of imaged bodies changes with and without a change of its size.
// It fails (checked) with the comparison with the last step's ghosts
// dropped, with a band edge tested with ≤ for <, or with the +l, −l shifts
// in the other order.
func TestAddGhostsAsImages(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	const nb, gmax, skin = 40, 1e-4, 2e-3
	for c, per := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}, {true, true}} {
		p := Periodic{X: per[0], Y: per[1], Lo: geom.V(-0.01, 0.02, 0), Hi: geom.V(0.05, 0.07, 0.3)}
		if c == 4 { // narrower than two bands in y: both images of a body
			p.Hi.Y = 0.035
		}
		mk := func() *World {
			w := &World{Periodic: p, skin: skin}
			w.movable = make([]int, nb)
			for i := range w.movable {
				w.movable[i] = i
			}
			return w
		}
		wa, wb := mk(), mk()
		pos := make([]geom.Vec3, nb)
		rad := make([]float64, nb)
		for i := range pos {
			pos[i] = geom.V(p.Lo.X+(p.Hi.X-p.Lo.X)*rng.Float64(), p.Lo.Y+(p.Hi.Y-p.Lo.Y)*rng.Float64(), 0.3*rng.Float64())
			rad[i] = 0.002 + 0.002*rng.Float64()
		}
		rebuilds := 0
		for step := 0; step < 300; step++ {
			for i := range pos {
				pos[i] = pos[i].Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(2e-4))
			}
			if step%50 == 7 { // on the band's edges: the comparisons' ties
				rmax := 0.0
				for _, r := range rad {
					rmax = max(rmax, r)
				}
				b := 2*rmax + gmax + skin
				pos[0].X, pos[1].X = p.Lo.X+b, p.Hi.X-b
				pos[2].Y, pos[3].Y = p.Lo.Y+b, p.Hi.Y-b
			}
			for _, w := range []*World{wa, wb} {
				w.centers = append(w.centers[:0], pos...)
				w.radii = append(w.radii[:0], rad...)
			}
			wa.addGhosts(gmax)
			wb.addGhostsImages(gmax)
			if !slices.Equal(wa.ghosts, wb.ghosts) {
				t.Fatalf("%v step %d: ghosts\n%v\nwant\n%v", per, step, wa.ghosts, wb.ghosts)
			}
			if !slices.Equal(wa.centers, wb.centers) || !slices.Equal(wa.radii, wb.radii) {
				t.Fatalf("%v step %d: centres or radii differ", per, step)
			}
			ra, _ := wa.verlet.Update(wa.centers, wa.radii, skin)
			rb, _ := wb.verlet.Update(wb.centers, wb.radii, skin)
			if ra != rb {
				t.Fatalf("%v step %d: rebuilt %v, reference %v", per, step, ra, rb)
			}
			if rb {
				rebuilds++
			}
		}
		if per[0] || per[1] {
			if rebuilds < 5 {
				t.Fatalf("%v: %d rebuilds: the ghosts never changed", per, rebuilds)
			}
		} else if len(wa.ghosts) != 0 {
			t.Fatalf("no periodic direction: %d ghosts", len(wa.ghosts))
		}
	}
	// Two bodies trading places across a band's edge by 2e-9 m: the same
	// number of ghosts, another set, the ghost where the other one was (the
	// same y, z): no displacement to speak of; the list
	// must be rebuilt (and is not when nothing changed).
	p := Periodic{X: true, Lo: geom.V(0, 0, 0), Hi: geom.V(0.1, 0.1, 0.3)}
	w := &World{Periodic: p, skin: skin, movable: []int{0, 1, 2}}
	rad := []float64{0.002, 0.002, 0.002}
	edge := p.Lo.X + 2*0.002 + gmax + skin
	for step, xs := range [][2]float64{{edge - 1e-9, edge + 1e-9}, {edge - 1e-9, edge + 1e-9}, {edge + 1e-9, edge - 1e-9}} {
		w.centers = append(w.centers[:0], geom.V(xs[0], 0.05, 0.1), geom.V(xs[1], 0.05, 0.1), geom.V(0.05, 0.05, 0.1))
		w.radii = append(w.radii[:0], rad...)
		w.addGhosts(gmax)
		if len(w.ghosts) != 1 {
			t.Fatalf("trade step %d: %d ghosts, want 1", step, len(w.ghosts))
		}
		rebuilt, _ := w.verlet.Update(w.centers, w.radii, skin)
		if want := step != 1; rebuilt != want {
			t.Fatalf("trade step %d: rebuilt %v, want %v", step, rebuilt, want)
		}
	}
}
