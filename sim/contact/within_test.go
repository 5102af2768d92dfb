package contact

import (
	"fmt"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// AnyWithin gives Build's answer: on random poses of two tetrapods (and of
// a cube and a tetrapod) whose centres are 0.2 R to 2.2 R apart, for reaches
// from 0.1 mm to 1 m, AnyWithin(a, b, d) is true exactly when Build(a, b,
// d, 0) lists some feature pair by its listing alone (build without the
// hull proof); both answers must occur often, and near
// the boundary (reaches just above and below the least listed distance).
func TestAnyWithinMatchesBuild(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	shapes := [][2]*shape.Polyhedron{{tet, tet}, {shape.Box(0.3, 0.3, 0.3), tet}, {tet, shape.Box(0.2, 0.1, 0.4)}}
	rng := rand.New(rand.NewSource(5))
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	var s, s2 Scratch
	var c Cache
	yes, no, cases := 0, 0, 0
	check := func(a, b *Posed, d float64) {
		t.Helper()
		c.build(a, b, d, 0, &s, false)
		want := !c.Empty()
		if got := AnyWithin(a, b, d, &s2); got != want {
			t.Fatalf("case %d, reach %g: AnyWithin %v, Build's lists non-empty %v", cases, d, got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	reaches := []float64{1e-4, 1e-3, 0.005, 0.02, 0.1, 0.3, 1}
	for ; cases < 3000; cases++ {
		sh := shapes[cases%len(shapes)]
		var a, b Posed
		a.Update(sh[0], geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), rq(), false)
		dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		r := sh[0].Radius + sh[1].Radius
		b.Update(sh[1], a.X.Add(dir.Scale(r*(0.1+rng.Float64()))), rq(), false)
		d := reaches[rng.Intn(len(reaches))]
		check(&a, &b, d)
		// Near the boundary: the least listed distance at a wide reach, and
		// reaches just around it.
		c.build(&a, &b, 1, 0, &s, false)
		if m := c.dmin; m > 1e-6 && m < 1 {
			check(&a, &b, m*(1-1e-9))
			check(&a, &b, m*(1+1e-9))
		}
	}
	t.Logf("%d poses: %d non-empty, %d empty", cases, yes, no)
	if yes < 1000 || no < 1000 {
		t.Fatalf("%d non-empty, %d empty: the test does not probe both answers", yes, no)
	}
}

// interlocked returns two default tetrapods whose centres are 0.8 R apart,
// legs between legs: their lists at reach 0.1 m and more are non-empty.
func interlocked(tb testing.TB) (a, b *Posed) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewSource(9))
	for {
		qa := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		qb := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		a, b = &Posed{}, &Posed{}
		a.Update(tet, geom.Vec3{}, qa, false)
		b.Update(tet, dir.Scale(0.8*tet.Radius), qb, false)
		if closest(a, b) > 0.02 {
			return a, b
		}
	}
}

// The separation certificate of newmark's guard, "is any feature pair
// within d?", for two interlocked tetrapods: Build's lists then Empty,
// against AnyWithin.
func BenchmarkWithinInterlocked(b *testing.B) {
	pa, pb := interlocked(b)
	for _, d := range []float64{0.1, 0.3, 1} {
		b.Run(fmt.Sprintf("Build/%g", d), func(b *testing.B) {
			var c Cache
			var s Scratch
			for i := 0; i < b.N; i++ {
				c.Build(pa, pb, d, 0, &s)
				_ = c.Empty()
			}
		})
		b.Run(fmt.Sprintf("AnyWithin/%g", d), func(b *testing.B) {
			var s Scratch
			for i := 0; i < b.N; i++ {
				AnyWithin(pa, pb, d, &s)
			}
		})
	}
}

// The same when the answer is no (no early exit): two tetrapods in near
// contact, at the largest reach 10 mm·2⁻ᵏ at which their lists are empty.
func BenchmarkWithinApart(b *testing.B) {
	pa, pb, _ := tetrapodPairInContact(b)
	var c Cache
	var s Scratch
	d := 0.01
	for c.Build(pa, pb, d, 0, &s); !c.Empty(); c.Build(pa, pb, d, 0, &s) {
		d /= 2
	}
	b.Logf("reach %g m", d)
	b.Run("Build", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			c.Build(pa, pb, d, 0, &s)
			_ = c.Empty()
		}
	})
	b.Run("AnyWithin", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			AnyWithin(pa, pb, d, &s)
		}
	})
}
