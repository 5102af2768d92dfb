package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// travelDtBelow must equal min(travelDt, limit) to the
// bit also when one body's travel term is NaN (a NaN speed or acceleration):
// travelDt's walk ignores that body (ApproachDt gives +Inf) and still finds
// the other bodies' terms, so the TravelFloor skip must not fire on a NaN.
// Go's max propagates NaN into the world's sMax/accMax, and ApproachDt maps
// a NaN to +Inf: TravelFloor must return NaN there (found by review r3).
func TestTravelFloorNaNDoesNotSkip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(nan *body.Body)
	}{
		{"NaN speed, polyhedron", func(b *body.Body) { b.V = geom.V(math.NaN(), 0, 0) }},
		{"NaN spin, polyhedron", func(b *body.Body) { b.W = geom.V(0, math.NaN(), 0) }},
		{"NaN speed, fixed body", func(b *body.Body) { b.Fixed = true; b.V = geom.V(math.NaN(), 0, 0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := groundWorld(t, cubeParams(0.3, 0.3))
			w.Settings.DtMax = 0.1
			a := body.New("nan", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(-0.6, 0, 0), geom.QIdent())
			lowestAt(a, 1)
			tc.setup(a)
			b := body.New("fast", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0.6, 0, 0), geom.QIdent())
			lowestAt(b, 1)
			b.V = geom.V(0, 0, -30)
			w.AddBody(a)
			w.AddBody(b)
			w.Integrator = &Explicit{}
			if err := Start(w); err != nil {
				t.Fatal(err)
			}
			td := travelDt(w, 0.5) // the fast body's term (the NaN one gives +Inf)
			if !(td < math.Inf(1)) {
				t.Fatalf("travelDt = %v, want the fast body's finite term", td)
			}
			limit := 10 * td
			sb := w.StableDtBelow(limit)
			if !w.TravelCurrent() {
				t.Fatal("BodyTravel not current after StableDtBelow")
			}
			h := 0.5 * w.VerletSkin()
			want := math.Min(td, sb)
			got := travelDtBelow(w, 0.5, sb)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("travelDtBelow = %v, want min(travelDt %v, limit %v) = %v (TravelFloor(h) = %v)", got, td, sb, want, w.TravelFloor(h))
			}
		})
	}
}
