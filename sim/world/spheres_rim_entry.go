package world

import "sync"

// Rim entries made under a lock (issue #16, memory per sphere;
// docs/performance.md, "Session 26: memory at 10⁶").
//
// A sphere's contact with a wall's rim (edges and corners, Spheres.rim)
// keeps its history in the generic wall-pair entry of the wall and the
// sphere's body (World.wallEntry), whose table (World.wallPair: one
// pointer a body and wall) is made with the first entry. A split
// evaluation used to size the whole table before its parts ran, so that
// parts making entries at once never made the table itself: 38 MB at 10⁶
// spheres and 5 walls, made while stepping, for a box whose spheres reach
// no rim. Now the parts make their entries under one lock (rimEntry): the
// first sizes the table, each writes its own sphere's element, and a world
// that makes none makes no table. The entries are the same (one per wall
// and body, found or made), whatever the order of the parts.

// rimLock serializes the rim entries of a split evaluation's parts.
type rimLock struct{ mu sync.Mutex }

// rimEntry returns the generic pair entry of wall wi and body i, made (and
// the table with it) when missing, under the lock: parts of a split
// evaluation may call it at once.
func (s *Spheres) rimEntry(wi, i int) *pairEntry {
	s.rb.rim.mu.Lock()
	defer s.rb.rim.mu.Unlock()
	return s.w.wallEntry(wi, i)
}
