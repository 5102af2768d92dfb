//go:build amd64 && !purego && !amd64.v3

package contact

import "grainlab/sim/geom"

// vfSSE2 is VertexFace but for the tie rule, in SSE2 (vf_amd64.s): state 0
// when ok is false (a sliver face, or a barycentric coordinate below
// −ParamTol), 1 with the projection in p and ok true (vfInside), 2 with
// the projection in p and ok to be decided by degenInTriangle's tie rule.
//
//go:noescape
func vfSSE2(x, f1, f2, f3, p *geom.Vec3) (state int)

// vfProject is VertexFace's projection p and ok (the same bits; p is
// meaningless when ok is false), on scalar SSE2 (vf_amd64.s) but for the tie band
// and NaNs, where VertexFace itself runs. Below GOAMD64=v3 only, as
// placeVerts.
func vfProject(x, f1, f2, f3, p *geom.Vec3) bool {
	switch vfSSE2(x, f1, f2, f3, p) {
	case 0:
		return false
	case 1:
		return true
	}
	_, _, q, ok := VertexFace(*x, *f1, *f2, *f3)
	*p = q
	return ok
}
