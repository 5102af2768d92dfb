// Package analysis measures macroscopic quantities of granular assemblies
// from body positions: the angle of repose of a heap (S1 §3.3).
package analysis

import (
	"fmt"
	"math"
	"sort"

	"grainlab/sim/geom"
)

// Repose returns the angle of repose (degrees) of a conical heap resting on
// the floor z = floor: the heap axis is the vertical through the particles'
// horizontal centroid; the surface height h(ρ) in rings of width 2r is the
// highest particle top in the ring; the angle is atan of the least-squares
// slope of h(ρ) over the flank, the rings between 25% and 75% of the heap
// radius (where h falls to two particle sizes above the floor). r is a
// typical particle radius. At least 5 rings must lie on the flank.
func Repose(x []geom.Vec3, r, floor float64) (deg float64, err error) {
	if len(x) < 20 || !(r > 0) {
		return 0, fmt.Errorf("analysis: need ≥ 20 particles and r > 0 (got %d, %g)", len(x), r)
	}
	var cx, cy float64
	for _, p := range x {
		cx += p.X
		cy += p.Y
	}
	cx /= float64(len(x))
	cy /= float64(len(x))
	w := 2 * r
	top := map[int]float64{}
	for _, p := range x {
		k := int(math.Hypot(p.X-cx, p.Y-cy) / w)
		if h := p.Z + r - floor; h > top[k] {
			top[k] = h
		}
	}
	var rings []int
	for k := range top {
		rings = append(rings, k)
	}
	sort.Ints(rings)
	// Heap radius: the first ring, going out, whose top is below two particle sizes.
	edge := rings[len(rings)-1] + 1
	for _, k := range rings {
		if top[k] < 4*r {
			edge = k
			break
		}
	}
	lo, hi := int(0.25*float64(edge)), int(math.Ceil(0.75*float64(edge)))
	var n, sx, sy, sxx, sxy float64
	for _, k := range rings {
		if k < lo || k > hi || k >= edge {
			continue
		}
		rho, h := (float64(k)+0.5)*w, top[k]
		n++
		sx += rho
		sy += h
		sxx += rho * rho
		sxy += rho * h
	}
	if n < 5 {
		return 0, fmt.Errorf("analysis: the heap flank spans %d rings of width 2r (need ≥ 5): too few particles or a flat layer", int(n))
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return math.Atan(-slope) * 180 / math.Pi, nil
}
