package validation

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"grainlab/sim/integrate"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// packed loads a built-in scene and restores a packed state saved by
// `grainlab run SCENE --time T` (its final.json, kept in testdata/).
func packed(b testing.TB, name, file string, sets ...string) *world.World {
	b.Helper()
	path := file
	if !strings.HasPrefix(file, "builtin:") {
		path = "testdata/" + file
		if _, err := os.Stat(path); err != nil {
			b.Skipf("%s missing: regenerate it as described in docs/performance.md", path)
		}
	}
	w := load(b, name, sets...)
	f, err := state.Read(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := state.Apply(w, f, path); err != nil {
		b.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		b.Fatal(err)
	}
	return w
}

// benchSteps times single explicit steps of w and reports the active
// contacts and the cost per contact per step.
func benchSteps(b *testing.B, w *world.World) {
	for i := 0; i < 20; i++ { // warm the caches and the step size
		if _, err := w.Integrator.Step(w, 1); err != nil {
			b.Fatal(err)
		}
	}
	contacts := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			b.Fatal(err)
		}
		contacts += w.Stats.Contacts
	}
	b.StopTimer()
	if contacts > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(contacts), "µs/contact")
		b.ReportMetric(float64(contacts)/float64(b.N), "contacts")
	}
}

// One full step (detect → laws → integrate) of S0 example 5's box of 564
// cubes, packed and at rest before the side walls are removed.
func BenchmarkStepBoxOfCubes564(b *testing.B) {
	benchSteps(b, packed(b, "box-of-cubes", "box-of-cubes-564-packed.json"))
}

// One full step of S0 example 6's box of 1005 tetrapods, packed.
func BenchmarkStepBoxOfTetrapods1005(b *testing.B) {
	benchSteps(b, packed(b, "box-of-tetrapods", "box-of-tetrapods-1005-packed.json", "generators.fill.count=1005"))
}

// One full step of the default 300-tetrapod box, packed.
func BenchmarkStepBoxOfTetrapods300(b *testing.B) {
	benchSteps(b, packed(b, "box-of-tetrapods", "builtin:box-of-tetrapods-300-packed"))
}

// One explicit step of the 218-sphere box of S2 §3.4 (Hookean, frictionless)
// in its soft variant (sphere-box-soft, 1000× below S2's stiffness), settled
// for 1 s (`grainlab run sphere-box-soft`, its final.json), on the sphere
// path (world.Spheres) with one worker, with two (split when measured
// faster, and always split), and, for comparison, on the generic stages;
// reports µs per particle-step, the unit of LAMMPS' timings.
func BenchmarkStepSphereBox218(b *testing.B) {
	for _, c := range []struct {
		name    string
		workers int
		split   world.SplitMode
		generic bool
	}{{"W1", 1, world.SplitAuto, false}, {"W2", 2, world.SplitAuto, false}, {"W2split", 2, world.SplitAlways, false}, {"W1generic", 1, world.SplitAuto, true}} {
		b.Run(c.name, func(b *testing.B) {
			w := packed(b, "sphere-box-soft", "sphere-box-soft-218-settled.json")
			w.Settings.Workers, w.Settings.SphereSplit, w.Settings.NoSpherePath = c.workers, c.split, c.generic
			benchSteps(b, w)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N)/218, "µs/particle")
		})
	}
}

// The first 0.05 s of the default 300-tetrapod collapse from its packed
// state (side walls gone), with one and two workers: one op is the whole
// run. Reports the steps and each stage's µs per step (world.Profile), so
// benchstat can compare stage by stage.
func BenchmarkCollapseTetrapods300(b *testing.B) {
	const span = 0.05
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("W%d", workers), func(b *testing.B) {
			var prof world.Profile
			var steps int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				w := packed(b, "box-of-tetrapods", "builtin:box-of-tetrapods-300-packed")
				w.Settings.Workers = workers
				p0, s0, end := w.Stats.Profile, w.Steps, w.Time+span
				b.StartTimer()
				stepTo(b, w, end)
				b.StopTimer()
				prof = w.Stats.Profile.Sub(p0)
				steps = w.Steps - s0
				b.StartTimer()
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(steps) }
			b.ReportMetric(float64(steps), "steps")
			b.ReportMetric(per(prof.Place+prof.Broad), "µs-place+broad/step")
			b.ReportMetric(per(prof.Cache), "µs-cache/step")
			b.ReportMetric(per(prof.Narrow), "µs-narrow/step")
			b.ReportMetric(per(prof.Laws), "µs-laws/step")
			b.ReportMetric(per(prof.Accumulate), "µs-accumulate/step")
			b.ReportMetric(per(prof.StepBound), "µs-bound/step")
			b.ReportMetric(per(prof.Integrate), "µs-integrate/step")
		})
	}
}

// stepTo advances w to the time end (one home for the stepping loop, which
// `valgrind --tool=callgrind --toggle-collect=...stepTo` counts alone).
func stepTo(b *testing.B, w *world.World, end float64) {
	for w.Time < end {
		if _, err := w.Integrator.Step(w, end-w.Time); err != nil {
			b.Fatal(err)
		}
	}
}
