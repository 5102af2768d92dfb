package world

// The largest |coordinate| of the list's reference (maxAbsRef: the
// displacement bound's rounding and the inner list's watch read it once a
// build) in the rebuild's own fork–join when it splits (rebuildParts: its
// nChunks ranges as items after the candidates'), rather than in a
// fork–join of its own at the next read — Session 25: a fork–join fewer a
// build (45 of ≈ 1 600 in the 10⁵ box's 534 steps), each a wake-up of the
// other worker. The ranges are maxAbsRef's and joined as it joins them, so
// the value is the one maxAbsRef would give (a maximum: the same in any
// order; a NaN in a range makes every order's NaN), and it is taken for
// the current build only (xmaxB), as maxAbsRef's is.

// refMaxPart is range c of the reference s.disp.ref (maxAbsRef's xmaxJob).
func (s *Spheres) refMaxPart(c int) {
	d := &s.disp
	n := len(d.ref)
	d.xmaxPart[c] = maxAbsCoord(d.ref[c*n/nChunks : (c+1)*n/nChunks])
}

// refMaxJoin joins the ranges as maxAbsRef does and keeps the value for
// the build just made.
func (s *Spheres) refMaxJoin() {
	d := &s.disp
	d.ref = nil
	m := 0.0
	for _, x := range d.xmaxPart {
		m = max(m, x)
	}
	d.xmax, d.xmaxB, d.xmaxOK = m, s.w.verlet.Builds(), true
	s.rb.refMaxFolds++
}
