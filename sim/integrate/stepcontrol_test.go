package integrate

import (
	"grainlab/sim/internal/fma"
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// travelDtBelow(w, reach, limit) = min(travelDt(w, reach), limit) to the
// bit, whether or not it finds a body below the limit: three cubes dropped
// from 5, 20 and 40 cm (dt_max 0.1 s, so the travel bound of the bodies in
// flight sets the step until they land, S0 ex. 1 law), checked after every explicit step at limits around travelDt, at
// 1.25·Δt and at +Inf. Both outcomes must occur: the bound below the
// step's growth limit (in flight) and above it (on the ground). Both ways
// of finding the bodies' terms are checked: from World.BodyTravel (current
// after each step's StableDtBelow, and each body's terms equal to
// travelTerm's to the bit) and computed (the stamp made stale).
func TestTravelDtBelow(t *testing.T) {
	w := groundWorld(t, cubeParams(0.3, 0.3))
	w.Settings.DtMax = 0.1
	for i, h := range []float64{0.05, 0.2, 0.4} {
		b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(-0.6+0.4*float64(i), 0, 0), geom.QIdent())
		lowestAt(b, h+0.5e-3*float64(i))
		w.AddBody(b)
	}
	h := 0.5 * w.VerletSkin()
	run(t, w, 0.6, func() {
		if !w.TravelCurrent() {
			t.Fatalf("t=%.4g s: BodyTravel not current right after a step", w.Time)
		}
		for i, b := range w.Bodies() {
			v, a := w.BodyTravel(i)
			if b.Fixed || b.Wall >= 0 {
				continue
			}
			// To the bit where nothing fuses; on FMA builds (fma.MayFuse)
			// |J⁻¹T| is compiled twice (world's travelAcc, travelTerm) and
			// the copies fuse differently: a few ulps (1e-14 relative).
			if got, want := world.ApproachDt(h, v, a), travelTerm(b, h); !fma.Same(got, want, 1e-14, 0) {
				t.Fatalf("t=%.4g s: body %d's travel term from BodyTravel %v, travelTerm %v", w.Time, i, got, want)
			}
		}
		dt, td := w.Stats.Dt, travelDt(w, 0.5)
		for _, limit := range []float64{td, math.Nextafter(td, 0), math.Nextafter(td, 1), 0.5 * td, 2 * td, 1.25 * dt, math.Inf(1)} {
			want := math.Min(td, limit)
			if got := travelDtBelow(w, 0.5, limit); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("t=%.4g s: travelDtBelow(%g) = %v, want min(%v, limit) = %v", w.Time, limit, got, td, want)
			}
			t0 := w.Time
			w.Time = math.Nextafter(t0, math.Inf(1)) // the stamp stale: terms computed
			if w.TravelCurrent() {
				t.Fatal("BodyTravel current after the time moved")
			}
			if got := travelDtBelow(w, 0.5, limit); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("t=%.4g s: travelDtBelow(%g) computed = %v, want %v", w.Time, limit, got, want)
			}
			w.Time = t0
		}
	})
}
