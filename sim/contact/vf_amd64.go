//go:build amd64 && !purego && !amd64.v3

package contact

import "grainlab/sim/geom"

// vfSolve is VertexFace but for the tie rule, in SSE2 (vf_amd64.s, the
// same bits): state 0 when ok is false (a sliver face, or a barycentric
// coordinate below −ParamTol), 1 with the projection in p and ok true
// (vfInside), 2 when degenInTriangle's tie rule decides (in an edge's
// band, or NaN: the caller runs VertexFace). Below GOAMD64=v3 only, as
// placeVerts.
//
//go:noescape
func vfSolve(x, f1, f2, f3, p *geom.Vec3) (state int)
