//go:build !amd64 || purego || amd64.v3

package sq

import "grainlab/sim/geom"

// evalWAsm reports whether evalW runs the assembly for n1 = n2 = 10.
const evalWAsm = false

// evalFG10SSE2 is evalFG here.
func evalFG10SSE2(q *prep, x *geom.Vec3, e *evalOut) { q.evalFG(*x, e) }

// meanCurv10SSE2 is meanCurvAt here.
func meanCurv10SSE2(q *prep, r *geom.Mat3, c, w *geom.Vec3) float64 { return q.meanCurvAt(r, c, *w) }

// evalW2SSE2 is evalWGo of A and of B here.
func evalW2SSE2(A, B *posed, w *geom.Vec3, ea, eb *evalOut) {
	A.evalWGo(*w, ea)
	B.evalWGo(*w, eb)
}

// evalW1SSE2 is evalWGo here.
func evalW1SSE2(ps *posed, w *geom.Vec3, e *evalOut) { ps.evalWGo(*w, e) }
