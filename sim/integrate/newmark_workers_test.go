package integrate

import (
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// newmark's passes over bodies and pairs (the trial kinematics, the
// residual's rows, the tangent's blocks and law derivatives, the
// preconditioner, the tangent's product, the fraction to the boundary, the
// crossing guard) split over the world's workers and must give the same
// bits for any worker count: 128 cubes dropped in two layers onto the
// ground (so that every pass has more than parallelMin items: 128 bodies,
// ≥ 64 pairs in contact once the first layer lands), 120 newmark steps on 1, 2, 3
// and 5 workers, every body's state, the step sizes and the solver's
// counts compared with one worker's.
func TestNewmarkSameBitsAnyWorkers(t *testing.T) {
	run := func(workers int) (*world.World, *Newmark) {
		w := groundWorld(t, cubeParams(0.5, 0.4))
		w.Settings.Workers = workers
		for i := 0; i < 128; i++ {
			q := geom.QAxisAngle(geom.V(1, 0.3*float64(i%5), 0.2), 0.37*float64(i))
			b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(-0.7+0.16*float64(i%8), -0.6+0.16*float64((i/8)%8), 0), q)
			lowestAt(b, 0.004+0.12*float64(i/64))
			b.V = geom.V(0.2*float64(i%3-1), 0, -1)
			w.AddBody(b)
		}
		nm := NewNewmark()
		w.Integrator = nm
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 120; step++ {
			if _, err := nm.Step(w, 1); err != nil {
				t.Fatalf("workers %d, step %d: %v", workers, step, err)
			}
		}
		return w, nm
	}
	ref, nref := run(1)
	type pair struct{ a, b int }
	seen := map[pair]bool{}
	ref.EachContact(func(a, b int, c *contactT) { seen[pair{a, b}] = true })
	pairs := len(seen)
	t.Logf("one worker: %d steps to t = %.4g s, %d pairs in contact at the end, counts %+v", ref.Steps, ref.Time, pairs, nref.Counts)
	if pairs < 64 || nref.Counts.Tangents == 0 || nref.Counts.LinearIters == 0 {
		t.Fatalf("%d pairs in contact, %d tangents, %d GMRES iterations: the parallel passes were not exercised", pairs, nref.Counts.Tangents, nref.Counts.LinearIters)
	}
	for _, workers := range []int{2, 3, 5} {
		w, nm := run(workers)
		if w.Time != ref.Time || w.Dt != ref.Dt || nm.Counts != nref.Counts {
			t.Fatalf("workers %d: t %v dt %v counts %+v; one worker: t %v dt %v counts %+v", workers, w.Time, w.Dt, nm.Counts, ref.Time, ref.Dt, nref.Counts)
		}
		for i, b := range w.Bodies() {
			r := ref.Bodies()[i]
			if b.X != r.X || b.V != r.V || b.Q != r.Q || b.W != r.W || b.F != r.F || b.T != r.T {
				t.Fatalf("workers %d, body %d differs: X %v / %v, W %v / %v", workers, i, b.X, r.X, b.W, r.W)
			}
		}
	}
}
