//go:build !amd64 || purego || amd64.v3

package contact

import "grainlab/sim/geom"

// vfProject is VertexFace's projection p and ok (p is meaningless when ok
// is false; on amd64 below GOAMD64=v3 in SSE2 assembly, vf_amd64.s).
func vfProject(x, f1, f2, f3, p *geom.Vec3) bool {
	_, _, q, ok := VertexFace(*x, *f1, *f2, *f3)
	if ok {
		*p = q
	}
	return ok
}
