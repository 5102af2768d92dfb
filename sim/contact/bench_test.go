package contact

import (
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// tetrapodPairInContact returns two default tetrapods whose closest
// vertex–face gap is about half the skin ḡ = 5 mm.
func tetrapodPairInContact(tb testing.TB) (a, b *Posed, gbar float64) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		tb.Fatal(err)
	}
	gbar = 0.005
	rng := rand.New(rand.NewSource(3))
	for {
		qa := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		qb := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		a, b = &Posed{}, &Posed{}
		a.Update(tet, geom.Vec3{}, qa, false)
		for d := 2 * tet.Radius; d > 0; d -= 0.0005 {
			b.Update(tet, dir.Scale(d), qb, false)
			if g := closest(a, b); g < 0.5*gbar {
				if g > 0 {
					return a, b, gbar
				}
				break
			}
		}
	}
}

// Narrow phase of one tetrapod–tetrapod pair in contact, steady state: the
// feature-pair cache is valid, as it is on most steps of a settled pack.
func BenchmarkTetrapodPairCached(b *testing.B) {
	pa, pb, gbar := tetrapodPairInContact(b)
	var c Cache
	var s Scratch
	c.Build(pa, pb, gbar, 2*gbar, &s)
	out := Detect(pa, pb, gbar, &c, nil, nil)
	if len(out) == 0 {
		b.Fatal("no contact")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out = Detect(pa, pb, gbar, &c, nil, out[:0])
	}
	b.ReportMetric(float64(len(out)), "contacts")
}

// Narrow phase of one tetrapod–tetrapod pair in contact when the cache is
// rebuilt (the bodies moved more than the feature skin): feature boxes of
// both bodies, the second-level search and the local problems.
func BenchmarkTetrapodPairRebuild(b *testing.B) {
	pa, pb, gbar := tetrapodPairInContact(b)
	var c Cache
	var s Scratch
	var out []Contact
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Build(pa, pb, gbar, 2*gbar, &s)
		out = Detect(pa, pb, gbar, &c, nil, out[:0])
	}
	b.ReportMetric(float64(len(out)), "contacts")
}
