package contact

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// near decides from one outcode per vertex which features a rebuild looks
// at; it must select exactly the features whose own boxes (segBox, triBox)
// overlap the region (AABB.Overlaps), vertices by AABB.Contains, and hand
// back those boxes. Checked on random poses of a tetrapod and a box against
// random regions, from missing the body to covering it.
func TestNearMatchesFeatureBoxes(t *testing.T) {
	tet, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(11))
	var s nearSet
	var p Posed
	selected := 0
	// A UV sphere of more than codeTable vertices takes near's bounds-checked
	// path; the shapes alternate so that the near set's buffers are reused
	// across both paths.
	ball := uvSphere(t, 0.3, 24, 20)
	if len(ball.Verts) <= codeTable {
		t.Fatalf("the sphere has %d vertices, not above codeTable", len(ball.Verts))
	}
	for _, poly := range []*shape.Polyhedron{tet, ball, shape.Box(0.3, 0.2, 0.1), ball} {
		for trial := 0; trial < 300; trial++ {
			q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			p.Update(poly, geom.V(rng.Float64(), rng.Float64(), rng.Float64()), q, false)
			c := geom.V(rng.Float64(), rng.Float64(), rng.Float64()).Scale(0.5).Add(p.X.Sub(geom.V(0.25, 0.25, 0.25)))
			h := geom.V(rng.Float64(), rng.Float64(), rng.Float64()).Scale(0.4 * poly.Radius)
			region := AABB{c.Sub(h), c.Add(h)}
			p.near(region, &s)
			var verts, edges, faces []int32
			var ebox, fbox []AABB
			for i, v := range p.V {
				if region.Contains(v) {
					verts = append(verts, int32(i))
				}
			}
			for i, e := range poly.Edges {
				if b := segBox(p.V[e.V[0]], p.V[e.V[1]]); e.Kind != shape.Flat && b.Overlaps(region) {
					edges, ebox = append(edges, int32(i)), append(ebox, b)
				}
			}
			for i, f := range poly.Faces {
				if b := triBox(p.V[f.V[0]], p.V[f.V[1]], p.V[f.V[2]]); b.Overlaps(region) {
					faces, fbox = append(faces, int32(i)), append(fbox, b)
				}
			}
			if !slices.Equal(s.verts, verts) || !slices.Equal(s.edges, edges) || !slices.Equal(s.faces, faces) ||
				!slices.Equal(s.ebox, ebox) || !slices.Equal(s.fbox, fbox) {
				t.Fatalf("trial %d: near selected v%v e%v f%v, the feature boxes v%v e%v f%v", trial, s.verts, s.edges, s.faces, verts, edges, faces)
			}
			selected += len(edges) + len(faces)
		}
	}
	if selected == 0 {
		t.Fatal("no region met any feature: the test checks nothing")
	}
	t.Logf("%d features selected", selected)
}

// uvSphere returns a convex polyhedron inscribed in the sphere of radius r:
// nlat rings of nlon vertices between the two poles.
func uvSphere(t *testing.T, r float64, nlon, nlat int) *shape.Polyhedron {
	t.Helper()
	verts := []geom.Vec3{geom.V(0, 0, r), geom.V(0, 0, -r)}
	for i := 1; i <= nlat; i++ {
		th := math.Pi * float64(i) / float64(nlat+1)
		for j := 0; j < nlon; j++ {
			ph := 2 * math.Pi * (float64(j) + 0.5*float64(i%2)) / float64(nlon)
			verts = append(verts, geom.V(r*math.Sin(th)*math.Cos(ph), r*math.Sin(th)*math.Sin(ph), r*math.Cos(th)))
		}
	}
	at := func(i, j int) int32 { return int32(2 + (i-1)*nlon + (j+nlon)%nlon) }
	var tris [][3]int32
	for j := 0; j < nlon; j++ {
		tris = append(tris, [3]int32{0, at(1, j), at(1, j+1)}, [3]int32{1, at(nlat, j+1), at(nlat, j)})
	}
	for i := 1; i < nlat; i++ {
		for j := 0; j < nlon; j++ {
			tris = append(tris, [3]int32{at(i, j), at(i+1, j), at(i, j+1)}, [3]int32{at(i, j+1), at(i+1, j), at(i+1, j+1)})
		}
	}
	p, err := shape.NewPolyhedron("uv-sphere", verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
