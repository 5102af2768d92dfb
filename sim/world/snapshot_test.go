package world_test

import (
	"reflect"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// refSnapshot is Snapshot's content written the straightforward way (the
// algorithm before the per-shape runs and the sized contact list): a map
// lookup per body, meshes numbered in order of first use, contacts
// appended. Meshes and Stats are not built (the test checks them apart).
func refSnapshot(w *world.World) (bodies []snap.Body, contacts []snap.Contact, walls []snap.Wall, meshes int) {
	polys := map[*shape.Polyhedron]int{}
	smooth := map[sq.Shape]int{}
	for _, b := range w.Bodies() {
		if b.Kind == body.Polyhedral {
			if _, ok := polys[b.Poly()]; !ok {
				polys[b.Poly()] = meshes
				meshes++
			}
		} else if _, ok := smooth[b.SQ()]; !ok {
			smooth[b.SQ()] = meshes
			meshes++
		}
	}
	for _, b := range w.Bodies() {
		m := smooth[b.SQ()]
		if b.Kind == body.Polyhedral {
			m = polys[b.Poly()]
		}
		bodies = append(bodies, snap.Body{Mesh: m, Pos: b.X, Rot: b.Q, Vel: b.V, AngVel: b.W,
			Radius: b.Radius(), Fixed: b.Fixed, Name: b.Name, Material: b.Material, Group: b.Group()})
	}
	w.EachContact(func(a, b int, c *contact.Contact) {
		if c.Active() {
			f := c.N.Scale(c.Fn).Add(c.Ft).Norm()
			bodies[a].ContactForce += f
			bodies[b].ContactForce += f
		}
		contacts = append(contacts, snap.Contact{A: a, B: b, FeatA: c.FA, FeatB: c.FB, Kind: c.Kind, Swap: c.Swap,
			Point: c.Point(), Normal: c.N, Gap: c.Gn, Fn: c.Fn, Ft: c.Ft,
			Sliding: c.Fric.Sliding, Suppressed: !c.Active(), SuppressedBy: c.Rule.String()})
	})
	for _, wl := range w.Walls {
		walls = append(walls, snap.Wall{Name: wl.Name, Body: wl.Body, Enabled: wl.Enabled,
			Mesh: polys[w.Bodies()[wl.Body].Poly()], Force: wl.Force})
	}
	return bodies, contacts, walls, meshes
}

// TestSnapshotMatchesReference: Snapshot's bodies (mesh index, kinematics,
// summed contact force), contacts and walls are exactly those of the
// straightforward algorithm, and its meshes are one per shape in order of
// first use (a polyhedron's by name), and the contact list at most an
// eighth larger than its contacts, on polyhedra with walls and contacts
// (the packed tetrapod box), superquadrics with polyhedral walls (the
// superquadric piling after some steps) and the sphere path with contacts
// (the settled sphere box); a second snapshot (sized from the first) has
// the same contacts and shares the polyhedra's meshes.
func TestSnapshotMatchesReference(t *testing.T) {
	for _, c := range []struct {
		scene, state string
		steps        int
	}{
		{"box-of-tetrapods", "builtin:box-of-tetrapods-300-packed", 5},
		{"sq-piling", "", 20},
		{"sphere-box-soft", "../validation/testdata/sphere-box-soft-218-settled.json", 5},
	} {
		w := startScene(t, c.scene, c.state)
		for range c.steps {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		w.SyncBodies()
		s := w.Snapshot(nil)
		bodies, contacts, walls, meshes := refSnapshot(w)
		if len(s.Meshes) != meshes {
			t.Errorf("%s: %d meshes, want %d (one per shape)", c.scene, len(s.Meshes), meshes)
		}
		for i, b := range w.Bodies() {
			if b.Kind == body.Polyhedral && s.Meshes[s.Bodies[i].Mesh].Name != b.Poly().Name {
				t.Fatalf("%s body %d: mesh %q, want %q", c.scene, i, s.Meshes[s.Bodies[i].Mesh].Name, b.Poly().Name)
			}
		}
		if !reflect.DeepEqual(s.Bodies, bodies) {
			t.Errorf("%s: the snapshot's bodies differ from the reference's", c.scene)
		}
		if !reflect.DeepEqual(s.Contacts, contacts) {
			t.Errorf("%s: %d contacts, the reference %d, or their content differs", c.scene, len(s.Contacts), len(contacts))
		}
		if !reflect.DeepEqual(s.Walls, walls) {
			t.Errorf("%s: walls %v, want %v", c.scene, s.Walls, walls)
		}
		if len(contacts) == 0 && c.scene != "sq-piling" {
			t.Errorf("%s: no contacts: the check of the contact list is void", c.scene)
		}
		t.Logf("%s: %d bodies, %d meshes, %d contacts, %d walls", c.scene, len(s.Bodies), len(s.Meshes), len(s.Contacts), len(s.Walls))
		s2 := w.Snapshot(s)
		for _, x := range []*snap.Snapshot{s, s2} {
			if n := len(x.Contacts); cap(x.Contacts) > n+n/8+16 {
				t.Errorf("%s: contact list of capacity %d for %d contacts", c.scene, cap(x.Contacts), n)
			}
		}
		if !reflect.DeepEqual(s2.Contacts, contacts) {
			t.Errorf("%s: the second snapshot's contacts differ", c.scene)
		}
		for i, m := range s2.Meshes {
			if len(m.Tris) > 0 && len(s.Meshes[i].Tris) > 0 && &m.Tris[0] != &s.Meshes[i].Tris[0] {
				t.Errorf("%s: mesh %d (%s) rebuilt, not shared with the previous snapshot", c.scene, i, m.Name)
			}
		}
	}
}
