package world

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// Review r3 (s22): slotHits (with the clear box's skip) finds exactly the
// spheres and walls of axisBits over every sphere, also for centres placed
// on a zone's edge x = hi + (r + margin) and one ulp either side, at large
// offsets, with NaN and ±Inf centres and walls of every axis.
func TestRV22cSlotHitsClearBox(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for it := range 3000 {
		var ax [3][]slotAxisWall
		off := []float64{0, 1, 1e3, 1e6, -1e5}[it%5]
		nw := 1 + rng.Intn(8)
		for o := range nw {
			a := rng.Intn(3)
			lo := off + 10*rng.Float64()
			hi := lo + rng.Float64()*[]float64{0, 1e-9, 0.01, 1}[rng.Intn(4)]
			ax[a] = append(ax[a], slotAxisWall{lo: lo, hi: hi, bit: 1 << o})
		}
		margin := rng.Float64() * 0.01
		n := 1 + rng.Intn(200)
		ref := make([]geom.Vec3, n)
		r := make([]float64, n)
		for k := range n {
			r[k] = 0.05 + 0.1*rng.Float64()
			c := [3]float64{off + 10*rng.Float64(), off + 10*rng.Float64(), off + 10*rng.Float64()}
			if k%3 == 0 { // on an edge of some wall's zone, or an ulp off
				a := rng.Intn(3)
				if len(ax[a]) > 0 {
					w := ax[a][rng.Intn(len(ax[a]))]
					hh := r[k] + margin
					v := w.hi + hh
					if rng.Intn(2) == 0 {
						v = w.lo - hh
					}
					switch rng.Intn(3) {
					case 1:
						v = math.Nextafter(v, math.Inf(1))
					case 2:
						v = math.Nextafter(v, math.Inf(-1))
					}
					c[a] = v
				}
			}
			if k == 7 && it%50 == 0 {
				c[rng.Intn(3)] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[it/50%3]
			}
			ref[k] = geom.V(c[0], c[1], c[2])
		}
		spec := make([]int32, n) // a species a sphere
		for k := range spec {
			spec[k] = int32(k)
		}
		hits, nh := slotHits(ref, spec, r, margin, &ax, nil)
		at, bitsN := 0, 0
		for k := range n {
			hh := r[k] + margin
			m := axisBits(ref[k].X, hh, ax[0]) | axisBits(ref[k].Y, hh, ax[1]) | axisBits(ref[k].Z, hh, ax[2])
			if m == 0 {
				continue
			}
			if at >= len(hits) || hits[at].k != int32(k) || hits[at].m != m {
				t.Fatalf("it %d: sphere %d (%v, r+m %g): hit %d wrong, want bits %b", it, k, ref[k], hh, at, m)
			}
			at++
			for ; m != 0; m &= m - 1 {
				bitsN++
			}
		}
		if at != len(hits) || nh != bitsN {
			t.Fatalf("it %d: %d hits (%d bits), want %d (%d)", it, len(hits), nh, at, bitsN)
		}
	}
}
