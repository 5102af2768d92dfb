package contact

import (
	"math"
	"math/rand"
	"reflect"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
)

// eeSpecial are the coordinates that stress IEEE corners: NaN, ±Inf,
// ±0, denormals, the least normal, huge and tiny values (squares that
// overflow or underflow).
var eeSpecial = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	5e-324, -5e-324, 2.2250738585072014e-308, 1e300, -1e300, 1e-300, 1e154, -1e154, 1e-160}

// eeRandVal is a coordinate: mostly of order 1, with probability pSpecial
// one of eeSpecial.
func eeRandVal(r *rand.Rand, pSpecial float64) float64 {
	if r.Float64() < pSpecial {
		return eeSpecial[r.Intn(len(eeSpecial))]
	}
	return r.NormFloat64()
}

// eeRandBodies builds two bodies' world vertices and edges for edgeEdges:
// random edges, with B's edges often built against A's — sharing a vertex
// with an A edge, (nearly) parallel to one (a translated or scaled copy),
// crossing it near its middle, or of zero length — and coordinates from
// eeRandVal.
func eeRandBodies(r *rand.Rand, pSpecial float64) (a, b *Posed) {
	nv := 4 + r.Intn(9)
	va := make([]geom.Vec3, nv)
	for i := range va {
		va[i] = geom.Vec3{X: eeRandVal(r, pSpecial), Y: eeRandVal(r, pSpecial), Z: eeRandVal(r, pSpecial)}
	}
	edA := make([]shape.Edge, 3+r.Intn(8))
	for i := range edA {
		edA[i].V = [2]int32{int32(r.Intn(nv)), int32(r.Intn(nv))}
	}
	var vb []geom.Vec3
	edB := make([]shape.Edge, 3+r.Intn(8))
	add := func(v geom.Vec3) int32 { vb = append(vb, v); return int32(len(vb) - 1) }
	rv := func() geom.Vec3 {
		return geom.Vec3{X: eeRandVal(r, pSpecial), Y: eeRandVal(r, pSpecial), Z: eeRandVal(r, pSpecial)}
	}
	for i := range edB {
		e := edA[r.Intn(len(edA))]
		a1, a2 := va[e.V[0]], va[e.V[1]]
		switch r.Intn(7) {
		case 0: // meets A's edge at a vertex
			edB[i].V = [2]int32{add(a1), add(rv())}
		case 1: // parallel: A's edge translated
			o := rv().Scale(0.3)
			edB[i].V = [2]int32{add(a1.Add(o)), add(a2.Add(o))}
		case 2: // nearly parallel: A's edge turned by a tiny angle
			o, t := rv().Scale(0.3), rv().Scale(math.Pow(10, -float64(3+r.Intn(6))))
			edB[i].V = [2]int32{add(a1.Add(o)), add(a2.Add(o).Add(t))}
		case 3: // crossing A's edge near its middle
			m := geom.Lerp(a1, a2, 0.5+0.1*r.NormFloat64())
			d := rv().Scale(0.5)
			edB[i].V = [2]int32{add(m.Sub(d)), add(m.Add(d))}
		case 4: // zero length
			j := add(rv())
			edB[i].V = [2]int32{j, j}
		default:
			edB[i].V = [2]int32{add(rv()), add(rv())}
		}
	}
	// Reuse some of B's vertices in other edges (shared endpoints).
	for i := range edB {
		if r.Intn(5) == 0 {
			edB[i].V[r.Intn(2)] = int32(r.Intn(len(vb)))
		}
	}
	a = &Posed{Poly: &shape.Polyhedron{Edges: edA}, V: va}
	b = &Posed{Poly: &shape.Polyhedron{Edges: edB}, V: vb}
	return a, b
}

// eeRandList is an edge–edge list: A's edges in runs (as listEE writes
// them) or in random order, and build distances, some at or above lim or
// NaN.
func eeRandList(r *rand.Rand, nA, nB int, lim float64) ([][2]int32, []float64) {
	n := 1 + r.Intn(40)
	ee := make([][2]int32, n)
	dee := make([]float64, n)
	fa := int32(r.Intn(nA))
	for k := range ee {
		if r.Intn(3) == 0 {
			fa = int32(r.Intn(nA))
		}
		ee[k] = [2]int32{fa, int32(r.Intn(nB))}
		switch x := r.Intn(10); {
		case x == 0:
			dee[k] = lim
		case x == 1:
			dee[k] = lim + r.Float64()
		case x == 2:
			dee[k] = math.NaN()
		default:
			dee[k] = lim * r.Float64()
		}
	}
	return ee, dee
}

// eeSameContacts reports the first difference between two contact lists
// (bit patterns of every field), or "".
func eeSameContacts(got, want []Contact) string {
	if len(got) != len(want) {
		return "count"
	}
	for i := range got {
		g, w := &got[i], &want[i]
		if g.Key != w.Key || g.Flip != w.Flip || g.New != w.New || g.Rule != w.Rule {
			return "key"
		}
		gf := []float64{g.PA.X, g.PA.Y, g.PA.Z, g.PB.X, g.PB.Y, g.PB.Z, g.N.X, g.N.Y, g.N.Z, g.Gn}
		wf := []float64{w.PA.X, w.PA.Y, w.PA.Z, w.PB.X, w.PB.Y, w.PB.Z, w.N.X, w.N.Y, w.N.Z, w.Gn}
		for j := range gf {
			if math.Float64bits(gf[j]) != math.Float64bits(wf[j]) {
				return "value"
			}
		}
	}
	return ""
}

// TestEdgeEdgesAsmMatchesGo runs edgeEdges (on amd64 the SSE2 assembly of
// edge_amd64.s) and the Go loop edgeEdgesGo on the same random and
// degenerate lists — parallel and nearly parallel edges, edges meeting at
// a vertex, crossing, of zero length, coordinates NaN, ±Inf, ±0,
// denormal, huge, tiny; build distances at the limit and NaN; ḡ of 0,
// +Inf or NaN — and requires the same contacts in the same order, every
// field the same bits (so the same accept/reject decision for every pair).
func TestEdgeEdgesAsmMatchesGo(t *testing.T) {
	if !edgeAsm {
		t.Log("edgeEdges is edgeEdgesGo on this build: the comparison is trivial")
	}
	r := rand.New(rand.NewSource(15))
	solved, accepted := 0, 0
	var out1, out2 []Contact
	for trial := 0; solved < 200000; trial++ {
		pSpecial := 0.0
		if trial%3 == 1 {
			pSpecial = 0.05
		}
		a, b := eeRandBodies(r, pSpecial)
		lim := 1 + r.Float64()
		ee, dee := eeRandList(r, len(a.Poly.Edges), len(b.Poly.Edges), lim)
		gbar := 3 * r.Float64()
		switch r.Intn(40) {
		case 0:
			gbar = 0
		case 1:
			gbar = math.Inf(1)
		case 2:
			gbar = math.NaN()
		}
		for k := range ee {
			if dee[k] < lim {
				solved++
			}
		}
		// out: reused (old contacts in its spare capacity), nil, or
		// fresh with 0–2 contacts and room for 0–2 more (the assembly
		// returns to grow it).
		var o1, o2 []Contact
		n0 := 0
		switch trial % 3 {
		case 0:
			o1, o2 = out1[:0], out2[:0]
		case 1:
			n0 = r.Intn(3)
			room := r.Intn(3)
			o1, o2 = make([]Contact, n0, n0+room), make([]Contact, n0, n0+room)
			for i := range o1 {
				o1[i].Gn, o2[i].Gn = 1, 1
			}
		}
		o1 = edgeEdges(a, b, ee, dee, lim, gbar, o1)
		o2 = edgeEdgesGo(a, b, ee, dee, lim, gbar, o2)
		if d := eeSameContacts(o1, o2); d != "" {
			t.Fatalf("trial %d: %s differs: asm %d contacts, Go %d\nasm %+v\nGo  %+v", trial, d, len(o1), len(o2), o1, o2)
		}
		if trial%3 == 0 {
			out1, out2 = o1, o2
		}
		accepted += len(o2) - n0
	}
	t.Logf("%d pairs solved, %d accepted", solved, accepted)
	if accepted < solved/20 {
		t.Fatalf("only %d of %d pairs accepted: the comparison is too weak", accepted, solved)
	}
}

// TestEdgeEdgesAsmBadIndex: an edge or vertex index out of range panics in
// edgeEdges as in edgeEdgesGo (the assembly checks every index and leaves
// the entry to the Go loop), after the same contacts before it.
func TestEdgeEdgesAsmBadIndex(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for c := 0; c < 6; c++ {
		a, b := eeRandBodies(r, 0)
		ee, dee := eeRandList(r, len(a.Poly.Edges), len(b.Poly.Edges), 10)
		k := len(ee) / 2
		switch c {
		case 0:
			ee[k][0] = int32(len(a.Poly.Edges))
		case 1:
			ee[k][1] = -1
		case 2:
			a.Poly.Edges[ee[k][0]].V[1] = int32(len(a.V))
		case 3:
			b.Poly.Edges[ee[k][1]].V[0] = -3
		case 4:
			b.Poly.Edges[ee[k][1]].V[1] = int32(len(b.V) + 7)
		case 5: // −1 after another A edge (the Go loop's first "last")
			if k == 0 {
				t.Fatal("case 5 needs a list of two entries or more")
			}
			ee[k][0] = -1
			ee[0][0], dee[0] = 0, 0
		}
		dee[k] = 0
		run := func(f func(a, b *Posed, ee [][2]int32, dee []float64, lim, gbar float64, out []Contact) []Contact) (out []Contact, panicked bool) {
			out = make([]Contact, 0, 64)
			defer func() {
				if recover() != nil {
					panicked = true
				}
			}()
			return f(a, b, ee, dee, 10, 3, out), false
		}
		o1, p1 := run(edgeEdges)
		o2, p2 := run(edgeEdgesGo)
		if !p1 || !p2 {
			t.Fatalf("case %d: panicked asm %v, Go %v", c, p1, p2)
		}
		// The contacts written before the panic: the same.
		if d := eeSameContacts(o1[:cap(o1)][:k], o2[:cap(o2)][:k]); d != "" {
			t.Fatalf("case %d: contacts before the bad entry differ (%s)", c, d)
		}
	}
}

// TestContactHasNoPointers: edge_amd64.s writes contacts into out's spare
// capacity without write barriers, which is sound only while a Contact
// holds no pointers.
func TestContactHasNoPointers(t *testing.T) {
	var walk func(reflect.Type) bool
	walk = func(ty reflect.Type) bool {
		switch ty.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
			return true
		case reflect.Array:
			return walk(ty.Elem())
		case reflect.Struct:
			for i := 0; i < ty.NumField(); i++ {
				if !walk(ty.Field(i).Type) {
					t.Errorf("Contact field %s: %s", ty.Field(i).Name, ty.Field(i).Type)
					return false
				}
			}
			return true
		}
		return false
	}
	walk(reflect.TypeOf(Contact{}))
}

// Review r3 (session 15): an A-edge index −1 in the first solved entry
// panics in the assembly and in the Go loop alike (the Go loop's
// remembered edge starts outside int32's range; before, it matched −1,
// computed with zeros and rejected the pair). It fails with last :=
// int32(-1).
func TestEdgeEdgesFirstEntryMinusOne(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	a, b := eeRandBodies(r, 0)
	ee := [][2]int32{{-1, 0}, {0, 0}}
	dee := []float64{0, 0}
	run := func(f func(a, b *Posed, ee [][2]int32, dee []float64, lim, gbar float64, out []Contact) []Contact) (panicked bool) {
		defer func() { panicked = recover() != nil }()
		f(a, b, ee, dee, 10, 3, make([]Contact, 0, 8))
		return false
	}
	if pGo := run(edgeEdgesGo); !pGo {
		t.Error("edge −1 at the first entry: edgeEdgesGo does not panic")
	}
	if pAsm := run(edgeEdges); !pAsm {
		t.Error("edge −1 at the first entry: edgeEdges does not panic")
	}
}
