package shape

import (
	"fmt"
	"math"

	"grainlab/sim/geom"
)

// TetrapodParams describes a tetrapod: four tapered polygonal legs along the
// vertex directions of a regular tetrahedron (S0 §3.4, Fig. 22).
type TetrapodParams struct {
	LegLength    float64 // centre to leg tip (m)
	BaseRadius   float64 // circumradius of each leg's polygonal base ring (m)
	TipRadius    float64 // circumradius at the tip; 0 (the default) is a sharp point
	Sides        int     // polygon sides per leg, ≥ 3; 0 means 6
	RootDistance float64 // centre to each base ring's plane (m); 0 means BaseRadius
}

//go:generate go test -run TestWriteTetrapodAsset -update .

// DefaultTetrapod returns the parameters of the shipped assets/meshes/tetrapod.stl.
// The legs are slender enough (half-angle atan(r/(L−R)) = 16.8° < 19.47°) that
// the body rests on its three lower tips, as in S0 Fig. 22, with the tips at
// 0.943·L = 0.65 m from the vertical axis.
func DefaultTetrapod() TetrapodParams {
	return TetrapodParams{LegLength: 0.69, BaseRadius: 0.16, TipRadius: 0, Sides: 6, RootDistance: 0.16}
}

// MaxTetrapodSides bounds TetrapodParams.Sides: the brute-force hull is
// O(n⁴) in 4·Sides points. The scene parser allows the same range.
const MaxTetrapodSides = 48

// Tetrapod builds the tetrapod of p. One leg points along +z, the other three
// point down at 109.47° from it so the body rests on their tips. The core is
// the convex hull of the four base rings; each ring's cap is replaced by the
// leg's frustum (or pyramid, for a sharp tip), so the 4·Sides ring edges at
// the leg roots are Concave. When Sides is a multiple of 3 the solid has the
// full rotational symmetry of the regular tetrahedron (isotropic inertia).
func Tetrapod(p TetrapodParams) (*Polyhedron, error) {
	if p.Sides == 0 {
		p.Sides = 6
	}
	if p.RootDistance == 0 {
		p.RootDistance = p.BaseRadius
	}
	L, R, r, rt, S := p.LegLength, p.RootDistance, p.BaseRadius, p.TipRadius, p.Sides
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !finite(L) || !finite(R) || !finite(r) || !finite(rt):
		return nil, fmt.Errorf("tetrapod %+v: non-finite parameter", p)
	case S < 3 || S > MaxTetrapodSides:
		return nil, fmt.Errorf("tetrapod: Sides = %d, want 3…%d", S, MaxTetrapodSides)
	case !(r > 0) || !(R > 0):
		return nil, fmt.Errorf("tetrapod: BaseRadius %g and RootDistance %g must be positive", r, R)
	case !(L > R*(1+1e-6)):
		return nil, fmt.Errorf("tetrapod: LegLength %g must exceed RootDistance %g", L, R)
	case !(r < math.Sqrt2*R*(1-1e-6)):
		// Ring j reaches at most −R/3 + r·√8/3 along leg i's axis; it must stay below
		// ring i's plane at R for every base ring to be a face of the core hull.
		return nil, fmt.Errorf("tetrapod: BaseRadius %g must be below √2·RootDistance = %g", r, math.Sqrt2*R)
	case rt < 0 || rt > r:
		return nil, fmt.Errorf("tetrapod: TipRadius %g must be in [0, BaseRadius = %g]", rt, r)
	}

	// Leg frames (e1, e2, u), right-handed, related by rotations of the
	// tetrahedral group: leg 1 = 2-fold turn about (u0+u1) applied to leg 0,
	// legs 2 and 3 = leg 1 turned by ±120° about z.
	u1 := geom.Vec3{X: math.Sqrt(8) / 3, Z: -1.0 / 3}
	a := geom.Vec3{Z: 1}.Add(u1).Unit()
	g1 := geom.Outer(a, a).Scale(2).Sub(geom.Identity())
	rz := geom.QAxisAngle(geom.Vec3{Z: 1}, 2*math.Pi/3).Mat()
	frames := [4]geom.Mat3{geom.Identity(), g1, rz.Mul(g1), rz.Mul(rz).Mul(g1)} // columns e1, e2, u

	phase := math.Pi / float64(2*S) // keeps ring edges off the coordinate axes; deterministic
	ring := func(leg, k int, dist, rad float64) geom.Vec3 {
		f := frames[leg]
		th := 2*math.Pi*float64(k)/float64(S) + phase
		s, c := math.Sincos(th)
		return f.Col(2).Scale(dist).AddScaled(rad*c, f.Col(0)).AddScaled(rad*s, f.Col(1))
	}
	var verts []geom.Vec3
	for leg := 0; leg < 4; leg++ {
		for k := 0; k < S; k++ {
			verts = append(verts, ring(leg, k, R, r)) // index leg·S + k
		}
	}
	facets, err := convexHullFacets(verts, 1e-9*L)
	if err != nil {
		return nil, fmt.Errorf("tetrapod core: %w", err)
	}
	var tris [][3]int32
	caps := 0
	for _, f := range facets {
		leg := f.poly[0] / S
		isCap := true
		for _, v := range f.poly {
			isCap = isCap && v/S == leg
		}
		if isCap {
			if len(f.poly) != S || f.n.Dot(frames[leg].Col(2)) < 1-1e-9 {
				return nil, fmt.Errorf("tetrapod core: base ring %d is not a hull face", leg)
			}
			caps++
			continue
		}
		for k := 1; k+1 < len(f.poly); k++ {
			tris = append(tris, [3]int32{int32(f.poly[0]), int32(f.poly[k]), int32(f.poly[k+1])})
		}
	}
	if caps != 4 {
		return nil, fmt.Errorf("tetrapod core: found %d base ring faces, want 4", caps)
	}
	// Legs: ring k → k+1 runs counter-clockwise about the leg axis, as the
	// removed cap did, so the new triangles keep the hull's orientation.
	for leg := 0; leg < 4; leg++ {
		base := int32(leg * S)
		if rt == 0 {
			tip := int32(len(verts))
			verts = append(verts, frames[leg].Col(2).Scale(L))
			for k := 0; k < S; k++ {
				tris = append(tris, [3]int32{base + int32(k), base + int32((k+1)%S), tip})
			}
			continue
		}
		top := int32(len(verts))
		for k := 0; k < S; k++ {
			verts = append(verts, ring(leg, k, L, rt))
		}
		for k := 0; k < S; k++ {
			k1 := (k + 1) % S
			tris = append(tris,
				[3]int32{base + int32(k), base + int32(k1), top + int32(k1)},
				[3]int32{base + int32(k), top + int32(k1), top + int32(k)})
		}
		for k := 1; k+1 < S; k++ {
			tris = append(tris, [3]int32{top, top + int32(k), top + int32(k+1)})
		}
	}
	name := fmt.Sprintf("tetrapod L=%g R=%g r=%g rt=%g n=%d", L, R, r, rt, S)
	return NewPolyhedron(name, verts, tris)
}
