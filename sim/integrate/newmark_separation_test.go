package integrate

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/audit"
	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/world"
)

// tetrapodParams is the collapse's law (assets/scenes/box-of-tetrapods.yaml:
// ḡ = 5 mm, ε1 = 1e7).
func tetrapodParams() world.ContactParams {
	return world.ContactParams{
		Normal:   law.Normal{Kind: law.Barrier, GBar: 5e-3, Eps1: 1e7, N1: 1, F: 0.5, N2: -2},
		Friction: law.Friction{MuS: 0.3, MuD: 0.3, EpsT: 1e7, CT: 0},
		Zeta:     0.5,
	}
}

// closestOnTri returns the point of triangle (a, b, c) closest to p
// (Ericson, Real-Time Collision Detection, §5.1.5).
func closestOnTri(p, a, b, c geom.Vec3) geom.Vec3 {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}
	if vc := d1*d4 - d3*d2; vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.Add(ab.Scale(d1 / (d1 - d3)))
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}
	if vb := d5*d2 - d1*d6; vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.Add(ac.Scale(d2 / (d2 - d6)))
	}
	if va := d3*d6 - d5*d4; va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.Add(c.Sub(b).Scale((d4 - d3) / ((d4 - d3) + (d5 - d6))))
	}
	va, vb, vc := d3*d6-d5*d4, d5*d2-d1*d6, d1*d4-d3*d2
	den := 1 / (va + vb + vc)
	return a.Add(ab.Scale(vb * den)).Add(ac.Scale(vc * den))
}

// segSegDist returns the distance between segments p1p2 and q1q2 (Ericson
// §5.1.9).
func segSegDist(p1, p2, q1, q2 geom.Vec3) float64 {
	d1, d2, r := p2.Sub(p1), q2.Sub(q1), p1.Sub(q1)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(r)
	var s, t float64
	c := d1.Dot(r)
	b := d1.Dot(d2)
	den := a*e - b*b
	if den > 0 {
		s = math.Min(1, math.Max(0, (b*f-c*e)/den))
	}
	t = (b*s + f) / e
	if t < 0 {
		t, s = 0, math.Min(1, math.Max(0, -c/a))
	} else if t > 1 {
		t, s = 1, math.Min(1, math.Max(0, (b-c)/a))
	}
	return p1.Add(d1.Scale(s)).Dist(q1.Add(d2.Scale(t)))
}

// surfaceDist is the brute-force distance between the surfaces of two
// placed polyhedra: the least vertex–triangle (both ways) and edge–edge
// distance.
func surfaceDist(pa, pb *shape.Polyhedron, va, vb []geom.Vec3) float64 {
	d := math.Inf(1)
	vt := func(v []geom.Vec3, p *shape.Polyhedron, u []geom.Vec3) {
		for _, x := range v {
			for _, f := range p.Faces {
				d = math.Min(d, x.Dist(closestOnTri(x, u[f.V[0]], u[f.V[1]], u[f.V[2]])))
			}
		}
	}
	vt(va, pb, vb)
	vt(vb, pa, va)
	for _, ea := range pa.Edges {
		for _, eb := range pb.Edges {
			d = math.Min(d, segSegDist(va[ea.V[0]], va[ea.V[1]], vb[eb.V[0]], vb[eb.V[1]]))
		}
	}
	return d
}

// The crossing guard's certified clearance (Newmark.separation) never
// exceeds the true distance between two polyhedra: random poses of two
// tetrapods, and of a tetrapod and a cube, whose bounding spheres overlap
// (the bounding-sphere clearance is negative) but whose solids do not, with
// reaches of 1 to 40 skins; the brute-force distance over every
// vertex–triangle and edge–edge pair must be at least the certified value.
// The bound must also be useful: it certifies most of the reaches that are
// below 2/3 of the true distance.
func TestNewmarkSeparationCertified(t *testing.T) {
	w := world.New("sep")
	if err := w.SetParams(0, 0, tetrapodParams()); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	cube := shape.Box(0.4, 0.4, 0.4)
	rng := rand.New(rand.NewSource(9))
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	a := body.New("a", tet, 1000, geom.Vec3{}, rq())
	b := body.New("b", tet, 1000, geom.V(1, 0, 0), rq())
	w.AddBody(a)
	ib := w.AddBody(b)
	const gbar = 5e-3
	cases, certified, useful, eligible := 0, 0, 0, 0
	for trial := 0; trial < 400; trial++ {
		if trial == 200 {
			w.Bodies()[ib] = body.New("b", cube, 1000, geom.V(1, 0, 0), rq())
			b = w.Bodies()[ib]
		}
		a.Q, b.Q = rq(), rq()
		dir := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		b.X = dir.Scale((a.Radius() + b.Radius()) * (0.45 + 0.5*rng.Float64()))
		va, vb := make([]geom.Vec3, len(a.Poly().Verts)), make([]geom.Vec3, len(b.Poly().Verts))
		for i, v := range a.Poly().Verts {
			va[i] = a.ToWorld(v)
		}
		for i, v := range b.Poly().Verts {
			vb[i] = b.ToWorld(v)
		}
		s, ws := audit.WorldMeshes(w)
		if len(audit.Check(s, ws, 0)) > 0 {
			continue // the solids overlap: not a start of step
		}
		dist := surfaceDist(a.Poly(), b.Poly(), va, vb)
		n := NewNewmark()
		n.prepare(w)
		for _, k := range []float64{1, 3, 6, 10, 20, 40} {
			want := k * gbar
			got := n.separation(w, 0, 1, want)
			cases++
			if got > 0 {
				certified++
				if got > dist {
					t.Fatalf("trial %d: certified clearance %.6g m above the true distance %.6g m (reach %.3g m)", trial, got, dist, want)
				}
			}
			// separation tries want and want/2 only where want/2 is above
			// the swept test's reach (approachDt allows that anyway).
			if want/2 > sweepFrac*gbar/approachFrac && want < dist/1.5 {
				eligible++
				if got > 0 {
					useful++
				}
			}
		}
	}
	t.Logf("%d cases, %d certified; %d of %d reaches below 2/3 of the true distance certified", cases, certified, useful, eligible)
	if eligible < 100 || float64(useful) < 0.9*float64(eligible) {
		t.Fatalf("only %d of %d reaches below 2/3 of the true distance certified", useful, eligible)
	}
}

// Two tetrapods about 10 cm apart (20 skins) with overlapping bounding
// spheres fly at each other at 4 m/s without gravity: without the certified
// clearance the crossing guard held every step to 2.7 skins of relative
// motion (3.4 ms), whatever the distance. Now the first step must be at
// least twice that, the bodies must meet (the closing speed drops by at
// least 10%: a glancing impact of the legs), and no accepted state
// may interpenetrate (the independent audit of every step).
func TestNewmarkSeparationStep(t *testing.T) {
	w := world.New("fly")
	if err := w.SetParams(0, 0, tetrapodParams()); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	w.Gravity = geom.Vec3{}
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	// Random poses until the surfaces are 8–15 cm apart along a random
	// line of centres with the bounding spheres overlapping (seeded).
	rng := rand.New(rand.NewSource(3))
	rq := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	var a, b *body.Body
	var dir geom.Vec3
	for try := 0; ; try++ {
		if try == 2000 {
			t.Fatal("no pose found")
		}
		a = body.New("a", tet, 2400, geom.Vec3{}, rq())
		b = body.New("b", tet, 2400, geom.Vec3{}, rq())
		dir = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Unit()
		b.X = dir.Scale(2 * a.Radius() * (0.6 + 0.35*rng.Float64()))
		va, vb := make([]geom.Vec3, len(tet.Verts)), make([]geom.Vec3, len(tet.Verts))
		for i, v := range tet.Verts {
			va[i], vb[i] = a.ToWorld(v), b.ToWorld(v)
		}
		wab := &world.World{}
		wab.SetBodies([]*body.Body{a, b})
		s, _ := audit.WorldMeshes(wab)
		if len(audit.Check(s, nil, 0)) > 0 {
			continue
		}
		if d := surfaceDist(tet, tet, va, vb); d > 0.08 && d < 0.15 {
			t.Logf("surfaces %.3g m apart, bounding-sphere clearance %.3g m (try %d)", d, b.X.Norm()-2*a.Radius(), try)
			break
		}
	}
	a.V, b.V = dir.Scale(2), dir.Scale(-2)
	w.AddBody(a)
	w.AddBody(b)
	w.Settings.DtMax = 0.02
	if err := Start(w); err != nil {
		t.Fatal(err)
	}
	nm := NewNewmark()
	w.Integrator = nm
	w.Dt = 0.02
	const gbar = 5e-3
	old := sweepFrac * gbar / 4 // the guard's limit without the certified clearance
	first, touched := 0.0, false
	for w.Time < 0.1 {
		dt, err := nm.Step(w, 1)
		if err != nil {
			t.Fatal(err)
		}
		if first == 0 {
			first = dt
		}
		if w.Stats.Contacts > 0 {
			touched = true
		}
		s, ws := audit.WorldMeshes(w)
		if v := audit.Check(s, ws, 0); len(v) > 0 {
			t.Fatalf("t = %.4g s: %d penetrating pairs, first %+v", w.Time, len(v), v[0])
		}
	}
	t.Logf("first step %.3g s (the guard without the certified clearance: %.3g s); %d steps, %d attempts; velocities at the end %.3g, %.3g m/s",
		first, old, nm.Counts.Steps, nm.Counts.Attempts, w.Bodies()[0].V.Dot(dir), w.Bodies()[1].V.Dot(dir))
	if first < 2*old {
		t.Errorf("first step %.3g s is less than twice the uncertified guard's %.3g s", first, old)
	}
	if va, vb := w.Bodies()[0].V.Dot(dir), w.Bodies()[1].V.Dot(dir); !touched || !(va-vb < 3.6) {
		t.Errorf("the tetrapods did not collide (contacts seen %v, v %.3g, %.3g m/s along the line of centres)", touched, va, vb)
	}
}
