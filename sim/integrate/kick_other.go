//go:build !amd64 || purego || amd64.v3

package integrate

import (
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// kickRun is kickRunGo (on amd64 below GOAMD64=v3, its loop in SSE2
// assembly: kick_amd64.s).
func kickRun(tl []sphere.Lin, spec []int32, cur int32, hm, m float64, g *geom.Vec3, s *kickSums) int {
	return kickRunGo(tl, spec, cur, hm, m, g, s)
}

// driftRun is driftRunGo (on amd64 below GOAMD64=v3, its loop in SSE2
// assembly: kick_amd64.s, its stores non-temporal with nt; here nt does
// nothing).
func driftRun(tl, al []sphere.Lin, X []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3, nt bool) int {
	return driftRunGo(tl, al, X, spec, cur, hm, dt, mg)
}

// kickRun1 is kickRun over spheres all of species cur (a system of one
// species); here kickRunGo itself, which tests each sphere's species (on
// amd64 below GOAMD64=v3 a loop that does not: kick1SSE2).
func kickRun1(tl []sphere.Lin, spec []int32, cur int32, hm, m float64, g *geom.Vec3, s *kickSums) int {
	return kickRunGo(tl, spec, cur, hm, m, g, s)
}

// kickRun1N is kickRun1 without the energies (lazy energies); here
// kickRunGoN (on amd64 below GOAMD64=v3 a loop that does not test the
// species: kick1NSSE2).
func kickRun1N(tl []sphere.Lin, spec []int32, cur int32, hm float64, s *kickSums) int {
	return kickRunGoN(tl, spec, cur, hm, s)
}

// driftRun1 is driftRun without nt over spheres all of species cur; here
// driftRunGo (on amd64 below GOAMD64=v3 a loop that does not test the
// species: drift1SSE2).
func driftRun1(tl, al []sphere.Lin, X []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3) int {
	return driftRunGo(tl, al, X, spec, cur, hm, dt, mg)
}

// driftRun1T is driftRunGoT over spheres all of species cur (on amd64
// below GOAMD64=v3 a loop that does not test the species: drift1TSSE2).
func driftRun1T(tl, al []sphere.Lin, X, ref []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3, t *listTest) int {
	return driftRunGoT(tl, al, X, ref, spec, cur, hm, dt, mg, t)
}

// kickAsm reports whether kickRun and driftRun run the assembly.
const kickAsm = false
