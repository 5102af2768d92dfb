package ui

import (
	"strings"
	"testing"
	"time"

	"grainlab/render"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// TestWallForceText: a disabled wall shows no force even when the snapshot
// still carries its last one; an enabled loaded wall shows it.
func TestWallForceText(t *testing.T) {
	w := snap.Wall{Name: "left", Enabled: true, Force: geom.V(3, 4, 0)}
	if got := WallForceText(&w); got != "F="+FormatSI(5, "N") {
		t.Fatalf("enabled: %q", got)
	}
	w.Enabled = false
	if got := WallForceText(&w); got != "" {
		t.Fatalf("disabled wall shows %q", got)
	}
	w.Enabled, w.Force = true, geom.Vec3{}
	if got := WallForceText(&w); got != "" {
		t.Fatalf("unloaded wall shows %q", got)
	}
}

// TestPassTimes: one line per pass that took time, and the total.
func TestPassTimes(t *testing.T) {
	var st render.FrameStats
	st.Pass[render.PassBodies] = 3 * time.Millisecond
	st.Pass[render.PassChains] = 500 * time.Microsecond
	got := PassTimes(st)
	lines := strings.Split(got, "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "bodies") || !strings.HasPrefix(lines[1], "chains") ||
		!strings.Contains(lines[2], "3.50") {
		t.Fatalf("pass times:\n%s", got)
	}
}
