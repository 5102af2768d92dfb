package app

import (
	"io"
	"path/filepath"
	"testing"

	"grainlab/sim/world"
)

// A 5000-sphere box's outputs — the ParaView series (--vtk), the
// recording (--record: frames and keyframes), the audits (--audit), and
// contacts.csv at every row (926 to 4051 contacts) — and a restart from its
// final.json (--restart: the bodies by name, the contact history, the list
// in spatial order) never make the sphere generator's records: they read
// the spheres through NumBodies, EachBody, BodyRec and BodyName, and a
// restart writes their state into the block (World.SetBodyState;
// sim/world/sphere_block.go, sphere_block_restore.go). Each driver made
// them once before (Snapshot, deepSmoothOverlaps, ContactsWriter,
// ApplyNotes and RestoreHistory read Bodies()).
func TestSphereBlockOutputsNoRecords(t *testing.T) {
	sets := []string{"generators[0].count=5000", "generators[0].region.max=[0.0361,0.0361,0.0722]",
		"walls[0].max=[0.0361,0.0361,0.0722]", "output.every=0.01", "output.contacts=every"}
	dir := filepath.Join(t.TempDir(), "out")
	steps := []struct {
		what string
		o    Options
		c    RunConfig
	}{
		{"contacts.csv", Options{Time: 0.03}, RunConfig{}},
		{"--vtk", Options{Time: 0.03}, RunConfig{VTK: true}},
		{"--record", Options{Time: 0.03}, RunConfig{Record: filepath.Join(t.TempDir(), "rec.glrec")}},
		{"--audit", Options{Time: 0.03}, RunConfig{Audit: 0.005}},
		{"--restart", Options{Time: 0.04, Restart: filepath.Join(dir, FinalFile)}, RunConfig{}},
	}
	for _, st := range steps {
		m0 := world.Materializations()
		o := st.o
		o.Scene, o.Sets, o.Workers = "sphere-box-soft", sets, 1
		c := st.c
		c.Dir, c.Quiet = dir, true
		if st.what == "--restart" {
			c.Dir = filepath.Join(t.TempDir(), "out2")
		}
		if code := Run(o, c, io.Discard); code != 0 {
			t.Fatalf("run %s: exit %d", st.what, code)
		}
		if n := world.Materializations() - m0; n != 0 {
			t.Errorf("run %s made the block's records %d times, want 0", st.what, n)
		}
	}
}
