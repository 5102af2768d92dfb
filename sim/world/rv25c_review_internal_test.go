package world

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// Review r3 (s25): oldSort.split itself (the merge's entry: its counts in
// room through rowEnds, or a made array when room is short) on the crew
// of 2 and 3 workers gives sortOldSerial's arrays, and in-room it writes
// no float of room beyond the 2n counts' n floats.
func TestReviewR3SortOldSplitRoom(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, workers := range []int{2, 3} {
		for _, n := range []int{1, 2, 17, 1001, 4099} {
			for _, short := range []bool{false, true} {
				for _, withOrd := range []bool{false, true} {
					P, touch, fresh := oldListForSort(rng, n, n > 100)
					np := len(P)
					mk := func() ([]float64, []bool, []bool, []int32) {
						var ord []int32
						if withOrd {
							ord = make([]int32, np)
						}
						return make([]float64, np+n+8), make([]bool, np), make([]bool, np), ord
					}
					sFb, sT, sF, sO := mk()
					sP := pairsOf(sFb)[:np]
					sortOldSerial(make([]int32, n+1), P, touch, fresh, sP, sT, sF, sO)
					fb, pT, pF, pO := mk()
					pP := pairsOf(fb)[:np]
					sentinel := math.Float64frombits(0x7ff8dead_beef0001)
					for i := range fb[np:] {
						fb[np+i] = sentinel
					}
					room := fb[np : np+n+8]
					if short {
						room = room[:n-1] // 2(n−1) < 2n int32: a made array
					}
					s := &Spheres{w: &World{}}
					s.w.Settings.Workers = workers
					s.idx = make([]int32, n) // the spheres (split counts them by idx)
					s.rb.so.split(s, room, P, touch, fresh, pP, pT, pF, pO)
					if !slices.Equal(sP, pP) || !slices.Equal(sT, pT) || !slices.Equal(sF, pF) || !slices.Equal(sO, pO) {
						t.Fatalf("workers %d n %d short %v ord %v: the split sort differs from the serial one", workers, n, short, withOrd)
					}
					for i, v := range fb[np+n:] {
						if math.Float64bits(v) != math.Float64bits(sentinel) {
							t.Fatalf("workers %d n %d: room float %d beyond the counts written", workers, n, n+i)
						}
					}
					if short {
						for i, v := range fb[np:] {
							if math.Float64bits(v) != math.Float64bits(sentinel) {
								t.Fatalf("workers %d n %d: short room written at %d", workers, n, i)
							}
						}
					}
				}
			}
		}
	}
}
