package scene

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// Review rv25a: live edits between steps on a block world (no records)
// give the bits of the world built record by record (base's world): each
// edit applied to both at the same step, the run continued, every body and
// the statistics compared after each stretch.
func TestRV25aBlockLiveEdits(t *testing.T) {
	type op struct {
		name string
		do   func(t *testing.T, w *world.World)
	}
	sw := func(names ...string) func(t *testing.T, w *world.World) {
		return func(t *testing.T, w *world.World) {
			for _, name := range names {
				w.SetLazyBodies(false)
				in, err := integrate.NewFor(name, w)
				if err != nil {
					t.Fatal(err)
				}
				w.Integrator = in
				if err := integrate.Start(w); err != nil {
					t.Fatal(err)
				}
				for range 4 {
					if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
			}
		}
	}
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	eager, bigDt, rejected := false, 0.0, 0
	ops := []op{
		{"bigdt", func(t *testing.T, w *world.World) { bigDt = 2e-3 }},
		{"eager", func(t *testing.T, w *world.World) { eager = true; w.SetLazyBodies(false) }},
		{"param", func(t *testing.T, w *world.World) { must(w.SetParam("contact.default.gamma_n", 15)) }},
		{"friction", func(t *testing.T, w *world.World) {
			must(w.SetParam("contact.default.kt", 5))
			must(w.SetParam("contact.default.mu", 0.5))
		}},
		{"wall-off", func(t *testing.T, w *world.World) { must(w.SetWallEnabled(w.Walls[0].Name, false)) }},
		{"wall-on", func(t *testing.T, w *world.World) { must(w.SetWallEnabled(w.Walls[0].Name, true)) }},
		{"law", func(t *testing.T, w *world.World) {
			must(w.SetLaw("contact.default", world.LawEdit{Kind: "linear", Values: map[string]float64{"gbar": 1e-4}}))
		}},
		{"shape", func(t *testing.T, w *world.World) { must(w.SetSmoothShape(0, sq.Sphere(0.00095))) }},
		{"addbody", func(t *testing.T, w *world.World) {
			b := body.NewSphere("extra", 0.001, 2500, geom.V(0.006, 0.006, 0.2))
			b.SetGroup("s")
			w.AddBody(b)
		}},
		{"byname", func(t *testing.T, w *world.World) {
			w.SyncBodies()
			i := w.BodyByName("s7")
			if i < 0 {
				t.Fatal("no s7")
			}
			w.Bodies()[i].V = geom.V(0.1, -0.05, 0.2)
			w.Bodies()[i].W = geom.V(3, 0, 1)
		}},
		{"switch", sw("newmark", "variational", "cd", "explicit")},
	}
	type scen struct {
		sets []string
		ops  []string
	}
	base := []string{"generators[0].count=2500", "generators[0].region.max=[0.03,0.03,0.24]", "walls[0].max=[0.03,0.03,0.24]"}
	small := []string{"generators[0].count=300"}
	scens := []scen{
		{base, []string{"param", "friction", "wall-off", "wall-on"}},
		{small, []string{"switch", "friction"}},
		{append(append([]string{}, small...), "integrator.name=newmark", "integrator.dt=1e-3", "integrator.dt_max=1e-3"), []string{"param"}},
		{base, []string{"wall-off", "wall-on", "param"}},
		{base, []string{"shape"}},
		{base, []string{"addbody", "friction"}},
		{base, []string{"byname", "param"}},
		{base, []string{"wall-off", "friction", "wall-on", "byname"}},
		{append(append([]string{}, base...), "generators[0].velocity=[0.3,0.2,-0.1]", "contact.default.kt=5", "contact.default.mu=0.5"), []string{"wall-off", "byname"}},
		{append(append([]string{}, small...), "generators[0].velocity=[0.3,0.2,-0.1]", "contact.default.kt=5", "contact.default.mu=0.5"), []string{"switch"}},
	}
	fr := append(append([]string{}, base...), "contact.default.kt=5", "contact.default.mu=0.5")
	scens = append(scens,
		scen{fr, []string{"eager", "wall-off"}},
		scen{fr, []string{"bigdt", "eager", "wall-off"}},
		scen{fr, []string{"eager", "bigdt", "wall-off"}},
		scen{base, []string{"bigdt", "wall-off"}},
		scen{base, []string{"bigdt", "eager", "wall-off"}},
		scen{append(append([]string{}, small...), "generators[0].velocity=[0.3,0.2,-0.5]"), []string{"eager", "bigdt", "wall-off"}},
		scen{append(append([]string{}, fr...), "integrator.safety=0.9", "integrator.dt=1e-4"), []string{"eager", "wall-off", "wall-on"}},
		scen{append(append([]string{}, small...), "contact.default.kt=5", "contact.default.mu=0.5", "integrator.safety=0.9", "integrator.dt=1e-4", "generators[0].velocity=[0.3,0.2,-0.5]"), []string{"eager", "wall-off", "wall-on"}},
	)
	for workers := 1; workers <= 2; workers++ {
		for si, sc := range scens {
			what := fmt.Sprintf("workers %d, %v", workers, sc.ops)
			eager, bigDt, rejected = false, 0, 0
			build := func(each bool) *world.World {
				makeEachGenerated = each
				defer func() { makeEachGenerated = false }()
				s, err := LoadBuiltin("sphere-box-soft", sc.sets...)
				if err != nil {
					t.Fatal(err)
				}
				w, err := Build(s)
				if err != nil {
					t.Fatal(err)
				}
				w.Settings.Workers = workers
				return w
			}
			got, want := build(false), build(true)
			if got.Virtual() == 0 {
				t.Fatal("no block")
			}
			for _, w := range []*world.World{got, want} {
				if err := integrate.Start(w); err != nil {
					t.Fatal(err)
				}
			}
			stretch := func(label string, n int) {
				for _, w := range []*world.World{got, want} {
					if w.Integrator.Name() == "explicit" && !eager {
						w.SetLazyBodies(true)
					}
					for range n {
						if bigDt > 0 {
							w.Dt = bigDt
						}
						if _, err := w.Integrator.Step(w, math.Inf(1)); err != nil {
							t.Fatalf("%s %s: %v", what, label, err)
						}
						if w == got {
							rejected += int(w.Stats.Rejected)
						}
					}
				}
				want.SyncBodies()
				got.SyncBodies()
				t.Logf("%s %s: after the stretch virtual %d, materializations %d, rejected %d, rot arrays %d", what, label, got.Virtual(), world.Materializations(), rejected, got.SphereRotArrays())
				if got.Time != want.Time || got.Steps != want.Steps {
					t.Fatalf("%s %s: t %v steps %d, one by one t %v steps %d", what, label, got.Time, got.Steps, want.Time, want.Steps)
				}
				gs, ws := got.Stats, want.Stats
				gs.Profile, ws.Profile = world.Profile{}, world.Profile{}
				if fmt.Sprint(gs) != fmt.Sprint(ws) {
					t.Fatalf("%s %s: stats\n%+v\none by one\n%+v", what, label, got.Stats, want.Stats)
				}
				compareEach(t, what+" "+label, got, want)
			}
			stretch("start", 40)
			for _, name := range sc.ops {
				for _, o := range ops {
					if o.name == name {
						v := got.Virtual()
						o.do(t, got)
						o.do(t, want)
						t.Logf("scenario %d %s: %s: virtual %d → %d", si, what, name, v, got.Virtual())
					}
				}
				stretch(name, 60)
			}
		}
	}
}

// Review rv25a: two worlds (a SimLoop and its Compare run each step their
// own world in their own goroutine) made into records at the same time:
// the package counter materializations is written by both (-race).
func TestRV25aConcurrentMaterialize(t *testing.T) {
	var ws []*world.World
	for range 2 {
		s, err := LoadBuiltin("sphere-box-soft", "generators[0].count=2000")
		if err != nil {
			t.Fatal(err)
		}
		w, err := Build(s)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	done := make(chan int)
	for _, w := range ws {
		go func() { done <- len(w.Bodies()) }()
	}
	<-done
	<-done
}
