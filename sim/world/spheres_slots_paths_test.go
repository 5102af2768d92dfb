package world_test

import (
	"math/rand/v2"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// evalSlots' fast paths (a sphere off its wall, d ≥ r: the candidate test
// only; a deep, simple, still, seen slot touching: the closed-form facet
// contact) give the general evalSlot's results to the bit, field by field
// — every slot's flags, contact, force and history, the spheres' forces
// and moments, the seen table, the friction histories, the rim contacts,
// the sums (wall forces, energy, contacts, night owls) and whether a
// moment was added — over random states of the slots of 300 spheres
// (docs/performance.md, "Session 17: the sphere laws"): sphere-box-soft
// (frictionless Hooke, resting deep walls), sphere-piling (Hertz) with
// friction and without (a funnel: finite walls, rims), with its walls
// moving, and a periodic bed (no fast path). Each case must see every path taken.
func TestSlotFastPathsAsGeneral(t *testing.T) {
	cases := []struct {
		scene  string
		sets   []string
		moving bool
		off    bool // the off path can be taken (no periodic axis)
		touch  bool // the touching path can be taken (and a Hookean law)
	}{
		{"sphere-box-soft", []string{"generators.0.count=300"}, false, true, true},
		{"sphere-piling", []string{"generators.0.count=300"}, false, true, false},
		{"sphere-piling", []string{"generators.0.count=300", "contact.default.mu=0"}, false, true, false},
		{"sphere-piling", []string{"generators.0.count=300"}, true, true, false},
		{"periodic", nil, false, false, false}, // TestSphereWorkersWallsPeriodic's bed
	}
	for ci, c := range cases {
		var s *scene.Spec
		var err error
		if c.scene == "periodic" {
			s, err = scene.Parse([]byte(periodicBedYAML), "r2-periodic.yaml")
		} else {
			s, err = scene.LoadBuiltin(c.scene, c.sets...)
		}
		if err != nil {
			t.Fatal(err)
		}
		w := startBuilt(t, s)
		for range 400 {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		n, err := world.SlotPathsAgree(w, rand.New(rand.NewPCG(uint64(ci), 17)), 40, c.moving)
		if err != nil {
			t.Fatalf("%s %v (moving %v): %v", c.scene, c.sets, c.moving, err)
		}
		t.Logf("%s %v (moving %v): %+v", c.scene, c.sets, c.moving, n)
		if n.General == 0 || n.Touch == 0 || n.Cand == 0 || n.FirstSeen == 0 || c.off && n.Off == 0 || c.touch && n.Touching == 0 {
			t.Errorf("%s %v: %+v: a path or outcome never seen, the test tests too little", c.scene, c.sets, n)
		}
	}
}

// The wall slots of 10⁴ spheres of sphere-box-soft after 600 steps (falling
// along the walls: most slots off their plane), evaluated with the loop
// before session 17 (old) and evalSlots (new). Per slot: ns/op ÷ slots.
func BenchmarkWallSlots(b *testing.B) {
	s, err := scene.LoadBuiltin("sphere-box-soft", "generators.0.count=10000")
	if err != nil {
		b.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		b.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		b.Fatal(err)
	}
	for range 600 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			b.Fatal(err)
		}
	}
	for _, path := range []string{"old", "new"} {
		b.Run("path="+path, func(b *testing.B) {
			b.ReportMetric(float64(world.WallSlotCount(w)), "slots")
			for range b.N {
				world.EvalSlotsForBench(w, path == "old")
			}
		})
	}
}
