package integrate

import (
	"math"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// prism extrudes the simple polygon poly (x, z; counter-clockwise) along y
// by length l, centred on y = 0, triangulating the caps by ear clipping.
func prism(t testing.TB, name string, poly [][2]float64, l float64) *shape.Polyhedron {
	n := len(poly)
	var vs []geom.Vec3
	for _, p := range poly { // y = −l/2 ring then y = +l/2 ring
		vs = append(vs, geom.V(p[0], -l/2, p[1]))
	}
	for _, p := range poly {
		vs = append(vs, geom.V(p[0], l/2, p[1]))
	}
	var tris [][3]int32
	for _, e := range earClip(poly) {
		// Outward normal −y on the front cap: (x,z) CCW seen from −y is CCW in x-z.
		tris = append(tris, [3]int32{int32(e[0]), int32(e[1]), int32(e[2])})
		tris = append(tris, [3]int32{int32(n + e[0]), int32(n + e[2]), int32(n + e[1])})
	}
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		tris = append(tris, [3]int32{int32(i), int32(n + i), int32(n + j)}, [3]int32{int32(i), int32(n + j), int32(j)})
	}
	p, err := shape.NewPolyhedron(name, vs, tris)
	if err != nil {
		// The winding convention may be the other way round: flip everything.
		for i := range tris {
			tris[i][1], tris[i][2] = tris[i][2], tris[i][1]
		}
		p, err = shape.NewPolyhedron(name, vs, tris)
		if err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func earClip(poly [][2]float64) [][3]int {
	idx := make([]int, len(poly))
	for i := range idx {
		idx[i] = i
	}
	cross := func(a, b, c [2]float64) float64 {
		return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
	}
	var out [][3]int
	for len(idx) > 3 {
		for k := range idx {
			i0, i1, i2 := idx[(k+len(idx)-1)%len(idx)], idx[k], idx[(k+1)%len(idx)]
			a, b, c := poly[i0], poly[i1], poly[i2]
			if cross(a, b, c) <= 0 {
				continue
			}
			ear := true
			for _, j := range idx {
				if j == i0 || j == i1 || j == i2 {
					continue
				}
				p := poly[j]
				if cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0 {
					ear = false
					break
				}
			}
			if ear {
				out = append(out, [3]int{i0, i1, i2})
				idx = append(idx[:k], idx[k+1:]...)
				break
			}
		}
	}
	return append(out, [3]int{idx[0], idx[1], idx[2]})
}

// pairContacts returns every contact between bodies i and j.
func pairContacts(w *world.World, i, j int) []contact.Contact {
	var out []contact.Contact
	w.EachContact(func(a, b int, c *contact.Contact) {
		if (a == i && b == j) || (a == j && b == i) {
			out = append(out, *c)
		}
	})
	return out
}

// Two cubes face to face, the upper one offset by (2, 2) cm: the continuous
// face contact becomes the pointwise set of S0 Fig. 4c — each face's vertex
// inside the other face (2 VF) and the two crossings of boundary edges (2 EE)
// — and those forces carry the upper cube's weight (±1%).
// With a 45° twist the octagonal overlap is carried by 8 edge–edge contacts,
// W/8 each by symmetry (±1%).
func TestFaceToFaceCubes(t *testing.T) {
	cases := []struct {
		name   string
		q      geom.Quat
		off    geom.Vec3
		wantVF int
		wantEE int
		equal  bool
	}{
		{"offset", geom.QIdent(), geom.V(0.02, 0.02, 0), 2, 2, false},
		{"twist45", geom.QAxisAngle(geom.V(0, 0, 1), math.Pi/4), geom.Vec3{}, 0, 8, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := groundWorld(t, cubeParams(1.0, 0.5))
			lo := body.New("lower", shape.Box(0.1, 0.1, 0.1), 1000, geom.V(0, 0, 0.05+0.9e-3), geom.QIdent())
			hi := body.New("upper", shape.Box(0.1, 0.1, 0.1), 1000, c.off.Add(geom.V(0, 0, 0.15+1.8e-3)), c.q)
			il, ih := w.AddBody(lo), w.AddBody(hi)
			run(t, w, 0.3, nil)
			var active []contact.Contact
			for _, k := range pairContacts(w, il, ih) {
				if k.Active() {
					active = append(active, k)
				}
			}
			n := countKinds(active)
			if n[snap.VF] != c.wantVF || n[snap.EE] != c.wantEE || len(active) != c.wantVF+c.wantEE {
				t.Fatalf("contacts by kind %v, want %d VF + %d EE", n, c.wantVF, c.wantEE)
			}
			W := hi.Mass() * 9.81
			var f geom.Vec3
			for _, k := range active {
				// A is the lower cube (smaller index); the upper cube gets −(N·Fn + Ft).
				f = f.Sub(k.N.Scale(k.Fn).Add(k.Ft))
				if c.equal && math.Abs(k.Fn-W/8) > 0.01*W/8 {
					t.Errorf("%v contact carries %.5g N, want W/8 = %.5g N (±1%%)", k.Kind, k.Fn, W/8)
				}
			}
			if math.Abs(f.Z-W) > 0.01*W || math.Hypot(f.X, f.Y) > 0.01*W {
				t.Errorf("contact forces on the upper cube sum to %v, want (0, 0, %.5g) ±1%%", f, W)
			}
		})
	}
}

// S0 Fig. 9 and §3.6: a vertex facing both faces of a concave edge gets the
// two vertex–face contacts, and the vertex–edge candidate on the concave edge
// is kept but suppressed by the hierarchy. A wedge lies with its sharp bottom
// edge in a shallow V-groove (faces 10° from horizontal) of a fixed block,
// pressed down by 40 N: each end vertex of the edge touches both groove faces
// (4 VF) and lies within ḡ of the groove's concave edge, whose vertex–edge
// candidates are suppressed (2 VE, rule concave-edge). Frictionless, so the
// vertical components of the normal forces alone equal weight + load (±1%).
func TestConcaveEdgeHierarchy(t *testing.T) {
	w := world.New("groove")
	if err := w.SetParams(0, 0, cubeParams(1.0, 0)); err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 1
	tilt := 10 * math.Pi / 180
	depth := 0.15 * math.Tan(tilt)
	groove := prism(t, "vblock", [][2]float64{{-0.2, -0.1}, {0.2, -0.1}, {0.2, 0.1}, {0.15, 0.1}, {0, 0.1 - depth}, {-0.15, 0.1}, {-0.2, 0.1}}, 0.3)
	if n := groove.NumEdges(shape.Concave); n != 1 {
		t.Fatalf("groove block has %d concave edges, want 1", n)
	}
	w.AddBody(body.NewFixed("vblock", groove, geom.Vec3{}, geom.QIdent()))
	wedge := prism(t, "wedge", [][2]float64{{0, 0}, {0.02, 0.06}, {-0.02, 0.06}}, 0.1)
	// Mesh point m of a body at X lies at X + m − Offset. The groove bottom is
	// the mesh point (0, 0, 0.1 − depth) of the block (at X = 0); the wedge's
	// sharp edge is its mesh line x = z = 0, placed 0.9 mm from both faces.
	bottom := geom.V(0, 0, 0.1-depth).Sub(groove.Offset)
	wb := body.New("wedge", wedge, 1000, bottom.Add(geom.V(0, 0, 0.9e-3/math.Cos(tilt))).Add(wedge.Offset), geom.QIdent())
	iw := w.AddBody(wb)
	const push = 40.0
	w.Loads = append(w.Loads, body.Load{Body: iw, Force: body.Const(geom.V(0, 0, -push))})
	run(t, w, 0.3, nil)
	var vf, veSup, other int
	var fz float64
	for _, k := range pairContacts(w, 0, iw) {
		switch {
		case k.Active() && k.Kind == snap.VF:
			vf++
			fz -= k.N.Z * k.Fn // A is the block (index 0): the wedge gets −N·Fn
		case !k.Active() && k.Kind == snap.VE && k.Rule == contact.ConcaveEdge:
			veSup++
		case k.Active():
			other++
		}
	}
	W := wb.Mass()*9.81 + push
	if vf != 4 || veSup != 2 || other != 0 {
		t.Fatalf("got %d active VF, %d VE suppressed by concave-edge, %d other active; want 4, 2, 0", vf, veSup, other)
	}
	if math.Abs(fz-W) > 0.01*W {
		t.Errorf("vertical contact force on the wedge %.5g N, want weight + load %.5g N (±1%%)", fz, W)
	}
}
