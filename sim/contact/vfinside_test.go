package contact

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// VertexFace's early accept (vfInside) against the definition, the band/tie
// rule degenInTriangle: at projections whose barycentric coordinates n_k
// (S0 eq. 27) lie at ParamTol·(1 + δ), δ from ±0.5 down to ±1e-15 and
// exactly 0, and a few ulps around them, for triangles of both windings
// (the tie rule owns a band's edge in one and not in the other), every
// accepted projection must be one the definition accepts. It fails with
// vfInside's comparisons made ≥ (n_1 = ParamTol exactly is reached).
func TestVFInsideImpliesInTriangle(t *testing.T) {
	tol := ParamTol
	r := rand.New(rand.NewSource(1414))
	exact, tieRejects := 0, 0
	for tri := 0; tri < 40; tri++ {
		f := [3]geom.Vec3{}
		for i := range f {
			f[i] = geom.V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
		}
		for wind := 0; wind < 2; wind++ {
			f1, f2, f3 := f[0], f[1], f[2]
			if wind == 1 {
				f2, f3 = f3, f2
			}
			// c as VertexFace computes it (S0 eq. 65).
			c := f2.Sub(f1).Scale(0.5).Cross(f3.Sub(f1).Scale(0.5))
			for _, d := range []float64{-0.5, -1e-3, -1e-15, 0, 1e-15, 1e-3, 0.5} {
				n := tol * (1 + d)
				for _, o := range []float64{0, 0.25, -0.6} {
					cases := [][2]float64{
						{o - 0.2, -2*n - (o - 0.2)}, // n_1 = n (exactly for o − 0.2 = 0 … below)
						{0, -2 * n},                 // n_1 = n exactly
						{2*n - 1, o - 0.2},          // n_2 ≈ n
						{o - 0.2, 2*n - 1},          // n_3 ≈ n
					}
					for _, zt := range cases {
						for dz := -3; dz <= 3; dz++ {
							for dt := -3; dt <= 3; dt++ {
								z, th := zt[0], zt[1]
								for k := 0; k < dz; k++ {
									z = math.Nextafter(z, 2)
								}
								for k := 0; k > dz; k-- {
									z = math.Nextafter(z, -2)
								}
								for k := 0; k < dt; k++ {
									th = math.Nextafter(th, 2)
								}
								for k := 0; k > dt; k-- {
									th = math.Nextafter(th, -2)
								}
								n1, n2, n3 := -0.5*(z+th), 0.5*(1+z), 0.5*(1+th)
								if n1 == tol || n2 == tol || n3 == tol {
									exact++
								}
								def := degenInTriangle(z, th, c, f1, f2, f3)
								if !def && n1 >= -tol && n2 >= -tol && n3 >= -tol {
									tieRejects++
								}
								if vfInside(z, th) && !def {
									t.Fatalf("triangle %d winding %d: (ζ, θ) = (%v, %v), n = (%v, %v, %v): early accept where the tie rule rejects", tri, wind, z, th, n1, n2, n3)
								}
							}
						}
					}
				}
			}
		}
	}
	if exact == 0 || tieRejects == 0 {
		t.Fatalf("the grid misses the boundary: %d projections at n_k = ParamTol exactly, %d rejected by the tie rule", exact, tieRejects)
	}
	t.Logf("%d projections at n_k = ParamTol exactly, %d in a band rejected by the tie rule", exact, tieRejects)
}
