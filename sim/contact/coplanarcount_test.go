package contact

import (
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// Review r2 (session 14): Detect's vertex–face count (nVF, handed to
// applyRules) gates rule CoplanarFace (S0 §3.6). A box B whose top face's
// two triangles meet at a Flat edge that is a valley of ~5e-7 rad (one apex
// raised 1e-7 m, below shape's flatAngle) gives a vertex of A hovering just
// above that diagonal two vertex–face candidates, one per triangle; the
// farther must be suppressed by CoplanarFace, as Detect's definition
// (detectDef: applyHierarchy counting the candidates) does. The test fails
// when Detect's nVF is taken too small (e.g. the fv list left out, or < 2).
func TestDetectCoplanarFaceCount(t *testing.T) {
	const gbar = 0.005
	box := shape.Box(0.3, 0.3, 0.3)
	tris := make([][3]int32, len(box.Faces))
	for i, f := range box.Faces {
		tris[i] = f.V
	}
	// The top face's diagonal (a Flat edge between two faces with N.Z ≈ 1).
	diag := -1
	for e, ed := range box.Edges {
		if ed.Kind == shape.Flat && box.Faces[ed.F[0]].N.Z > 0.9 && box.Faces[ed.F[1]].N.Z > 0.9 {
			diag = e
		}
	}
	if diag < 0 {
		t.Fatal("no flat diagonal on the box's top face")
	}
	ed := box.Edges[diag]
	apex := func(p *shape.Polyhedron, f int32) int32 {
		for _, v := range p.Faces[f].V {
			if v != ed.V[0] && v != ed.V[1] {
				return v
			}
		}
		return -1
	}
	raised, flat := apex(box, ed.F[1]), apex(box, ed.F[0])
	verts := append([]geom.Vec3(nil), box.Verts...)
	verts[raised].Z += 1e-7
	boxB, err := shape.NewPolyhedron("box with a valley diagonal", verts, tris)
	if err != nil {
		t.Fatal(err)
	}
	if k := boxB.Edges[diag].Kind; k != shape.Flat || boxB.Edges[diag].V != ed.V {
		t.Fatalf("the diagonal is %v, want flat", k)
	}
	v0, v1 := boxB.Verts[ed.V[0]], boxB.Verts[ed.V[1]]
	mid := v0.Add(v1).Scale(0.5)
	// In-plane unit direction from the diagonal towards the flat triangle's apex.
	toFlat := boxB.Verts[flat].Sub(mid)
	toFlat.Z = 0
	toFlat = toFlat.Unit()

	boxA := shape.Box(0.2, 0.2, 0.2)
	rng := rand.New(rand.NewSource(27))
	fired := 0
	for trial := 0; trial < 50; trial++ {
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		R := q.Mat()
		low := lowestVertex(R, boxA.Verts) // A's lowest vertex in this orientation
		// h above the diagonal, δ towards the flat triangle: the projection
		// lies δ inside the flat triangle and ≈ hθ − δ inside the raised one.
		h := gbar * (0.6 + 0.3*rng.Float64())
		along := (rng.Float64() - 0.5) * 0.5
		target := mid.Add(v1.Sub(v0).Scale(along)).Add(toFlat.Scale(5e-10)).Add(geom.V(0, 0, h))
		var a, b Posed
		a.Update(boxA, target.Sub(R.MulV(low)), q, false)
		b.Update(boxB, geom.Vec3{}, geom.Quat{W: 1}, false)
		// Both orders: the vertex in Detect's vf list, then in its fv list.
		for _, pr := range [2][2]*Posed{{&a, &b}, {&b, &a}} {
			var c Cache
			var s Scratch
			c.Build(pr[0], pr[1], gbar, 2*gbar, &s)
			cur := Detect(pr[0], pr[1], gbar, &c, nil, nil)
			def := detectDef(pr[0], pr[1], gbar, &c, nil)
			if !sameContacts(cur, def) {
				t.Fatalf("trial %d: Detect %d contacts %+v, its definition %d %+v", trial, len(cur), cur, len(def), def)
			}
			for i := range def {
				if def[i].Rule == CoplanarFace {
					fired++
				}
			}
		}
	}
	if fired == 0 {
		t.Fatal("rule CoplanarFace never fired: the test does not reach it")
	}
	t.Logf("CoplanarFace suppressed %d candidates in 50 trials × 2 orders", fired)
}
