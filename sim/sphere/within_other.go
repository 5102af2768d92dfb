//go:build !amd64 || purego || amd64.v3

package sphere

import "grainlab/sim/geom"

// within is withinGo (on amd64 below GOAMD64=v3, its loop in SSE2
// assembly: within_amd64.s).
func within(P []Pair, X []geom.Vec3, k int, cut2 float64) int {
	return withinGo(P, X, k, cut2)
}

// withinAsm reports whether within runs the assembly.
const withinAsm = false
