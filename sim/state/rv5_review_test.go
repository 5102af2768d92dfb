package state

import (
	"fmt"
	"strings"
	"testing"

	"grainlab/sim/world"
)

// TestRV5RestartVariants (review r5): a checkpoint taken at t1 (after a
// live edit, a wall switched off, in a periodic sphere world, at 5000
// spheres before the first renumbering) restarts to the same bits at t2.
// Hertz boxes of 2000–4000 spheres fail without c921fd5's history.go line;
// at 5000 spheres the restart differs in rounding with or without the
// list's reference in the file (logged, not asserted).
func TestRV5RestartVariants(t *testing.T) {
	pil := []string{"generators[0].count=60", "integrator.name=explicit"}
	cases := []struct {
		name   string
		scene  string
		sets   []string
		t1, t2 float64
		edit   func(w *world.World) error
		settle float64 // steps on after the edit before the checkpoint (0: none)
	}{
		{"mu edit then step", "sphere-piling", pil, 0.15, 0.165, func(w *world.World) error { return w.SetParam("contact.default.mu", 0.2) }, 0.152},
		{"mu edit no step", "sphere-piling", pil, 0.15, 0.165, func(w *world.World) error { return w.SetParam("contact.default.mu", 0.2) }, 0},
		{"wall off then step", "sphere-piling", pil, 0.15, 0.165, func(w *world.World) error { return w.SetWallEnabled("funnel_left", false) }, 0.152},
		{"wall off no step", "sphere-piling", pil, 0.15, 0.165, func(w *world.World) error { return w.SetWallEnabled("funnel_left", false) }, 0},
		{"periodic spheres", "sphere-piling", append([]string{"periodic.x=true", "periodic.y=true", "periodic.min=[-0.04,-0.04,0]", "periodic.max=[0.04,0.04,1]"}, pil...), 0.15, 0.165, nil, 0},
		{"periodic spheres wall off", "sphere-piling", append([]string{"periodic.x=true", "periodic.y=true", "periodic.min=[-0.04,-0.04,0]", "periodic.max=[0.04,0.04,1]"}, pil...), 0.15, 0.165, func(w *world.World) error { return w.SetWallEnabled("funnel_left", false) }, 0.152},
		{"hertz 5000 before reorder", "sphere-piling", []string{"generators[0].count=5000", "integrator.name=explicit"}, 0.0005, 0.05, nil, 0},
		{"hertz box 5000 before reorder", "sphere-box-soft", []string{"generators[0].count=5000", "generators[0].region.max=[0.0436,0.0436,0.0872]", "walls[0].max=[0.0436,0.0436,0.0872]", "contact.default.model=hertz-material", "contact.default.youngs_modulus=5e6", "contact.default.poisson_ratio=0.3", "contact.default.restitution=0.3", "contact.default.curvature=mean"}, 0.002, 0.03, nil, 0},
		{"hertz box 60", "sphere-box-soft", []string{"generators[0].count=60", "contact.default.model=hertz-material", "contact.default.youngs_modulus=5e6", "contact.default.poisson_ratio=0.3", "contact.default.restitution=0.3", "contact.default.curvature=mean"}, 0.002, 0.03, nil, 0},
		{"hertz box 3000", "sphere-box-soft", []string{"generators[0].count=3000", "generators[0].region.max=[0.0368,0.0368,0.0736]", "walls[0].max=[0.0368,0.0368,0.0736]", "contact.default.model=hertz-material", "contact.default.youngs_modulus=5e6", "contact.default.poisson_ratio=0.3", "contact.default.restitution=0.3", "contact.default.curvature=mean"}, 0.002, 0.03, nil, 0},
		{"hertz box 2000", "sphere-box-soft", []string{"generators[0].count=2000", "generators[0].region.max=[0.0322,0.0322,0.0644]", "walls[0].max=[0.0322,0.0322,0.0644]", "contact.default.model=hertz-material", "contact.default.youngs_modulus=5e6", "contact.default.poisson_ratio=0.3", "contact.default.restitution=0.3", "contact.default.curvature=mean"}, 0.002, 0.03, nil, 0},
		{"hertz box 4000", "sphere-box-soft", []string{"generators[0].count=4000", "generators[0].region.max=[0.0405,0.0405,0.081]", "walls[0].max=[0.0405,0.0405,0.081]", "contact.default.model=hertz-material", "contact.default.youngs_modulus=5e6", "contact.default.poisson_ratio=0.3", "contact.default.restitution=0.3", "contact.default.curvature=mean"}, 0.002, 0.03, nil, 0},
		{"5000 before reorder", "sphere-box-soft", []string{"generators[0].count=5000", "generators[0].region.max=[0.0436,0.0436,0.0872]", "walls[0].max=[0.0436,0.0436,0.0872]"}, 0.002, 0.02, nil, 0},
		{"5000 before reorder long", "sphere-box-soft", []string{"generators[0].count=5000", "generators[0].region.max=[0.0436,0.0436,0.0872]", "walls[0].max=[0.0436,0.0436,0.0872]"}, 0.002, 0.06, nil, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref, end := started(t, c.scene, c.sets...)
			to(t, ref, c.t1, end)
			if c.edit != nil {
				if err := c.edit(ref); err != nil {
					t.Fatal(err)
				}
			}
			if c.settle > 0 {
				to(t, ref, c.settle, end)
			}
			data, err := Encode(ref)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := Parse(data, "x")
			hasRef := f.History != nil && f.History.VerletRef != nil
			to(t, ref, c.t2, end)
			b, notes := restartFrom(t, data, false, c.scene, c.sets...)
			if len(notes) > 0 {
				t.Fatalf("notes: %v", notes)
			}
			to(t, b, c.t2, end)
			msg := fmt.Sprintf("verlet_ref in file: %v, steps %d vs %d", hasRef, ref.Steps, b.Steps)
			if d := diffBodies(ref, b); d != "" && strings.Contains(c.name, "5000") {
				t.Logf("%s: differs (≥ SphereReorderMin: rounding only, documented): %s", msg, d)
				return
			} else if d != "" {
				t.Fatalf("%s: differs: %s", msg, d)
			}
			t.Log(msg, ": identical")
		})
	}
}
