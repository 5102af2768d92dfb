package broad

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
)

// Review r1: buckets carved from one array, then the pile collapses into a
// few cells (each bucket outgrows its room) on goroutines: the pairs equal
// a serial grid's, and brute force's count.
func TestRV18CarveOverflowForked(t *testing.T) {
	const n = 5000
	rng := rand.New(rand.NewSource(3))
	c := make([]geom.Vec3, n)
	r := make([]float64, n)
	for i := range r {
		r[i] = 0.01
	}
	var par, ser Grid
	par.Fork = forkGo
	for round, span := range []float64{10, 0.2, 10, 0.05, 3} {
		for i := range c {
			c[i] = geom.Vec3{X: rng.Float64() * span, Y: rng.Float64() * span, Z: rng.Float64() * span}
		}
		got := par.Pairs(c, r, 0.001, nil, nil)
		want := ser.Pairs(c, r, 0.001, nil, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: forked %d pairs, serial %d", round, len(got), len(want))
		}
		if span < 1 {
			cnt := 0
			for i := range n {
				for j := i + 1; j < n; j++ {
					if c[i].Sub(c[j]).Norm2() <= 0.022*0.022 {
						cnt++
					}
				}
			}
			if cnt != len(got) {
				t.Fatalf("round %d: %d pairs, brute force %d", round, len(got), cnt)
			}
		}
	}
}

// Review r1: a body invalid at the build (NaN centre or radius) then valid,
// and valid then invalid, asks for a rebuild; invalid at both does not.
func TestRV18VerletNaNRef(t *testing.T) {
	c := []geom.Vec3{{}, {X: 1}, {X: math.NaN()}}
	r := []float64{0.4, 0.4, 0.4}
	var v Verlet
	v.Update(c, r, 0.1)
	b := v.Builds()
	if need, _, _ := v.Test(c, r, 0, 3); need {
		t.Fatal("invalid at both: rebuild asked")
	}
	c[2] = geom.Vec3{X: 2}
	if need, _, _ := v.Test(c, r, 0, 3); !need {
		t.Fatal("invalid then valid: no rebuild")
	}
	v.Update(c, r, 0.1)
	r[1] = math.NaN()
	if need, _, _ := v.Test(c, r, 0, 3); !need {
		t.Fatal("valid then invalid radius: no rebuild")
	}
	v.Update(c, r, 0.1)
	r[1] = 0 // valid again, radius 0 < the NaN stored
	if need, _, _ := v.Test(c, r, 0, 3); !need {
		t.Fatal("NaN radius then 0: no rebuild")
	}
	r[0] = 0
	_ = b
}
