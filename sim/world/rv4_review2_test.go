package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// Review rv4: one sphere's rows longer than a chunk of the list (a large
// sphere, 5 mm, in a shell of 70 small ones, 1 mm, pressed onto it) and
// parts that own no sphere: HookePart's chunk that lies wholly inside an
// earlier part's rows (e1 < lo) and two pair classes. The shell bursts
// outward; on 2, 3, 5, 9 and 16 workers (more workers than parts), every
// evaluation split, every step's energies, contacts and Δt and the final
// bodies are one worker's bits.
func TestReviewSpherePartsLongRows(t *testing.T) {
	run := func(workers int) (string, int, int) {
		w, proto := emptySphereBox(t,
			"walls.box.min=[-0.05, -0.05, -0.05]", "walls.box.max=[0.05, 0.05, 0.05]",
			"generators.s.region.min=[-0.05, -0.05, -0.05]", "generators.s.region.max=[0.05, 0.05, 0.05]")
		add := func(name string, r float64, x geom.Vec3) {
			b := body.NewSphere(name, r, proto.Density(), x)
			b.Material = proto.Material
			w.AddBody(b)
		}
		const n = 70
		for i := range n { // a Fibonacci shell, 0.1 mm into the large sphere
			z := 1 - (2*float64(i)+1)/n
			rho, phi := math.Sqrt(1-z*z), float64(i)*math.Pi*(3-math.Sqrt(5))
			add(fmt.Sprintf("s%d", i), 0.001, geom.V(rho*math.Cos(phi), rho*math.Sin(phi), z).Scale(0.0059))
			if i == n/3 {
				add("big", 0.005, geom.Vec3{})
			}
		}
		if err := integrate.Start(w); err != nil {
			t.Fatal(err)
		}
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		out, head, empty := "", 0, 0
		for range 400 {
			e, h := world.ReviewPartShapes(w)
			if h {
				head++
			}
			empty = max(empty, e)
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
			st := &w.Stats
			out += fmt.Sprintf("%x %x %x %d %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
		}
		w.SyncBodies()
		for _, b := range w.Bodies() {
			out += fmt.Sprintf("%x %x|", b.X, b.V)
		}
		t.Logf("%d workers: %d of 400 steps with a chunk inside an earlier part's rows, up to %d empty parts, %d contacts at the end",
			workers, head, empty, w.Stats.Contacts)
		return out, head, empty
	}
	ref, head, _ := run(1)
	if head == 0 {
		t.Fatal("no chunk lay inside a sphere's rows: the case is not exercised")
	}
	for _, nw := range []int{2, 3, 5, 9, 16} {
		if got, _, _ := run(nw); got != ref {
			t.Errorf("%d workers differ from one", nw)
		}
	}
}
