package scene_test

import (
	"strconv"
	"testing"
	"time"

	"grainlab/sim/integrate"
	"grainlab/sim/internal/cputime"
	"grainlab/sim/scene"
)

// BenchmarkSetupSpheres times the set-up of sphere-box-soft with N spheres
// in a 0.2 × 0.2 × 0.5 m box on one worker: generating and placing them
// (scene.Build: world creation, generator) and integrate.Start (sphere path,
// first Verlet list, first evaluation). Besides ns/op it reports the
// process's CPU time per op (getrusage: user + sys, GC included) as
// build-cpu-s and start-cpu-s, the figures of docs/performance.md (the
// machine may be shared: CPU time, not wall time).
func BenchmarkSetupSpheres(b *testing.B) {
	for _, n := range []int{5000, 20000, 50000, 200000, 1000000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			sets := []string{"generators[0].count=" + strconv.Itoa(n),
				"generators[0].region.max=[0.2,0.2,0.5]", "walls[0].max=[0.2,0.2,0.5]"}
			var build, start time.Duration
			for b.Loop() {
				t0 := cputime.Process()
				s, err := scene.LoadBuiltin("sphere-box-soft", sets...)
				if err != nil {
					b.Fatal(err)
				}
				w, err := scene.Build(s)
				if err != nil {
					b.Fatal(err)
				}
				w.Settings.Workers = 1
				t1 := cputime.Process()
				if err := integrate.Start(w); err != nil {
					b.Fatal(err)
				}
				build, start = build+t1-t0, start+cputime.Process()-t1
			}
			b.ReportMetric(build.Seconds()/float64(b.N), "build-cpu-s")
			b.ReportMetric(start.Seconds()/float64(b.N), "start-cpu-s")
		})
	}
}
