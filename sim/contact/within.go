package contact

// AnyWithin reports whether some feature pair of a and b lies within d:
// whether Build(a, b, d, 0, s) would list any feature pair (Empty false)
// by its listing's tests alone (Build may also prove the lists empty at
// once, apartAlongCentres, where the vertex–face band test would list a
// pair farther than d).
// It runs Build's listings (the same tests on the same near sets) but each
// stops at its first pair, cheapest first, and nothing is kept: a
// certificate that no point of one surface is within d of the other (a
// pair's separation) without building lists that are thrown away.
func AnyWithin(a, b *Posed, d float64, s *Scratch) bool {
	g := d + 0 // Build's ḡ + margin with margin 0
	na, nb, ok := nearPair(a, b, g, s)
	if !ok {
		return false
	}
	hit := s.hit[:0]
	hit = listVV(a, b, na, nb, g, true, hit)
	if len(hit) == 0 {
		hit = listVF(a, b, na, nb.faces, nb.fbox, g, false, true, hit)
	}
	if len(hit) == 0 {
		hit = listVF(b, a, nb, na.faces, na.fbox, g, true, true, hit)
	}
	if len(hit) == 0 {
		hit = listVE(a, b, na, nb.edges, nb.ebox, g, false, true, hit)
	}
	if len(hit) == 0 {
		hit = listVE(b, a, nb, na.edges, na.ebox, g, true, true, hit)
	}
	if len(hit) == 0 {
		s.hitD = s.hitD[:0]
		listEE(a, b, na, nb, g, true, &hit, &s.hitD)
	}
	s.hit = hit // its room, for the next call
	return len(hit) > 0
}
