package sq

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// Sphere–sphere against the analytic solution (S1 eq. 25): point, normal,
// surface points and overlap/gap to 1e-9.
func TestContactSpheres(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for k := 0; k < 100; k++ {
		r1, r2 := 0.2+rng.Float64(), 0.2+rng.Float64()
		ca := randDir(rng).Scale(5)
		d := randDir(rng)
		dist := (r1 + r2) * (0.8 + 0.4*rng.Float64())
		cb := ca.AddScaled(-dist, d) // d points from B to A
		pa, pb := Pose{X: ca, Q: randQuat(rng)}, Pose{X: cb, Q: randQuat(rng)}
		r := Contact(Sphere(r1), pa, Sphere(r2), pb, nil)
		if !r.Converged {
			t.Fatalf("not converged: %v", r.Err)
		}
		x0 := ca.Scale(r2).Add(cb.Scale(r1)).Scale(1 / (r1 + r2)) // S1 eq. (25)
		want := r1 + r2 - dist
		errs := []float64{r.Point.Dist(x0), r.Normal.Dist(d), r.PA.Dist(ca.AddScaled(-r1, d)), r.PB.Dist(cb.AddScaled(r2, d)), math.Abs(r.Gap + want)}
		for i, e := range errs {
			if e > 1e-9 {
				t.Fatalf("pair %d: quantity %d off by %g: %+v", k, i, e, r)
			}
		}
		if r.InContact != (want > 0) || (r.InContact && math.Abs(r.Overlap-want) > 1e-9) || (!r.InContact && r.Overlap != 0) {
			t.Fatalf("pair %d: in contact %v overlap %g, want %g", k, r.InContact, r.Overlap, want)
		}
	}
}

// Two identical parallel ellipsoids: by central symmetry the midway point is
// the midpoint of the centres, the normal is the ellipsoid normal there, and
// the contact-line intersections solve a quadratic. Agreement to 1e-9.
func TestContactParallelEllipsoids(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	for k := 0; k < 100; k++ {
		s := Shape{0.4 + rng.Float64(), 0.4 + rng.Float64(), 0.4 + rng.Float64(), 2, 2}
		q := randQuat(rng)
		pb := Pose{X: randDir(rng), Q: q}
		dl := randDir(rng)                                          // local direction from B to A
		t0 := 1 / math.Sqrt(sq(dl.X/s.A)+sq(dl.Y/s.B)+sq(dl.Z/s.C)) // midpoint on B's surface at offset 2·t0·dl
		off := dl.Scale(2 * t0 * (0.9 + 0.2*rng.Float64()))
		pa := Pose{X: pb.X.Add(q.Rotate(off)), Q: q}
		r := Contact(s, pa, s, pb, nil)
		if !r.Converged {
			t.Fatalf("not converged: %v", r.Err)
		}
		x0 := off.Scale(0.5) // midway point, B's frame
		nl := geom.Vec3{X: x0.X / (s.A * s.A), Y: x0.Y / (s.B * s.B), Z: x0.Z / (s.C * s.C)}.Unit()
		qa := sq(nl.X/s.A) + sq(nl.Y/s.B) + sq(nl.Z/s.C)
		qb := x0.X*nl.X/(s.A*s.A) + x0.Y*nl.Y/(s.B*s.B) + x0.Z*nl.Z/(s.C*s.C)
		qc := sq(x0.X/s.A) + sq(x0.Y/s.B) + sq(x0.Z/s.C) - 1
		sb := (-qb + math.Sqrt(qb*qb-qa*qc)) / qa // exit of B along +n
		wantGap := -2 * sb
		if d := r.Point.Dist(pb.ToWorld(x0)); d > 1e-9 {
			t.Fatalf("pair %d: midway point off by %g", k, d)
		}
		if d := r.Normal.Dist(q.Rotate(nl)); d > 1e-9 {
			t.Fatalf("pair %d: normal off by %g", k, d)
		}
		if d := math.Abs(r.Gap - wantGap); d > 1e-9 {
			t.Fatalf("pair %d: gap %g, want %g", k, r.Gap, wantGap)
		}
		if d := r.PB.Dist(pb.ToWorld(x0.AddScaled(sb, nl))); d > 1e-9 {
			t.Fatalf("pair %d: PB off by %g", k, d)
		}
	}
}

func sq(x float64) float64 { return x * x }

// ≥ 200 random pairs, n1, n2 ∈ [2, 10], overlapping and separated, against the
// brute-force signed distance from the support functions (the minimum
// translation distance when overlapping): the in/out decision agrees exactly
// outside a 1e-6 band; for overlaps and gaps of up to 5% of the size the overlap
// agrees within 4%, the normal within 5° and the gap within 5%; each overlap result has PA, PB on the
// surfaces (|F| ≤ 1e-9) and every pair converges.
func TestContactRandomBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	dirs := fibSphere(2500)
	var maxRel, maxAng, maxSepRel float64
	nIn, nOut := 0, 0
	for k := 0; k < 320; k++ {
		a, b := randShape(rng, 10), randShape(rng, 10)
		qa, qb := randQuat(rng), randQuat(rng)
		d := randDir(rng)
		t0 := touchDist(a, qa, b, qb, d, dirs)
		scale := 0.05
		if k%4 == 3 { // a quarter at larger overlaps and separations: in/out only
			scale = 0.4
		}
		pa, pb := Pose{X: geom.V(0.1, -0.2, 0.3), Q: qa}, Pose{Q: qb}
		pb.X = pa.X.AddScaled(t0+scale*(2*rng.Float64()-1), d)
		g, u := bruteGap(a, pa, b, pb, dirs)
		r := Contact(a, pa, b, pb, nil)
		if !r.Converged {
			t.Fatalf("pair %d %+v %+v: %v", k, a, b, r.Err)
		}
		if math.Abs(g) > 1e-6 && r.InContact != (g < 0) {
			t.Errorf("pair %d: brute-force gap %g but InContact %v (gap %g)", k, g, r.InContact, r.Gap)
		}
		if r.InContact {
			nIn++
			if fa, fb := a.FWorld(pa, r.PA), b.FWorld(pb, r.PB); math.Abs(fa) > 1e-9 || math.Abs(fb) > 1e-9 {
				t.Errorf("pair %d: surface points off the surfaces, F = %g, %g", k, fa, fb)
			}
		} else {
			nOut++
		}
		if scale > 0.05 {
			continue
		}
		if g < -0.005 {
			rel := math.Abs(r.Overlap+g) / -g
			ang := math.Acos(math.Min(1, -r.Normal.Dot(u))) * 180 / math.Pi
			maxRel, maxAng = math.Max(maxRel, rel), math.Max(maxAng, ang)
			if rel > 0.04 || ang > 5 {
				t.Errorf("pair %d %+v %+v: overlap %g vs brute force %g (rel %.3f), normal off by %.2f°", k, a, b, r.Overlap, -g, rel, ang)
			}
		} else if g > 0.005 {
			rel := math.Abs(r.Gap-g) / g
			maxSepRel = math.Max(maxSepRel, rel)
			if rel > 0.05 {
				t.Errorf("pair %d %+v %+v: gap %g vs brute force %g (rel %.3f)", k, a, b, r.Gap, g, rel)
			}
		}
	}
	if nIn < 100 || nOut < 100 {
		t.Errorf("only %d overlapping and %d separated pairs", nIn, nOut)
	}
	t.Logf("%d overlapping, %d separated; overlap rel. deviation ≤ %.4f (tol 0.04), normal ≤ %.2f° (tol 5°); separated gap rel. deviation ≤ %.3f (tol 0.05)",
		nIn, nOut, maxRel, maxAng, maxSepRel)
}

// A warm start from the converged point after a small pose change converges in
// a few iterations to the cold-start answer.
func TestContactWarmStart(t *testing.T) {
	for _, n := range []float64{2, 4, 6, 8, 10} {
		a, b, pas, pbs := benchPairs(n, 16)
		for i := range pas {
			r0 := Contact(a, pas[i], b, pbs[i], nil)
			pb := pbs[i]
			pb.Q = geom.QAxisAngle(geom.V(1, 2, 3), 1e-3).Mul(pb.Q)
			pb.X = pb.X.Add(geom.V(1e-3, -2e-3, 0))
			cold := Contact(a, pas[i], b, pb, nil)
			warm := Contact(a, pas[i], b, pb, &r0.Point)
			if !warm.Converged || warm.Iter > 4 {
				t.Errorf("n=%g pair %d: warm start converged %v in %d iterations", n, i, warm.Converged, warm.Iter)
			}
			if d := warm.Point.Dist(cold.Point) + math.Abs(warm.Gap-cold.Gap); d > 1e-8 {
				t.Errorf("n=%g pair %d: warm and cold answers differ by %g", n, i, d)
			}
			same := Contact(a, pas[i], b, pbs[i], &r0.Point)
			if same.Iter != 0 {
				t.Errorf("n=%g pair %d: unchanged pose needed %d iterations", n, i, same.Iter)
			}
		}
	}
}

// A solve that cannot converge is reported with its iteration count, and a
// garbage warm start falls back to the continuation.
func TestContactFailureReported(t *testing.T) {
	a, b, pas, pbs := benchPairs(10, 1)
	r := ContactWith(Options{MaxIter: 1, Steps: 1}, a, pas[0], b, pbs[0], nil)
	var ce *ConvergenceError
	if r.Converged || !errors.As(r.Err, &ce) || ce.Iter < 1 || r.Iter != ce.Iter {
		t.Fatalf("expected a reported failure, got converged %v, err %v, iter %d", r.Converged, r.Err, r.Iter)
	}
	nan := geom.V(math.NaN(), 0, 0)
	far := geom.V(1e3, -1e3, 1e3)
	ref := Contact(a, pas[0], b, pbs[0], nil)
	for _, w := range []*geom.Vec3{&nan, &far} {
		r := Contact(a, pas[0], b, pbs[0], w)
		if !r.Converged || r.Point.Dist(ref.Point) > 1e-8 {
			t.Errorf("warm start %v: converged %v, point %v vs %v", *w, r.Converged, r.Point, ref.Point)
		}
	}
	// coincident centres: deep contact, finite unit normal
	r = Contact(a, Pose{Q: geom.QIdent()}, b, Pose{Q: geom.QAxisAngle(geom.V(0, 1, 0), 0.5)}, nil)
	if !r.InContact || math.Abs(r.Normal.Norm()-1) > 1e-12 || !(r.Overlap > 0.5) {
		t.Errorf("coincident centres: %+v", r)
	}
}
