package ui

import (
	"math"
	"time"

	"grainlab/sim/snap"
)

// History keeps the recent statistics for the panel's plots (energies,
// contacts, wall reactions, Δt, iterations, stage timings; plots.go), a
// smoothed real-time factor and the steps/s rate over the last wall second.
type History struct {
	Kinetic, Contacts, Dt *Ring
	Gravity, ContactE     *Ring // gravity and contact (+ bond) potential energy (J)
	Total                 *Ring // Kinetic + Gravity + ContactE (world.Stats.Total)
	Kinds                 [snap.NumContactKinds]*Ring
	// Walls holds |F| of each wall's reaction (0 while disabled), named by
	// WallNames; rebuilt when the number of walls changes.
	Walls     []*Ring
	WallNames []string
	// Stages is the wall time per step of each stage (s, snap.StageNames)
	// between two samples.
	Stages         [snap.NumStages]*Ring
	Newton, Linear *Ring   // Newton and linear-solver iterations of the sampled step
	Times          *Ring   // simulated time of each sample (s), for the time-bar cursor
	Interval       float64 // minimum wall time between samples (s)

	RTF  float64   // simulated seconds per wall second, NaN until known
	Rate RateMeter // steps per wall second over the last second

	scene               string
	lastStep            int64
	lastSample          float64
	lastStages          [snap.NumStages]time.Duration
	rtfWall, rtfSim     float64
	haveRTF, haveSample bool
}

// NewHistory keeps n samples taken at most every interval seconds.
func NewHistory(n int, interval float64) *History {
	h := &History{Kinetic: NewRing(n), Contacts: NewRing(n), Dt: NewRing(n), Newton: NewRing(n), Linear: NewRing(n), Times: NewRing(n),
		Gravity: NewRing(n), ContactE: NewRing(n), Total: NewRing(n),
		Interval: interval, RTF: math.NaN()}
	for k := range h.Kinds {
		h.Kinds[k] = NewRing(n)
	}
	for k := range h.Stages {
		h.Stages[k] = NewRing(n)
	}
	return h
}

// rings returns every per-sample ring (not Walls).
func (h *History) rings() []*Ring {
	rs := []*Ring{h.Kinetic, h.Contacts, h.Dt, h.Newton, h.Linear, h.Times, h.Gravity, h.ContactE, h.Total}
	rs = append(rs, h.Kinds[:]...)
	return append(rs, h.Stages[:]...)
}

// Reset clears every sample.
func (h *History) Reset() {
	for _, r := range h.rings() {
		r.Reset()
	}
	h.Walls, h.WallNames = nil, nil
	h.Rate.Reset()
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
	h.Rate.Add(now, st.Step)
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
	h.Gravity.Push(float32(st.PotentialGravity))
	h.ContactE.Push(float32(st.PotentialContact))
	h.Total.Push(float32(st.Kinetic + st.PotentialGravity + st.PotentialContact))
	for k := range h.Kinds {
		h.Kinds[k].Push(float32(st.ByKind[k]))
	}
	for k := range h.Stages {
		per := 0.0
		if n := st.Step - h.lastStep; h.haveSample && n > 0 && st.Stages[k] >= h.lastStages[k] {
			per = (st.Stages[k] - h.lastStages[k]).Seconds() / float64(n)
		}
		h.Stages[k].Push(float32(per))
	}
	h.lastStages = st.Stages
	h.observeWalls(s)
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
	j, ok := h.CursorIndex(t)
	if !ok {
		return 0, false
	}
	return float64(j) / float64(h.Times.Len()-1), true
}

// CursorIndex returns the index (0 = the oldest) of the last sample taken
// at or before time t, and false when t is outside the samples (or there
// are fewer than two): the sample the plots' legends read at the cursor.
func (h *History) CursorIndex(t float64) (int, bool) {
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
	return j, true
}

// observeWalls pushes each wall's reaction |F| (0 while disabled), starting
// the wall series afresh when the walls change.
func (h *History) observeWalls(s *snap.Snapshot) {
	same := len(h.Walls) == len(s.Walls)
	for i := 0; same && i < len(s.Walls); i++ {
		same = h.WallNames[i] == s.Walls[i].Name
	}
	if !same {
		h.Walls, h.WallNames = make([]*Ring, len(s.Walls)), make([]string, len(s.Walls))
		for i := range s.Walls {
			h.Walls[i], h.WallNames[i] = NewRing(h.Kinetic.Cap()), s.Walls[i].Name
			for j := 1; j < h.Kinetic.Len(); j++ { // keep the series aligned with the others
				h.Walls[i].Push(float32(math.NaN()))
			}
		}
	}
	for i := range s.Walls {
		f := 0.0
		if s.Walls[i].Enabled {
			f = s.Walls[i].Force.Norm()
		}
		h.Walls[i].Push(float32(f))
	}
}
