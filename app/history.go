package app

// The window's in-memory history: every snapshot the simulation goroutine
// publishes is kept (snapshots are immutable, so keeping the pointer is
// enough) within a memory budget, with full-state keyframes (state.Encode)
// every KeyEvery frames and at each edit, and the markers of the time bar.
// It implements snap.Frames, so the time bar reads it like a recording.
// No GL here: the handoff is tested with -race like the SimLoop.

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"grainlab/sim/snap"
)

// DefaultKeyEvery is how many recorded frames separate two keyframes.
const DefaultKeyEvery = 30

// MarkerKind is what a time-bar marker stands for.
type MarkerKind uint8

// Marker kinds (issue 14 item 3).
const (
	MarkEvent      MarkerKind = iota // a scene event fired (walls, parameters)
	MarkWall                         // the user toggled a wall
	MarkParam                        // a contact-law, parameter or shape edit
	MarkIntegrator                   // an integrator switch
	MarkRejected                     // rejected step attempts since the previous frame
	MarkBranch                       // resumed from a past frame (the future was dropped)
	NumMarkerKinds
)

var markerNames = [...]string{"event", "wall", "edit", "integrator", "rejected", "branch"}

func (k MarkerKind) String() string {
	if int(k) < len(markerNames) {
		return markerNames[k]
	}
	return "?"
}

// Marker is one labelled instant on the time bar.
type Marker struct {
	Time  float64
	Kind  MarkerKind
	Label string
}

// Keyframe is the full state of the world at one recorded frame
// (state.Encode bytes), the start point of a branch.
type Keyframe struct {
	Time  float64
	Step  int64
	Dt    float64 // the world's current Δt (until state files carry it)
	Done  []bool  // which scene events were applied (until state files carry it)
	State []byte
}

// History is the window's record of published frames. Its methods are safe
// for concurrent use: the simulation goroutine appends, the render thread
// reads. Indices are those of the frames held now (0 is the oldest kept).
type History struct {
	mu      sync.Mutex
	budget  int64
	bytes   int64
	frames  []*snap.Snapshot
	sizes   []int64
	times   []float64
	keys    []Keyframe
	markers []Marker
	dropped int     // frames dropped because of the budget
	dropT   float64 // time of the newest dropped frame
}

// NewHistory keeps frames within budget bytes (≤ 0: DefaultHistoryBytes()).
func NewHistory(budget int64) *History {
	if budget <= 0 {
		budget = DefaultHistoryBytes()
	}
	return &History{budget: budget}
}

// DefaultHistoryBytes is the default budget: an eighth of the physical
// memory, at most 2 GiB (256 MiB when the memory size is unknown).
func DefaultHistoryBytes() int64 {
	const cap = 2 << 30
	m := physicalMemory()
	if m <= 0 {
		return 256 << 20
	}
	return min(m/8, cap)
}

// SnapshotBytes estimates the memory held by s apart from its meshes (which
// are shared between frames): the slices' backing arrays and the strings.
func SnapshotBytes(s *snap.Snapshot) int64 {
	if s == nil {
		return 0
	}
	n := int64(unsafe.Sizeof(*s))
	n += int64(cap(s.Meshes)) * int64(unsafe.Sizeof(snap.Mesh{}))
	n += int64(cap(s.Bodies)) * int64(unsafe.Sizeof(snap.Body{}))
	n += int64(cap(s.Contacts)) * int64(unsafe.Sizeof(snap.Contact{}))
	n += int64(cap(s.Walls)) * int64(unsafe.Sizeof(snap.Wall{}))
	for i := range s.Contacts {
		n += int64(len(s.Contacts[i].SuppressedBy))
	}
	return n
}

// Budget returns the memory budget in bytes.
func (h *History) Budget() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.budget
}

// SetBudget changes the memory budget (bytes > 0), dropping the oldest frames
// when the held ones exceed it.
func (h *History) SetBudget(b int64) {
	if b <= 0 {
		return
	}
	h.mu.Lock()
	h.budget = b
	h.trim()
	h.mu.Unlock()
}

// Bytes returns the estimated memory held by the frames and keyframes.
func (h *History) Bytes() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.bytes
}

// Dropped returns how many of the oldest frames were dropped to stay within
// the budget, and the time of the newest of them.
func (h *History) Dropped() (int, float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dropped, h.dropT
}

// Reset forgets everything (a new scene, a reset).
func (h *History) Reset() {
	h.mu.Lock()
	h.frames, h.sizes, h.times, h.keys, h.markers = nil, nil, nil, nil, nil
	h.bytes, h.dropped, h.dropT = 0, 0, 0
	h.mu.Unlock()
}

// Add records a published snapshot. A snapshot of the same step as the last
// one replaces it (a publication after a wall toggle or a status change).
// It reports whether a new frame was appended.
func (h *History) Add(s *snap.Snapshot) bool {
	if s == nil {
		return false
	}
	sz := SnapshotBytes(s)
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.frames); n > 0 && h.frames[n-1].Stats.Step == s.Stats.Step && h.times[n-1] == s.Stats.Time {
		h.bytes += sz - h.sizes[n-1]
		h.frames[n-1], h.sizes[n-1] = s, sz
		h.trim()
		return false
	}
	h.frames = append(h.frames, s)
	h.sizes = append(h.sizes, sz)
	h.times = append(h.times, s.Stats.Time)
	h.bytes += sz
	h.trim()
	return true
}

// AddKeyframe keeps the state bytes of the world at the time of the newest
// frame (taken on the simulation goroutine).
func (h *History) AddKeyframe(k Keyframe) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.keys); n > 0 && h.keys[n-1].Time == k.Time {
		h.bytes -= int64(len(h.keys[n-1].State))
		h.keys[n-1] = k
	} else {
		h.keys = append(h.keys, k)
	}
	h.bytes += int64(len(k.State))
	h.trim()
}

// Mark adds a marker.
func (h *History) Mark(m Marker) {
	h.mu.Lock()
	h.markers = append(h.markers, m)
	h.mu.Unlock()
}

// Markers returns a copy of the markers in time order.
func (h *History) Markers() []Marker {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := append([]Marker(nil), h.markers...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time < out[j].Time })
	return out
}

// KeyframeAt returns the newest keyframe at or before time t.
func (h *History) KeyframeAt(t float64) (Keyframe, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	i := sort.Search(len(h.keys), func(i int) bool { return h.keys[i].Time > t }) - 1
	if i < 0 {
		return Keyframe{}, false
	}
	return h.keys[i], true
}

// Truncate drops the frames and keyframes at or after time t and the
// markers after it: a branch from the frame at t, which the simulation
// publishes again.
func (h *History) Truncate(t float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := sort.Search(len(h.times), func(i int) bool { return h.times[i] >= t })
	for i := n; i < len(h.frames); i++ {
		h.bytes -= h.sizes[i]
	}
	h.frames, h.sizes, h.times = h.frames[:n], h.sizes[:n], h.times[:n]
	k := sort.Search(len(h.keys), func(i int) bool { return h.keys[i].Time >= t })
	for i := k; i < len(h.keys); i++ {
		h.bytes -= int64(len(h.keys[i].State))
	}
	h.keys = h.keys[:k]
	out := h.markers[:0]
	for _, m := range h.markers {
		if m.Time <= t {
			out = append(out, m)
		}
	}
	h.markers = out
}

// trim drops the oldest frames (and keyframes before the oldest kept frame
// but the one it needs) until the history fits its budget; the newest frame
// always stays. Called with h.mu held.
func (h *History) trim() {
	for h.bytes > h.budget && len(h.frames) > 1 {
		h.bytes -= h.sizes[0]
		h.dropT = h.times[0]
		h.dropped++
		h.frames[0] = nil
		h.frames, h.sizes, h.times = h.frames[1:], h.sizes[1:], h.times[1:]
		// a keyframe is useful while it is at or before the oldest frame
		// only if it is the newest such one
		for len(h.keys) > 1 && h.keys[1].Time <= h.times[0] {
			h.bytes -= int64(len(h.keys[0].State))
			h.keys = h.keys[1:]
		}
	}
}

// Note describes what the budget cost, "" when nothing was dropped.
func (h *History) Note() string {
	n, t := h.Dropped()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("history full (%s): %d oldest frames dropped, up to t=%.4g s", formatBytes(h.Budget()), n, t)
}

// Index returns the index of the newest frame at or before t (0 when t is
// before the first; -1 when empty).
func (h *History) Index(t float64) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	i := sort.Search(len(h.times), func(i int) bool { return h.times[i] > t }) - 1
	if i < 0 && len(h.times) > 0 {
		return 0
	}
	return i
}

// Len is the number of frames held (snap.Frames).
func (h *History) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.frames)
}

// Time is the time of frame i (snap.Frames).
func (h *History) Time(i int) float64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i < 0 || i >= len(h.times) {
		return 0
	}
	return h.times[i]
}

// Frame returns frame i (snap.Frames); the snapshot is shared, not copied.
func (h *History) Frame(i int) (*snap.Snapshot, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if i < 0 || i >= len(h.frames) {
		return nil, fmt.Errorf("history: frame %d out of range [0, %d)", i, len(h.frames))
	}
	return h.frames[i], nil
}

// Close does nothing: the history is in memory (snap.Frames).
func (h *History) Close() error { return nil }

var _ snap.Frames = (*History)(nil)

func formatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.3g MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d kB", b>>10)
}

// physicalMemory returns the machine's memory in bytes from /proc/meminfo
// (Linux), 0 when unknown.
func physicalMemory() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return 0
}
