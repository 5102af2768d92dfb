package world

// ReviewRimTouches returns how many wall slots touch a wall's rim at the
// last evaluation (review rv4's tests).
func ReviewRimTouches(w *World) (n int) {
	s := w.Spheres()
	for i := range s.slots {
		if s.slots[i].rim && s.slots[i].touch {
			n++
		}
	}
	return n
}

// ReviewPartShapes reports, for the current list's split into parts, how
// many parts own no sphere and whether a chunk lies wholly inside an
// earlier part's rows (a sphere's rows longer than a chunk: HookePart's
// e1 < lo case).
func ReviewPartShapes(w *World) (empty int, chunkInHead bool) {
	s := w.Spheres()
	for q := range nChunks {
		if s.parts[q] == s.parts[q+1] {
			empty++
		}
		if s.chunk[q+1] < s.partAt[q] {
			chunkInHead = true
		}
	}
	return empty, chunkInHead
}
