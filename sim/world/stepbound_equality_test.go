package world

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
)

// TestStableDtBelowBinderAtEquality: two identical 1 m cubes at rest under
// gravity, faces 2 mm apart (no contact, skin 1 mm): the pair's acceleration
// term binds and equals the world-wide travel bound exactly, so the visit
// skips the pair; the binder evaluated first must still enter the result
// (it did not: 1 s returned against a full bound of 3.57e-3 s).
func TestStableDtBelowBinderAtEquality(t *testing.T) {
	w := New("rev")
	n, _ := law.NewNormal(1e-3, 1, 1, 0.5, -2)
	_ = w.SetParams(0, 0, ContactParams{Normal: n, HasPoly: true})
	w.Settings.Workers, w.Settings.DtMax = 1, 1
	p := shape.Box(1, 1, 1)
	w.AddBody(body.New("a", p, 1000, geom.V(0, 0, 0), geom.QIdent()))
	w.AddBody(body.New("b", p, 1000, geom.V(1.002, 0, 0), geom.QIdent()))
	w.Evaluate(0, 0, Eval{})
	for k := 0; k < 3; k++ {
		full, _, _ := w.StableDtFull()
		if got := w.StableDtBelow(math.Inf(1)); got != full {
			t.Errorf("call %d: StableDtBelow(+Inf) = %g, full bound %g", k, got, full)
		}
	}
}
