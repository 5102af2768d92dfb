package world

// DroppedWallHistories counts the wall pairs that generation w.gen does not
// list but whose accepted contact list is not empty: commit's invariant
// says none (livePairs.wallsGen).
func DroppedWallHistories(w *World) (n int) {
	for wi := range w.wallPair {
		for _, e := range w.wallPair[wi] {
			if e != nil && e.gen != w.gen && len(e.prev) > 0 {
				n++
			}
		}
	}
	return n
}
