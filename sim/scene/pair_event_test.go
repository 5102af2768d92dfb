package scene_test

import (
	"slices"
	"testing"

	"grainlab/sim/scene"
)

// TestPairLawEvent: a scene event that sets a parameter of a material
// pair's law, named as the scene names it (contact.pairs[0].mu), applies
// when it comes — the pair g–w's Coulomb coefficient becomes 0, the default
// law's stays 0.5 — and is recorded as a live edit in the world's grammar
// (contact.g.w.mu). Review r3 (session 16): the run failed when the event
// came (exit 1), as World.SetParam knows pairs by their materials only.
func TestPairLawEvent(t *testing.T) {
	const doc = `
name: pair-event
time: 0.01
integrator: {name: explicit, dt: 1.0e-5}
contact:
  default: {model: hertz-material, youngs_modulus: 5.0e6, poisson_ratio: 0.3, restitution: 0.3, mu: 0.5}
  pairs:
    - {between: [g, w], mu: 0.5}
shapes:
  grain: {type: sphere, radius: 0.002}
bodies:
  - {shape: grain, material: g, density: 2500, position: [0, 0, 0.002]}
walls:
  - {name: floor, type: plane, point: [0, 0, 0], normal: [0, 0, 1], size: [0.1, 0.1], material: w}
events:
  - {at: 0, set: {"contact.pairs[0].mu": 0}}
`
	s, err := scene.Parse([]byte(doc), "pair-event.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	g, f := slices.Index(w.Materials, "g"), slices.Index(w.Materials, "w")
	if g < 0 || f < 0 {
		t.Fatalf("materials %v: want g and w", w.Materials)
	}
	if mu := w.Params(g, f).Smooth.Mu; mu != 0.5 {
		t.Fatalf("g–w μ %g before the event, want 0.5", mu)
	}
	if err := w.ApplyEvents(); err != nil {
		t.Fatalf("the event fails when it comes: %v", err)
	}
	if mu := w.Params(g, f).Smooth.Mu; mu != 0 {
		t.Errorf("g–w μ %g after the event, want 0", mu)
	}
	if mu := w.Params(g, g).Smooth.Mu; mu != 0.5 {
		t.Errorf("g–g μ %g after the event, want the default's 0.5", mu)
	}
	if n := len(w.Edits); n != 1 || w.Edits[0].Path != "contact.g.w.mu" {
		t.Errorf("edits %+v: want one, contact.g.w.mu", w.Edits)
	}
}
