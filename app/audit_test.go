package app

import (
	"math/rand"
	"strconv"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// The grid search of sphere overlaps finds exactly the pairs an all-pairs
// test finds (same pairs, same depths to the bit), for radii from 0.2 to 1
// (cells set by the largest) in a cloud dense enough for hundreds of
// overlaps, with negative coordinates and spheres exactly on cell faces.
func TestSphereOverlapsMatchAllPairs(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	w := world.New("cloud")
	var idx []int
	for i := range 600 {
		x := geom.V(rng.Float64()*20-10, rng.Float64()*20-10, rng.Float64()*8-4)
		if i%50 == 0 {
			x = geom.V(2, -2, 0) // on cell faces (cell 2 m)
			x.X += float64(i/50) * 0.5
		}
		b := body.NewSphere("s"+strconv.Itoa(i), 0.2+0.8*rng.Float64(), 1000, x)
		if i == 0 {
			b.R = 1 // the largest radius sets the cell
		}
		idx = append(idx, len(w.Bodies))
		w.AddBody(b)
	}
	want := map[[2]string]float64{}
	for k, i := range idx {
		for _, j := range idx[k+1:] {
			a, b := w.Bodies[i], w.Bodies[j]
			if d := a.R + b.R - a.X.Sub(b.X).Norm(); d > 0 {
				want[[2]string{a.Name, b.Name}] = d
			}
		}
	}
	got := sphereOverlaps(w, idx)
	if len(want) < 100 {
		t.Fatalf("only %d overlaps in the cloud: the test needs a denser one", len(want))
	}
	t.Logf("%d overlaps among %d spheres", len(want), len(idx))
	if len(got) != len(want) {
		t.Errorf("%d overlaps, all pairs find %d", len(got), len(want))
	}
	for _, o := range got {
		if d, ok := want[[2]string{o.A, o.B}]; !ok || d != o.Depth || !o.Smooth {
			t.Errorf("%v: all pairs give depth %g (found %v)", o, d, ok)
		}
	}
}
