package world

import "fmt"

// RebuildPairsReordered rebuilds the sphere list of w with rebuildPairs
// from its own pairs as candidates, as after a renumbering (reordered), and
// returns the old list's length, the new list's and the panic it raised, if any (review r3 of session 17: rebuildPairs sorted the old list after handing its fresh flags over).
func RebuildPairsReordered(w *World) (np, got int, err error) {
	s := w.Spheres()
	l := &s.lists[s.cur]
	np = len(l.P)
	cand := make([][2]int32, 0, np)
	for _, p := range l.P {
		cand = append(cand, [2]int32{min(p.I, p.J), max(p.I, p.J)})
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	s.rebuildPairs(cand, true)
	return np, len(s.lists[s.cur].P), nil
}
