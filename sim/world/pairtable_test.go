package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/geom"
)

// TestPairTableAsMap: a rebuild through pairTable keeps the entries and
// the order that bodyPairs' two Go maps gave (the old entries by pairKey, a
// later one replacing an earlier; the keys met), over random rebuilds with
// repeated keys, shifts of both zeros' signs, and NaN shifts (never equal to
// anything), and across rebuilds of growing and shrinking sizes.
func TestPairTableAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 2))
	shifts := []float64{0, math.Copysign(0, -1), 0.05, -0.05, math.NaN()}
	var tab pairTable
	var old []*pairEntry
	for round := range 60 {
		n := 1 + rng.IntN(40*(1+round%7))
		type cand struct {
			a, b   int32
			sx, sy float64
		}
		cands := make([]cand, n)
		for k := range cands {
			cands[k] = cand{int32(rng.IntN(12)), int32(rng.IntN(12)), shifts[rng.IntN(len(shifts))], shifts[rng.IntN(len(shifts))]}
		}
		// The reference: the maps of bodyPairs before session 18.
		mold, seen := map[pairKey]*pairEntry{}, map[pairKey]bool{}
		for _, e := range old {
			mold[pairKey{e.A, e.B, e.Shift.X, e.Shift.Y}] = e
		}
		var want []*pairEntry
		made := map[int]*pairEntry{}
		for k, c := range cands {
			key := pairKey{c.a, c.b, c.sx, c.sy}
			if seen[key] {
				continue
			}
			seen[key] = true
			e := mold[key]
			if e == nil {
				e = &pairEntry{A: c.a, B: c.b, Shift: geom.Vec3{X: c.sx, Y: c.sy}}
				made[k] = e
			}
			want = append(want, e)
		}
		// The table, handing out the same new entries.
		tab.reset(len(old) + len(cands))
		for _, e := range old {
			tab.find(e.A, e.B, e.Shift.X, e.Shift.Y).e = e
		}
		var got []*pairEntry
		for k, c := range cands {
			s := tab.find(c.a, c.b, c.sx, c.sy)
			if s.seen {
				continue
			}
			s.seen = true
			if s.e == nil {
				s.e = made[k]
				if s.e == nil {
					t.Fatalf("round %d: candidate %d (%v) is new to the table, not to the maps", round, k, c)
				}
			}
			got = append(got, s.e)
		}
		tab.done()
		if len(got) != len(want) {
			t.Fatalf("round %d: %d pairs, want %d", round, len(got), len(want))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("round %d: pair %d is entry %p (%v), want %p (%v)", round, k, got[k], *got[k], want[k], *want[k])
			}
		}
		for k := range tab.slot[:cap(tab.slot)] {
			if s := tab.slot[:cap(tab.slot)][k]; s.e != nil || s.seen {
				t.Fatalf("round %d: slot %d not emptied", round, k)
			}
		}
		old = got
	}
}
