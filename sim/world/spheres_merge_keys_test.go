package world

import (
	"math"
	"math/bits"
	"math/rand"
	"testing"

	"grainlab/sim/sphere"
)

// TestPairWordsKey: the merge's key of an old pair from its word
// (pairWords: the smaller of the word and its halves swapped) is oldKey's
// pairKey64(min, max) for pairs of either orientation, spheres from 0 to
// the largest int32.
func TestPairWordsKey(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	P := []sphere.Pair{{I: 0, J: 1}, {I: 1, J: 0}, {I: math.MaxInt32, J: 0}, {I: 7, J: math.MaxInt32}, {I: math.MaxInt32 - 1, J: math.MaxInt32}}
	for range 10000 {
		a, b := rng.Int31(), rng.Int31n(1000)
		P = append(P, sphere.Pair{I: a, J: b}, sphere.Pair{I: b, J: a})
	}
	w := pairWords(P)
	if len(w) != len(P) || pairWords(nil) != nil {
		t.Fatal("pairWords: not one word a pair")
	}
	for k, x := range w {
		if got, want := min(x, bits.RotateLeft64(x, 32)), oldKey(P[k]); got != want {
			t.Fatalf("pair %v: key %#x from its word, oldKey %#x", P[k], got, want)
		}
	}
}
