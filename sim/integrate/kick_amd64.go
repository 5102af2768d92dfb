//go:build amd64 && !purego && !amd64.v3

package integrate

import (
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// kickSSE2 is kickRunGo's loop on SSE2 (kick_amd64.s) over n ≥ 1 spheres.
//
//go:noescape
func kickSSE2(tl *sphere.Lin, spec *int32, n int, cur int32, hm, m float64, grav *geom.Vec3, s *kickSums) int

// driftSSE2 is driftRunGo's loop on SSE2 (kick_amd64.s) over n ≥ 1 spheres.
//
//go:noescape
func driftSSE2(tl, al *sphere.Lin, X *geom.Vec3, spec *int32, n int, cur int32, hm, dt float64, mg *geom.Vec3) int

// kick1SSE2 is kickSSE2 over all n ≥ 1 spheres, of one species: spec is
// not read (kick_amd64.s).
//
//go:noescape
func kick1SSE2(tl *sphere.Lin, spec *int32, n int, cur int32, hm, m float64, grav *geom.Vec3, s *kickSums) int

// kick1NSSE2 is kick1SSE2 without the energies (s.Ekin and s.Egrav not
// read nor written: lazy energies), kickRunGoN's loop over all n ≥ 1
// spheres of one species (kick_amd64.s).
//
//go:noescape
func kick1NSSE2(tl *sphere.Lin, n int, hm float64, s *kickSums) int

// drift1SSE2 is driftSSE2 over all n ≥ 1 spheres, of one species: spec
// is not read (kick_amd64.s).
//
//go:noescape
func drift1SSE2(tl, al *sphere.Lin, X *geom.Vec3, spec *int32, n int, cur int32, hm, dt float64, mg *geom.Vec3) int

// driftNTSSE2 is driftSSE2 with non-temporal stores of the trial state
// and the centres (kick_amd64.s): the same bits.
//
//go:noescape
func driftNTSSE2(tl, al *sphere.Lin, X *geom.Vec3, spec *int32, n int, cur int32, hm, dt float64, mg *geom.Vec3) int

// kickRun is kickRunGo (the same bits), its loop in SSE2 assembly. Below
// GOAMD64=v3 only, as sim/contact's place_amd64.s: from v3 on kickRunGo
// itself runs (kick_other.go).
func kickRun(tl []sphere.Lin, spec []int32, cur int32, hm, m float64, g *geom.Vec3, s *kickSums) int {
	if len(spec) == 0 {
		return 0
	}
	tl = tl[:len(spec)]
	return kickSSE2(&tl[0], &spec[0], len(spec), cur, hm, m, g, s)
}

// driftRun is driftRunGo (the same bits), its loop in SSE2 assembly, on
// the same builds as kickRun; with nt its stores of tl and X non-temporal
// (driftNTSSE2: for arrays far larger than the cache, driftNT).
func driftRun(tl, al []sphere.Lin, X []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3, nt bool) int {
	if len(spec) == 0 {
		return 0
	}
	tl, al, X = tl[:len(spec)], al[:len(spec)], X[:len(spec)]
	if nt {
		return driftNTSSE2(&tl[0], &al[0], &X[0], &spec[0], len(spec), cur, hm, dt, mg)
	}
	return driftSSE2(&tl[0], &al[0], &X[0], &spec[0], len(spec), cur, hm, dt, mg)
}

// kickRun1 is kickRun over all of tl[:len(spec)], every sphere of species
// cur (a system of one species: the caller's promise, not checked), so
// that the loop need not test each sphere's species: kick1SSE2. It
// returns len(spec).
func kickRun1(tl []sphere.Lin, spec []int32, cur int32, hm, m float64, g *geom.Vec3, s *kickSums) int {
	if len(spec) == 0 {
		return 0
	}
	tl = tl[:len(spec)]
	return kick1SSE2(&tl[0], &spec[0], len(spec), cur, hm, m, g, s)
}

// kickRun1N is kickRun1 without the energies (lazy energies): kick1NSSE2.
// It returns len(spec).
func kickRun1N(tl []sphere.Lin, spec []int32, cur int32, hm float64, s *kickSums) int {
	if len(spec) == 0 {
		return 0
	}
	tl = tl[:len(spec)]
	return kick1NSSE2(&tl[0], len(spec), hm, s)
}

// driftRun1 is driftRun without the non-temporal stores over all of
// spec's spheres, every one of species cur (the caller's promise, not
// checked): drift1SSE2. It returns len(spec).
func driftRun1(tl, al []sphere.Lin, X []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3) int {
	if len(spec) == 0 {
		return 0
	}
	tl, al, X = tl[:len(spec)], al[:len(spec)], X[:len(spec)]
	return drift1SSE2(&tl[0], &al[0], &X[0], &spec[0], len(spec), cur, hm, dt, mg)
}

// drift1TSSE2 is driftRunGoT's loop over all n ≥ 1 spheres of one
// species (kick_amd64.s).
//
//go:noescape
func drift1TSSE2(tl, al *sphere.Lin, X, ref *geom.Vec3, n int, hm, dt float64, mg *geom.Vec3, t *listTest) int

// driftRun1T is driftRunGoT (the same bits) over all of spec's spheres,
// every one of species cur (the caller's promise, not checked):
// drift1TSSE2. It returns len(spec).
func driftRun1T(tl, al []sphere.Lin, X, ref []geom.Vec3, spec []int32, cur int32, hm, dt float64, mg *geom.Vec3, t *listTest) int {
	if len(spec) == 0 {
		return 0
	}
	tl, al, X, ref = tl[:len(spec)], al[:len(spec)], X[:len(spec)], ref[:len(spec)]
	return drift1TSSE2(&tl[0], &al[0], &X[0], &ref[0], len(spec), hm, dt, mg, t)
}

// kickAsm reports whether kickRun and driftRun run the assembly.
const kickAsm = true
