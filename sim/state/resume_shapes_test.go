package state

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"grainlab/assets"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/sq"
	"grainlab/sim/world"
)

// edit changes the shape of material m's smooth bodies as the window does
// (World.EditSmoothShape, then integrate.Start at the new masses).
func edit(t *testing.T, w *world.World, m int, s sq.Shape) {
	t.Helper()
	if err := w.SetSmoothShape(m, s); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
}

// polySQ is the superquadric bed (sq-settling) made polydisperse: 300 grains
// of its shape in the lower half and 300 smaller, blockier ones of the same
// material above them, so that a shape edit scales each body by the first
// one's ratio (World.SetSmoothShape).
func polySQ(t *testing.T) *world.World {
	t.Helper()
	data, err := fs.ReadFile(assets.FS, "scenes/sq-settling.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y := string(data)
	for _, r := range [][2]string{
		{"count: 1000", "count: 300"},
		{"max: [0.1, 0.1, 0.245]}", "max: [0.1, 0.1, 0.12]}"},
		{"\nshapes:\n", "\nshapes:\n  small: {type: superquadric, a: 0.003, b: 0.0025, c: 0.002, n1: 3, n2: 3}\n"},
		{"\ngenerators:\n", "\ngenerators:\n  - {name: q, shape: small, count: 300, density: 2500, region: {min: [0, 0, 0.13], max: [0.1, 0.1, 0.245]}, seed: 2}\n"},
	} {
		if !strings.Contains(y, r[0]) {
			t.Fatalf("sq-settling.yaml has no %q", r[0])
		}
		y = strings.Replace(y, r[0], r[1], 1)
	}
	s, err := scene.Parse([]byte(y), "sq-poly.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	w.Settings.Workers = 2
	return w
}

// A run resumed from a keyframe (the window's resume: state.Parse and Apply
// on the running world, then integrate.Start) continues bit for bit as a
// run restarted from the same file on a fresh world of the scene: a
// polydisperse superquadric bed (polySQ) with two shape edits (size, then
// blockiness and size) and a keyframe before them, between them or after
// them; a third edit follows it. Every body's x, q, v, ω, the time and the
// step count 0.02 s after the keyframe are identical (tolerance 0 bits),
// and so are the shapes and masses; the edit list is the keyframe's.
// Before the fix a run resumed from before an edit kept the latest shapes.
func TestResumeEqualsRestartAfterShapeEdits(t *testing.T) {
	const t0, ta, tb, end = 0.01, 0.02, 0.03, 1.0
	for _, kt := range []float64{0.005, 0.015, 0.025} {
		a := polySQ(t)
		if err := integrate.Start(a); err != nil {
			t.Fatal(err)
		}
		ms := a.SmoothShapes()
		if len(ms) != 1 || !ms[0].Varied || ms[0].Count != 600 {
			t.Fatalf("shapes %+v: want one varied material of 600 bodies", ms)
		}
		m, s0 := ms[0].Material, ms[0].Shape
		shapes := []sq.Shape{
			{A: 1.1 * s0.A, B: s0.B, C: 0.9 * s0.C, N1: s0.N1, N2: s0.N2},
			{A: 1.1 * s0.A, B: 1.05 * s0.B, C: 0.9 * s0.C, N1: 3, N2: 5},
			{A: 0.8 * s0.A, B: 0.8 * s0.B, C: 0.8 * s0.C, N1: 6, N2: 6},
		}
		var key []byte
		nkey := 0
		for k, at := range []float64{t0, ta, tb} {
			if key == nil && kt < at {
				to(t, a, kt, end)
				var err error
				if key, err = Encode(a); err != nil {
					t.Fatal(err)
				}
				nkey = k
			}
			to(t, a, at, end)
			edit(t, a, m, shapes[k])
		}
		to(t, a, tb+0.005, end)

		f := resumeTo(t, a, key)
		b := polySQ(t) // restart
		if err := Apply(b, f, "keyframe"); err != nil {
			t.Fatal(err)
		}
		if err := integrate.Start(b); err != nil {
			t.Fatal(err)
		}
		if len(a.Edits) != nkey || len(b.Edits) != nkey {
			t.Fatalf("keyframe at %g s: edits: resumed %d, restarted %d, want the keyframe's %d", kt, len(a.Edits), len(b.Edits), nkey)
		}
		to(t, a, kt+0.02, end)
		to(t, b, kt+0.02, end)
		for i, p := range a.Bodies() {
			q := b.Bodies()[i]
			if p.SQ() != q.SQ() || p.Mass() != q.Mass() || p.R != q.R {
				t.Fatalf("keyframe at %g s: body %s: resumed %+v m %.17g, restarted %+v m %.17g", kt, p.Name, p.SQ(), p.Mass(), q.SQ(), q.Mass())
			}
		}
		if d := diffBodies(a, b); d != "" {
			t.Fatalf("keyframe at %g s: resumed and restarted runs differ at %g s: %s", kt, kt+0.02, d)
		}
		t.Logf("keyframe at %g s (%d edits before it): resumed = restarted at %g s (%d steps)", kt, nkey, kt+0.02, b.Steps)
	}
}

// A run with two shape edits (polySQ), restarted from its state file after
// them, continues bit for bit as the uninterrupted run (tolerance 0 bits,
// 0.02 s on; ~700 pairs hold separation certificates). The certificates
// are for the edited shapes: RestoreHistory keeps them, checking them
// against the shapes after the edits are replayed (before, against the
// scene's shapes, it dropped them; here that gave the same bits too, so
// this is a regression check of the exact restart, not of that change).
func TestExactRestartAfterShapeEdits(t *testing.T) {
	const end = 1.0
	a := polySQ(t)
	if err := integrate.Start(a); err != nil {
		t.Fatal(err)
	}
	ms := a.SmoothShapes()
	m, s0 := ms[0].Material, ms[0].Shape
	to(t, a, 0.01, end)
	edit(t, a, m, sq.Shape{A: 1.1 * s0.A, B: s0.B, C: 0.9 * s0.C, N1: s0.N1, N2: s0.N2})
	to(t, a, 0.02, end)
	edit(t, a, m, sq.Shape{A: 1.1 * s0.A, B: 1.05 * s0.B, C: 0.9 * s0.C, N1: 3, N2: 5})
	to(t, a, 0.03, end)
	data, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d pairs with a separation certificate in the file", bytes.Count(data, []byte(`"sep":[`)))
	to(t, a, 0.05, end)
	f, err := Parse(data, "final.json")
	if err != nil {
		t.Fatal(err)
	}
	b := polySQ(t)
	if err := Apply(b, f, "final.json"); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(b); err != nil {
		t.Fatal(err)
	}
	to(t, b, 0.05, end)
	if d := diffBodies(a, b); d != "" {
		t.Fatalf("restart after two shape edits differs at 0.05 s: %s", d)
	}
}
