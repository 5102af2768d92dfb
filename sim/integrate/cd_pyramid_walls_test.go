package integrate

import (
	"math"
	"testing"

	"grainlab/sim/cd"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
)

// cannonballWalls is the pyramid of cannonballWorld with its base layer free
// and held by walls instead of fixed: a ground plane under the base and four
// side planes touching its outer spheres (all at the same lattice scale
// 1 − shrink).
func cannonballWalls(t testing.TB, n int, s law.Smooth, shrink float64, species bool) *cannonball {
	t.Helper()
	cb := cannonballWorld(t, n, s, shrink, species)
	w := cb.w
	r := cb.p.Spec.Radius
	for i, b := range w.Bodies() {
		if _, ok := cb.grid[i]; ok {
			b.Fixed = false
			b.SetMass(b.Mass(), b.IBody())
		}
	}
	half := (float64(n-1)*r + r) * (1 - shrink)
	zc := r * (1 - shrink)
	for _, wl := range []struct {
		name string
		c, n geom.Vec3
	}{
		{"ground", geom.V(0, 0, zc-r*(1-shrink)), geom.V(0, 0, 1)},
		{"x-", geom.V(-half, 0, zc), geom.V(1, 0, 0)}, {"x+", geom.V(half, 0, zc), geom.V(-1, 0, 0)},
		{"y-", geom.V(0, -half, zc), geom.V(0, 1, 0)}, {"y+", geom.V(0, half, zc), geom.V(0, -1, 0)},
	} {
		if _, err := w.AddWall(wl.name, plane(t, wl.name, wl.c, wl.n, 4*half), 0, true); err != nil {
			t.Fatal(err)
		}
	}
	return cb
}

// wallFloor returns the ground wall's vertical force on each base sphere
// minus that sphere's weight (the load the rest of the pyramid puts on it),
// for contact forces f in EachContact order (nil: c.Fn).
func (cb *cannonball) wallFloor(f []float64) [][]float64 {
	g := make([][]float64, cb.n)
	for i := range g {
		g[i] = make([]float64, cb.n)
	}
	ground := cb.w.Walls[cb.w.WallByName("ground")].Body
	k := 0
	cb.w.EachContact(func(a, b int, c *contact.Contact) {
		fn := c.Fn
		if f != nil {
			fn = f[k]
		}
		k++
		if !c.Active() {
			return
		}
		if ij, ok := cb.grid[a]; ok && b == ground {
			g[ij[0]][ij[1]] += fn * c.N.Z
		} else if ij, ok := cb.grid[b]; ok && a == ground {
			g[ij[0]][ij[1]] -= fn * c.N.Z
		}
	})
	for i := range g {
		for j := range g[i] {
			g[i][j] -= cb.mg
		}
	}
	return g
}

// TestCDCannonballWallsVsDEM is TestCDCannonballVsDEM (6 spheres along the
// base edge, Hookean) with the base layer free and held by walls — a ground
// plane and four side planes — instead of fixed, with one and with two
// species (k_n × 1, 5/3, 5 as S3 §8.2.2; walls with the default law). The
// load each base sphere puts on the ground beyond its own weight, from
// compatible CD (APGD, 3 steps of 1 ms from the lattice at the CD target
// overlap), must match a stiff explicit DEM run to rest within 1e-3
// relative, as with a fixed base; classic CD must differ by at least 5e-3.
func TestCDCannonballWallsVsDEM(t *testing.T) {
	const n = 6
	for _, species := range []bool{false, true} {
		s := demLaw(law.HookeLAMMPS)
		cb := cannonballWalls(t, n, s, 0, species)
		w := cb.w
		w.Settings.DtMax = 1e-4
		w.Integrator = &Explicit{}
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
		// Static when every damping force is below 1e-5 mg (as relaxDEM).
		m := cb.mg / 9.81
		vTol := 1e-5 * cb.mg / (m * s.GammaN)
		for w.Time < 5 {
			for range 200 {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					t.Fatal(err)
				}
			}
			var vmax float64
			for _, b := range w.Bodies() {
				vmax = math.Max(vmax, b.V.Norm())
			}
			if vmax < vTol {
				break
			}
		}
		dem := cb.wallFloor(nil)
		x := NewCD()
		x.Method, x.Tol, x.MaxIter = cd.APGD, 1e-10, 100000
		x.Dt, x.Warm = 1e-3, false
		cc := cannonballWalls(t, n, s, x.Overlap/2, species)
		cc.w.Integrator = x
		for range 3 {
			if _, err := x.Step(cc.w, 1); err != nil {
				t.Fatal(err)
			}
		}
		ek, ec := gridRelErr(cc.wallFloor(x.Compat), dem), gridRelErr(cc.wallFloor(x.Classic), dem)
		t.Logf("two species %v: DEM static after %.4g s; ‖F_compat − F_DEM‖/‖F_DEM‖ = %.3g, classic %.3g", species, w.Time, ek, ec)
		if ek > 1e-3 || !x.LastCompat.Converged {
			t.Errorf("two species %v: compatible ground loads differ from DEM by %.3g (> 1e-3), converged %v", species, ek, x.LastCompat.Converged)
		}
		if ec < 5e-3 {
			t.Errorf("two species %v: classic CD matches DEM (%.3g): the test cannot tell compatible from classic", species, ec)
		}
	}
}
