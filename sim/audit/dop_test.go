package audit

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// The widened dops hold the exact projections: for random points of mixed
// magnitudes and signs (where the float sums round), every exact
// projection (rational arithmetic) lies in the points' dop and in each
// triangle's, and vertexOut never puts a point outside its own set's dop.
// Without the widening (dopSlack → 0) the test fails.
func TestDopHoldsExactProjections(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	dirs := [dopDirs][3]int64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {1, -1, 0}, {1, 0, 1}, {1, 0, -1},
		{0, 1, 1}, {0, 1, -1}, {1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}}
	coord := func() float64 {
		return (rng.Float64() - 0.5) * math.Pow(2, float64(rng.Intn(60)-30))
	}
	outside := 0
	for trial := range 400 {
		n := 3 + rng.Intn(12)
		verts := make([]geom.Vec3, n)
		for i := range verts {
			verts[i] = geom.V(coord(), coord(), coord())
		}
		var tris [][3]int32
		for i := 0; i+2 < n; i++ {
			tris = append(tris, [3]int32{int32(i), int32(i + 1), int32(i + 2)})
		}
		m := prepare(verts, tris)
		m.setDop(make([][dopDirs]float64, n), make([]tdop, len(tris)))
		for i, v := range verts {
			for k, d := range dirs {
				ex := new(big.Rat)
				for c, x := range [3]float64{v.X, v.Y, v.Z} {
					ex.Add(ex, new(big.Rat).Mul(new(big.Rat).SetInt64(d[c]), new(big.Rat).SetFloat64(x)))
				}
				in := func(lo, hi float64) bool {
					return new(big.Rat).SetFloat64(lo).Cmp(ex) <= 0 && ex.Cmp(new(big.Rat).SetFloat64(hi)) <= 0
				}
				if !in(m.dop.lo[k], m.dop.hi[k]) {
					t.Fatalf("trial %d: vertex %d's exact projection on direction %v is outside [%g, %g]", trial, i, d, m.dop.lo[k], m.dop.hi[k])
				}
				for ti, f := range tris {
					if k >= 3 && (f[0] == int32(i) || f[1] == int32(i) || f[2] == int32(i)) &&
						!in(float64(m.tdop[ti].lo[k-3]), float64(m.tdop[ti].hi[k-3])) {
						t.Fatalf("trial %d: vertex %d outside triangle %d's dop on direction %v", trial, i, ti, d)
					}
				}
				if p := project(v)[k]; p != 0 && new(big.Rat).SetFloat64(p).Cmp(ex) != 0 {
					outside++ // a rounded projection: the case the widening is for
				}
			}
			if m.vertexOut(int32(i), &m.dop) {
				t.Fatalf("trial %d: vertex %d proved outside its own dop", trial, i)
			}
		}
	}
	if outside == 0 {
		t.Fatal("no projection rounded: the test does not exercise the widening")
	}
}

// octahedron returns the regular octahedron of vertices c ± e_i.
func octahedron(name string, c geom.Vec3) Solid {
	s := Solid{Name: name}
	for _, v := range []geom.Vec3{geom.V(1, 0, 0), geom.V(-1, 0, 0), geom.V(0, 1, 0), geom.V(0, -1, 0), geom.V(0, 0, 1), geom.V(0, 0, -1)} {
		s.Verts = append(s.Verts, c.Add(v))
	}
	for _, x := range []int32{0, 1} {
		for _, y := range []int32{2, 3} {
			for _, z := range []int32{4, 5} {
				s.Tris = append(s.Tris, [3]int32{x, y, z})
			}
		}
	}
	orientOutward(&s, c)
	return s
}

// Two solids whose dops are apart are skipped whole, and the skip is
// sound: octahedra face to face along (1, 1, 1), a hair apart (boxes
// overlapping, the dops apart on x+y+z), pass; a hair into each other, they
// fail as the oracle says.
func TestDopApartOctahedra(t *testing.T) {
	a := octahedron("a", geom.V(0, 0, 0))
	for _, gap := range []float64{1e-9, -1e-9} {
		s := 2.0/3 + gap
		b := octahedron("b", geom.V(s, s, s))
		ma, mb := prepare(a.Verts, a.Tris), prepare(b.Verts, b.Tris)
		ma.setDop(make([][dopDirs]float64, 6), make([]tdop, 8))
		mb.setDop(make([][dopDirs]float64, 6), make([]tdop, 8))
		if !ma.box.overlaps(mb.box) || ma.dop.overlaps(&mb.dop) != (gap < 0) {
			t.Fatalf("gap %g: boxes overlap %v, dops overlap %v", gap, ma.box.overlaps(mb.box), ma.dop.overlaps(&mb.dop))
		}
		got := sameAsOracle(t, "octahedra", []Solid{a, b}, nil, 0)
		if (gap > 0) != (len(got) == 0) {
			t.Fatalf("gap %g: violations %+v", gap, got)
		}
	}
}

// down32 and up32 bound x from below and above by the nearest float32s, at
// zero, the float32 range's ends and beyond, and at random magnitudes.
func TestRound32Outwards(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	xs := []float64{0, 1e-50, -1e-50, 1, -1, math.MaxFloat32, -math.MaxFloat32, 1e39, -1e39, math.Inf(1), math.Inf(-1),
		math.SmallestNonzeroFloat32 / 3, -math.SmallestNonzeroFloat32 / 3}
	for range 100000 {
		xs = append(xs, (rng.Float64()-0.5)*math.Pow(2, float64(rng.Intn(300)-150)))
	}
	for _, x := range xs {
		lo, hi := down32(x), up32(x)
		if !(float64(lo) <= x && x <= float64(hi)) {
			t.Fatalf("x = %g: down32 %g, up32 %g", x, lo, hi)
		}
		if n := math.Nextafter32(lo, float32(math.Inf(1))); float64(lo) != x && float64(n) <= x {
			t.Fatalf("x = %g: down32 %g is not the largest float32 below it (%g is)", x, lo, n)
		}
		if n := math.Nextafter32(hi, float32(math.Inf(-1))); float64(hi) != x && float64(n) >= x {
			t.Fatalf("x = %g: up32 %g is not the smallest float32 above it (%g is)", x, hi, n)
		}
	}
}
