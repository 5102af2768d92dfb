package world

import (
	"grainlab/sim/internal/fma"
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sq"
)

// TestSmoothPlacedShapes: the superquadric pair queries of the world, with
// the shapes placed per body (Evaluate after a placement) and with the
// bodies moved since the placement (Eval.Fixed, the trial states of the
// implicit integrators, where the per-body placement is stale), give the
// contact of sq.Contact at the bodies' current poses: gap and points to
// 1e-9 of the particle size, the normal to 1e-6 (the world's solve is warm
// started with tolerance 1e-8, sq.Contact's cold with 1e-10). An overlapping n = 4 pair
// and a sphere on an n = 8 superquadric; it fails if the stale placement
// were used for the moved state (the gap changes by 2e-5 m there).
func TestSmoothPlacedShapes(t *testing.T) {
	s := sq.Shape{A: 0.004, B: 0.003, C: 0.0025, N1: 4, N2: 4}
	for _, sphereB := range []bool{false, true} {
		w := New("placed")
		if err := w.SetParams(0, 0, ContactParams{Smooth: law.Smooth{Model: law.HertzMaterial, E: 5e6, Nu: 0.3, Restitution: 0.5, Mu: 0.5}}); err != nil {
			t.Fatal(err)
		}
		w.Gravity = geom.Vec3{}
		w.Settings.Workers = 1
		sa := s
		if sphereB {
			sa.N1, sa.N2 = 8, 8
		}
		a := body.NewSuperquadric("a", sa, 2500, geom.V(0, 0, 0), geom.QAxisAngle(geom.V(1, 2, 3), 0.3))
		var b *body.Body
		if sphereB {
			b = body.NewSphere("b", 0.002, 2500, geom.V(0.0002, 0.0001, 0.0044))
		} else {
			b = body.NewSuperquadric("b", s, 2500, geom.V(0.0075, 0.001, 0.0005), geom.QAxisAngle(geom.V(0, 0, 1), 0.2))
		}
		w.AddBody(a)
		w.AddBody(b)
		check := func(stage string) {
			t.Helper()
			want := sq.Contact(a.SQ(), sq.Pose{X: a.X, Q: a.Q}, b.SQ(), sq.Pose{X: b.X, Q: b.Q}, nil)
			if !want.InContact {
				t.Fatalf("%s: the test pair is not in contact", stage)
			}
			n := 0
			w.EachTrialContact(func(_, _ int, c *contact.Contact) {
				n++
				L := 0.002
				if d := c.Gn - want.Gap; d > 1e-9*L || d < -1e-9*L ||
					c.PA.Sub(want.PA).Norm() > 1e-9*L || c.PB.Sub(want.PB).Norm() > 1e-9*L || c.N.Sub(want.Normal).Norm() > 1e-6 {
					t.Errorf("%s (sphere %v): contact gap %.17g PA %v N %v, sq.Contact gap %.17g PA %v N %v", stage, sphereB, c.Gn, c.PA, c.N, want.Gap, want.PA, want.Normal)
				}
			})
			if n != 1 {
				t.Fatalf("%s: %d contacts, want 1", stage, n)
			}
		}
		w.Evaluate(0, 1e-5, Eval{})
		check("placed")
		w.Commit(Commit{})
		b.X = b.X.Add(geom.V(-2e-5, 0, -2e-5))
		b.Q = geom.QAxisAngle(geom.V(1, 0, 0), 1e-3).Mul(b.Q)
		w.Evaluate(0, 1e-5, Eval{Fixed: true})
		check("moved (Eval.Fixed)")
	}
}

// TestSmoothBoxSameBits: smoothBox's box of a superquadric (S1 §2.2, the
// half-lengths rotated by A(q), S1 eq. 4, capped at the bounding radius)
// is, to the bit, the one formed with the matrix geom.Quat.Mat, for 2 000
// random orientations and shapes. The box only selects candidate pairs,
// but a box that differed by rounding could change which pairs are listed.
func TestSmoothBoxSameBits(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for k := 0; k < 2000; k++ {
		s := sq.Shape{A: 0.001 + 0.01*rng.Float64(), B: 0.001 + 0.01*rng.Float64(), C: 0.001 + 0.01*rng.Float64(), N1: 2 + 8*rng.Float64(), N2: 2 + 8*rng.Float64()}
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		b := body.NewSuperquadric("p", s, 2500, geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), q)
		r := b.Q.Mat()
		ext := [3]float64{b.SQ().A, b.SQ().B, b.SQ().C}
		var h [3]float64
		for i := range 3 {
			h[i] = math.Abs(r[i][0])*ext[0] + math.Abs(r[i][1])*ext[1] + math.Abs(r[i][2])*ext[2]
		}
		hv := geom.V(h[0], h[1], h[2]).Min(geom.V(b.R, b.R, b.R))
		want := contact.AABB{Min: b.X.Sub(hv), Max: b.X.Add(hv)}
		// Bit for bit where nothing fuses; the written-out sums fuse
		// differently on FMA builds (fma.MayFuse): 1e-15 of the position.
		scale := b.X.Norm() + b.R
		if got := smoothBox(b); !fma.Equal(got, want, 1e-15, scale) {
			t.Fatalf("orientation %d: box %v, with the matrix %v", k, got, want)
		}
		// placeSmooth's box, from the matrix the placement formed
		p := b.SQ().Prepare()
		p.Place(b.X, b.Q)
		hp := p.HalfWidths().Min(geom.V(b.R, b.R, b.R))
		if got := (contact.AABB{Min: b.X.Sub(hp), Max: b.X.Add(hp)}); !fma.Equal(got, want, 1e-15, scale) {
			t.Fatalf("orientation %d: placed box %v, with the matrix %v", k, got, want)
		}
	}
}

// TestSmoothEffectiveRadiusPlaced: R_eff of S1 eq. (38) with the radii of
// S1 eq. (39)–(40) (mean, Gaussian, volume) for a pair of placed
// superquadrics (effectiveRadius's one check for both, Prepared.RadiusAt)
// equals the per-body path (radiusAt) to the bit (1e-12 relative on FMA
// builds), and, after the bodies moved since the placement (the placement
// stale, posedOld), the radii at the current poses (sq.Shape's own, from
// quaternions) to 1e-9 relative; it fails if the stale placement is used
// there (an ellipsoid turned by 0.05 rad: R_eff then moves by 2%).
func TestSmoothEffectiveRadiusPlaced(t *testing.T) {
	s := sq.Shape{A: 0.004, B: 0.002, C: 0.0015, N1: 2, N2: 2} // an ellipsoid: the curvature varies everywhere
	w := New("reff")
	if err := w.SetParams(0, 0, ContactParams{Smooth: law.Smooth{Model: law.HertzMaterial, E: 5e6, Nu: 0.3, Restitution: 0.5, Mu: 0.5}}); err != nil {
		t.Fatal(err)
	}
	w.Gravity = geom.Vec3{}
	w.Settings.Workers = 1
	a := body.NewSuperquadric("a", s, 2500, geom.V(0, 0, 0), geom.QAxisAngle(geom.V(1, 2, 3), 0.3))
	b := body.NewSuperquadric("b", s, 2500, geom.V(0.0072, 0.0008, 0.0004), geom.QAxisAngle(geom.V(0, 0, 1), 0.2))
	w.AddBody(a)
	w.AddBody(b)
	methods := []string{"mean", "gaussian", "volume"}
	check := func(stage string, moved bool) {
		t.Helper()
		n := 0
		for _, e := range w.pairs {
			for k := range e.cur {
				c := &e.cur[k]
				n++
				for _, name := range methods {
					p := law.Smooth{Radius: name, CapQ: 10}
					got := w.effectiveRadius(e, w.Bodies()[e.A], w.Bodies()[e.B], &p, c)
					if !moved {
						want := law.Reduced(w.radiusAt(e.A, a, c.PA, geom.Vec3{}, &p), w.radiusAt(e.B, b, c.PB, e.Shift, &p))
						if !fma.Same(got, want, 1e-12, 0) {
							t.Errorf("%s (%s): R_eff %.17g, per body %.17g", stage, name, got, want)
						}
						continue
					}
					m := radiusMethod(name)
					ra := a.SQ().CurvatureRadiusRV(m, sq.Pose{X: a.X, Q: a.Q}.ToLocal(c.PA), 10, a.RVol())
					rb := b.SQ().CurvatureRadiusRV(m, sq.Pose{X: b.X, Q: b.Q}.ToLocal(c.PB), 10, b.RVol())
					if want := law.Reduced(ra, rb); math.Abs(got-want) > 1e-9*want {
						t.Errorf("%s (%s): R_eff %.17g, at the current poses %.17g", stage, name, got, want)
					}
				}
			}
		}
		if n != 1 {
			t.Fatalf("%s: %d contacts, want 1", stage, n)
		}
	}
	w.Evaluate(0, 1e-5, Eval{})
	check("placed", false)
	w.Commit(Commit{})
	b.Q = geom.QAxisAngle(geom.V(1, 0, 0), 0.05).Mul(b.Q)
	w.Evaluate(0, 1e-5, Eval{Fixed: true})
	if !w.posedOld {
		t.Fatal("Eval.Fixed re-placed the bodies: the stale case is not reached")
	}
	check("moved (Eval.Fixed)", true)
}
