package ui

import (
	"math"

	"grainlab/sim/snap"
)

// History keeps the recent kinetic energy, contact count, Δt and the
// integrator's iteration counts for the Stats and Integrator plots plus a
// smoothed real-time factor.
type History struct {
	Kinetic, Contacts, Dt *Ring
	Newton, Linear        *Ring   // Newton and linear-solver iterations of the sampled step
	Times                 *Ring   // simulated time of each sample (s), for the time-bar cursor
	Interval              float64 // minimum wall time between samples (s)

	RTF float64 // simulated seconds per wall second, NaN until known

	scene               string
	lastStep            int64
	lastSample          float64
	rtfWall, rtfSim     float64
	haveRTF, haveSample bool
}

// NewHistory keeps n samples taken at most every interval seconds.
func NewHistory(n int, interval float64) *History {
	return &History{Kinetic: NewRing(n), Contacts: NewRing(n), Dt: NewRing(n), Newton: NewRing(n), Linear: NewRing(n), Times: NewRing(n),
		Interval: interval, RTF: math.NaN()}
}

// Reset clears every sample.
func (h *History) Reset() {
	h.Kinetic.Reset()
	h.Contacts.Reset()
	h.Dt.Reset()
	h.Newton.Reset()
	h.Linear.Reset()
	h.Times.Reset()
	h.RTF = math.NaN()
	h.haveRTF, h.haveSample = false, false
}

// Observe records s at wall time now (s) when the simulation advanced and the
// sampling interval has passed; a new scene or a step going back resets it.
func (h *History) Observe(s *snap.Snapshot, now float64) {
	if s == nil {
		return
	}
	st := &s.Stats
	if s.Scene != h.scene || (h.haveSample && st.Step < h.lastStep) {
		h.scene = s.Scene
		h.Reset()
	}
	if h.haveSample && (st.Step == h.lastStep || now-h.lastSample < h.Interval-1e-9) {
		if st.Step == h.lastStep && h.haveRTF && now-h.rtfWall > 1 {
			h.RTF = 0 // paused
		}
		return
	}
	h.Kinetic.Push(float32(st.Kinetic))
	h.Contacts.Push(float32(st.Contacts))
	h.Dt.Push(float32(st.Dt))
	h.Newton.Push(float32(st.NewtonIters))
	h.Linear.Push(float32(st.LinearIters))
	h.Times.Push(float32(st.Time))
	h.lastStep, h.lastSample, h.haveSample = st.Step, now, true
	if !h.haveRTF {
		h.rtfWall, h.rtfSim, h.haveRTF = now, st.Time, true
		return
	}
	if dw := now - h.rtfWall; dw >= 0.5 {
		r := (st.Time - h.rtfSim) / dw
		if math.IsNaN(h.RTF) || h.RTF == 0 {
			h.RTF = r
		} else {
			h.RTF = 0.5*h.RTF + 0.5*r
		}
		h.rtfWall, h.rtfSim = now, st.Time
	}
}

// CursorFraction returns where time t falls among the samples, from 0 (the
// oldest) to 1 (the newest), and false when t is outside them.
func (h *History) CursorFraction(t float64) (float64, bool) {
	n := h.Times.Len()
	if n < 2 {
		return 0, false
	}
	ts := h.Times.Values(nil)
	if t < float64(ts[0]) || t > float64(ts[n-1]) {
		return 0, false
	}
	j := 0
	for j+1 < n && float64(ts[j+1]) <= t {
		j++
	}
	return float64(j) / float64(n-1), true
}
