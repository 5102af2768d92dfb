//go:build !amd64 || purego || amd64.v3

package contact

import "grainlab/sim/geom"

// vfSolve leaves every projection to VertexFace (state 2; on amd64 below
// GOAMD64=v3 it is VertexFace but for the tie rule in SSE2 assembly,
// vf_amd64.s).
func vfSolve(x, f1, f2, f3, p *geom.Vec3) (state int) { return 2 }
