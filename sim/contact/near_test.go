package contact

import (
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
	for _, poly := range []*shape.Polyhedron{tet, shape.Box(0.3, 0.2, 0.1)} {
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
