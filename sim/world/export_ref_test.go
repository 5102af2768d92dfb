package world

// Materialize is materialize for the external tests; it reports whether
// the state was a reference (SaveRef's).
func (s *BodyStates) Materialize(w *World) bool {
	r := s.ref != nil
	s.materialize(w)
	return r
}
