package vtk

import (
	"path/filepath"
	"strings"
	"testing"

	"grainlab/sim/snap"
)

// r7: an empty spheres piece (before the spheres appear, or a frame whose
// spheres are gone) carries the same point arrays as the others, with no
// tuples (VTK's reader: GetArray("radius") is not nil in any piece).
func TestR7EmptySpheresPieceHasArrays(t *testing.T) {
	f := mixed()
	none := *f
	none.Bodies = append([]snap.Body(nil), f.Bodies...)
	for i := range none.Bodies {
		if none.Bodies[i].Mesh == 1 || none.Bodies[i].Mesh == 3 {
			none.Bodies[i].Mesh = 0
		}
	}
	a, b, c, e := none, snap.Snapshot{}, *f, none
	a.Stats.Time, b.Stats.Time, c.Stats.Time, e.Stats.Time = 1, 2, 3, 4
	dir := write(t, Options{}, &a, &b, &c, &e)
	want := decode(t, filepath.Join(dir, frameName("spheres", 2)))
	for k := range 4 {
		v := decode(t, filepath.Join(dir, frameName("spheres", k)))
		for _, name := range want.Order {
			if !strings.HasPrefix(name, "PointData/") {
				continue
			}
			if _, ok := v.Arrays[name]; !ok {
				t.Errorf("spheres frame %d (%d points): no %s", k, v.Points, name)
			}
		}
	}
}
