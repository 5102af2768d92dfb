package app

import (
	"io"
	"path/filepath"
	"testing"

	"grainlab/sim/world"
)

// The 20 000-sphere box under `grainlab bench`'s and `grainlab run`'s
// drivers (a checkpoint and every output of the run included) never makes
// the sphere generator's records: the spheres stay a block
// (sim/world/sphere_block.go), read through NumBodies, EachBody and BodyRec.
func TestSphereBlockBenchRunNoRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("20 000 spheres")
	}
	o := Options{Scene: "sphere-box-soft", Sets: []string{"generators[0].count=20000"}, Workers: 1}
	m0 := world.Materializations()
	bo := o
	bo.Duration = 0.005
	if _, err := bench(bo, nil, ""); err != nil {
		t.Fatal(err)
	}
	if n := world.Materializations() - m0; n != 0 {
		t.Fatalf("bench made the block's records %d times, want 0", n)
	}
	for _, wk := range []int{1, 2} {
		ro := o
		ro.Time, ro.Workers = 0.005, wk
		dir := filepath.Join(t.TempDir(), "out")
		if code := Run(ro, RunConfig{Dir: dir, Quiet: true, Checkpoint: 0.002}, io.Discard); code != 0 {
			t.Fatalf("run: exit %d", code)
		}
		if n := world.Materializations() - m0; n != 0 {
			t.Fatalf("run (%d workers) made the block's records %d times, want 0", wk, n)
		}
	}
}
