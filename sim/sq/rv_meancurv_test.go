package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// oldRadiusAt is main 38d8bf3's RadiusAt body (mean branch), for a bit comparison.
func oldMeanRadius(p *Prepared, w geom.Vec3, q, rv float64) float64 {
	r := &p.r
	dx, dy, dz := w.X-p.x.X, w.Y-p.x.Y, w.Z-p.x.Z
	x := geom.Vec3{
		X: r[0][0]*dx + r[1][0]*dy + r[2][0]*dz,
		Y: r[0][1]*dx + r[1][1]*dy + r[2][1]*dz,
		Z: r[0][2]*dx + r[1][2]*dy + r[2][2]*dz,
	}
	u := &p.unit
	var e evalOut
	u.evalFG(x, &e)
	h := u.hess(&e)
	g := e.g
	g2 := g.Norm2()
	var k float64
	if g2 != 0 {
		ghg := h.xx*g.X*g.X + 2*h.xy*g.X*g.Y + h.yy*g.Y*g.Y + h.zz*g.Z*g.Z
		k = (g2*(h.xx+h.yy+h.zz) - ghg) / (2 * g2 * math.Sqrt(g2))
	}
	return radiusCapped(k, q, rv)
}

// TestRvMeanCurv10Edges: mm-scale grains, points at random exponents
// (subnormal to overflow), random bit patterns, tiny and huge shapes.
func TestRvMeanCurv10Edges(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	rnd := func() float64 {
		switch rng.Intn(5) {
		case 0:
			return math.Float64frombits(rng.Uint64())
		case 1:
			return math.Copysign(math.Float64frombits(uint64(rng.Intn(1<<20))), rng.NormFloat64()) // subnormal
		default:
			return rng.NormFloat64() * math.Pow(10, float64(rng.Intn(80)-40))
		}
	}
	n := 0
	for k := 0; k < 2000; k++ {
		sc := math.Pow(10, float64(rng.Intn(12)-8))
		s := Shape{A: sc * (0.2 + rng.Float64()), B: sc * (0.2 + rng.Float64()), C: sc * (0.2 + rng.Float64()), N1: 10, N2: 10}
		p := s.Prepare()
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		c := geom.Vec3{X: sc * rng.NormFloat64(), Y: sc * rng.NormFloat64(), Z: sc * rng.NormFloat64()}
		if k%3 == 0 {
			q = geom.Quat{W: 1}
		}
		p.Place(c, q)
		for j := 0; j < 50; j++ {
			var w geom.Vec3
			if j%2 == 0 {
				w = geom.Vec3{X: rnd(), Y: rnd(), Z: rnd()}
			} else {
				w = c.Add(geom.Vec3{X: sc * rnd(), Y: sc * rnd(), Z: sc * rnd()})
			}
			got := meanCurv10SSE2(&p.unit, &p.r, &p.x, &w)
			want := p.unit.meanCurvAt(&p.r, &p.x, w)
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("s %+v w %v: kernel %v Go %v", s, w, got, want)
			}
			r := p.RadiusAt(RadiusMean, w, 3, sc)
			r0 := oldMeanRadius(&p, w, 3, sc)
			if math.Float64bits(r) != math.Float64bits(r0) && !(math.IsNaN(r) && math.IsNaN(r0)) {
				t.Fatalf("s %+v w %v: RadiusAt %v, old %v", s, w, r, r0)
			}
			n++
		}
	}
	t.Logf("%d points", n)
}
