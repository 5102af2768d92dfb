package validation

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// S1 §3.2, Fig. 10: a superquadric cylinder (D = L, n1 = 10, n2 = 2) tilted by
// θ hits a frictionless wall at V⁻ without spin. The post-impact r·ω⁺/V⁻ and
// V⁺/V⁻ follow Kodam's rigid-body impact relations S1 eq. (41)–(42) within
// 2% of V⁻ (the issue asks 5%) for θ from 10° to 80° (ε = 1: the scene's law is elastic), with
// the corner point C taken where the superquadric first touches the wall (its
// extreme point towards the wall, S1 eq. 30). S1 notes that the rounded
// superquadric corner moves C off the true cylinder's sharp corner; the test
// logs eq. (41)–(42) with the sharp corner too, for docs/validation.md.
func TestS1CylinderWallImpact(t *testing.T) {
	const eps = 1.0
	for th := 10; th <= 80; th += 10 {
		w := load(t, "kodam-impact", fmt.Sprintf("params.theta=%d", th))
		b := w.Bodies()[w.BodyByName("cyl")]
		v0 := -b.V.Z
		var xc geom.Vec3 // C in the body frame at first touch
		touched, done := false, false
		advance(t, w, 0.004, func() bool {
			if w.Stats.Contacts > 0 {
				if !touched {
					p, _ := b.SQ().SupportWorld(sq.Pose{X: b.X, Q: b.Q}, geom.V(0, 0, -1))
					xc = b.ToBody(p)
				}
				touched = true
			} else if touched {
				done = true // S1: the wall is removed right after the impact
			}
			return done
		})
		if !done {
			t.Fatalf("θ=%d°: the impact did not finish", th)
		}
		m, iyy := b.Mass(), b.IBody()[1][1]
		kodam := func(r, alpha float64) (rw, vup float64) {
			d := r * math.Cos(alpha+float64(th)*math.Pi/180)         // lever arm of the wall force
			omega := m * v0 * (1 + eps) * d / (iyy + m*d*d)          // S1 eq. (41)
			return math.Abs(omega) * r / v0, (eps*v0 - omega*d) / v0 // S1 eq. (42): rebound away from the wall
		}
		r := math.Hypot(xc.X, xc.Z)
		alpha := math.Atan2(math.Abs(xc.Z), math.Abs(xc.X))
		wantRW, wantV := kodam(r, alpha)
		sharpRW, sharpV := kodam(math.Hypot(b.SQ().A, b.SQ().C), math.Atan2(b.SQ().C, b.SQ().A))
		gotRW, gotV := math.Abs(b.W.Y)*r/v0, b.V.Z/v0
		t.Logf("θ=%2d°: rω⁺/V⁻ %.4f (eq. 41: %.4f; sharp corner %.4f)  V⁺/V⁻ %.4f (eq. 42: %.4f; sharp corner %.4f)",
			th, gotRW, wantRW, sharpRW*math.Hypot(xc.X, xc.Z)/math.Hypot(b.SQ().A, b.SQ().C), gotV, wantV, sharpV)
		if math.Abs(gotRW-wantRW) > 0.02 || math.Abs(gotV-wantV) > 0.02 {
			t.Errorf("θ=%d°: rω⁺/V⁻ = %.4f vs %.4f, V⁺/V⁻ = %.4f vs %.4f (±0.02)", th, gotRW, wantRW, gotV, wantV)
		}
	}
}

// S1 §2.5, Table 1 set-up: two equal ellipsoids pressed tip to tip along x.
// The overlap from the contact line (S1 eq. 36–37) equals the geometric
// 2a − d, and the force follows Hertz, F = 4/3·Y*·√(R δ)·δ, with R the
// equivalent radius (eq. 38) of the tips' mean (eq. 39) or Gaussian (eq. 40)
// curvature radii, computed here from the ellipsoid's principal curvatures
// a/b² and a/c² (within 1e-6).
func TestS1EllipsoidsHertz(t *testing.T) {
	s := sq.Shape{A: 0.01, B: 0.006, C: 0.004, N1: 2, N2: 2}
	k1, k2 := s.A/(s.B*s.B), s.A/(s.C*s.C) // principal curvatures at the tip (a, 0, 0)
	for _, c := range []struct {
		method string
		r      float64
	}{{"mean", 2 / (k1 + k2)}, {"gaussian", 1 / math.Sqrt(k1*k2)}} {
		p := law.Smooth{Model: law.HertzMaterial, E: 1e8, Nu: 0.3, Restitution: 0.9, Radius: c.method}
		w := world.New("ellipsoids")
		if err := w.SetParams(0, 0, world.ContactParams{Smooth: p}); err != nil {
			t.Fatal(err)
		}
		w.Gravity = geom.Vec3{}
		a := body.NewSuperquadric("a", s, 1000, geom.V(-s.A, 0, 0), geom.QIdent())
		b := body.NewSuperquadric("b", s, 1000, geom.V(s.A, 0, 0), geom.QIdent())
		w.AddBody(a)
		w.AddBody(b)
		ystar := p.E / (2 * (1 - p.Nu*p.Nu))
		req := c.r / 2 // S1 eq. (38) for two equal radii
		for _, delta := range []float64{1e-6, 1e-5, 5e-5, 2e-4} {
			a.X.X, b.X.X = -s.A+delta/2, s.A-delta/2
			if w.Evaluate(0, 0, world.Eval{}).Bad {
				t.Fatal("bad evaluation")
			}
			want := 4.0 / 3.0 * ystar * math.Sqrt(req*delta) * delta
			got := b.F.X
			if math.Abs(got-want) > 1e-6*want {
				t.Errorf("%s: δ = %g: F = %.9g N, Hertz %.9g N", c.method, delta, got, want)
			}
		}
	}
}

// S1 §3.1 on a small scale: 60 superquadrics (n = 6) settle in the periodic
// box on its floor. Every grain stays above the floor (none slips through at
// the periodic seams, where the floor's contact point is wrapped back), and
// inside the box horizontally; every midway-point solve converges; the bed
// comes to rest: at t = 1 s the grains held by three or more contacts carry a
// kinetic energy below 1e-6 of the potential energy released.
//
// Why those grains and that time (docs/validation.md, S1 §3.1 small). A
// grain held by two point contacts has a hinge: turning about the line
// through its two contact points moves neither point, so no dashpot and no
// tangential spring of the point-contact law (S1 §2.5) acts on it, and
// nothing else damps it (no rolling or twisting resistance in this scene).
// Such a grain (a grain on the floor with one grain on top twisting about
// the vertical through both contacts; a grain hanging between two
// neighbours rocking about the line through them) keeps an oscillation of
// whatever amplitude the chaotic settling left it: measured, one grain held
// 6.7e-6 of the released energy at 0.6 s, 5.8e-6 at 0.8 s and still up to
// 3.8e-6 between 5.5 and 6 s. The run is chaotic (a change of gravity by 1e-14 relative gives
// another packing), so with every grain counted the test passed or failed
// by chance: at 0.6 s (the former check) 4 of 10 runs (gravity ×(1 ± 1e-14),
// ×(1 ± 1e-12), ×(1 + 3e-14), seeds 2 to 5) were above 1e-6, at 1 s 5 of 14,
// and of the four above at 0.6 s three still reached 1.2e-6 … 3.8e-6
// between 5.5 and 6 s. Without the grains on two contacts or fewer the bed is
// at rest: at 1 s 14 runs (gravity ×1, ×(1 ± 1e-14), ×(1 ± 1e-12),
// ×(1 ± 3e-14), seeds 2 to 8) measure 1.5e-10 … 9.2e-8 of the released
// energy, 10 times below the limit or more (at 0.6 s up to 2.0e-6: a run
// still settling then). A frictionless bed (mu = 0) fails it (1.6e-5). The
// hinge grains' energy is logged.
func TestS1SettlingPeriodicSmall(t *testing.T) {
	w := load(t, "sq-settling", "generators[0].count=60", "params.n=6",
		"periodic.max=[0.03,0.03,0.25]", "generators[0].region.max=[0.03,0.03,0.12]")
	pe0 := w.Stats.PotentialGravity
	advance(t, w, 1.0, nil)
	released := pe0 - w.Stats.PotentialGravity
	held := make([]int, len(w.Bodies())) // active contacts per body, walls and periodic images included
	w.EachContact(func(a, b int, c *contact.Contact) {
		if c.Active() {
			held[a]++
			held[b]++
		}
	})
	kHeld, kHinge, nHinge := 0.0, 0.0, 0
	for i, b := range w.Bodies() {
		if b.Fixed {
			continue
		}
		lo, _ := b.SQ().SupportWorld(sq.Pose{X: b.X, Q: b.Q}, geom.V(0, 0, -1))
		if lo.Z < -1e-4 {
			t.Errorf("%s: lowest point %.3g m below the floor (x = %.4f, y = %.4f)", b.Name, -lo.Z, b.X.X, b.X.Y)
		}
		if b.X.X < 0 || b.X.X >= 0.03 || b.X.Y < 0 || b.X.Y >= 0.03 {
			t.Errorf("%s: centre (%.4f, %.4f) outside the periodic box", b.Name, b.X.X, b.X.Y)
		}
		if held[i] >= 3 {
			kHeld += b.KineticEnergy()
		} else {
			kHinge += b.KineticEnergy()
			nHinge++
		}
	}
	if w.Stats.SQFailures != 0 {
		t.Errorf("%d midway-point solves failed", w.Stats.SQFailures)
	}
	if !(released > 0) || kHeld > 1e-6*released {
		t.Errorf("kinetic energy %.3g J of the grains on ≥ 3 contacts after releasing %.3g J: the bed is not at rest", kHeld, released)
	}
	t.Logf("%d contacts; kinetic %.3g J (%.2g of %.3g J released) on ≥ 3 contacts, %.3g J (%.2g) on the %d grains with ≤ 2",
		w.Stats.Contacts, kHeld, kHeld/released, released, kHinge, kHinge/released, nHinge)
}
