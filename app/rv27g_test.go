package app

import (
	"os"
	"path/filepath"
	"testing"
)

// r7: decide judges the stop row by its 10-digit time, not by t0 itself: a
// SIGINT stop at t0 = 0.029999999997 (a step end 3e-12 before the output
// time 0.03, so an uninterrupted run writes no row there) reads as "0.03",
// is judged on the grid and kept; the resumed run then writes the grid row
// at its next step end too (nextTime(t0) = 0.03): one extra row.
func TestRV27gDecideUsesT0(t *testing.T) {
	dir := t.TempDir()
	t0 := 0.029999999997
	os.WriteFile(filepath.Join(dir, SeriesFile), []byte("t,dt\n0,1\n0.01,1\n0.02,1\n"+g(t0)+",1\n"), 0o644)
	p, err := planResume(dir, []string{"t", "dt"}, t0, false)
	if err != nil {
		t.Fatal(err)
	}
	p.decide(0.01)
	if t0 >= nextTime(0.02, 0.01)-1e-12 {
		t.Fatal("t0 is on the grid: the case is wrong")
	}
	if !p.dropT0 {
		t.Errorf("the stop row at t0=%v (written %q, off the grid: the grid time is %v) is kept", t0, g(t0), nextTime(0.02, 0.01))
	}
}
