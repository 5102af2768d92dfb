package contact

import (
	"math/rand"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// Detect hands the hierarchy the counts of its candidates by kind
// (applyRules) instead of counting them again: a vertex of a turned box A
// just above the top face of box B near B's corner gives a vertex–face
// candidate and a vertex–vertex one with that corner, which rule
// VertexVertex suppresses (S0 §3.6). Detect must equal its definition
// (detectDef: applyHierarchy counting the candidates itself) and the rule
// must fire; the test fails with Detect's vertex–vertex count taken as 0.
func TestDetectHierarchyCounts(t *testing.T) {
	const gbar = 0.005
	boxA, boxB := shape.Box(0.2, 0.2, 0.2), shape.Box(0.3, 0.3, 0.3)
	// B's corner of largest x + y + z.
	var corner geom.Vec3
	for i, v := range boxB.Verts {
		if i == 0 || v.X+v.Y+v.Z > corner.X+corner.Y+corner.Z {
			corner = v
		}
	}
	rng := rand.New(rand.NewSource(1415))
	suppressed := 0
	for trial := 0; trial < 200; trial++ {
		q := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		R := q.Mat()
		low := lowestVertex(R, boxA.Verts) // A's lowest vertex in this orientation
		// Just above B's top face, inside it near the corner: within ḡ of
		// the corner.
		e := gbar * (0.05 + 0.2*rng.Float64())
		target := corner.Add(geom.V(-e, -e, gbar*(0.05+0.3*rng.Float64())))
		xa := target.Sub(R.MulV(low))
		var a, b Posed
		var c Cache
		var s Scratch
		a.Update(boxA, xa, q, false)
		b.Update(boxB, geom.Vec3{}, geom.Quat{W: 1}, false)
		c.Build(&a, &b, gbar, 2*gbar, &s)
		cur := Detect(&a, &b, gbar, &c, nil, nil)
		if def := detectDef(&a, &b, gbar, &c, nil); !sameContacts(cur, def) {
			t.Fatalf("trial %d: Detect %d contacts %+v, its definition %d %+v", trial, len(cur), cur, len(def), def)
		}
		for i := range cur {
			if cur[i].Rule == VertexVertex {
				suppressed++
			}
		}
	}
	if suppressed == 0 {
		t.Fatal("no vertex–vertex candidate suppressed: the test does not reach the rule")
	}
	t.Logf("%d vertex–vertex candidates suppressed in 200 trials", suppressed)
}

// lowestVertex returns the vertex of verts lowest in z once rotated by R
// (the first of equals).
func lowestVertex(R geom.Mat3, verts []geom.Vec3) geom.Vec3 {
	low := verts[0]
	for _, v := range verts {
		if R.MulV(v).Z < R.MulV(low).Z {
			low = v
		}
	}
	return low
}
