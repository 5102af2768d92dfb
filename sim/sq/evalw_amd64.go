//go:build amd64 && !purego && !amd64.v3

package sq

import "grainlab/sim/geom"

// evalWAsm reports whether evalW runs the assembly for n1 = n2 = 10.
// Below GOAMD64=v3 only: from v3 on the compiler may fuse evalWGo's
// products and sums into FMAs, and evalWGo runs (evalw_other.go).
const evalWAsm = true

// evalFG10SSE2 is evalFG for n1 = n2 = 10 in SSE2 assembly: the same bits.
//
//go:noescape
func evalFG10SSE2(q *prep, x *geom.Vec3, e *evalOut)

// meanCurv10SSE2 is q.meanCurvAt(r, c, *w) (the mean curvature of S1
// eq. 39 at the body-frame point rᵀ(w − c)) for n1 = n2 = 10 in SSE2
// assembly: the same bits.
//
//go:noescape
func meanCurv10SSE2(q *prep, r *geom.Mat3, c, w *geom.Vec3) float64

// evalW2SSE2 is evalW of A into ea and of B into eb at w, both shapes with
// n1 = n2 = 10, in SSE2 assembly (one call for the two): the same bits.
//
//go:noescape
func evalW2SSE2(A, B *posed, w *geom.Vec3, ea, eb *evalOut)

// evalW1SSE2 is evalW for one n1 = n2 = 10 shape, rotated or ident, in
// SSE2 assembly: the same bits.
//
//go:noescape
func evalW1SSE2(ps *posed, w *geom.Vec3, e *evalOut)
