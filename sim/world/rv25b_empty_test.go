package world_test

import (
	"fmt"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// Review r2: one species, frictionless, one law, spheres far apart: the
// list is empty; its least Hookean spring bound must be +Inf (no pair).
func TestRV25bEmptyListHookeMin(t *testing.T) {
	w, proto := emptySphereBox(t, "walls.box.max=[0.2, 0.2, 0.2]", "generators.s.region.max=[0.2, 0.2, 0.2]", "contact.default.kn=10000")
	for i := range 8 {
		for j := range 8 {
			b := body.NewSphere(fmt.Sprintf("s%d_%d", i, j), proto.R, proto.Density(), geom.V(0.01+0.02*float64(i), 0.01+0.02*float64(j), 0.1))
			b.Material = proto.Material
			w.AddBody(b)
		}
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	for k := range 3000 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		hm, np := world.SphereHookeMinRV(w)
		if k%500 == 0 || hm < 1e300 {
			t.Logf("step %d: hookeMin %g, %d pairs, dt %g", k, hm, np, w.Stats.Dt)
		}
		if np == 0 && hm < 1e300 {
			t.Logf("builds %d", w.VerletBuilds())
			t.Errorf("step %d: empty list, hookeMin %g", k, hm)
		}
	}
}
