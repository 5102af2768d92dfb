package broad

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// TestVerletOneRadius: a build of 5000 valid spheres of one radius keeps
// no radius a body (refRad nil, refOne the radius: fails when the radii
// are kept), and its displacement test answers as the test against a
// radius a body (the same Verlet with refRad filled with that radius)
// for moves, a radius grown, shrunk or not a number, a centre not
// finite, in serial and in parts (Fork); with two radii the radii are kept.
func TestVerletOneRadius(t *testing.T) {
	const n, r = 5000, 0.5
	rng := rand.New(rand.NewSource(24))
	for _, fork := range []bool{false, true} {
		c := make([]geom.Vec3, n)
		for i := range c {
			c[i] = geom.V(rng.Float64()*20, rng.Float64()*20, rng.Float64()*20)
		}
		rad := make([]float64, n)
		for i := range rad {
			rad[i] = r
		}
		var v Verlet
		if fork {
			v.Grid.Fork = func(n int, job func(worker, lo, hi int)) { job(0, 0, n) }
		}
		const skin = 0.2
		if rebuilt, _ := v.Update(c, rad, skin); !rebuilt {
			t.Fatal("no first build")
		}
		if v.refRad != nil || v.refOne != r {
			t.Fatalf("fork %v: one radius kept as refRad (%d) / refOne %v", fork, len(v.refRad), v.refOne)
		}
		ref := v // the same build, a radius a body
		ref.refRad = make([]float64, n)
		for i := range ref.refRad {
			ref.refRad[i] = r
		}
		edits := []func(c []geom.Vec3, rad []float64){
			func(c []geom.Vec3, rad []float64) {},
			func(c []geom.Vec3, rad []float64) { c[7].X += 0.09 },
			func(c []geom.Vec3, rad []float64) { c[7].X += 0.09; c[4000].Z -= 0.12 },
			func(c []geom.Vec3, rad []float64) { c[4999].Y += 0.3 },
			func(c []geom.Vec3, rad []float64) { rad[17] = r * (1 + 1e-16) },
			func(c []geom.Vec3, rad []float64) { rad[17] = math.Nextafter(r, 1) },
			func(c []geom.Vec3, rad []float64) { rad[17] = 0.25 },
			func(c []geom.Vec3, rad []float64) { rad[17] = math.NaN() },
			func(c []geom.Vec3, rad []float64) { rad[17] = math.Inf(1) },
			func(c []geom.Vec3, rad []float64) { c[3].Y = math.NaN() },
			func(c []geom.Vec3, rad []float64) { c[3].Z = math.Inf(-1) },
		}
		for e, edit := range edits {
			c2, rad2 := append([]geom.Vec3(nil), c...), append([]float64(nil), rad...)
			edit(c2, rad2)
			for _, rg := range [][2]int{{0, n}, {0, 10}, {4000, n}} {
				n1, a1, b1 := v.Test(c2, rad2, rg[0], rg[1])
				n2, a2, b2 := ref.Test(c2, rad2, rg[0], rg[1])
				if n1 != n2 || a1 != a2 || b1 != b2 {
					t.Fatalf("fork %v edit %d range %v: one radius (%v %v %v), a radius a body (%v %v %v)", fork, e, rg, n1, a1, b1, n2, a2, b2)
				}
			}
		}
		// Two radii: kept a body.
		rad[9] = 0.45
		v.Invalidate()
		v.Update(c, rad, skin)
		if len(v.refRad) != n || v.refRad[9] != 0.45 || v.refRad[0] != r {
			t.Fatalf("fork %v: two radii not kept (%d)", fork, len(v.refRad))
		}
	}
}

// TestVerletSharesSlots: a Verlet's rebuild lends the grid the storage of
// its reference positions for the slots (Grid.share): after each Update
// the grid holds no slots of its own (fails without the share: g.sl is
// the grid's 32 bytes a body), the pairs are a plain Grid's and the
// reference is the centres; one radius and several (oneLevel), a set with
// a huge sphere (the general steps), in serial and in parts, and the
// centres given in the reference's own storage (the grid then takes an
// array of its own for that call, and drops it).
func TestVerletSharesSlots(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	for _, set := range []string{"one", "two", "huge"} {
		for _, fork := range []bool{false, true} {
			const n = 6000
			c := make([]geom.Vec3, n)
			rad := make([]float64, n)
			for i := range c {
				c[i] = geom.V(rng.Float64()*22, rng.Float64()*22, rng.Float64()*22)
				rad[i] = 0.5
				if set != "one" && i%3 == 0 {
					rad[i] = 0.4
				}
			}
			if set == "huge" {
				rad[100] = 6
			}
			var v Verlet
			if fork {
				v.Grid.Fork = func(n int, job func(worker, lo, hi int)) { job(0, 0, n) }
			}
			for round := range 3 {
				for i := range c {
					c[i] = c[i].Add(geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(0.2))
				}
				cc := c
				if round == 2 { // the centres in the reference's storage
					cc = v.Ref()
					copy(cc, c)
				}
				v.Invalidate()
				rebuilt, got := v.Update(cc, rad, 0.1)
				if !rebuilt {
					t.Fatal("no rebuild")
				}
				var g Grid
				want := g.Pairs(c, rad, 0.05, nil, nil)
				if !slices.Equal(got, want) {
					t.Fatalf("%s fork %v round %d: %d pairs, a plain grid's %d", set, fork, round, len(got), len(want))
				}
				if v.Grid.sl != nil || v.Grid.share != nil {
					t.Fatalf("%s fork %v round %d: the grid keeps %d slots of its own", set, fork, round, len(v.Grid.sl))
				}
				if !slices.Equal(v.Ref(), c) {
					t.Fatalf("%s fork %v round %d: the reference is not the centres", set, fork, round)
				}
			}
		}
	}
}
