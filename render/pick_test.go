package render

import (
	"math"
	"testing"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// A suppressed marker on the near face of a cube and an active VF marker
// on its far face project to nearly the same pixel (the VF one exactly
// under the cursor): the one the user sees — the suppressed marker in
// front — is picked, not the VF marker hidden behind the cube.
func TestPickSuppressedInFront(t *testing.T) {
	s := &snap.Snapshot{Meshes: []snap.Mesh{CubeMesh("cube", 0.2)}}
	s.Bodies = []snap.Body{{Mesh: 0, Rot: geom.QIdent(), Radius: 0.18, Name: "cube"}, {Mesh: 0, Pos: geom.V(0, 3, 0), Rot: geom.QIdent(), Radius: 0.18}}
	s.Contacts = []snap.Contact{
		{A: 0, B: 1, Kind: snap.VF, Point: geom.V(-0.1, 0, 0), Normal: geom.V(0, 0, 1), Fn: 5},
		{A: 0, B: 1, Kind: snap.VE, Point: geom.V(0.1005, 0, 0.002), Normal: geom.V(0, 0, 1), Suppressed: true, SuppressedBy: "edge-face"},
	}
	cam := NewCamera()
	cam.Yaw, cam.Pitch, cam.Dist = 0, 0, 5 // eye on +x looking at the origin
	const w, h = 640, 400
	x, y, ok := cam.Project(s.Contacts[0].Point, w, h)
	if !ok {
		t.Fatal("behind the eye")
	}
	if !markerHidden(s, cam.Eye(), s.Contacts[0].Point, 1e-3) || markerHidden(s, cam.Eye(), s.Contacts[1].Point, 1e-3) {
		t.Fatal("occlusion test: the far-face marker must be hidden, the near-face one not")
	}
	v := DefaultView()
	v.ShowSuppressed = true
	i, ok := PickContactScreen(s, &v, cam, x, y, w, h, 7)
	if !ok || i != 1 {
		t.Fatalf("picked %d, want the suppressed marker in front (1), not the hidden VF (0)", i)
	}
	// with suppressed markers hidden, the VF marker is the only candidate
	v.ShowSuppressed = false
	if i, ok := PickContactScreen(s, &v, cam, x, y, w, h, 7); !ok || i != 0 {
		t.Fatalf("picked %d, want 0 when suppressed markers are not shown", i)
	}
	// two seen markers under the cursor: the nearer the eye wins
	s.Contacts[0].Point = geom.V(0.1005, 0, -0.001)
	s.Contacts[1].Point = geom.V(0.3, 0, 0.001*5.3/4.9)
	v.ShowSuppressed = true
	x, y, _ = cam.Project(s.Contacts[0].Point, w, h)
	if i, ok := PickContactScreen(s, &v, cam, x, y, w, h, 7); !ok || i != 1 {
		t.Fatalf("picked %d, want the marker nearer the eye (1)", i)
	}
}

func TestContactHighlightFeatures(t *testing.T) {
	s := &snap.Snapshot{Meshes: []snap.Mesh{CubeMesh("cube", 2)}}
	s.Meshes[0].Edges = [][2]int32{{0, 1}}
	s.Bodies = []snap.Body{{Mesh: 0, Pos: geom.V(10, 0, 0), Rot: geom.QIdent()}, {Mesh: 0, Rot: geom.QIdent()}}
	m := &s.Meshes[0]
	// VF with Swap: FeatA is a face of A, FeatB a vertex of B
	s.Contacts = []snap.Contact{{A: 0, B: 1, Kind: snap.VF, Swap: true, FeatA: 2, FeatB: 3}, {A: 0, B: 1, Kind: snap.EE, FeatA: 0, FeatB: 0}}
	hl := ContactHighlight(s, 0)
	if len(hl.Points) != 1 || hl.Points[0] != m.Verts[3] || len(hl.Segs) != 3 {
		t.Fatalf("VF swap: %+v", hl)
	}
	tri := m.Tris[2]
	if hl.Segs[0][0] != m.Verts[tri[0]].Add(geom.V(10, 0, 0)) {
		t.Fatalf("face of A not placed at A: %v", hl.Segs[0])
	}
	if hl := ContactHighlight(s, 1); len(hl.Segs) != 2 || len(hl.Points) != 0 {
		t.Fatalf("EE: %+v", hl)
	}
	only := OnlyBodyContacts(&snap.Snapshot{Contacts: []snap.Contact{{A: 0, B: 1}, {A: 2, B: 3}, {A: 3, B: 0}}}, 0)
	if len(only.Contacts) != 2 || only.Contacts[1].A != 3 {
		t.Fatalf("only body 0: %+v", only.Contacts)
	}
}

// TestHighlightClippedToContact: a cube's vertex on a wall's 100 m face —
// the face's highlight is clipped to the ball of HighlightRadii cube radii
// around the contact point (world: every end within it; screen: within the
// disc that ball projects to), and the face's edge through the contact is
// still shown. Unclipped, the face's edges run 100 m across the view.
func TestHighlightClippedToContact(t *testing.T) {
	s := &snap.Snapshot{Meshes: []snap.Mesh{CubeMesh("cube", 0.2), PlaneMesh("wall", 100, 100)}}
	s.Bodies = []snap.Body{
		{Mesh: 1, Rot: geom.QIdent(), Fixed: true, Name: "floor"},
		{Mesh: 0, Pos: geom.V(0.15, 0.1, 0.1), Rot: geom.QIdent(), Radius: 0.1 * math.Sqrt(3)},
	}
	p := geom.V(0.05, 0, 0) // the cube's vertex 0 on the floor's face 0 (the −x−y..+x+y diagonal 0.035 m away)
	s.Contacts = []snap.Contact{{A: 0, B: 1, Kind: snap.VF, Swap: true, FeatA: 0, FeatB: 0, Point: p, Normal: geom.V(0, 0, -1), Fn: 1}}
	hl := ContactHighlight(s, 0)
	r := HighlightRadii * s.Bodies[1].Radius
	if len(hl.Segs) == 0 {
		t.Fatal("the face's edge through the contact is gone")
	}
	cam := NewCamera()
	cam.FitSphere(p, 1)
	const w, h = 1280, 800
	px, py, _ := cam.Project(p, w, h)
	disc := 0.0 // the screen radius of the ball
	for _, e := range []geom.Vec3{{X: r}, {Y: r}, {Z: r}} {
		for _, q := range []geom.Vec3{p.Add(e), p.Sub(e)} {
			x, y, _ := cam.Project(q, w, h)
			disc = math.Max(disc, math.Hypot(x-px, y-py))
		}
	}
	for _, sg := range hl.Segs {
		for _, q := range sg {
			if d := q.Sub(p).Norm(); d > r*(1+1e-9) {
				t.Errorf("highlight end %v is %.3g m from the contact, beyond %.3g m", q, d, r)
			}
			x, y, _ := cam.Project(q, w, h)
			if d := math.Hypot(x-px, y-py); d > 1.5*disc {
				t.Errorf("highlight end %.0f px from the contact's screen point, beyond the ball's %.0f px", d, disc)
			}
		}
	}
	// bodies without a radius (no free body): nothing to clip by
	s.Bodies[1].Radius = 0
	if hl := ContactHighlight(s, 0); len(hl.Segs) != 3 {
		t.Errorf("no radius: %d segments, want the face's 3", len(hl.Segs))
	}
}
