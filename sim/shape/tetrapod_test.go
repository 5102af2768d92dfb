package shape

import (
	"math"
	"math/rand"
	"sort"
	"testing"

	"grainlab/sim/geom"
)

// The default tetrapod: watertight, exactly 4·Sides concave edges and each
// one a base-ring edge, one tip straight up, three lowest vertices = the three
// lower tips at equal height, isotropic inertia (tetrahedral symmetry, 1e-12).
func TestTetrapodDefault(t *testing.T) {
	prm := DefaultTetrapod()
	p, err := Tetrapod(prm)
	if err != nil {
		t.Fatal(err)
	}
	checkTopology(t, p)
	S := prm.Sides
	if n := p.NumEdges(Concave); n != 4*S {
		t.Errorf("%d concave edges, want %d", n, 4*S)
	}
	ringDist := func(v int32) float64 { return p.Verts[v].Norm() }
	for _, e := range p.Edges {
		if e.Kind != Concave {
			continue
		}
		// Ring vertices lie at √(R² + r²) from the centre; tips at L.
		want := math.Hypot(prm.RootDistance, prm.BaseRadius)
		if math.Abs(ringDist(e.V[0])-want) > 1e-9 || math.Abs(ringDist(e.V[1])-want) > 1e-9 {
			t.Errorf("concave edge %v is not a base-ring edge", e.V)
		}
		if e.Dihedral <= math.Pi {
			t.Errorf("concave edge %v: dihedral %v ≤ π", e.V, e.Dihedral)
		}
	}
	top := p.Verts[p.SupportVertex(geom.Vec3{Z: 1})]
	if top.Dist(geom.Vec3{Z: prm.LegLength}) > 1e-12 {
		t.Errorf("top tip at %v, want (0,0,%v)", top, prm.LegLength)
	}
	// It stands on its three lower tips at z = −L/3 (S0 Fig. 22), every other
	// vertex clearly higher.
	zs := lowestZ(p)
	if math.Abs(zs[0]+prm.LegLength/3) > 1e-12 || zs[2]-zs[0] > 1e-12 || zs[3]-zs[0] < 1e-3*prm.LegLength {
		t.Errorf("lowest z: %v; want three tips at %v, then a clear gap", zs[:4], -prm.LegLength/3)
	}
	t.Logf("lowest vertices at z = %.6g (tips at %.6g)", zs[0], -prm.LegLength/3)
	ev, _ := p.InertiaUnit.SymEigen()
	if ev.Z-ev.X > 1e-12*ev.Z || p.Offset.Norm() > 1e-12 {
		t.Errorf("inertia eigenvalues %v, offset %v: want isotropic, centred", ev, p.Offset)
	}
	t.Logf("default tetrapod: %d verts %d faces; edges %d convex %d concave %d flat; V = %.9g m³, I/ρ = %.9g m⁵, radius %.4g, min edge %.4g",
		len(p.Verts), len(p.Faces), p.NumEdges(Convex), p.NumEdges(Concave), p.NumEdges(Flat), p.Volume, ev.X, p.Radius, p.MinEdge)
}

func lowestZ(p *Polyhedron) []float64 {
	zs := make([]float64, len(p.Verts))
	for i, v := range p.Verts {
		zs[i] = v.Z
	}
	sort.Float64s(zs)
	return zs
}

// Slender legs (half-angle below 19.47°) stand on their three lower tips,
// at z = −L/3 to 1e-12, with every other vertex clearly higher (S0 Fig. 22).
func TestTetrapodRestsOnTips(t *testing.T) {
	prm := TetrapodParams{LegLength: 0.69, BaseRadius: 0.15, RootDistance: 0.21, Sides: 6}
	p, err := Tetrapod(prm)
	if err != nil {
		t.Fatal(err)
	}
	zs := lowestZ(p)
	if math.Abs(zs[0]+prm.LegLength/3) > 1e-12 || zs[2]-zs[0] > 1e-12 || zs[3]-zs[0] < 1e-3*prm.LegLength {
		t.Errorf("lowest z: %v; want three tips at %v, then a clear gap", zs[:4], -prm.LegLength/3)
	}
}

// Other parameter sets build valid meshes with 4·Sides concave root edges;
// bad ones are refused.
func TestTetrapodVariants(t *testing.T) {
	for _, s := range []int{3, 4, 5, 7, 8, 12} {
		for _, rt := range []float64{0, 0.08, 0.21} {
			p, err := Tetrapod(TetrapodParams{LegLength: 0.69, BaseRadius: 0.21, TipRadius: rt, Sides: s})
			if err != nil {
				t.Fatalf("sides %d tip %g: %v", s, rt, err)
			}
			checkTopology(t, p)
			if n := p.NumEdges(Concave); n != 4*s {
				t.Errorf("sides %d tip %g: %d concave edges, want %d", s, rt, n, 4*s)
			}
		}
	}
	bad := []TetrapodParams{
		{LegLength: 0.69, BaseRadius: 0.21, Sides: 2},
		{LegLength: 0.69, BaseRadius: 0, Sides: 6},
		{LegLength: 0.2, BaseRadius: 0.21, Sides: 6},                     // legs end inside the core
		{LegLength: 0.69, BaseRadius: 0.3, RootDistance: 0.21, Sides: 6}, // rings overlap
		{LegLength: 0.69, BaseRadius: 0.21, TipRadius: 0.3},              // flared
		{LegLength: math.NaN(), BaseRadius: 0.21},
		{LegLength: 0.69, BaseRadius: 0.21, Sides: 1000},
	}
	for _, b := range bad {
		if _, err := Tetrapod(b); err == nil {
			t.Errorf("%+v accepted", b)
		}
	}
}

// massMC integrates volume, first moment and inertia about the origin of the
// body-frame solid by jittered stratified sampling of its AABB (n³ cells, one
// point per cell), classifying points with PointInside only.
func massMC(p *Polyhedron, n int, seed int64) (vol float64, cen geom.Vec3, inertia geom.Mat3) {
	r := rand.New(rand.NewSource(seed))
	lo, ext := p.AABBMin, p.AABBMax.Sub(p.AABBMin)
	h := ext.Scale(1 / float64(n))
	dv := h.X * h.Y * h.Z
	var m1 geom.Vec3
	var cov geom.Mat3
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				x := lo.Add(geom.Vec3{X: (float64(i) + r.Float64()) * h.X, Y: (float64(j) + r.Float64()) * h.Y, Z: (float64(k) + r.Float64()) * h.Z})
				if p.PointInside(x) {
					vol += dv
					m1 = m1.AddScaled(dv, x)
					cov = cov.Add(geom.Outer(x, x).Scale(dv))
				}
			}
		}
	}
	return vol, m1.Scale(1 / vol), geom.Identity().Scale(cov.Trace()).Sub(cov)
}

// Mass properties from the divergence theorem against an independent
// integration with the winding-number inside test: volume, centroid (as a
// fraction of the bounding radius) and inertia (max component error over max
// component) within 1 %. Second body: asymmetric 5-sided tetrapod with
// truncated tips, rebuilt from coordinates shifted off the origin.
func TestTetrapodMassMonteCarlo(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte-Carlo integration")
	}
	def, err := Tetrapod(DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	five, err := Tetrapod(TetrapodParams{LegLength: 0.7, BaseRadius: 0.2, TipRadius: 0.06, Sides: 5})
	if err != nil {
		t.Fatal(err)
	}
	shift := geom.Vec3{X: 0.3, Y: -0.2, Z: 0.5}
	sv := make([]geom.Vec3, len(five.Verts))
	for i, v := range five.Verts {
		sv[i] = v.Add(shift)
	}
	shifted, err := NewPolyhedron("five shifted", sv, five.Tris())
	if err != nil {
		t.Fatal(err)
	}
	if d := shifted.Offset.Dist(shift); d > 1e-12 {
		t.Errorf("offset %v, want %v", shifted.Offset, shift)
	}
	for _, p := range []*Polyhedron{def, shifted} {
		vol, cen, in := massMC(p, 80, 11)
		dV := math.Abs(vol-p.Volume) / p.Volume
		dC := cen.Norm() / p.Radius
		dI := relMatErr(in, p.InertiaUnit)
		t.Logf("%s: V %.6g (MC %.6g, %.2e), centroid off %.2e·R, inertia %.2e", p.Name, p.Volume, vol, dV, dC, dI)
		if dV > 0.01 || dC > 0.01 || dI > 0.01 {
			t.Errorf("%s: Monte-Carlo deviations volume %.3g, centroid %.3g, inertia %.3g exceed 1%%", p.Name, dV, dC, dI)
		}
	}
}
