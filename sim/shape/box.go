package shape

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// Box returns the a×b×c box centred at the origin with edges along the axes:
// 8 vertices, 12 triangles, 12 convex and 6 flat edges. It panics unless
// every side is positive and finite.
func Box(a, b, c float64) *Polyhedron {
	for _, s := range []float64{a, b, c} {
		if !(s > 0) || math.IsInf(s, 0) {
			panic(fmt.Sprintf("shape.Box(%g, %g, %g): sides must be positive and finite", a, b, c))
		}
	}
	x, y, z := a/2, b/2, c/2
	verts := []geom.Vec3{
		{X: -x, Y: -y, Z: -z}, {X: x, Y: -y, Z: -z}, {X: x, Y: y, Z: -z}, {X: -x, Y: y, Z: -z},
		{X: -x, Y: -y, Z: z}, {X: x, Y: -y, Z: z}, {X: x, Y: y, Z: z}, {X: -x, Y: y, Z: z},
	}
	p, err := NewPolyhedron(fmt.Sprintf("box %gx%gx%g", a, b, c), verts, boxTris())
	if err != nil {
		panic(err) // unreachable for positive finite sides
	}
	return p
}

// boxTris triangulates the cube with the vertex numbering of Box, outward.
func boxTris() [][3]int32 {
	return [][3]int32{
		{0, 2, 1}, {0, 3, 2}, // z−
		{4, 5, 6}, {4, 6, 7}, // z+
		{0, 1, 5}, {0, 5, 4}, // y−
		{3, 7, 6}, {3, 6, 2}, // y+
		{0, 4, 7}, {0, 7, 3}, // x−
		{1, 2, 6}, {1, 6, 5}, // x+
	}
}
