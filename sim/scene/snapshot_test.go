package scene

import (
	"strings"
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/integrate"
	"grainlab/sim/state"
)

// The snapshot carries what the window's inspector names things by: the
// generator of each generated body (fill17 is fill[17]), the edge table of
// each polyhedral mesh (e12 → its two vertices, the shape's own), and for
// every contact which body holds the vertex (Swap) as the contact has it —
// on the packed box of tetrapods, where both orders occur.
func TestSnapshotInspectorFields(t *testing.T) {
	s, err := LoadBuiltin("box-of-tetrapods")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	f, err := state.Read(packed)
	if err != nil {
		t.Fatal(err)
	}
	if err := state.Apply(w, f, packed); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	sn := w.Snapshot(nil)
	gen := 0
	for i, b := range sn.Bodies {
		wb := w.Bodies()[i]
		switch {
		case strings.HasPrefix(b.Name, "fill"):
			if b.Group != "fill" {
				t.Fatalf("body %d %q: group %q, want fill", i, b.Name, b.Group)
			}
			gen++
		case b.Group != "":
			t.Fatalf("body %d %q (wall %d): group %q, want none", i, b.Name, wb.Wall, b.Group)
		}
		if wb.Poly() == nil {
			continue
		}
		m := sn.Meshes[b.Mesh]
		if len(m.Edges) != len(wb.Poly().Edges) {
			t.Fatalf("body %d: %d mesh edges, the shape has %d", i, len(m.Edges), len(wb.Poly().Edges))
		}
		for e, ev := range m.Edges {
			if ev != wb.Poly().Edges[e].V {
				t.Fatalf("body %d edge %d: %v, want %v", i, e, ev, wb.Poly().Edges[e].V)
			}
		}
	}
	if gen != 300 {
		t.Fatalf("%d generated bodies, want 300", gen)
	}
	k, swapped := 0, 0
	w.EachContact(func(a, b int, c *contact.Contact) {
		sc := &sn.Contacts[k]
		if sc.A != a || sc.B != b || sc.Swap != c.Swap {
			t.Fatalf("contact %d: snapshot (%d, %d, swap %v), world (%d, %d, swap %v)", k, sc.A, sc.B, sc.Swap, a, b, c.Swap)
		}
		if c.Swap {
			swapped++
		}
		k++
	})
	if k != len(sn.Contacts) || swapped == 0 || swapped == k {
		t.Fatalf("%d contacts, %d swapped: want both orders", k, swapped)
	}
	t.Logf("%d contacts, %d with the vertex on B", k, swapped)
}
