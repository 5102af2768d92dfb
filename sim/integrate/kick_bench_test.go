package integrate

import (
	"fmt"
	"math/rand"
	"runtime"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/internal/cputime"
	"grainlab/sim/sphere"
)

// kickBenchN is the 10⁵ box's sphere count: the loops' working set (7.2 MB
// of sphere.Lin a stream) as in issue 16's benchmark.
const kickBenchN = 100000

func kickBenchState() ([]sphere.Lin, []sphere.Lin, []geom.Vec3, []int32) {
	return kickBenchStateN(kickBenchN)
}

// kickBenchStateN is kickBenchState's arrays for n spheres.
func kickBenchStateN(n int) ([]sphere.Lin, []sphere.Lin, []geom.Vec3, []int32) {
	r := rand.New(rand.NewSource(1))
	al, tl := make([]sphere.Lin, n), make([]sphere.Lin, n)
	for i := range al {
		al[i] = sphere.Lin{X: kickVec(r, 0), V: kickVec(r, 0), F: kickVec(r, 0)}
	}
	copy(tl, al)
	return tl, al, make([]geom.Vec3, n), make([]int32, n)
}

// BenchmarkKickRun: sphereKick's loop under the rotational skip over 10⁵
// spheres of one species, the assembly (kickRun; Go on other builds)
// against the Go twin. ns/op / 10⁵ is the time a sphere.
func BenchmarkKickRun(b *testing.B) {
	tl, _, _, spec := kickBenchState()
	g := geom.Vec3{Z: -9.81}
	for _, c := range []struct {
		name string
		run  func([]sphere.Lin, []int32, int32, float64, float64, *geom.Vec3, *kickSums) int
	}{{"run", kickRun}, {"go", kickRunGo}} {
		b.Run(c.name, func(b *testing.B) {
			var s kickSums
			for i := 0; i < b.N; i++ {
				c.run(tl, spec, 0, 1e-9, 1e-3, &g, &s)
			}
		})
	}
}

// BenchmarkDriftRun: sphereKickDrift's loop without the list test over 10⁵
// and 10⁶ spheres of one species, driftRun with normal and non-temporal
// stores (nt: driftNTSSE2 on amd64 v1) against the Go twin.
func BenchmarkDriftRun(b *testing.B) {
	mg := geom.Vec3{Z: -9.81e-3}
	for _, n := range []int{kickBenchN, 10 * kickBenchN} {
		tl, al, X, spec := kickBenchStateN(n)
		for _, c := range []struct {
			name string
			run  func([]sphere.Lin, []sphere.Lin, []geom.Vec3, []int32, int32, float64, float64, *geom.Vec3) int
		}{
			{"run", func(tl, al []sphere.Lin, X []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3) int {
				return driftRun(tl, al, X, spec, cur, hm, dt, mg, false)
			}},
			{"nt", func(tl, al []sphere.Lin, X []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3) int {
				return driftRun(tl, al, X, spec, cur, hm, dt, mg, true)
			}},
			{"go", driftRunGo},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				c0 := int64(cputime.Thread())
				for i := 0; i < b.N; i++ {
					c.run(tl, al, X, spec, 0, 1e-9, 1e-6, &mg)
				}
				b.ReportMetric(float64(int64(cputime.Thread())-c0)/float64(b.N*n), "cpu-ns/sphere")
			})
		}
	}
}
