package shape

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// Box returns the a×b×c box centred at the origin with edges along the axes:
// 8 vertices, 12 triangles, 12 convex and 6 flat edges. It panics when NewBox
// fails: use it for sizes known to be valid (tests, constants), and NewBox
// for sizes that come from input.
func Box(a, b, c float64) *Polyhedron {
	p, err := NewBox(a, b, c)
	if err != nil {
		panic(err)
	}
	return p
}

// NewBox is Box for sizes from input: an error, never a panic, when a side
// is not positive and finite, when the sides are so disparate that a face
// is degenerate relative to the box's diagonal (see degenerateAreaRel), or
// when the box is too large or small for its mass properties (see MaxSize).
func NewBox(a, b, c float64) (*Polyhedron, error) {
	name := fmt.Sprintf("box %gx%gx%g", a, b, c)
	for _, s := range []float64{a, b, c} {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, meshErr(name, ErrDegenerate, "sides must be positive and finite")
		}
	}
	x, y, z := a/2, b/2, c/2
	verts := []geom.Vec3{
		{X: -x, Y: -y, Z: -z}, {X: x, Y: -y, Z: -z}, {X: x, Y: y, Z: -z}, {X: -x, Y: y, Z: -z},
		{X: -x, Y: -y, Z: z}, {X: x, Y: -y, Z: z}, {X: x, Y: y, Z: z}, {X: -x, Y: y, Z: z},
	}
	return NewPolyhedron(name, verts, boxTris())
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
