package world

// Lazy energies: the sphere path's kinetic and gravitational energies
// (Stats.Kinetic, Stats.PotentialGravity) summed when they are read rather
// than at every Accept. Under the rotational skip (lazy bodies, nothing
// turns) the accept kick sums them in its loop (AcceptSphere: 13 of
// kick1SSE2's 42 instructions a sphere), yet a caller such as grainlab
// bench reads them only after its last step. With lazy energies on, such an
// Accept leaves them stale and energies() sums them later from the
// accepted state — the same operations on the same values in the same
// order as finish would have done (AcceptSphere's per sphere in sphere
// order; from passMin spheres on, nChunks ranges from zero, then the
// ranges in order), so the same bits: the accepted state does not change
// between the Accept and the read (the next Drift writes the other array,
// and whatever changes the world first syncs the bodies, which sums them).

// SetLazyEnergies turns lazy energies on or off (off by default): while on,
// a sphere Accept under the rotational skip may leave Stats' Kinetic and
// PotentialGravity stale, and a caller that reads them must call
// SyncBodies first (which sums them: the same bits as an eager Accept).
// Turning it off sums them. Only with lazy bodies (SetLazyBodies) does it
// change anything.
func (w *World) SetLazyEnergies(on bool) {
	if w.sph == nil {
		if !on {
			return
		}
		w.sph = &Spheres{w: w}
	}
	if !on {
		w.sph.fillEnergies()
	}
	w.sph.lazyE = on
}

// fillEnergies writes the accepted state's energies to Stats if they are
// stale (an Accept under lazy energies).
func (s *Spheres) fillEnergies() {
	if !s.eStale {
		return
	}
	s.eStale = false
	st := &s.w.Stats
	st.Kinetic, st.PotentialGravity = s.energies()
}

// energies is the kinetic energy and the gravitational energy of the
// accepted state of spheres that neither turn nor carry a moment, summed
// as finish sums them (its chunks from passMin spheres on).
func (s *Spheres) energies() (ekin, egrav float64) {
	n := len(s.idx)
	if n < passMin {
		return s.energyRange(0, n)
	}
	for c := range nChunks {
		k, g := s.energyRange(c*n/nChunks, (c+1)*n/nChunks)
		ekin += k
		egrav += g
	}
	return ekin, egrav
}

// energyRange is finishRange's sums under the rotational skip over spheres
// lo…hi−1 of the accepted state: AcceptSphere's terms from zero in sphere
// order.
func (s *Spheres) energyRange(lo, hi int) (ekin, egrav float64) {
	L, spec := s.accepted().L[lo:hi], s.spec[lo:hi]
	g := s.w.Gravity
	cur, m := int32(-1), 0.0
	for i, sp := range spec {
		if sp != cur {
			cur, m = sp, s.specs[sp].mass
		}
		ekin, egrav, _ = AcceptSphere(&L[i], m, g, ekin, egrav)
	}
	return ekin, egrav
}
