package sq

import (
	"math"
	"math/rand"
	"testing"

	"grainlab/sim/geom"
)

// polySupport returns the support function of the convex hull of pts.
func polySupport(pts []geom.Vec3) func(geom.Vec3) float64 {
	return func(u geom.Vec3) float64 {
		h := math.Inf(-1)
		for _, p := range pts {
			h = math.Max(h, p.Dot(u))
		}
		return h
	}
}

// arc is the great-circle arc u(θ) = cos θ·s + sin θ·m, θ ∈ [0, max]: the
// normal cone of a polytope edge.
type arc struct {
	s, m geom.Vec3
	max  float64
}

// bruteSurfGap returns the brute-force signed distance between the particle
// and a convex polytope with support function hs (the separation when
// positive, minus the minimum translation distance when negative): the maximum
// over unit u (from the polytope to the particle) of −h_P(−u) − h_S(u), and the
// maximiser. The polytope's support function is piecewise linear with kinks on
// the normal cones of its edges, where a plain search stalls, so the maximum
// is taken over the facet normals pts, dense samples of each edge arc refined
// by golden-section search, and dense direction samples refined by a
// shrinking grid (the vertex cones).
func bruteSurfGap(s Shape, p Pose, hs func(geom.Vec3) float64, dirs, pts []geom.Vec3, arcs []arc) (float64, geom.Vec3) {
	sep := func(u geom.Vec3) float64 {
		_, hp := s.SupportWorld(p, u.Neg())
		return -hp - hs(u)
	}
	type cand struct {
		v float64
		u geom.Vec3
	}
	var best [4]cand
	for i := range best {
		best[i].v = math.Inf(-1)
	}
	for _, u := range dirs {
		if v := sep(u); v > best[3].v {
			best[3] = cand{v, u}
			for k := 3; k > 0 && best[k].v > best[k-1].v; k-- {
				best[k], best[k-1] = best[k-1], best[k]
			}
		}
	}
	g, gu := math.Inf(-1), geom.Vec3{}
	for _, c := range best {
		if u, v := zoomMax(sep, c.u, c.v, 0.06); v > g {
			g, gu = v, u
		}
	}
	for _, u := range pts {
		if v := sep(u); v > g {
			g, gu = v, u
		}
	}
	for _, a := range arcs {
		at := func(th float64) geom.Vec3 { return a.s.Scale(math.Cos(th)).AddScaled(math.Sin(th), a.m) }
		const m = 200
		bi, bv := 0, math.Inf(-1)
		for i := 0; i <= m; i++ {
			if v := sep(at(a.max * float64(i) / m)); v > bv {
				bi, bv = i, v
			}
		}
		lo, hi := a.max*math.Max(0, float64(bi-1))/m, a.max*math.Min(m, float64(bi+1))/m
		for hi-lo > 1e-12 { // golden section
			x1, x2 := hi-0.618034*(hi-lo), lo+0.618034*(hi-lo)
			if sep(at(x1)) >= sep(at(x2)) {
				hi = x2
			} else {
				lo = x1
			}
		}
		if u := at((lo + hi) / 2); sep(u) > g {
			g, gu = sep(u), u
		}
	}
	return g, gu
}

// cubeFan returns the facet normals and edge arcs of the cube [−1, 1]³.
func cubeFan() ([]geom.Vec3, []arc) {
	ax := []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}, {X: -1}, {Y: -1}, {Z: -1}}
	var arcs []arc
	for i, a := range ax {
		for _, b := range ax[i+1:] {
			if math.Abs(a.Dot(b)) < 0.5 {
				arcs = append(arcs, arc{a, b, math.Pi / 2})
			}
		}
	}
	return ax, arcs
}

// triFan returns the normals ±n and the half-circle edge arcs (from n over
// the outward in-plane direction to −n) of the flat triangle tv.
func triFan(tv []geom.Vec3) ([]geom.Vec3, []arc) {
	n := tv[1].Sub(tv[0]).Cross(tv[2].Sub(tv[0])).Unit()
	var arcs []arc
	for i := range tv {
		m := tv[(i+1)%3].Sub(tv[i]).Cross(n).Unit()
		arcs = append(arcs, arc{n, m, math.Pi})
	}
	return []geom.Vec3{n, n.Neg()}, arcs
}

// surfStats collects worst deviations of one brute-force comparison.
type surfStats struct {
	nIn, nOut, byKind [3]int
	maxRel            float64 // overlaps
	maxAng            [3]float64
	ratio             [3][2]float64 // worst deviation / tolerance: overlap, angle
	skipped           int           // |brute-force gap| > 6% of the size: tolerances not checked
	behind            int           // centre behind a one-sided triangle
	maxSepRel         float64       // separations
	maxFacet          float64       // facet contacts: |gap − brute force| / size
	maxDeep           float64       // PA depth below the deepest particle point along u, / size
}

// devTol returns the tolerated relative overlap (or gap) deviation and the
// normal angle (degrees) against the minimum-translation brute force for a
// contact of the kind at |gap| = r·size. Facet contacts are exact (the
// extreme point of S1 eq. 30–33). Edge and corner contacts take x* and the
// normal from the gauge, i.e. from the particle scaled about its centre until
// it touches the feature, while the brute force translates it: the touching
// points differ by O(δ), so the normals differ by about δ/ρ (ρ the local radius
// of curvature, down to ~size/8 on the rounded edges of blocky shapes) and the
// overlaps by O(δ²/ρ). Both bounds vanish linearly as δ → 0 (measured worst
// ratios over 1800 edge/corner contacts: rel ≤ 3.3·r, angle ≤ 450°·r).
func devTol(kind uint8, r float64) (rel, ang float64) {
	if kind == KindFacet {
		return 1e-6, 0.01
	}
	return 0.002 + 5*r, 0.5 + 600*r
}

func checkConvex(t *testing.T, st *surfStats, label string, s Shape, p Pose, surf *Surface, hs func(geom.Vec3) float64, dirs, pts []geom.Vec3, arcs []arc, reach float64) {
	t.Helper()
	size := math.Max(s.A, math.Max(s.B, s.C))
	g, u := bruteSurfGap(s, p, hs, dirs, pts, arcs)
	cs := s.SurfaceContacts(p, surf, Pose{Q: geom.QIdent()}, reach, nil)
	if len(cs) == 0 {
		if g < -1e-3*size {
			t.Errorf("%s %+v at %+v: no contact, brute-force gap %g", label, s, p, g)
		}
		return
	}
	c := cs[0]
	for _, x := range cs[1:] {
		if x.Gap < c.Gap {
			c = x
		}
	}
	st.byKind[c.Kind]++
	if f := s.FWorld(p, c.PA); math.Abs(f) > 1e-9 {
		t.Errorf("%s %+v: PA off the particle surface, F = %g", label, s, f)
	}
	if d := c.PA.Sub(c.PB).Dot(c.Normal) - c.Gap; math.Abs(d) > 1e-12*size {
		t.Errorf("%s: gap %g inconsistent with PA, PB, normal (%g)", label, c.Gap, d)
	}
	if math.Abs(g) > 0.06*size { // placement overshot the design range (|δ| ≤ 5%)
		st.skipped++
		return
	}
	if math.Abs(g) > 0.06*size { // placement overshot the design range (|δ| ≤ 5%)
		st.skipped++
		return
	}
	_, hp := s.SupportWorld(p, u.Neg())
	deep := (c.PA.Dot(u) + hp) / size // ≥ 0: how far PA sits above the deepest point along u
	switch {
	case g < -0.005*size:
		st.nIn[c.Kind]++
		rel := math.Abs(-c.Gap+g) / -g
		ang := math.Acos(math.Min(1, c.Normal.Dot(u))) * 180 / math.Pi
		st.maxRel, st.maxDeep = math.Max(st.maxRel, rel), math.Max(st.maxDeep, deep)
		st.maxAng[c.Kind] = math.Max(st.maxAng[c.Kind], ang)
		rt, at := devTol(c.Kind, -g/size)
		st.ratio[c.Kind][0] = math.Max(st.ratio[c.Kind][0], rel/rt)
		st.ratio[c.Kind][1] = math.Max(st.ratio[c.Kind][1], ang/at)
		if rel > rt || ang > at || deep > 0.01 {
			t.Errorf("%s %+v at %+v: kind %d overlap %g vs brute force %g (rel %.3f), normal off by %.2f°, PA %.3g·size above the deepest point", label, s, p, c.Kind, -c.Gap, -g, rel, ang, deep)
		}
	case g > 0.005*size:
		st.nOut[c.Kind]++
		rel := (c.Gap - g) / g
		st.maxSepRel = math.Max(st.maxSepRel, math.Abs(rel))
		rt, _ := devTol(c.Kind, g/size)
		lo := -1e-9 // edge, corner: a gap along a line from a surface point is ≥ the distance
		if c.Kind == KindFacet {
			lo = -0.002 - 5*g/size // the plane distance may undercut the distance to the polygon
		}
		if rel < lo || rel > rt {
			t.Errorf("%s %+v at %+v: kind %d gap %g vs brute force %g (rel %.3f)", label, s, p, c.Kind, c.Gap, g, rel)
		}
	}
	if c.Kind == KindFacet && g < 0 && c.Gap < 0 {
		// an overlapping facet contact is the exact plane depth of the extreme point
		e := (c.Gap - g) / size
		st.maxFacet = math.Max(st.maxFacet, math.Abs(e))
		if math.Abs(e) > 1e-6 {
			t.Errorf("%s %+v: facet gap %g vs brute force %g", label, s, c.Gap, g)
		}
	}
}

// randCone returns a random unit vector in the cone spanned by the unit
// vectors gens (a random convex combination).
func randCone(rng *rand.Rand, gens ...geom.Vec3) geom.Vec3 {
	var u geom.Vec3
	for _, g := range gens {
		u = u.AddScaled(0.1+rng.Float64(), g)
	}
	return u.Unit()
}

// Random superquadrics (n up to 10, random orientation) poking into or hovering
// near (|δ| ≤ 5% of the size) (a) a single triangle and (c) a cube, at facet
// interiors, edges and vertices, against the brute-force signed distance of
// the two convex sets from their support functions (checkConvex tolerances).
func TestSurfaceBruteForceConvex(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(43)))
	dirs := fibSphere(2000)
	// (a) one triangle, normal +z
	tv := []geom.Vec3{{X: -1, Y: -1}, {X: 1.2, Y: -0.6}, {X: 0.1, Y: 1.1}}
	tri := mustSurface(t, tv, [][3]int32{{0, 1, 2}})
	// (c) the cube [−1, 1]³
	cv, ct := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), false)
	cube := mustSurface(t, cv, ct)
	cases := 150
	if testing.Short() {
		cases = 40
	}
	z := geom.V(0, 0, 1)
	for _, which := range []string{"triangle", "cube"} {
		var st surfStats
		for k := 0; k < cases; k++ {
			s := randShape(rng, 10).Scaled(0.3)
			size := math.Max(s.A, math.Max(s.B, s.C))
			q := randQuat(rng)
			var x, u geom.Vec3
			var surf *Surface
			var hs func(geom.Vec3) float64
			var pts []geom.Vec3
			var arcs []arc
			if which == "triangle" {
				surf, hs = tri, polySupport(tv)
				pts, arcs = triFan(tv)
				switch k % 3 {
				case 0: // interior
					w := [3]float64{0.2 + rng.Float64(), 0.2 + rng.Float64(), 0.2 + rng.Float64()}
					x = tv[0].Scale(w[0]).Add(tv[1].Scale(w[1])).Add(tv[2].Scale(w[2])).Scale(1 / (w[0] + w[1] + w[2]))
					u = randCone(rng, z, z, z, randDir(rng))
				case 1: // edge
					i := rng.Intn(3)
					a, b := tv[i], tv[(i+1)%3]
					x = geom.Lerp(a, b, 0.15+0.7*rng.Float64())
					m := b.Sub(a).Cross(z).Unit()
					u = randCone(rng, z, m)
				default: // vertex
					i := rng.Intn(3)
					a, b, c := tv[i], tv[(i+1)%3], tv[(i+2)%3]
					m1 := b.Sub(a).Cross(z).Unit()
					m2 := a.Sub(c).Cross(z).Unit()
					x, u = a, randCone(rng, z, m1, m2)
				}
			} else {
				surf, hs = cube, polySupport(cv)
				pts, arcs = cubeFan()
				ax := []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
				sg := func() float64 { return float64(2*rng.Intn(2) - 1) }
				i := rng.Intn(3)
				e1, e2, e3 := ax[i].Scale(sg()), ax[(i+1)%3].Scale(sg()), ax[(i+2)%3].Scale(sg())
				switch k % 3 {
				case 0: // face e1
					x = e1.AddScaled(0.8*(2*rng.Float64()-1), e2).AddScaled(0.8*(2*rng.Float64()-1), e3)
					u = randCone(rng, e1, e1, e1, randDir(rng))
				case 1: // edge e1–e2
					x = e1.Add(e2).AddScaled(0.8*(2*rng.Float64()-1), e3)
					u = randCone(rng, e1, e2)
				default: // corner
					x, u = e1.Add(e2).Add(e3), randCone(rng, e1, e2, e3)
				}
			}
			p := placeNear(s, q, x, u, 0.05*size*(2*rng.Float64()-1))
			if which == "triangle" && p.X.Z <= 0 {
				// centre below the plane of the one-sided triangle: no facet
				// contact by design, edge contacts only up to the in-plane
				// direction, while the brute force may push downwards
				st.behind++
				continue
			}
			checkConvex(t, &st, which, s, p, surf, hs, dirs, pts, arcs, 0.1*size)
		}
		t.Logf("%s: contacts by kind (facet, edge, vertex) %v, overlapping %v, separated %v; overlap rel. dev. ≤ %.4f, normal by kind ≤ %.2g°, worst deviation/tolerance by kind (overlap, angle) %.2f; PA depth ≤ %.2g·size (tol 0.01); |gap rel. dev.| ≤ %.4f; facet |gap − bf| ≤ %.2g·size; %d beyond |gap| = 6%% skipped, %d with the centre below the triangle plane skipped",
			which, st.byKind, st.nIn, st.nOut, st.maxRel, st.maxAng, st.ratio, st.maxDeep, st.maxSepRel, st.maxFacet, st.skipped, st.behind)
		if st.skipped > cases/5 {
			t.Errorf("%s: %d of %d cases outside the design range", which, st.skipped, cases)
		}
	}
}

// (b) Random superquadrics (n up to 10) inside a box made of 12 triangles,
// pushed against 1–3 walls (overlap −1% … +5% of their size): each wall whose
// brute-force minimum signed distance (dense surface sampling, refined) is
// below 0 is reported exactly once as a facet contact, with the gap within
// 1e-7·size of the brute force and never above it; walls farther than
// 1e-7·size are not reported; the smallest gap equals the brute-force minimum
// signed distance of the particle surface to the triangle set.
func TestSurfaceBruteForceBoxInside(t *testing.T) {
	rng := rand.New(rand.NewSource(seedEnv(44)))
	iv, it := boxMesh(geom.V(-1, -1, -1), geom.V(1, 1, 1), true)
	box := mustSurface(t, iv, it)
	walls := []geom.Vec3{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}} // inward normals; wall at −n
	cases := 60
	if testing.Short() {
		cases = 20
	}
	worst := 0.0
	multi := 0
	for k := 0; k < cases; k++ {
		s := randShape(rng, 10).Scaled(0.3)
		size := math.Max(s.A, math.Max(s.B, s.C))
		q := randQuat(rng)
		c := geom.V(0.3*(2*rng.Float64()-1), 0.3*(2*rng.Float64()-1), 0.3*(2*rng.Float64()-1))
		for i, n := range walls[:3] {
			_ = i
			if rng.Intn(3) == 0 {
				continue
			}
			wn := n.Scale(float64(2*rng.Intn(2) - 1)) // push towards the wall at −wn
			_, h := s.SupportWorld(Pose{Q: q}, wn.Neg())
			// centre coordinate along wn: wall at −1, extreme point at −1 − δ
			d := size * (0.06*rng.Float64() - 0.01)
			along := -1 - d + h
			c = c.AddScaled(along-c.Dot(wn), wn)
		}
		p := Pose{X: c, Q: q}
		cs := s.SurfaceContacts(p, box, Pose{Q: geom.QIdent()}, 0, nil)
		pts := surfaceSamples(s, 60)
		got := map[int32]int{}
		for _, x := range cs {
			got[x.Feature]++
		}
		if len(cs) > 1 {
			multi++
		}
		minBF := math.Inf(1)
		for wi, n := range walls {
			// facet of this wall: the one with normal n
			fid := int32(-1)
			for i := 0; i < box.NumFacets(); i++ {
				if box.FacetNormal(i).Dot(n) > 0.999 {
					fid = int32(i)
				}
			}
			w0 := n.Neg() // a point of the wall
			bf, bx := math.Inf(1), geom.Vec3{}
			for _, x := range pts {
				if v := p.ToWorld(x).Sub(w0).Dot(n); v < bf {
					bf, bx = v, x
				}
			}
			_, nbf := zoomMax(func(u geom.Vec3) float64 { return -p.ToWorld(s.Project(u)).Sub(w0).Dot(n) }, bx.Unit(), -bf, 0.05)
			bf = -nbf
			minBF = math.Min(minBF, bf)
			var rep *SurfaceContact
			for i := range cs {
				if cs[i].Feature == fid {
					rep = &cs[i]
				}
			}
			switch {
			case bf < -1e-7*size:
				if rep == nil || got[fid] != 1 || rep.Kind != KindFacet {
					t.Fatalf("%+v at %v: wall %d overlapped by %g but reported %d times: %+v", s, c, wi, -bf, got[fid], cs)
				}
				e := rep.Gap - bf
				worst = math.Max(worst, math.Abs(e)/size)
				if e > 1e-12 || -e > 1e-7*size {
					t.Errorf("%+v: wall %d gap %g vs brute force %g", s, wi, rep.Gap, bf)
				}
			case bf > 1e-7*size:
				if rep != nil {
					t.Errorf("%+v: wall %d at distance %g reported: %+v", s, wi, bf, *rep)
				}
			}
		}
		if len(cs) > 0 {
			mg := math.Inf(1)
			for _, x := range cs {
				mg = math.Min(mg, x.Gap)
			}
			if math.Abs(mg-minBF) > 1e-7*size {
				t.Errorf("%+v: smallest gap %g, brute-force minimum signed distance %g", s, mg, minBF)
			}
		}
	}
	if multi < cases/4 {
		t.Errorf("only %d of %d cases touched two or more walls", multi, cases)
	}
	t.Logf("%d cases, %d with 2+ walls; worst |gap − brute force| = %.2g·size (tol 1e-7)", cases, multi, worst)
}
