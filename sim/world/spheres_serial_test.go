package world

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// The serial loops of a split step taken to the crew (session 19): the
// displacement bound's largest reference coordinate (maxAbsRef) and
// StableDt's travel bounds of the pairs new to the list (freshDt). Each is
// a minimum or a maximum, the same bits in any order: the split answer
// must be the serial one to the bit, NaN included, and a split step must
// run it on the crew (one fork–join more: fails with the serial loops).

// splitSpheres is a Spheres of n spheres whose step is split on workers
// workers (passes: the round split, at least passMin spheres).
func splitSpheres(n, workers int) *Spheres {
	w := New("serial")
	w.Settings.Workers = workers
	s := &Spheres{w: w, idx: make([]int32, n)}
	s.round.split = true
	w.sph = s
	return s
}

func TestMaxAbsRefSplit(t *testing.T) {
	const n = 3 * passMin
	rng := rand.New(rand.NewSource(3))
	for _, tc := range []struct {
		name string
		at   int     // where the largest (or the NaN) is put
		v    float64 // its value
	}{
		{"first", 0, -7}, {"middle", n / 2, 9}, {"last", n - 1, -11}, {"nan", n/3 + 5, math.NaN()},
	} {
		ref := make([]geom.Vec3, n)
		for i := range ref {
			ref[i] = geom.V(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1)
		}
		ref[tc.at].Z = tc.v
		want := maxAbsCoord(ref)
		for _, workers := range []int{1, 2, 3} {
			s := splitSpheres(n, workers)
			f0 := s.w.Stats.Profile.ForkJoins
			got := s.maxAbsRef(ref)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s, %d workers: %v, serial %v", tc.name, workers, got, want)
			}
			if forks := s.w.Stats.Profile.ForkJoins - f0; workers > 1 && forks != 1 {
				t.Errorf("%s, %d workers: %d fork–joins, want 1 (the loop on the crew)", tc.name, workers, forks)
			}
			if s.disp.ref != nil {
				t.Errorf("%s: the reference kept after the pass", tc.name)
			}
		}
	}
}

// freshSpheres is a Spheres of n spheres on workers workers with a list of
// pairs (k, k+1), all of them fresh, of one Hookean class; speeds random,
// some spheres turning (wrOf), bad a sphere whose speed is NaN (−1: none).
func freshSpheres(n, workers, bad int) *Spheres {
	s := splitSpheres(n, workers)
	s.w.Settings.DtMax, s.w.Settings.DtMin = 1, 0
	rng := rand.New(rand.NewSource(5))
	s.tr.L = make([]sphere.Lin, n)
	s.tr.R = make([]sphere.Rot, n)
	s.spec = make([]int32, n)
	s.specs = make([]sphereSpec, 1)
	s.specs[0].r = 1e-3
	for k := range n {
		s.tr.L[k].V = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		if k%7 == 0 {
			s.tr.R[k].W = geom.V(0, rng.NormFloat64(), 0)
		}
	}
	if bad >= 0 {
		s.tr.L[bad].V.X = math.NaN()
	}
	l := &s.lists[s.cur]
	l.P = make([]sphere.Pair, n-1)
	s.isFresh = make([]bool, n-1)
	s.dt.cls = make([]int32, n-1)
	for k := range l.P {
		l.P[k].I, l.P[k].J = int32(k), int32(k+1)
		s.isFresh[k] = true
		s.fresh = append(s.fresh, int32(k))
	}
	s.dt.classes = []dtClass{{hooke: true, rmin: 1e-3}}
	s.dt.allHooke, s.dt.hookeMin, s.travel, s.slotSpring = true, math.Inf(1), math.Inf(1), math.Inf(1)
	return s
}

func TestStableDtFreshSplit(t *testing.T) {
	const n = 2 * freshSplitMin
	for _, bad := range []int{-1, 17, n - 3} {
		want := freshSpheres(n, 1, bad).StableDt()
		if bad < 0 && !(want > 0 && want < 1) {
			t.Fatalf("serial dt %v: the fresh pairs' bound not taken", want)
		}
		for _, workers := range []int{2, 3} {
			s := freshSpheres(n, workers, bad)
			f0 := s.w.Stats.Profile.ForkJoins
			got := s.StableDt()
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("NaN at %d, %d workers: dt %v, serial %v", bad, workers, got, want)
			}
			if forks := s.w.Stats.Profile.ForkJoins - f0; forks != 1 {
				t.Errorf("NaN at %d, %d workers: %d fork–joins, want 1 (the fresh pairs on the crew)", bad, workers, forks)
			}
			for k, f := range s.isFresh {
				if f {
					t.Fatalf("%d workers: pair %d still fresh", workers, k)
				}
			}
			if len(s.fresh) != 0 {
				t.Errorf("%d workers: %d fresh pairs left", workers, len(s.fresh))
			}
		}
	}
}
