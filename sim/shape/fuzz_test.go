package shape

import (
	"bytes"
	"math"
	"testing"
)

// FuzzReadSTL: ReadSTL never panics; when it succeeds, every index is in
// range, every coordinate finite, no two vertices coincide, and building a
// polyhedron or a surface from the result either fails with an error or
// yields a mesh whose invariants hold.
func FuzzReadSTL(f *testing.F) {
	f.Add([]byte(soupCube(0)))
	f.Add(binarySTL(f, Box(1, 2, 3)))
	f.Add(asciiSTL(f, Box(1, 1, 1)))
	f.Add([]byte("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n"))
	f.Add([]byte("solid"))
	f.Add(make([]byte, 84))
	f.Fuzz(func(t *testing.T, data []byte) {
		verts, tris, err := ReadSTL(bytes.NewReader(data), "fuzz.stl", 0)
		if err != nil {
			return
		}
		if len(tris) == 0 || len(tris) > len(data) {
			t.Fatalf("%d triangles from %d bytes", len(tris), len(data))
		}
		for i, v := range verts {
			if !v.IsFinite() {
				t.Fatalf("non-finite vertex %v", v)
			}
			for j := 0; j < i && len(verts) < 200; j++ {
				if verts[j] == v {
					t.Fatalf("vertices %d and %d coincide at %v", j, i, v)
				}
			}
		}
		for _, tr := range tris {
			for _, i := range tr {
				if i < 0 || int(i) >= len(verts) {
					t.Fatalf("index %d of %d", i, len(verts))
				}
			}
		}
		if p, err := NewPolyhedron("fuzz", verts, tris); err == nil {
			if !(p.Volume > 0) || math.IsInf(p.Volume, 0) || len(p.Edges)*2 != len(p.Faces)*3 {
				t.Fatalf("polyhedron: volume %v, %d edges for %d faces", p.Volume, len(p.Edges), len(p.Faces))
			}
			_ = p.PointInside(p.Verts[0].Scale(0.5))
		}
		if s, err := NewSurface("fuzz", verts, tris); err == nil {
			for _, e := range s.Edges {
				if e.F[0] < 0 || (e.Kind == Boundary) != (e.F[1] < 0) {
					t.Fatalf("surface edge %+v", e)
				}
			}
		}
	})
}
