package world

import (
	"errors"
	"math"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
)

// CheckFinite finds a NaN or ±Inf in any component of a body's state or in
// an energy, names the body and quantity, and passes a finite world
// (values near the float64 range included: no false alarm from overflow).
func TestCheckFinite(t *testing.T) {
	mk := func() *World {
		w := &World{}
		w.bodies = []*body.Body{
			body.NewSphere("a", 1, 1000, geom.V(0, 0, 1e308)),
			body.NewSphere("b", 1, 1000, geom.V(0, 0, 1e308)),
		}
		w.Bodies()[1].V = geom.V(1e308, 1e308, 0)
		w.Time, w.Steps = 0.5, 7
		return w
	}
	if err := mk().CheckFinite(); err != nil {
		t.Fatalf("finite world: %v", err)
	}
	cases := []struct {
		set       func(w *World)
		body, qty string
	}{
		{func(w *World) { w.Bodies()[1].X.Y = math.NaN() }, "b", "position"},
		{func(w *World) { w.Bodies()[0].Q.Z = math.Inf(1) }, "a", "quaternion"},
		{func(w *World) { w.Bodies()[1].V.Z = math.Inf(-1) }, "b", "velocity"},
		{func(w *World) { w.Bodies()[0].W.X = math.NaN() }, "a", "angular velocity"},
		{func(w *World) { w.Stats.Kinetic = math.Inf(1) }, "", "kinetic energy"},
		{func(w *World) { w.Stats.PotentialContact = math.NaN() }, "", "contact potential energy"},
	}
	for _, c := range cases {
		w := mk()
		c.set(w)
		err := w.CheckFinite()
		var nf *NonFiniteError
		if !errors.As(err, &nf) || nf.Body != c.body || nf.Quantity != c.qty || nf.Step != 7 {
			t.Errorf("want body %q %s, got %v", c.body, c.qty, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "t=0.5") || !strings.Contains(msg, "parameter out of range") {
			t.Errorf("message %q lacks the time or the likely cause", msg)
		}
	}
}

// BodyStates.Restore puts back exactly what Save copied, time and steps too.
func TestBodyStatesRoundTrip(t *testing.T) {
	w := &World{bodies: []*body.Body{body.NewSphere("a", 1, 1000, geom.V(1, 2, 3))}}
	w.Bodies()[0].V, w.Time, w.Steps = geom.V(4, 5, 6), 1.25, 9
	var s BodyStates
	s.Save(w)
	w.Bodies()[0].X, w.Bodies()[0].V, w.Time, w.Steps = geom.V(math.NaN(), 0, 0), geom.V(0, 0, 0), 2, 10
	s.Restore(w)
	if b := w.Bodies()[0]; b.X != geom.V(1, 2, 3) || b.V != geom.V(4, 5, 6) || w.Time != 1.25 || w.Steps != 9 {
		t.Fatalf("restored %+v %+v t=%g steps=%d", b.X, b.V, w.Time, w.Steps)
	}
}
