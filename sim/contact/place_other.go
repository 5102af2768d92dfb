//go:build !amd64 || purego || amd64.v3

package contact

import "grainlab/sim/geom"

// placeVerts is place (on amd64 below GOAMD64=v3, its loop in SSE2
// assembly: place_amd64.s).
func placeVerts(V, verts []geom.Vec3, x geom.Vec3, R *geom.Mat3, box *AABB) {
	place(V, verts, x, R, box)
}

// placeAsm reports whether placeVerts runs the assembly.
const placeAsm = false
