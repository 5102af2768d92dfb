package integrate

import (
	"grainlab/sim/internal/fma"
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// frictionLaw is a damped Hookean law with friction history (LAMMPS
// gran/hooke/history) for 1 mm spheres.
var frictionLaw = law.Smooth{Model: law.HookeLAMMPS, Kn: 200, GammaN: 50, Kt: 60, GammaT: 25, Mu: 0.5}

// twin builds the same world twice with build and steps both with the
// explicit integrator, one on the sphere path and one on the generic stages
// (Settings.NoSpherePath), calling each after every step with both worlds;
// it returns the largest distance between a body's two positions.
func twin(t *testing.T, steps int, build func() *world.World, each func(fast, gen *world.World)) float64 {
	t.Helper()
	fast, gen := build(), build()
	gen.Settings.NoSpherePath = true
	for _, w := range []*world.World{fast, gen} {
		w.Integrator = &Explicit{}
		if err := Start(w); err != nil {
			t.Fatal(err)
		}
	}
	if fast.Spheres() == nil || gen.Spheres() != nil {
		t.Fatal("the sphere path is not (only) on in the fast world")
	}
	dx := 0.0
	for i := 0; i < steps; i++ {
		for _, w := range []*world.World{fast, gen} {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		for k, b := range fast.Bodies() {
			dx = max(dx, b.X.Sub(gen.Bodies()[k].X).Norm())
		}
		if each != nil {
			each(fast, gen)
		}
	}
	if fast.Time != gen.Time || fast.Stats.Contacts != gen.Stats.Contacts {
		t.Errorf("t = %.12g / %.12g s, contacts %d / %d", fast.Time, gen.Time, fast.Stats.Contacts, gen.Stats.Contacts)
	}
	return dx
}

// dropSpheres adds n spheres of radius r at random points of the box lo–hi
// with random velocities up to v, apart from each other (and from their
// periodic images).
func dropSpheres(w *world.World, n int, r float64, lo, hi geom.Vec3, v float64, seed int64) {
	rng := rand.New(rand.NewSource(seed))
	per := w.Periodic
	for placed := 0; placed < n; {
		x := geom.V(lo.X+rng.Float64()*(hi.X-lo.X), lo.Y+rng.Float64()*(hi.Y-lo.Y), lo.Z+rng.Float64()*(hi.Z-lo.Z))
		free := true
		for _, b := range w.Bodies() {
			d := per.MinImage(b.X.Sub(x))
			if b.Wall < 0 && d.Norm() < 2.05*r {
				free = false
			}
		}
		if !free {
			continue
		}
		b := body.NewSphere("s", r, 2500, x)
		b.V = geom.V(v*(2*rng.Float64()-1), v*(2*rng.Float64()-1), v*(2*rng.Float64()-1))
		w.AddBody(b)
		placed++
	}
}

// A periodic box (x and y) with a floor: spheres with friction fall, pile
// up and touch across both seams. The sphere path gives the generic run to
// the bit (history and images included).
func TestSpherePathPeriodic(t *testing.T) {
	if fma.MayFuse {
		// The sphere path and the generic stages are compiled apart and
		// fuse products differently on FMA builds: last-bit differences
		// that this chaotic flow amplifies (0.01 m seen on GOAMD64=v3).
		// The comparison is exact on non-fusing builds only; the
		// any-worker tests cover FMA builds (.ci/fma-workers.sh).
		t.Skip("FMA build: sphere path and generic stages round differently (docs/ARCHITECTURE.md, fused multiply-adds)")
	}
	const L, r = 0.01, 0.001
	build := func() *world.World {
		w := smoothWorld(t, frictionLaw)
		w.Periodic = world.Periodic{X: true, Y: true, Lo: geom.V(0, 0, -1), Hi: geom.V(L, L, 1)}
		if _, err := w.AddWall("floor", plane(t, "floor", geom.V(L/2, L/2, 0), geom.V(0, 0, 1), L), 0, true); err != nil {
			t.Fatal(err)
		}
		dropSpheres(w, 30, r, geom.V(0, 0, r), geom.V(L, L, 0.02), 0.05, 1)
		if err := w.Check(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	twinBitwise(t, 3000, build, "contact-steps across a seam", func(w *world.World, a, b int, _ *contact.Contact) bool {
		d := w.Bodies()[a].X.Sub(w.Bodies()[b].X)
		return w.Bodies()[b].Wall < 0 && (math.Abs(d.X) > L/2 || math.Abs(d.Y) > L/2)
	})
}

// twinBitwise runs twin for steps and counts the sphere path's contact-steps
// for which counted holds: none is an error (the case was not exercised), and
// so are positions that differ from the generic run by more than 1e-12 m.
func twinBitwise(t *testing.T, steps int, build func() *world.World, what string, counted func(w *world.World, a, b int, c *contact.Contact) bool) {
	t.Helper()
	n := 0
	dx := twin(t, steps, build, func(fast, _ *world.World) {
		fast.EachContact(func(a, b int, c *contact.Contact) {
			if counted(fast, a, b, c) {
				n++
			}
		})
	})
	t.Logf("max |Δx| = %.3g m, %d %s", dx, n, what)
	if n == 0 {
		t.Errorf("no %s", what)
	}
	if dx > 1e-12 {
		t.Errorf("positions differ by %.3g m", dx)
	}
}

// A plate with a square hole (four planar walls around it) over a floor:
// spheres with friction fall through the hole and roll over its rim, whose
// edges and corners the sphere path hands to the generic surface contacts;
// a few thrown up from below meet the plate's back side, which only its rim
// can touch. The two runs agree to the bit.
func TestSpherePathRim(t *testing.T) {
	if fma.MayFuse {
		// As TestSpherePathSwitching: the sphere path and the generic
		// stages fuse products differently on FMA builds (1.2e-15 m seen
		// on GOAMD64=v3); the twin comparison is exact on non-fusing
		// builds only, and .ci/fma-workers.sh covers FMA builds.
		t.Skip("FMA build: sphere path and generic stages round differently (docs/ARCHITECTURE.md, fused multiply-adds)")
	}
	const r = 0.001
	build := func() *world.World {
		w := smoothWorld(t, frictionLaw)
		add := func(name string, c geom.Vec3, sx, sy float64) {
			vs := []geom.Vec3{c.Add(geom.V(-sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, -sy/2, 0)), c.Add(geom.V(sx/2, sy/2, 0)), c.Add(geom.V(-sx/2, sy/2, 0))}
			p, err := shape.NewSurface(name, vs, [][3]int32{{0, 1, 2}, {0, 2, 3}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.AddWall(name, p, 0, true); err != nil {
				t.Fatal(err)
			}
		}
		// Hole 5 mm wide at z = 10 mm, plate 15 mm square; floor below.
		add("west", geom.V(-0.00625, 0, 0.01), 0.0075, 0.015)
		add("east", geom.V(0.00625, 0, 0.01), 0.0075, 0.015)
		add("south", geom.V(0, -0.00375, 0.01), 0.005, 0.0025)
		add("north", geom.V(0, 0.00375, 0.01), 0.005, 0.0025)
		add("floor", geom.V(0, 0, 0), 0.1, 0.1)
		dropSpheres(w, 25, r, geom.V(-0.005, -0.005, 0.012), geom.V(0.005, 0.005, 0.03), 0.05, 2)
		// Under the plate, thrown up at it: its back side (one-sided walls).
		n := len(w.Bodies())
		dropSpheres(w, 6, r, geom.V(-0.007, -0.007, 0.002), geom.V(0.007, 0.007, 0.007), 0.05, 5)
		for _, b := range w.Bodies()[n:] {
			b.V.Z = 0.4
		}
		return w
	}
	twinBitwise(t, 4000, build, "rim contact-steps (a sphere on the rim of the hole)", func(_ *world.World, _, _ int, c *contact.Contact) bool {
		return c.FA != 0 || c.FB != 0
	})
}

// Switching integrators every 20 steps (explicit ↔ newmark) while spheres
// with friction settle in a corner: the history goes back and forth between
// the sphere path and the generic stages, and the run is the run of the
// generic stages alone (1e-12 m).
func TestSpherePathSwitching(t *testing.T) {
	if fma.MayFuse {
		// The sphere path and the generic stages are compiled apart and
		// fuse products differently on FMA builds: last-bit differences
		// that this chaotic flow amplifies (0.01 m seen on GOAMD64=v3).
		// The comparison is exact on non-fusing builds only; the
		// any-worker tests cover FMA builds (.ci/fma-workers.sh).
		t.Skip("FMA build: sphere path and generic stages round differently (docs/ARCHITECTURE.md, fused multiply-adds)")
	}
	const r = 0.001
	build := func() *world.World {
		w := smoothWorld(t, frictionLaw)
		for i, n := range []geom.Vec3{geom.V(0, 0, 1), geom.V(1, 0, 0), geom.V(0, 1, 0)} {
			if _, err := w.AddWall([]string{"floor", "x", "y"}[i], plane(t, "p", n.Scale(0.0), n, 0.05), 0, true); err != nil {
				t.Fatal(err)
			}
		}
		dropSpheres(w, 12, r, geom.V(r, r, r), geom.V(0.006, 0.006, 0.006), 0.02, 3)
		return w
	}
	ex, nm := &Explicit{}, NewNewmark()
	switched := 0
	dx := twin(t, 1200, build, func(fast, gen *world.World) {
		if fast.Steps%20 != 0 {
			return
		}
		for _, w := range []*world.World{fast, gen} {
			if w.Integrator.Name() == "explicit" {
				w.Integrator = nm
			} else {
				w.Integrator = ex
			}
		}
		switched++
	})
	t.Logf("max |Δx| = %.3g m after %d switches", dx, switched)
	if dx > 1e-12 {
		t.Errorf("positions differ by %.3g m", dx)
	}
}

// Two equal spheres collide obliquely in free space (frictionless, no
// damping) on the sphere path: momentum is conserved to rounding, kinetic
// energy to 1e-3, and the velocities after the impact are the analytic ones
// of an elastic impact of equal masses — the normal components exchanged —
// within 1e-3 of the speed.
func TestSpherePathElasticImpact(t *testing.T) {
	const r = 0.001
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 100})
	w.Gravity = geom.Vec3{}
	w.Settings.Safety = 0.05
	a := body.NewSphere("a", r, 2500, geom.V(-0.003, 0.0007, 0))
	b := body.NewSphere("b", r, 2500, geom.V(0.003, -0.0007, 0.0003))
	a.V, b.V = geom.V(0.1, 0, 0), geom.V(-0.05, 0.01, 0)
	w.AddBody(a)
	w.AddBody(b)
	w.Integrator = &Explicit{}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	if w.Spheres() == nil {
		t.Fatal("not on the sphere path")
	}
	p0 := a.V.Add(b.V).Scale(a.Mass())
	e0 := a.KineticEnergy() + b.KineticEnergy()
	var n0, n1 geom.Vec3 // the normals at the first and the last contact step
	run(t, w, 0.1, func() {
		if w.Stats.Contacts > 0 {
			n1 = a.X.Sub(b.X).Unit()
			if n0 == (geom.Vec3{}) {
				n0 = n1
			}
		}
	})
	if n0 == (geom.Vec3{}) || w.Stats.Contacts != 0 {
		t.Fatalf("contacts at the end %d, normal at first touch %v", w.Stats.Contacts, n0)
	}
	// The line of centres turns by O(δ/r) during the impact, which is
	// symmetric about its middle: the mean normal is the impulse's direction.
	n := n0.Add(n1).Unit()
	va0, vb0 := geom.V(0.1, 0, 0), geom.V(-0.05, 0.01, 0)
	dv := n.Scale(vb0.Sub(va0).Dot(n))
	wantA, wantB := va0.Add(dv), vb0.Sub(dv)
	if p := a.V.Add(b.V).Scale(a.Mass()).Sub(p0).Norm(); p > 1e-15*p0.Norm() {
		t.Errorf("momentum changed by %.3g (of %.3g)", p, p0.Norm())
	}
	if e := a.KineticEnergy() + b.KineticEnergy(); math.Abs(e-e0) > 1e-3*e0 {
		t.Errorf("kinetic energy %.8g → %.8g (±1e-3)", e0, e)
	}
	if d := max(a.V.Sub(wantA).Norm(), b.V.Sub(wantB).Norm()); d > 1e-3*0.15 {
		t.Errorf("after the impact v_a = %v, v_b = %v; analytic %v, %v", a.V, b.V, wantA, wantB)
	}
}

// A gas of 40 spheres in a periodic cube without gravity, walls or damping
// on the sphere path: total momentum is conserved to rounding and kinetic
// energy, after 0.3 s of collisions (also across the seams), to 1e-3.
func TestSpherePathPeriodicGas(t *testing.T) {
	const L, r = 0.012, 0.001
	w := smoothWorld(t, law.Smooth{Model: law.HookeLAMMPS, Kn: 100})
	w.Gravity = geom.Vec3{}
	w.Settings.Safety = 0.05
	w.Periodic = world.Periodic{X: true, Y: true, Lo: geom.V(0, 0, -1), Hi: geom.V(L, L, 1)}
	dropSpheres(w, 40, r, geom.V(0, 0, 0), geom.V(L, L, 0.004), 0.1, 4)
	var p0 geom.Vec3
	e0, pabs := 0.0, 0.0
	for _, b := range w.Bodies() {
		p0 = p0.AddScaled(b.Mass(), b.V)
		e0 += b.KineticEnergy()
		pabs += b.Mass() * b.V.Norm()
	}
	w.Integrator = &Explicit{}
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	if w.Spheres() == nil {
		t.Fatal("not on the sphere path")
	}
	contacts := 0
	run(t, w, 0.3, func() { contacts += w.Stats.Contacts })
	var p geom.Vec3
	e := 0.0
	for _, b := range w.Bodies() {
		p = p.AddScaled(b.Mass(), b.V)
		e += b.KineticEnergy()
	}
	t.Logf("%d contact-steps; |Δp| = %.3g of Σm|v| = %.3g; E_kin %.6g → %.6g J", contacts, p.Sub(p0).Norm(), pabs, e0, e)
	if contacts < 100 {
		t.Fatalf("only %d contact-steps", contacts)
	}
	if d := p.Sub(p0).Norm(); d > 1e-13*pabs {
		t.Errorf("momentum changed by %.3g (Σ m|v| = %.3g)", d, pabs)
	}
	if e <= 0 || math.Abs(e-e0) > 1e-3*e0 {
		t.Errorf("kinetic energy %.8g → %.8g J (±1e-3)", e0, e)
	}
}
