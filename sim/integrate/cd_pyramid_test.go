package integrate

import (
	"math"
	"os"
	"strconv"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/cd"
	"grainlab/sim/contact"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// cannonball is the S3 §8.2 pyramid in the world: spheres of 2.5 mm
// diameter, 2000 kg/m³, the base layer fixed, frictionless, g = 9.81 m/s².
type cannonball struct {
	w     *world.World
	p     *cd.Pyramid
	grid  map[int][2]int // base sphere body → (i, j)
	n     int
	mg    float64
	total float64 // weight of the free spheres
}

// cannonballWorld builds the pyramid with n spheres along the base edge and
// law s, its lattice scaled by (1 − shrink) about the origin so that every
// neighbour pair overlaps by shrink × the diameter (0: exact touching).
// With species, spheres of even and odd global index are two materials whose
// contacts have k_n × 1, 5/3, 5 (even–even, even–odd, odd–odd: the relative
// stiffnesses 1/5, 1/3, 1 of S3 §8.2.2), dashpots near critical for each.
func cannonballWorld(t testing.TB, n int, s law.Smooth, shrink float64, species ...bool) *cannonball {
	t.Helper()
	spec := cd.PaperPyramid()
	spec.N = n
	p := cd.BuildPyramid(spec)
	w := world.New("cannonball")
	if err := w.SetParams(0, 0, world.ContactParams{Smooth: s}); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	multi := len(species) > 0 && species[0]
	var mat [2]int
	if multi {
		mat = [2]int{w.Material("even"), w.Material("odd")}
		for _, pr := range []struct {
			a, b int
			f    float64
		}{{mat[0], mat[0], 1}, {mat[0], mat[1], 5.0 / 3}, {mat[1], mat[1], 5}} {
			q := s
			q.Kn *= pr.f
			q.GammaN *= math.Sqrt(pr.f)
			if err := w.SetParams(pr.a, pr.b, world.ContactParams{Smooth: q}); err != nil {
				t.Fatal(err)
			}
		}
	}
	cb := &cannonball{w: w, p: p, grid: map[int][2]int{}, n: n, mg: p.SphereWeight()}
	for k, x := range p.Centres {
		b := body.NewSphere("s", spec.Radius, spec.Density, x.Scale(1-shrink))
		if multi {
			b.Material = mat[k%2]
		}
		if p.Layer[k] == 0 {
			b.Fixed = true
			b.SetMass(b.Mass(), b.IBody())
		} else {
			cb.total += b.Mass() * 9.81
		}
		i := w.AddBody(b)
		if p.Layer[k] == 0 {
			cb.grid[i] = p.IJ[k]
		}
	}
	return cb
}

// floor returns the vertical load of the free spheres on each base sphere
// (S3 §8.3) for contact forces f given in EachContact order (nil: c.Fn).
func (cb *cannonball) floor(f []float64) [][]float64 {
	g := make([][]float64, cb.n)
	for i := range g {
		g[i] = make([]float64, cb.n)
	}
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
		// The force on the free sphere is fn·n on A, −fn·n on B; its
		// vertical part is the load it puts on the base sphere.
		if ij, ok := cb.grid[a]; ok {
			g[ij[0]][ij[1]] -= fn * c.N.Z
		} else if ij, ok := cb.grid[b]; ok {
			g[ij[0]][ij[1]] += fn * c.N.Z
		}
	})
	return g
}

// gridRelErr is ‖a − b‖/‖b‖ over the grid (S3 Table 1).
func gridRelErr(a, b [][]float64) float64 {
	var n, d float64
	for i := range a {
		for j := range a[i] {
			n += (a[i][j] - b[i][j]) * (a[i][j] - b[i][j])
			d += b[i][j] * b[i][j]
		}
	}
	return math.Sqrt(n / d)
}

func gridSum(g [][]float64) float64 {
	var s float64
	for _, r := range g {
		for _, v := range r {
			s += v
		}
	}
	return s
}

// demLaw returns a stiff spring–dashpot of the given model: overlap δ* = 1e-6 r
// under a force mg (Hooke: k_n = mg/δ*; Hertz: k_n√R_eff δ*^{3/2} = mg with
// R_eff = r/2), and normal damping near critical for two free spheres at that
// overlap (γ_n = 2√(k/m_eff), m_eff = m/2, with the Hertz tangent 3/2·mg/δ*;
// S3 §8.2 uses γ = 2√(km)).
func demLaw(model law.SmoothModel) law.Smooth {
	spec := cd.PaperPyramid()
	r := spec.Radius
	m := spec.Density * 4.0 / 3 * math.Pi * r * r * r
	mg := m * spec.Gravity
	ds := 1e-6 * r
	meff := m / 2
	if model == law.HookeLAMMPS {
		kn := mg / ds
		return law.Smooth{Model: model, Kn: kn, GammaN: 2 * math.Sqrt(kn/meff)}
	}
	reff := r / 2
	kn := mg / (math.Sqrt(reff) * math.Pow(ds, 1.5))
	kt := 1.5 * mg / ds
	ct := 2 * math.Sqrt(kt*meff)
	return law.Smooth{Model: model, Kn: kn, GammaN: ct / (meff * math.Sqrt(reff*ds))}
}

// relaxDEM runs the explicit integrator (velocity Verlet) on the pyramid,
// built at exact touching, until it is static: every free sphere slower than
// the speed at which its damping force would reach 1e-5 mg, checked every
// 200 steps. It returns the floor reactions, the time
// and the steps taken.
func relaxDEM(t testing.TB, n int, s law.Smooth, tMax float64, species bool) ([][]float64, float64, int64) {
	t.Helper()
	cb := cannonballWorld(t, n, s, 0, species)
	w := cb.w
	w.Settings.DtMax = 1e-4
	if s.Model == law.HertzLAMMPS {
		// StableDt bounds a Hertz pair by its stiffness at an overlap of
		// 1e-3 R_eff, ~4× stiffer in frequency than the ~1e-5 r overlaps
		// here: the full safety factor is still well inside stability.
		w.Settings.Safety = 1
	}
	w.Integrator = &Explicit{}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	// Damping forces below 1e-5 mg: m γ_n v < 1e-5 mg (Hertz: γ_n √(δ R_eff) at δ*).
	m := cb.mg / 9.81
	vTol := 1e-5 * cb.mg / (m * s.GammaN)
	if s.Model == law.HertzLAMMPS {
		vTol = 1e-5 * cb.mg / (m * s.GammaN * math.Sqrt(0.5*cb.p.Spec.Radius*1e-6*cb.p.Spec.Radius))
	}
	for w.Time < tMax {
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
	g := cb.floor(nil)
	if tot := gridSum(g); math.Abs(tot-cb.total) > 1e-6*cb.total {
		t.Errorf("DEM floor total %g N, weight %g N", tot, cb.total)
	}
	return g, w.Time, w.Steps
}

// cdPyramid settles the pyramid (lattice overlapping by the CD target
// overlap, so that every touching pair is a contact) with CD for a few steps
// of Δt = 1 ms (S3 §8.2) and returns the classic and compatible floor
// reactions of the last step.
func cdPyramid(t testing.TB, n int, s law.Smooth, m cd.Method, species bool) (classic, compat [][]float64, x *CD) {
	t.Helper()
	x = NewCD()
	x.Method, x.Tol, x.MaxIter = m, 1e-10, 100000
	x.Dt = 1e-3
	x.Warm = false
	cb := cannonballWorld(t, n, s, x.Overlap/2, species)
	w := cb.w
	w.Integrator = x
	for range 3 {
		if _, err := x.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	var vmax float64
	for _, b := range w.Bodies() {
		vmax = math.Max(vmax, b.V.Norm())
	}
	if vmax > 1e-9 || !x.Last.Converged || !x.LastCompat.Converged {
		t.Errorf("CD %v: not at rest or not converged: max |v| %g, residual %g, compat residual %g", m, vmax, x.Last.Residual, x.LastCompat.Residual)
	}
	classic, compat = cb.floor(x.Classic), cb.floor(x.Compat)
	for _, g := range [][][]float64{classic, compat} {
		if tot := gridSum(g); math.Abs(tot-cb.total) > 1e-7*cb.total {
			t.Errorf("CD %v: floor total %g N, weight %g N", m, tot, cb.total)
		}
	}
	return classic, compat, x
}

// TestCDCannonballVsDEM reproduces S3 §8.3 / Table 1 on a smaller pyramid
// (6 spheres along the base edge, 55 free spheres; the paper's 20-sphere
// pyramid runs with GRAINLAB_CD_PYRAMID=20): the floor reactions of
// compatible CD (uniform Hookean, uniform Hertzian, two-species Hookean
// with k̃ taken from each pair's k_n) against a stiff, damped explicit DEM
// run to rest (overlaps ≈ 1e-6 r). Compatible CD must match DEM within 1e-3
// relative (S3: ~2e-5); classic APGD and PGS are reported (S3, 20 spheres:
// 0.17 and 0.19) and must differ from DEM by at least 5e-3, so that the test
// tells compatible from classic forces.
func TestCDCannonballVsDEM(t *testing.T) {
	n := 6
	if v := os.Getenv("GRAINLAB_CD_PYRAMID"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 2 {
			t.Fatalf("GRAINLAB_CD_PYRAMID=%q: want an integer ≥ 2", v)
		}
		n = k
	}
	for _, c := range []struct {
		name    string
		model   law.SmoothModel
		species bool
	}{{"uniform Hookean", law.HookeLAMMPS, false}, {"uniform Hertzian", law.HertzLAMMPS, false}, {"multi-species Hookean", law.HookeLAMMPS, true}} {
		model := c.name
		s := demLaw(c.model)
		dem, tEnd, steps := relaxDEM(t, n, s, 5, c.species)
		t.Logf("%v: DEM static after %.4g s, %d steps", model, tEnd, steps)
		var comp [][]float64
		for _, m := range []cd.Method{cd.APGD, cd.PGS} {
			classic, compat, x := cdPyramid(t, n, s, m, c.species)
			ec, ek := gridRelErr(classic, dem), gridRelErr(compat, dem)
			t.Logf("%v, %v: ‖F_classic − F_DEM‖/‖F_DEM‖ = %.3g, ‖F_compat − F_DEM‖/‖F_DEM‖ = %.3g (%d iterations, compat %d outer/%d inner)",
				model, m, ec, ek, x.Last.Iter, x.LastCompat.Iter, x.LastCompat.Inner)
			if ek > 1e-3 {
				t.Errorf("%v, %v: compatible floor reactions differ from DEM by %.3g (> 1e-3)", model, m, ek)
			}
			if ec < 5e-3 {
				t.Errorf("%v, %v: classic CD matches DEM (%.3g): the test cannot tell compatible from classic", model, m, ec)
			}
			if comp != nil {
				if d := gridRelErr(compat, comp); d > 1e-6 {
					t.Errorf("%v: compatible floor after APGD and after PGS differ by %g", model, d)
				}
			}
			comp = compat
		}
	}
}
