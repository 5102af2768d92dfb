package world

import "grainlab/sim/geom"

// SetBroadInPlacing turns the broad phase's per-body part in placeBodies'
// pass on (the default) or off (bodyPairs and wallPairs gather, test and
// loop serially, as before it).
func (w *World) SetBroadInPlacing(on bool) { w.broadFns().off = !on }

// CandidateList returns the candidate pairs of the last detection, in
// order: bodies and periodic shift.
func (w *World) CandidateList() []CandidateForTest {
	out := make([]CandidateForTest, len(w.pairs))
	for i, e := range w.pairs {
		out[i] = CandidateForTest{e.A, e.B, e.Shift}
	}
	return out
}

// CandidateForTest is one candidate pair of CandidateList.
type CandidateForTest struct {
	A, B  int32
	Shift geom.Vec3
}
