package integrate

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/cd"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// beamWorld builds S3 §8.1 in the world: a rigid beam (box 1 × 0.1 × 0.1 m,
// mass 1 kg, g = 10 m/s²: weight 10 N) resting on three fixed knife-edge
// supports (triangular prisms with their ridge along y, 6 cm long) under
// x = 0.05, 0.5, 0.95 m, at the CD target gap Margin·ḡ, frictionless.
// order gives the order in which the supports are added (body indices, and
// so the contact order of EachContact). It returns the world, the beam's
// index and the support indices by position (left, middle, right).
func beamWorld(t testing.TB, x *CD, order [3]int) (*world.World, int, [3]int) {
	t.Helper()
	w := world.New("beam")
	p := cubeParams(0, 0)
	if err := w.SetParams(0, 0, p); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	w.Gravity = geom.V(0, 0, -10)
	ridge := prism(t, "knife", [][2]float64{{-0.01, -0.01}, {0.01, -0.01}, {0, 0}}, 0.06)
	var sup [3]int
	for _, k := range order {
		xs := []float64{0.05, 0.5, 0.95}[k]
		// Mesh point m of a body at X lies at X + m − Offset: the ridge line
		// x = z = 0 of the mesh goes to x = xs, z = 0.
		sup[k] = w.AddBody(body.NewFixed("support", ridge, geom.V(xs, 0, 0).Add(ridge.Offset), geom.QIdent()))
	}
	beam := body.New("beam", shape.Box(1, 0.1, 0.1), 100, geom.V(0.5, 0, 0.05+x.Margin*p.Normal.GBar), geom.QIdent())
	ib := w.AddBody(beam)
	w.Integrator = x
	w.Dt = 1e-3
	return w, ib, sup
}

// supportForces returns the vertical force each support exerts on the beam
// (Fn·n_z of every active contact, n from B to A) and the number of contacts.
func supportForces(w *world.World, ib int, sup [3]int) ([3]float64, int) {
	var f [3]float64
	n := 0
	w.EachContact(func(a, b int, c *contact.Contact) {
		if !c.Active() {
			return
		}
		for k, s := range sup {
			switch {
			case a == ib && b == s:
				f[k] += c.Fn * c.N.Z
				n++
			case a == s && b == ib:
				f[k] -= c.Fn * c.N.Z
				n++
			}
		}
	})
	return f, n
}

// cdSteps takes n CD steps of at most 1 ms.
func cdSteps(t testing.TB, w *world.World, n int) {
	t.Helper()
	for range n {
		if _, err := w.Integrator.Step(w, 1e-3); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCDBeamWorld reproduces S3 §8.1 through the world: detection, the
// solver and the force write-back. Classic CD solved by APGD from zero gives
// the minimum-norm 10/3 N per support (S3 Fig. 2); PGS gives a static but
// order-dependent split (S3 Fig. 1), shown by adding the supports in two
// orders; compatible CD gives 10/3 N each whatever solved the step, and with
// the middle support's contacts 3× stiffer 2, 6, 2 N (S3 §8.1.2). Tolerance
// 1e-4 N on the compatible forces, 1e-6 N on the weight balance; the beam
// stays at rest (|v| < 1e-9 m/s) and never reaches its supports.
func TestCDBeamWorld(t *testing.T) {
	third := 10.0 / 3
	type run struct {
		name    string
		method  cd.Method
		order   [3]int
		compat  bool
		stiff   bool
		want    [3]float64
		wantTol float64
	}
	runs := []run{
		{"APGD classic", cd.APGD, [3]int{0, 1, 2}, false, false, [3]float64{third, third, third}, 1e-6},
		{"PGS classic, left first", cd.PGS, [3]int{0, 1, 2}, false, false, [3]float64{}, 0},
		{"PGS classic, middle first", cd.PGS, [3]int{1, 0, 2}, false, false, [3]float64{}, 0},
		{"PGS + compatible, middle first", cd.PGS, [3]int{1, 0, 2}, true, false, [3]float64{third, third, third}, 1e-4},
		{"APGD + compatible", cd.APGD, [3]int{0, 1, 2}, true, false, [3]float64{third, third, third}, 1e-4},
		{"APGD + compatible, middle 3× stiffer", cd.APGD, [3]int{2, 0, 1}, true, true, [3]float64{2, 6, 2}, 1e-4},
		{"PGS + compatible, middle 3× stiffer", cd.PGS, [3]int{1, 2, 0}, true, true, [3]float64{2, 6, 2}, 1e-4},
	}
	var pgs [][3]float64
	for _, r := range runs {
		x := NewCD()
		x.Method, x.Compatible, x.Warm, x.Tol = r.method, r.compat, false, 1e-12
		w, ib, sup := beamWorld(t, x, r.order)
		if r.stiff {
			x.Stiffness = func(_ *world.World, a, b int, _ *contact.Contact) float64 {
				if a == sup[1] || b == sup[1] {
					return 3
				}
				return 1
			}
		}
		z0 := w.Bodies()[ib].X.Z
		cdSteps(t, w, 5)
		f, n := supportForces(w, ib, sup)
		beam := w.Bodies()[ib]
		t.Logf("%s: %d contacts, support forces %.9f N, %d iterations, residual %.1e", r.name, n, f, w.Stats.LinearIters, w.Stats.Residual)
		if n != 6 {
			t.Errorf("%s: %d contacts, want 6 (two ridge ends per support)", r.name, n)
		}
		if s := f[0] + f[1] + f[2]; math.Abs(s-10) > 1e-6 || beam.V.Norm() > 1e-9 || math.Abs(beam.X.Z-z0) > 1e-9 {
			t.Errorf("%s: Σf = %.9f N (want 10), |v| = %g, drift %g", r.name, s, beam.V.Norm(), beam.X.Z-z0)
		}
		if r.wantTol > 0 {
			for k := range 3 {
				if math.Abs(f[k]-r.want[k]) > r.wantTol {
					t.Errorf("%s: support forces %v, want %v ± %g", r.name, f, r.want, r.wantTol)
					break
				}
			}
		} else {
			pgs = append(pgs, f)
		}
		if r.compat {
			// The classic forces stay available, in EachContact order.
			var sc float64
			for _, v := range x.Classic {
				sc += v
			}
			if len(x.Classic) != len(x.Compat) || math.Abs(sc-10) > 1e-6 {
				t.Errorf("%s: classic forces %v (Σ %g), compatible %v", r.name, x.Classic, sc, x.Compat)
			}
		}
		if w.Stats.Integrator != "cd" || w.Stats.Dt != 1e-3 {
			t.Errorf("%s: stats %+v", r.name, w.Stats)
		}
	}
	// PGS depends on the contact order: the two orders split the load differently.
	if d := math.Abs(pgs[0][1] - pgs[1][1]); d < 0.1 {
		t.Errorf("PGS forces do not depend on the order: %v vs %v", pgs[0], pgs[1])
	}
}

// TestCDBoxLandsAndRests drops a cube (10 cm, 1000 kg/m³) from 5 mm onto the
// ground with classic CD (e = 0): it lands without penetration (no flipped
// contact, gap ≥ 0 − 1e-9 m at every step), stops on the landing step, and
// then rests with the normal forces summing to its weight (±1e-9 relative)
// and the wall force on the cube equal to it.
func TestCDBoxLandsAndRests(t *testing.T) {
	for _, m := range []cd.Method{cd.PGS, cd.APGD} {
		w := groundWorld(t, cubeParams(0, 0))
		b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0, 0, 0.055), geom.QIdent())
		w.AddBody(b)
		x := NewCD()
		x.Method = m
		w.Integrator = x
		w.Dt = 1e-3
		minGap := math.Inf(1)
		for k := range 200 {
			cdSteps(t, w, 1)
			w.EachContact(func(_, _ int, c *contact.Contact) {
				if c.Flip {
					t.Fatalf("%v: step %d: flipped contact", m, k)
				}
				if c.Active() {
					minGap = math.Min(minGap, c.Gn)
				}
			})
		}
		var fz float64
		w.EachContact(func(_, _ int, c *contact.Contact) { fz += c.Fn * math.Abs(c.N.Z) })
		W := b.Mass() * 9.81
		wf := w.Walls[0].Force
		t.Logf("%v: min gap %.3g m, Σfn = %.12g N (weight %.12g), wall force %v, |v| = %.2e", m, minGap, fz, W, wf, b.V.Norm())
		if minGap < x.Margin*1e-3-1e-9 {
			t.Errorf("%v: gap went down to %g m", m, minGap)
		}
		if math.Abs(fz-W) > 1e-9*W || math.Abs(wf.Z-W) > 1e-9*W || b.V.Norm() > 1e-9 {
			t.Errorf("%v: Σfn = %g N, wall force %v, weight %g N, |v| = %g", m, fz, wf, W, b.V.Norm())
		}
	}
}

// TestCDRestitutionWorld: a cube in contact with the ground (at the target
// gap) approaching at 1 m/s leaves at e m/s after one step (S3 §4.3), up to
// the gravity impulse of the step being absorbed by the contacts (±1e-9 m/s).
func TestCDRestitutionWorld(t *testing.T) {
	for _, e := range []float64{0, 0.5, 1} {
		w := groundWorld(t, cubeParams(0, 0))
		x := NewCD()
		x.Restitution = e
		b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0, 0, 0.05+x.Margin*1e-3), geom.QIdent())
		b.V = geom.V(0.2, 0, -1)
		w.AddBody(b)
		w.Integrator = x
		w.Dt = 1e-4
		cdSteps(t, w, 1)
		if math.Abs(b.V.Z-e) > 1e-9 || math.Abs(b.V.X-0.2) > 1e-12 || b.W.Norm() > 1e-9 {
			t.Errorf("e = %g: v⁺ = %v, ω⁺ = %v, want (0.2, 0, %g)", e, b.V, b.W, e)
		}
	}
}

// TestCDTakesOverFromExplicit: a cube settles on the ground under the
// explicit integrator (S0 barrier, damped, resting near 0.99 ḡ), then CD
// with Δt = 1 ms takes over from that state: within 0.1 s it holds the cube at rest (|v| < 1e-9 m/s)
// at the CD target gap (±1e-9 m) with the forces summing to the weight
// (±1e-7 relative, the default solver tolerance 1e-8); then the explicit integrator takes over again without error.
func TestCDTakesOverFromExplicit(t *testing.T) {
	w := groundWorld(t, cubeParams(1, 0))
	b := body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, geom.Vec3{}, geom.QIdent())
	lowestAt(b, 0.5e-3)
	w.AddBody(b)
	run(t, w, 0.2, nil)
	dtExplicit := w.Dt
	x := NewCD()
	x.Dt = 1e-3
	w.Integrator = x
	if _, err := Advance(w, w.Time+0.1, nil); err != nil {
		t.Fatal(err)
	}
	var fz float64
	w.EachContact(func(_, _ int, c *contact.Contact) { fz += c.Fn * math.Abs(c.N.Z) })
	W := b.Mass() * 9.81
	t.Logf("explicit dt %.3g s; CD (dt 1 ms, 0.1 s): Σfn = %.12g N, |v| = %.2e, bottom gap %.4g ḡ", dtExplicit, fz, b.V.Norm(), (b.X.Z-0.05)/1e-3)
	if math.Abs(fz-W) > 1e-7*W || b.V.Norm() > 1e-9 || math.Abs(b.X.Z-0.05-x.Margin*1e-3) > 1e-9 {
		t.Errorf("CD after explicit: Σfn = %g N (weight %g), |v| = %g, gap %g", fz, W, b.V.Norm(), b.X.Z-0.05)
	}
	w.Integrator = &Explicit{}
	if _, err := Advance(w, w.Time+0.05, nil); err != nil {
		t.Fatal(err)
	}
}

// TestCDFreeFlight: without contacts the step is semi-implicit Euler with the
// gyroscopic moment explicit (S3 eq. 13): after n steps v = v₀ + n g Δt and
// x = x₀ + Δt Σ v_k exactly (1e-12), and a body spinning about a principal
// axis keeps ω.
func TestCDFreeFlight(t *testing.T) {
	w := world.New("free")
	if err := w.SetParams(0, 0, cubeParams(0, 0)); err != nil {
		t.Fatal(err)
	}
	b := body.New("brick", shape.Box(0.3, 0.2, 0.1), 500, geom.V(0, 0, 1), geom.QIdent())
	b.V, b.W = geom.V(1, 0, 2), geom.V(0, 0, 5)
	w.AddBody(b)
	x := NewCD()
	x.Approach = 0 // a fixed step: the cap would shorten it for this fast body
	w.Integrator, w.Dt = x, 1e-3
	const n = 100
	cdSteps(t, w, n)
	vz := 2 - 9.81*n*1e-3
	z := 1 + 1e-3*(2*n-9.81*1e-3*n*(n+1)/2)
	if math.Abs(b.V.Z-vz) > 1e-12 || math.Abs(b.X.Z-z) > 1e-12 || b.W.Dist(geom.V(0, 0, 5)) > 1e-12 {
		t.Errorf("v = %v (want vz %g), z = %.15g (want %.15g), ω = %v", b.V, vz, b.X.Z, z, b.W)
	}
}

// TestCDRejectsBadOptions: bad options give an error naming the field.
func TestCDRejectsBadOptions(t *testing.T) {
	cases := map[string]func(*CD){
		"cd.method":      func(x *CD) { x.Method = 7 },
		"cd.restitution": func(x *CD) { x.Restitution = 1.5 },
		"cd.tol":         func(x *CD) { x.Tol = math.NaN() },
		"cd.compat_law":  func(x *CD) { x.CompatLaw = 9 },
		"cd.margin":      func(x *CD) { x.Margin = -1 },
		"cd.dt":          func(x *CD) { x.Dt = -1 },
		"cd.touch":       func(x *CD) { x.Touch = math.Inf(1) },
	}
	for field, set := range cases {
		w := groundWorld(t, cubeParams(0, 0))
		x := NewCD()
		set(x)
		_, err := x.Step(w, 1e-3)
		if err == nil || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: error %v", field, err)
		}
	}
	w := groundWorld(t, cubeParams(0, 0))
	w.Dt, w.Settings.Dt = 0, 0
	if _, err := NewCD().Step(w, 1e-3); err == nil || !strings.Contains(err.Error(), "integrator.dt") {
		t.Errorf("zero dt: error %v", err)
	}
}

// TestCDSmoothBodiesRest: a sphere and a superquadric (blocky, S1) dropped
// onto a plane wall with CD, with e = 0 and e = 0.5: each lands, comes to
// rest within 0.5 s with its overlap at the CD target (Overlap × radius,
// ±1e-9 of the radius, no lasting penetration), the contact force equal to
// its weight at every step of the last 0.1 s (±1e-7 relative: no
// on/off chatter of a contact the world reports only while overlapping), and
// no spin (|ω| < 1e-9 rad/s).
func TestCDSmoothBodiesRest(t *testing.T) {
	const r, rho = 0.01, 2500.0
	for _, kind := range []string{"sphere", "superquadric"} {
		for _, e := range []float64{0, 0.5} {
			w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e4})
			if _, err := w.AddWall("ground", plane(t, "ground", geom.Vec3{}, geom.V(0, 0, 1), 1), 0, true); err != nil {
				t.Fatal(err)
			}
			var b *body.Body
			var half float64
			if kind == "sphere" {
				b, half = body.NewSphere("s", r, rho, geom.V(0, 0, r+0.01)), r
			} else {
				s := sq.Shape{A: r, B: 0.8 * r, C: 0.6 * r, N1: 4, N2: 4}
				b, half = body.NewSuperquadric("q", s, rho, geom.V(0, 0, s.C+0.01), geom.QIdent()), s.C
			}
			w.AddBody(b)
			x := NewCD()
			x.Restitution, x.Dt = e, 1e-3
			w.Integrator = x
			if _, err := Advance(w, 0.4, nil); err != nil {
				t.Fatal(err)
			}
			W := b.Mass() * 9.81
			worst := 0.0
			for range 100 {
				cdSteps(t, w, 1)
				var fz float64
				w.EachContact(func(_, _ int, c *contact.Contact) { fz += c.Fn * math.Abs(c.N.Z) })
				worst = math.Max(worst, math.Abs(fz-W)/W)
			}
			target := x.Overlap * b.R // the smaller radius: the wall counts as flat
			ov := half - b.X.Z
			t.Logf("%s, e = %g: overlap %.6g (target %.6g), worst |Σfn − W|/W over 0.1 s %.2e, |v| %.1e, |ω| %.1e",
				kind, e, ov, target, worst, b.V.Norm(), b.W.Norm())
			if math.Abs(ov-target) > 1e-9*r || worst > 1e-7 || b.V.Norm() > 1e-9 || b.W.Norm() > 1e-9 {
				t.Errorf("%s, e = %g: overlap %g (target %g), force error %g, |v| %g, |ω| %g", kind, e, ov, target, worst, b.V.Norm(), b.W.Norm())
			}
		}
	}
}

// TestCDCubePileDissipates drops 12 randomly rotated frictionless cubes (and
// the first 3 with Coulomb friction μ = 0.5, for 0.4 s) in a column onto
// the ground with classic CD (APGD, e = 0, Δt ≤ 1 ms with the
// approach cap) for 0.8 s, through impacts and a collapsing pile: the
// mechanical energy never grows (semi-implicit Euler loses ½ m g² Δt² per
// step in flight and CD contacts are perfectly plastic; tolerance 1e-9 of the
// initial energy per step), and no vertex–face contact ever has a negative
// signed gap (no penetration).
func TestCDCubePileDissipates(t *testing.T) {
	cubePileDissipates(t, 0, 12, 0.8)
	cubePileDissipates(t, 0.5, 3, 0.4) // friction: more iterations per step, a smaller pile
}

// cubePileDissipates runs the check on n cubes with friction μ until time tEnd.
func cubePileDissipates(t *testing.T, mu float64, n int, tEnd float64) {
	w := groundWorld(t, cubeParams(0, mu))
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		q := geom.QFromRotVec(geom.V(rnd.NormFloat64(), rnd.NormFloat64(), rnd.NormFloat64()))
		x := geom.V(0.03*rnd.NormFloat64(), 0.03*rnd.NormFloat64(), 0.1+0.13*float64(i))
		w.AddBody(body.New("cube", shape.Box(0.1, 0.1, 0.1), 1000, x, q))
	}
	x := NewCD()
	x.Dt, x.Compatible = 1e-3, false
	w.Integrator = x
	w.UpdateStats()
	e0 := w.Stats.Total()
	prev := e0
	worstRise, minGap := math.Inf(-1), math.Inf(1)
	steps := 0
	for w.Time < tEnd {
		cdSteps(t, w, 1)
		steps++
		e := w.Stats.Total()
		worstRise = math.Max(worstRise, e-prev)
		prev = e
		w.EachContact(func(a, b int, c *contact.Contact) {
			if c.Active() && c.Kind == snap.VF {
				var n geom.Vec3
				if c.Swap {
					n = w.Bodies()[a].Q.Rotate(w.Bodies()[a].Poly().Faces[c.FA].N).Neg()
				} else {
					n = w.Bodies()[b].Q.Rotate(w.Bodies()[b].Poly().Faces[c.FB].N)
				}
				minGap = math.Min(minGap, c.PA.Sub(c.PB).Dot(n))
			}
		})
	}
	t.Logf("μ = %g: %d steps; energy %.6g → %.6g J, largest rise in a step %.3g J; smallest vertex–face gap %.3g m; %d contacts at the end",
		mu, steps, e0, prev, worstRise, minGap, w.Stats.Contacts)
	if worstRise > 1e-9*e0 || prev >= e0 {
		t.Errorf("μ = %g: energy grew by %g J in a step (from %g to %g J overall)", mu, worstRise, e0, prev)
	}
	if minGap < 0 {
		t.Errorf("μ = %g: a vertex went %g m behind a face", mu, -minGap)
	}
}

// TestCDPeriodicSeamCollision: two equal spheres meet obliquely through the
// periodic x seam under CD with e = 1: the normal velocity components are
// exchanged, the tangential ones kept (1e-9 m/s), momentum is conserved
// (1e-12), and neither sphere spins (|ω| < 1e-9 rad/s: the lever arm of the
// image across the seam is used, so the central force has no moment).
func TestCDPeriodicSeamCollision(t *testing.T) {
	const r, rho = 0.01, 2500.0
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 1e5})
	w.Gravity = geom.Vec3{}
	w.Periodic = world.Periodic{X: true, Lo: geom.V(0, -1, -1), Hi: geom.V(0.2, 1, 1)}
	a := body.NewSphere("a", r, rho, geom.V(0.2-r-0.002, 0, 0)) // near the +x face
	b := body.NewSphere("b", r, rho, geom.V(r+0.002, 0.01, 0))  // near the −x face, offset in y
	a.V = geom.V(0.4, 0, 0)
	w.AddBody(a)
	w.AddBody(b)
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	x := NewCD()
	x.Restitution, x.Dt = 1, 1e-4
	w.Integrator = x
	var n geom.Vec3
	for w.Time < 0.03 {
		cdSteps(t, w, 1)
		w.EachContact(func(_, _ int, c *contact.Contact) {
			if c.Active() && c.Fn > 0 && n == (geom.Vec3{}) {
				n = c.N
			}
		})
	}
	if n == (geom.Vec3{}) {
		t.Fatal("no contact through the seam")
	}
	// Equal masses, e = 1: the normal components swap.
	v0 := geom.V(0.4, 0, 0)
	wantA := v0.Sub(n.Scale(v0.Dot(n)))
	wantB := n.Scale(v0.Dot(n))
	p := a.V.Add(b.V).Sub(v0)
	t.Logf("normal %v; v_a = %v (want %v), v_b = %v (want %v), |ω| %.1e, %.1e", n, a.V, wantA, b.V, wantB, a.W.Norm(), b.W.Norm())
	if a.V.Dist(wantA) > 1e-9 || b.V.Dist(wantB) > 1e-9 || p.Norm() > 1e-12 || a.W.Norm() > 1e-9 || b.W.Norm() > 1e-9 {
		t.Errorf("v_a = %v, v_b = %v, Δp = %v, ω_a = %v, ω_b = %v", a.V, b.V, p, a.W, b.W)
	}
}

// TestCDBeamLawStiffness: S3 §8.1.2 with the stiffness taken from the
// polyhedral contact law itself, without a Stiffness callback. The middle
// knife edge is of a material whose barrier law (S0 eq. 49–51) has 3× the
// ε1 of the outer ones, so the law's tangent at the common gap is 3× larger:
// compatible CD (APGD and PGS, either contact order) gives 2, 6, 2 N (±1e-4 N).
// With equal laws it gives 10/3 N each (the split is not forced by the
// solver).
func TestCDBeamLawStiffness(t *testing.T) {
	for _, c := range []struct {
		method cd.Method
		order  [3]int
		scale  float64
		want   [3]float64
	}{
		{cd.APGD, [3]int{0, 1, 2}, 3, [3]float64{2, 6, 2}},
		{cd.PGS, [3]int{1, 0, 2}, 3, [3]float64{2, 6, 2}},
		{cd.APGD, [3]int{2, 1, 0}, 1, [3]float64{10.0 / 3, 10.0 / 3, 10.0 / 3}},
	} {
		x := NewCD()
		x.Method, x.Warm, x.Tol = c.method, false, 1e-12
		w, ib, sup := beamWorld(t, x, c.order)
		stiff := cubeParams(0, 0)
		stiff.Normal.Eps1 *= c.scale
		m := w.Material("stiff")
		if err := w.SetParams(m, 0, stiff); err != nil {
			t.Fatal(err)
		}
		w.Bodies()[sup[1]].Material = m
		cdSteps(t, w, 5)
		f, n := supportForces(w, ib, sup)
		t.Logf("%v, ε1 × %g: %d contacts, support forces %.9f N, compat residual %.1e", c.method, c.scale, n, f, x.LastCompat.Residual)
		for k := range 3 {
			if math.Abs(f[k]-c.want[k]) > 1e-4 {
				t.Errorf("%v, ε1 × %g: support forces %v, want %v ± 1e-4 N", c.method, c.scale, f, c.want)
				break
			}
		}
	}
}
