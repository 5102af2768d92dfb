//go:build amd64 && !purego && !amd64.v3

package contact

import "grainlab/sim/geom"

// placeSSE2 is place's loop on SSE2 (place_amd64.s) for n ≥ 1 vertices;
// box holds the extremes to start from.
//
//go:noescape
func placeSSE2(dst, src *geom.Vec3, n int, x *geom.Vec3, R *geom.Mat3, box *AABB)

// placeVerts is place (the same bits), its loop in SSE2 assembly: about 32
// instructions a vertex against place's 60 (SSE2 is in every amd64 CPU).
// Below GOAMD64=v3 only: from v3 on the compiler may fuse place's products
// and sums into FMAs (as everywhere else in the program), and place itself
// runs (place_other.go).
func placeVerts(V, verts []geom.Vec3, x geom.Vec3, R *geom.Mat3, box *AABB) {
	if len(verts) == 0 {
		place(V, verts, x, R, box)
		return
	}
	V = V[:len(verts)]
	box.Min = geom.Vec3{X: 1e300, Y: 1e300, Z: 1e300}
	box.Max = box.Min.Neg()
	placeSSE2(&V[0], &verts[0], len(verts), &x, R, box)
}

// placeAsm reports whether placeVerts runs the assembly.
const placeAsm = true
