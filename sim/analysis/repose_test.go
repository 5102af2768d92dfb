package analysis

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// cone fills a cone of base radius R and slope angle deg with particles of
// radius r on a jittered lattice (every particle lies inside the cone).
func cone(R, deg, r float64, rng *rand.Rand) []geom.Vec3 {
	H := R * math.Tan(deg*math.Pi/180)
	var out []geom.Vec3
	for z := r; z < H; z += 2 * r {
		for x := -R; x <= R; x += 2 * r {
			for y := -R; y <= R; y += 2 * r {
				p := geom.V(x+0.3*r*rng.Float64(), y+0.3*r*rng.Float64(), z)
				if p.Z+r <= (R-math.Hypot(p.X, p.Y))*math.Tan(deg*math.Pi/180) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// A lattice-filled cone of known slope gives its angle back within 3°.
func TestReposeOfCone(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, deg := range []float64{20, 31, 40} {
		got, err := Repose(cone(0.05, deg, 0.001, rng), 0.001, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-deg) > 3 {
			t.Errorf("cone of %g°: measured %.1f° (±3°)", deg, got)
		}
	}
}

// A flat layer is refused rather than given an angle.
func TestReposeRefusesFlatLayer(t *testing.T) {
	var x []geom.Vec3
	for i := 0; i < 100; i++ {
		x = append(x, geom.V(float64(i%10)*0.002, float64(i/10)*0.002, 0.001))
	}
	if _, err := Repose(x, 0.001, 0, 0); err != ErrFlat {
		t.Errorf("a single layer: got error %v, want ErrFlat", err)
	}
}

// A heap fed by a funnel has a flat top under the outlet (a frustum): with
// inner set past the top, its flank angle comes back within 3°.
func TestReposeOfFunnelHeap(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	const r, top = 0.001, 0.015
	for _, deg := range []float64{20, 31, 40} {
		R := 0.012 + top/math.Tan(deg*math.Pi/180)
		var x []geom.Vec3
		for _, p := range cone(R, deg, r, rng) {
			if p.Z+r <= top {
				x = append(x, p)
			}
		}
		got, err := Repose(x, r, 0, 0.012+r) // a round outlet of radius 12 mm
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-deg) > 3 {
			t.Errorf("funnel heap of %g°: measured %.1f° (±3°)", deg, got)
		}
	}
}
