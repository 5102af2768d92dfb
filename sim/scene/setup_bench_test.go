package scene_test

import (
	"runtime"
	"runtime/metrics"
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
// machine may be shared: CPU time, not wall time). gc-ms is the CPU time of
// one forced collection of the started world (the best of three, after one
// that frees the set-up's garbage) and scan-MB the heap the collector scans
// (runtime/metrics /gc/scan/heap:bytes): what every collection of the world
// costs (docs/performance.md, "Session 23: memory per sphere").
func BenchmarkSetupSpheres(b *testing.B) {
	for _, n := range []int{5000, 20000, 50000, 200000, 1000000} {
		b.Run("N="+strconv.Itoa(n), func(b *testing.B) {
			sets := []string{"generators[0].count=" + strconv.Itoa(n),
				"generators[0].region.max=[0.2,0.2,0.5]", "walls[0].max=[0.2,0.2,0.5]"}
			var build, start, gc time.Duration
			var scan uint64
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
				b.StopTimer() // ns/op stays the set-up's
				g, sc := collection()
				gc, scan = gc+g, scan+sc
				runtime.KeepAlive(w)
				b.StartTimer()
			}
			b.ReportMetric(build.Seconds()/float64(b.N), "build-cpu-s")
			b.ReportMetric(start.Seconds()/float64(b.N), "start-cpu-s")
			b.ReportMetric(gc.Seconds()*1e3/float64(b.N), "gc-ms")
			b.ReportMetric(float64(scan)/float64(b.N)/(1<<20), "scan-MB")
		})
	}
}

// collection returns the CPU time of one forced collection of the live heap
// (the best of three, after one that frees the garbage) and the bytes the
// collector scans.
func collection() (time.Duration, uint64) {
	runtime.GC()
	best := time.Duration(1 << 62)
	for range 3 {
		t0 := cputime.Process()
		runtime.GC()
		best = min(best, cputime.Process()-t0)
	}
	s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	return best, s[0].Value.Uint64()
}
