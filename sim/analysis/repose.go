// Package analysis measures macroscopic quantities of granular assemblies
// from body positions: the angle of repose of a heap (S1 §3.3).
package analysis

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"grainlab/sim/geom"
)

// ErrFlat reports particles spread in a single layer: no heap, angle 0.
var ErrFlat = errors.New("analysis: the particles lie in a single layer (no heap)")

// Repose returns the angle of repose (degrees) of a heap resting on the
// floor z = floor: the heap axis is the vertical through the particles'
// horizontal centroid; the surface height h(ρ) in rings of width r/2 is the
// highest particle top in the ring; the heap edge is just past the outermost
// ring whose top is 2.5r or more (above one layer); the angle is atan of the
// least-squares slope of h(ρ) over the flank, the rings between
// max(inner, 0.25·edge) and 0.9·edge. inner excludes the top of a heap fed
// by a funnel (the outlet's half-diagonal plus a particle radius, say); r is
// a typical particle radius. At least 5 rings must lie on the flank. A
// single layer (no ring reaches 2.5r) gives ErrFlat.
func Repose(x []geom.Vec3, r, floor, inner float64) (deg float64, err error) {
	if len(x) < 20 || !(r > 0) || !(inner >= 0) {
		return 0, fmt.Errorf("analysis: need ≥ 20 particles, r > 0 and inner ≥ 0 (got %d, %g, %g)", len(x), r, inner)
	}
	var cx, cy float64
	for _, p := range x {
		cx += p.X
		cy += p.Y
	}
	cx /= float64(len(x))
	cy /= float64(len(x))
	w := r / 2
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
	first := int(inner / w)
	edge := 0 // one past the outermost ring above one layer
	for _, k := range rings {
		if top[k] >= 2.5*r {
			edge = k + 1
		}
	}
	if edge == 0 {
		return 0, ErrFlat
	}
	lo, hi := max(first, int(math.Ceil(0.25*float64(edge)))), int(0.9*float64(edge))
	var n, sx, sy, sxx, sxy float64
	for _, k := range rings {
		if k < lo || k > hi {
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
		return 0, fmt.Errorf("analysis: the heap flank spans %d rings of width r/2 (need ≥ 5): too few particles or a flat layer", int(n))
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return math.Atan(-slope) * 180 / math.Pi, nil
}
