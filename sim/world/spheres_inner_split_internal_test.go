package world

import (
	"math/rand"
	"testing"
)

// TestRelTopMerge: relTop lists of consecutive ranges merged in range
// order (relJob.marks) are the serial list of the whole sequence, indices
// included, on values with many ties and zeros (the ties decide which
// index a list keeps). It fails with the parts merged in reverse order.
func TestRelTopMerge(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	for trial := range 2000 {
		n := 1 + rng.Intn(60)
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.Intn(5)) // 0 is "none" below every entry
		}
		var want relTop
		for i, e := range v {
			if e > want.v[relTopN-1] {
				want.add(e, i)
			}
		}
		cuts := []int{0}
		for c := 0; c < n; {
			c = min(n, c+rng.Intn(12))
			cuts = append(cuts, c)
		}
		cuts = append(cuts, n)
		var got relTop
		for k := 0; k+1 < len(cuts); k++ {
			var part relTop
			for i := cuts[k]; i < cuts[k+1]; i++ {
				if v[i] > part.v[relTopN-1] {
					part.add(v[i], i)
				}
			}
			got.merge(&part)
		}
		if got != want {
			t.Fatalf("trial %d: merged %v, serial %v", trial, got, want)
		}
	}
}
