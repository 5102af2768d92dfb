package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// TestRVAnyFrameSound (review r1): relSelect's c0 and v_c replaced by
// frames off the free spheres' mean (a shift of c0 towards the floor and
// sideways, up to 0.2 Δ; a v_c off by up to half the speed limit, towards
// the floor): every result is the inner list off's to the bit, and the
// bound E holds on every tight pair (InnerRelBound).
func TestRVAnyFrameSound(t *testing.T) {
	defer world.SetInnerOn(world.SetInnerOn(true))
	defer world.SetInnerRelOn(world.SetInnerRelOn(true))
	defer world.SetRelFrameShift(nil)
	for _, sh := range []struct{ c, v geom.Vec3 }{
		{geom.Vec3{Z: -0.2}, geom.Vec3{}},
		{geom.Vec3{X: 0.12, Z: -0.12}, geom.Vec3{Z: -0.5}},
		{geom.Vec3{}, geom.Vec3{X: 0.5, Z: 0.3}},
		{geom.Vec3{Y: 0.15}, geom.Vec3{Z: 0.5}},
	} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("c%v/v%v/w%d", sh.c, sh.v, workers), func(t *testing.T) {
				run := func(inner, rel bool) (string, int, int) {
					world.SetInnerOn(inner)
					world.SetInnerRelOn(rel)
					world.SetRelFrameShift(func(c0, vc geom.Vec3, delta, dt float64) (geom.Vec3, geom.Vec3) {
						vl := delta / 4 / (8 * dt)
						return c0.Add(sh.c.Scale(delta)), vc.Add(sh.v.Scale(vl))
					})
					w := sphereLattice(t, 4000, []float64{0.001}, latticeSpec{pitch: 1.05, perLayer: 100, speed: 0.002, seed: [2]uint64{23, 1}})
					r := relFall(t, w, workers)
					sel, _ := world.InnerRelSelects(w)
					t.Logf("inner %v frame %v: %d steps in the frame, %d selections, bound on %d pairs, worst %.3g", inner, rel, r.used, sel, r.checked, r.worst)
					return r.out, r.used, sel
				}
				ref, _, _ := run(false, false)
				got, used, _ := run(true, true)
				if used < 100 {
					t.Fatalf("only %d steps in the frame: the case does not test it", used)
				}
				if got != ref {
					t.Fatal("a shifted frame changes the results")
				}
			})
		}
	}
}
