package world

import (
	"fmt"
	"math/rand"
	"slices"
	"sync"
	"testing"

	"grainlab/sim/sphere"
)

// oldListForSort returns a shuffled old list of n spheres: pairs with
// distinct keys, each oriented either way, rows of a few pairs and, when
// long, every 16th sphere with a row of 40 (sortOldRows' sort of rows over
// 32), with random last touches and fresh flags.
func oldListForSort(rng *rand.Rand, n int, long bool) (P []sphere.Pair, touch, fresh []bool) {
	seen := map[[2]int32]bool{}
	add := func(a, b int32) {
		if a == b {
			return
		}
		k := [2]int32{min(a, b), max(a, b)}
		if seen[k] {
			return
		}
		seen[k] = true
		if rng.Intn(2) == 0 {
			a, b = b, a
		}
		P = append(P, sphere.Pair{I: a, J: b})
	}
	for i := range n {
		for range rng.Intn(5) {
			add(int32(i), int32(rng.Intn(n)))
		}
		if long && i%16 == 3 {
			for range 40 {
				add(int32(i), int32(rng.Intn(n)))
			}
		}
	}
	rng.Shuffle(len(P), func(x, y int) { P[x], P[y] = P[y], P[x] })
	touch, fresh = make([]bool, len(P)), make([]bool, len(P))
	for q := range P {
		touch[q], fresh[q] = rng.Intn(2) == 0, rng.Intn(3) == 0
	}
	return P, touch, fresh
}

// TestSortOldSplitSameAsSerial: the split sortOld (its passes' items run
// in random order, at once on goroutines: `go test -race`) writes the
// arrays sortOldSerial writes — pairs, touches, fresh flags and old
// indices — on shuffled lists of 0, 1, 2, 3, odd and larger numbers of
// spheres (ranges of 0 and 1 pair, rows of 0, 1 and 40 pairs), and both
// are in (lower, higher) order with the pairs' own touches and flags.
// It fails with the prefix laid out range by range instead of row by
// row, with a range scattered from another's cursors, or with the rows
// sorted from the wrong start.
func TestSortOldSplitSameAsSerial(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	fork := shuffledFork(rng)
	cases := 0
	for _, n := range []int{0, 1, 2, 3, 5, 17, 33, 257, 1001, 4099} {
		for _, long := range []bool{false, true} {
			for _, withOrd := range []bool{false, true} {
				P, touch, fresh := oldListForSort(rng, n, long)
				if n == 2 && long {
					P, touch, fresh = P[:min(len(P), 1)], touch[:min(len(P), 1)], fresh[:min(len(P), 1)]
				}
				name := fmt.Sprintf("n=%d,pairs=%d,long=%v,ord=%v", n, len(P), long, withOrd)
				np := len(P)
				mk := func() ([]sphere.Pair, []bool, []bool, []int32) {
					var ord []int32
					if withOrd {
						ord = make([]int32, np)
					}
					return make([]sphere.Pair, np), make([]bool, np), make([]bool, np), ord
				}
				sP, sT, sF, sO := mk()
				sortOldSerial(make([]int32, n+1), P, touch, fresh, sP, sT, sF, sO)
				pP, pT, pF, pO := mk()
				o := oldSort{P: P, touch: touch, fresh: fresh, P2: pP, T2: pT, F2: pF, ord: pO,
					cnt: make([]int32, sortOldParts*n), n: n}
				o.job = func(_, lo, hi int) {
					for j := lo; j < hi; j++ {
						o.item(j)
					}
				}
				o.run(fork)
				if !slices.Equal(sP, pP) || !slices.Equal(sT, pT) || !slices.Equal(sF, pF) || !slices.Equal(sO, pO) {
					t.Fatalf("%s: the split sort differs from the serial one", name)
				}
				for x := range pP {
					if x > 0 && oldKey(pP[x-1]) >= oldKey(pP[x]) {
						t.Fatalf("%s: pairs %d, %d out of order", name, x-1, x)
					}
				}
				if withOrd {
					for x, q := range pO {
						if P[q] != pP[x] || touch[q] != pT[x] || fresh[q] != pF[x] {
							t.Fatalf("%s: slot %d is not old pair %d", name, x, q)
						}
					}
				}
				cases++
			}
		}
	}
	t.Logf("%d lists", cases)
}

// shuffledFork is a fork for the split passes' tests: each item of the
// pass on a goroutine of its own, started in random order, all at once
// (`go test -race`), as worker j%2.
func shuffledFork(rng *rand.Rand) func(n int, job func(worker, lo, hi int)) {
	return func(n int, job func(worker, lo, hi int)) {
		var wg sync.WaitGroup
		for _, j := range rng.Perm(n) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				job(j%2, j, j+1)
			}()
		}
		wg.Wait()
	}
}
