package ui

import (
	"math"
	"strings"
	"testing"
	"time"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// inspectSnap: body 0 "fill17" of generator "fill" (mesh 0), body 1 the wall
// "ground" (mesh 1: a square of faces f0 = (0 1 2), f1 = (0 2 3), edges
// e0 (0 1), e1 (1 2), e2 (2 0) the diagonal between f0 and f1, e3 (2 3),
// e4 (3 0)); the contacts of one vertex v7 of body 0 on the ground as the
// hierarchy (S0 §3.6) leaves them.
func inspectSnap() *snap.Snapshot {
	sq := snap.Mesh{Name: "ground",
		Verts: []geom.Vec3{{}, {X: 1}, {X: 1, Y: 1}, {Y: 1}},
		Tris:  [][3]int32{{0, 1, 2}, {0, 2, 3}},
		Edges: [][2]int32{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 0}}}
	s := &snap.Snapshot{Scene: "t", Meshes: []snap.Mesh{sq, sq}}
	s.Bodies = []snap.Body{
		{Name: "fill17", Group: "fill", Rot: geom.QIdent()},
		{Name: "wall:ground", Mesh: 1, Fixed: true, Rot: geom.QIdent()},
		{Name: "cube", Rot: geom.QIdent()},
		{Rot: geom.QIdent()},
		{Name: "fillx", Group: "fill", Rot: geom.QIdent()},
	}
	s.Walls = []snap.Wall{{Name: "ground", Body: 1, Enabled: true, Mesh: 1}}
	up := geom.V(0, 0, 1)
	s.Contacts = []snap.Contact{
		{A: 0, B: 1, Kind: snap.VF, FeatA: 7, FeatB: 0, Gap: 1e-3, Normal: up, Fn: 10},
		{A: 0, B: 1, Kind: snap.VE, FeatA: 7, FeatB: 2, Gap: 1e-3, Normal: up, Suppressed: true, SuppressedBy: "edge-face"},
		{A: 0, B: 1, Kind: snap.VF, FeatA: 7, FeatB: 1, Gap: 2e-3, Normal: up, Suppressed: true, SuppressedBy: "coplanar-face"},
		{A: 0, B: 1, Kind: snap.VV, FeatA: 7, FeatB: 2, Gap: 1e-3, Normal: up, Suppressed: true, SuppressedBy: "vertex-vertex"},
		{A: 0, B: 1, Kind: snap.VE, FeatA: 5, FeatB: 4, Gap: 1e-3, Normal: up, Fn: 30},
		{A: 2, B: 0, Kind: snap.VF, Swap: true, FeatA: 4, FeatB: 9, Normal: up, Fn: 20},
		{A: 2, B: 3, Kind: snap.SQ, Normal: up, Fn: 1},
	}
	return s
}

func TestBodyAndFeatureLabels(t *testing.T) {
	s := inspectSnap()
	for i, want := range []string{"fill[17]", "ground", "cube", "#3", "fillx", "#5"} {
		if got := BodyLabel(s, i); got != want {
			t.Errorf("BodyLabel(%d) = %q, want %q", i, got, want)
		}
	}
	for i, want := range [][2]string{{"v7", "f0"}, {"v7", "e2"}, {"v7", "f1"}, {"v7", "v2"}, {"v5", "e4"}, {"f4", "v9"}, {"surface", "surface"}} {
		if a, b := FeatureLabels(&s.Contacts[i]); a != want[0] || b != want[1] {
			t.Errorf("contact %d features %s / %s, want %s / %s", i, a, b, want[0], want[1])
		}
	}
	if got := ContactLabel(s, &s.Contacts[5]); got != "VF cube f4 / fill[17] v9" {
		t.Errorf("ContactLabel = %q", got)
	}
	s.Contacts[0].Kind = snap.EE
	if a, b := FeatureLabels(&s.Contacts[0]); a != "e7" || b != "e0" {
		t.Errorf("EE features %s / %s", a, b)
	}
}

func TestHierarchyText(t *testing.T) {
	s := inspectSnap()
	for i, want := range map[int]int{1: 0, 2: 0, 3: 0, 0: -1, 4: -1} {
		if got := Competitor(s, i); got != want {
			t.Errorf("Competitor(%d) = %d, want %d", i, got, want)
		}
	}
	has := func(i int, parts ...string) {
		t.Helper()
		txt := strings.Join(HierarchyText(s, i), "\n")
		for _, p := range parts {
			if !strings.Contains(txt, p) {
				t.Errorf("contact %d: %q lacks %q", i, txt, p)
			}
		}
	}
	has(1, "suppressed: edge-face (Grainlab's rule after S0 §3.6)", "v7", "e2", "kept instead: VF v7/f0")
	has(2, "suppressed: coplanar-face", "kept instead: VF v7/f0")
	has(3, "suppressed: vertex-vertex", "kept instead: VF v7/f0")
	has(0, "active: vertex-face heads the hierarchy", "suppresses: VE v7/e2 (edge-face), VF v7/f1 (coplanar-face), VV v7/v2 (vertex-vertex)")
	has(4, "active: v5 touches no face of e4 (f1)")
	has(6, "smooth contact")
	// a concave edge names Fig. 9; without the competitor the text says so
	s.Contacts[1].SuppressedBy = "concave-edge"
	s.Contacts[0].FeatB = 1 // v7 now on f1, which also borders e2
	has(1, "concave-edge (S0 §3.6, Fig. 9): e2 is concave", "kept instead: VF v7/f1")
	s.Contacts[0].Kind, s.Contacts[2].Kind = snap.EE, snap.EE
	has(1, "not in this frame")
}

func TestBodyContactsSorted(t *testing.T) {
	s := inspectSnap()
	got := BodyContacts(nil, s, 0, SortByForce)
	want := []int{4, 5, 0, 1, 2, 3} // |f| 30, 20, 10, then the suppressed (0) in order
	if len(got) != len(want) {
		t.Fatalf("%v want %v", got, want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("by force: %v want %v", got, want)
		}
	}
	up := BodyContacts(nil, s, 0, SortByForceUp)
	if up[0] != 1 || up[len(up)-1] != 4 {
		t.Fatalf("by force up: %v", up)
	}
	if r := BodyReport(s, 0); !strings.Contains(r, "VE fill[17] v5 / ground e4  |f| 30 N") {
		t.Fatalf("body report:\n%s", r)
	}
	if r := ContactReport(s, 1); !strings.Contains(r, "suppressed: edge-face") || !strings.Contains(r, "fill[17] v7 / ground e2") {
		t.Fatalf("contact report:\n%s", r)
	}
}

// The steps/s readout is the steps of the last wall second from the
// observations' timestamps: 100 steps/s for 2 s then 400 steps/s reads 400
// one second later, sampled every frame or only every 0.7 s.
func TestRateMeterLastSecond(t *testing.T) {
	for _, dt := range []float64{1.0 / 60, 0.7, 0.25} {
		var m RateMeter
		step := func(t float64) float64 {
			if t <= 2 {
				return 100 * t
			}
			return 200 + 400*(t-2)
		}
		for tt := 0.0; tt <= 3.6; tt += dt {
			m.Add(tt, int64(math.Round(step(tt))))
		}
		if r := m.Rate(); math.Abs(r-400) > 400*0.01 {
			t.Errorf("sampled every %.3g s: rate %.4g, want 400 (1 %%)", dt, r)
		}
	}
	var m RateMeter
	if !math.IsNaN(m.Rate()) {
		t.Fatal("rate without observations")
	}
	for tt := 0.0; tt < 2; tt += 0.1 {
		m.Add(tt, 50) // paused
	}
	if r := m.Rate(); r != 0 {
		t.Fatalf("paused: %g", r)
	}
	m.Add(2.1, 10) // a reset: the count goes back
	m.Add(2.6, 110)
	if r := m.Rate(); math.Abs(r-200) > 1e-9 {
		t.Fatalf("after a reset: %g, want 200", r)
	}
}

// The energy plot's series are filled from the snapshots: the parts sum to
// the total (float32 as the rings store them); stage times become seconds per
// step between samples; a disabled wall reacts with 0.
func TestHistoryPlotSeries(t *testing.T) {
	h := NewHistory(50, 0)
	s := inspectSnap()
	s.Walls = append(s.Walls, snap.Wall{Name: "side", Body: 3, Force: geom.V(3, 4, 0)})
	s.Walls[0].Force = geom.V(0, 0, -12)
	for i := 1; i <= 20; i++ {
		st := &s.Stats
		st.Step, st.Time = int64(10*i), 0.01*float64(i)
		st.Kinetic, st.PotentialGravity, st.PotentialContact = 3.5/float64(i), -9.81*float64(i), 0.25*float64(i%3)
		st.ByKind = [snap.NumContactKinds]int{i, 2, 0, 1, 0}
		for k := range st.Stages {
			st.Stages[k] = time.Duration(i*10*(k+1)) * 100 * time.Microsecond // (k+1)·0.1 ms per step
		}
		h.Observe(s, float64(i))
	}
	tot, ke, pg, pc := h.Total.Values(nil), h.Kinetic.Values(nil), h.Gravity.Values(nil), h.ContactE.Values(nil)
	if len(tot) != 20 {
		t.Fatalf("%d samples", len(tot))
	}
	for i := range tot {
		sum := float64(ke[i]) + float64(pg[i]) + float64(pc[i])
		if math.Abs(float64(tot[i])-sum) > 1e-6*math.Max(1, math.Abs(sum)) {
			t.Fatalf("sample %d: total %g, parts sum %g", i, tot[i], sum)
		}
	}
	if h.Kinds[snap.VF].Last() != 20 || h.Kinds[snap.VV].Last() != 1 {
		t.Fatal("contacts by kind")
	}
	for k := range h.Stages {
		if got, want := float64(h.Stages[k].Last()), 1e-4*float64(k+1); math.Abs(got-want) > 1e-6*want {
			t.Fatalf("stage %s: %g s per step, want %g", snap.StageNames[k], got, want)
		}
	}
	if len(h.Walls) != 2 || h.Walls[0].Last() != 12 || h.Walls[1].Last() != 0 || h.WallNames[1] != "side" {
		t.Fatalf("walls %v %v", h.WallNames, h.Walls)
	}
}
