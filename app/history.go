package app

// The window's history: every snapshot the simulation goroutine publishes
// is kept (snapshots are immutable, so keeping the pointer is enough) within
// a memory budget, with full-state keyframes (state.Capture, encoded as a
// state file only when one goes to disk or a branch starts from it) every
// KeyEvery frames and at each edit, and the markers of the time bar. Beyond
// the budget the oldest frames and their keyframes move to a spill
// recording (sim/record, a temporary file) and are read back on demand; the
// spill writes with the readers' lock released, so a reader (the time bar,
// every frame) never waits for the disk. It implements snap.Frames, so the
// time bar reads it like a recording. No GL here: the handoff is tested
// with -race like the SimLoop.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"grainlab/sim/integrate"
	"grainlab/sim/record"
	"grainlab/sim/snap"
	"grainlab/sim/state"
	"grainlab/sim/world"
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

// Keyframe is the full state of the world at one recorded frame, the start
// point of a branch: the bytes of a state file (State, state.Encode's), or
// the state captured and not encoded yet (NewKeyframe; Bytes encodes it).
type Keyframe struct {
	Time  float64
	Step  int64
	Dt    float64 // the world's current Δt (until state files carry it)
	Done  []bool  // which scene events were applied (until state files carry it)
	State []byte

	file *state.File // captured state (State nil); shared, never changed
}

// NewKeyframe is a keyframe of the captured state f (state.Capture), kept
// as it is: encoding a state file costs more than capturing it (10⁵
// spheres: ≈ 0.5 s of JSON) and is only needed when the keyframe is spilled
// to disk or a branch starts from it. f must not be changed afterwards.
func NewKeyframe(t float64, step int64, dt float64, done []bool, f state.File) Keyframe {
	return Keyframe{Time: t, Step: step, Dt: dt, Done: done, file: &f}
}

// Bytes returns the keyframe as the bytes of a state file: State, or the
// captured state encoded (state.EncodeFile) — the same bytes that
// state.Encode would have given at the capture.
func (k Keyframe) Bytes() ([]byte, error) {
	if k.State != nil || k.file == nil {
		return k.State, nil
	}
	return state.EncodeFile(*k.file)
}

// size estimates the memory the keyframe holds, which the history's budget
// (--history-mb) counts: its bytes (State: an encoded keyframe, or one read
// back after a spill) and Done, or every part of the captured state
// (stateSize). It depends only on the keyframe, which never changes, so the
// bytes added at AddKeyframe are those taken off when it goes.
func (k Keyframe) size() int64 {
	n := int64(unsafe.Sizeof(k)) + int64(len(k.State)) + int64(cap(k.Done))
	if k.file != nil {
		n += stateSize(k.file)
	}
	return n
}

// mapEntryBytes estimates the memory of one entry of a map[string]float64
// beyond its key's bytes: the string header and value, doubled for the
// table's free slots and control bytes.
const mapEntryBytes = 2 * (16 + 8)

// stateSize estimates the memory of a captured state: the bodies, the
// integrator's state (cd's warm-start and reversed contacts) and the world's
// history (walls, events, edits, parameter maps, the Verlet reference and
// ghosts, the pairs with their feature lists and contacts).
func stateSize(f *state.File) int64 {
	n := int64(unsafe.Sizeof(*f)) + int64(len(f.Scene))
	n += int64(cap(f.Bodies)) * int64(unsafe.Sizeof(state.Body{}))
	for i := range f.Bodies {
		n += int64(len(f.Bodies[i].Name))
	}
	if s := f.Integrator; s != nil {
		n += int64(unsafe.Sizeof(*s)) + int64(len(s.Name))
		for _, cs := range [][]integrate.CDContact{s.Warm, s.Reversed} {
			n += int64(cap(cs)) * int64(unsafe.Sizeof(integrate.CDContact{}))
			for i := range cs {
				n += 8 * int64(cap(cs[i].Ft))
			}
		}
	}
	h := f.History
	if h == nil {
		return n
	}
	n += int64(unsafe.Sizeof(*h)) + int64(len(h.Stats.Integrator))
	n += int64(cap(h.Walls)) * int64(unsafe.Sizeof(world.WallState{}))
	for i := range h.Walls {
		n += int64(len(h.Walls[i].Name))
	}
	n += int64(cap(h.Events)) * int64(unsafe.Sizeof(world.EventState{}))
	n += int64(cap(h.Edits)) * int64(unsafe.Sizeof(world.Edit{}))
	for i := range h.Edits {
		e := &h.Edits[i]
		n += int64(len(e.Path) + len(e.Material))
		if e.Shape != nil {
			n += int64(unsafe.Sizeof(*e.Shape))
		}
	}
	n += int64(cap(h.Params)) * int64(unsafe.Sizeof(world.ParamRecord{}))
	for i := range h.Params {
		p := &h.Params[i]
		n += int64(len(p.Pair) + len(p.Laws))
		for key := range p.Values {
			n += mapEntryBytes + int64(len(key))
		}
	}
	n += int64(cap(h.VerletRef))*int64(unsafe.Sizeof([3]float64{})) + int64(cap(h.VerletRad))*8
	n += int64(cap(h.Ghosts)) * int64(unsafe.Sizeof(world.GhostState{}))
	n += int64(cap(h.Pairs)) * int64(unsafe.Sizeof(world.PairState{}))
	for i := range h.Pairs {
		p := &h.Pairs[i]
		if p.Mid != nil {
			n += int64(unsafe.Sizeof(*p.Mid))
		}
		if p.Spring != nil {
			n += int64(unsafe.Sizeof(*p.Spring))
		}
		if c := p.Cache; c != nil {
			n += int64(unsafe.Sizeof(*c)) + int64(unsafe.Sizeof([2]int32{}))*int64(cap(c.VF)+cap(c.FV)+cap(c.EE)+cap(c.VE)+cap(c.EV)+cap(c.VV))
		}
		n += int64(cap(p.Prev)) * int64(unsafe.Sizeof(world.ContactState{}))
		for k := range p.Prev {
			if p.Prev[k].FricN != nil {
				n += int64(unsafe.Sizeof(*p.Prev[k].FricN))
			}
		}
	}
	return n
}

// History is the window's record of published frames. Its methods are safe
// for concurrent use: the simulation goroutine appends, the render thread
// reads. Indices are those of the frames held now (0 is the oldest kept):
// the spilled frames first (on disk), then the ones in memory.
type History struct {
	// wmu serialises the writers (Add, AddKeyframe, SetBudget, Truncate,
	// Reset, Close): a spill holds it, not mu, while it writes, so readers
	// go on meanwhile. Take wmu before mu.
	wmu     sync.Mutex
	mu      sync.Mutex
	budget  int64
	bytes   int64
	frames  []*snap.Snapshot // in memory: frame len(sidx)+i is frames[i]
	sizes   []int64
	times   []float64 // of every frame held, spilled or in memory
	keys    []Keyframe
	markers []Marker
	dropped int     // frames dropped because of the budget
	dropT   float64 // time of the newest dropped frame

	noSpill  bool         // drop instead of spilling (SetSpill)
	spillDir string       // directory of the spill file ("" os.TempDir())
	sp       *spillFile   // nil until the first spill
	disk     int64        // the spill file's size after the last spill (sp.w is the writer's)
	sidx     []int32      // the spill file's frame index of each spilled frame
	skeys    []spilledKey // spilled keyframes (State nil), all older than keys
	spillErr error        // why spilling stopped (then frames are dropped)

	beforeSpill func() // tests: called as a spill starts writing, mu not held
}

// spillFile is the recording the oldest frames move to: written by w,
// read back by r, both on f. Frames of a dropped future (Truncate) stay in
// the file unreferenced.
type spillFile struct {
	f    *os.File
	path string
	w    *record.Writer
	r    *record.Reader
}

// spilledKey is a keyframe whose state bytes are in the spill file: they
// are those of r.Keyframe(frame), the newest keyframe at or before that
// spilled frame, written with it.
type spilledKey struct {
	Keyframe
	frame int32
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
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.mu.Lock()
	h.budget = b
	h.mu.Unlock()
	h.fit()
}

// RequestBudget is SetBudget for the render thread (the time bar's budget
// field): it stores the budget at once and fits the held frames to it on a
// goroutine of its own, so the caller waits neither for a spill in progress
// nor for the spill a smaller budget starts (readers take mu only).
func (h *History) RequestBudget(b int64) {
	if b <= 0 {
		return
	}
	h.mu.Lock()
	h.budget = b
	h.mu.Unlock()
	go func() {
		h.wmu.Lock()
		defer h.wmu.Unlock()
		h.fit()
	}()
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

// SetSpill says where the frames beyond the budget go: a temporary file in
// dir ("" the system's temporary directory), or nowhere (on false: they are
// dropped from then on). The directory applies to the next spill file (the
// first spill after a Reset).
func (h *History) SetSpill(dir string, on bool) {
	h.mu.Lock()
	h.spillDir, h.noSpill = dir, !on
	h.mu.Unlock()
}

// Spilled returns how many of the frames held are on disk, the size of the
// spill file and its path ("" when there is none).
func (h *History) Spilled() (frames int, disk int64, path string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sp == nil {
		return len(h.sidx), 0, ""
	}
	return len(h.sidx), h.disk, h.sp.path
}

// Reset forgets everything (a new scene, a reset) and removes the spill
// file.
func (h *History) Reset() {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	_ = h.reset()
}

// reset is Reset with h.mu held; it returns the error of removing the
// spill file.
func (h *History) reset() error {
	h.frames, h.sizes, h.times, h.keys, h.markers = nil, nil, nil, nil, nil
	h.bytes, h.dropped, h.dropT = 0, 0, 0
	h.sidx, h.skeys, h.spillErr, h.disk = nil, nil, nil, 0
	sp := h.sp
	h.sp = nil
	if sp == nil {
		return nil
	}
	// a reader decoding a spilled frame meanwhile gets an error, not a crash
	return errors.Join(sp.r.Close(), sp.f.Close(), os.Remove(sp.path))
}

// Add records a published snapshot. A snapshot of the same step as the last
// one replaces it (a publication after a wall toggle or a status change).
// It reports whether a new frame was appended.
func (h *History) Add(s *snap.Snapshot) bool {
	if s == nil {
		return false
	}
	sz := SnapshotBytes(s)
	h.wmu.Lock()
	defer h.wmu.Unlock()
	defer h.fit()
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.frames); n > 0 && h.frames[n-1].Stats.Step == s.Stats.Step && h.frames[n-1].Stats.Time == s.Stats.Time {
		h.bytes += sz - h.sizes[n-1]
		h.frames[n-1], h.sizes[n-1] = s, sz
		return false
	}
	h.frames = append(h.frames, s)
	h.sizes = append(h.sizes, sz)
	h.times = append(h.times, s.Stats.Time)
	h.bytes += sz
	return true
}

// AddKeyframe keeps the state of the world at the time of the newest
// frame (taken on the simulation goroutine).
func (h *History) AddKeyframe(k Keyframe) {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.mu.Lock()
	if n := len(h.keys); n > 0 && h.keys[n-1].Time == k.Time {
		h.bytes -= h.keys[n-1].size()
		h.keys[n-1] = k
	} else {
		h.keys = append(h.keys, k)
	}
	h.bytes += k.size()
	h.mu.Unlock()
	h.fit()
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

// KeyframeAt returns the newest keyframe at or before time t; a spilled
// one is read back from the spill file (ok is false if that fails).
func (h *History) KeyframeAt(t float64) (Keyframe, bool) {
	h.mu.Lock()
	i := sort.Search(len(h.keys), func(i int) bool { return h.keys[i].Time > t }) - 1
	if i >= 0 {
		defer h.mu.Unlock()
		return h.keys[i], true
	}
	j := sort.Search(len(h.skeys), func(i int) bool { return h.skeys[i].Time > t }) - 1
	if j < 0 || h.sp == nil {
		h.mu.Unlock()
		return Keyframe{}, false
	}
	sk, r := h.skeys[j], h.sp.r
	h.mu.Unlock()
	if int(sk.frame) >= r.Len() {
		if _, err := r.Refresh(); err != nil {
			return Keyframe{}, false
		}
	}
	// the newest keyframe at or before the frame it was spilled with is
	// this one: later ones are newer in time, or of a dropped future at or
	// after a branch point later than this keyframe
	kt, data, ok := r.Keyframe(int(sk.frame))
	if !ok || kt != sk.Time {
		return Keyframe{}, false
	}
	k := sk.Keyframe
	k.State = data
	return k, true
}

// Truncate drops the frames and keyframes at or after time t and the
// markers after it: a branch from the frame at t, which the simulation
// publishes again.
//
// Spilled frames and keyframes at or after t are forgotten (their bytes
// stay in the spill file, unreferenced).
func (h *History) Truncate(t float64) {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	n := sort.Search(len(h.times), func(i int) bool { return h.times[i] >= t })
	m := max(n-len(h.sidx), 0) // in-memory frames kept
	for i := m; i < len(h.frames); i++ {
		h.bytes -= h.sizes[i]
		h.frames[i] = nil
	}
	h.frames, h.sizes, h.times = h.frames[:m], h.sizes[:m], h.times[:n]
	h.sidx = h.sidx[:min(n, len(h.sidx))]
	h.skeys = h.skeys[:sort.Search(len(h.skeys), func(i int) bool { return h.skeys[i].Time >= t })]
	k := sort.Search(len(h.keys), func(i int) bool { return h.keys[i].Time >= t })
	for i := k; i < len(h.keys); i++ {
		h.bytes -= h.keys[i].size()
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

// fit moves the oldest frames in memory (with the keyframes at or before
// them) to the spill file until the history fits its budget; the newest
// frame always stays in memory. When spilling is off or failed it drops
// them instead (trim). Called with h.wmu held and h.mu not: the frames to
// spill stay readable in memory while they are written, with h.mu
// released, and leave memory once they are in the file.
func (h *History) fit() {
	for {
		h.mu.Lock()
		if h.bytes <= h.budget || len(h.frames) <= 1 {
			h.mu.Unlock()
			return
		}
		if h.noSpill || h.spillErr != nil {
			h.trim()
			h.mu.Unlock()
			return
		}
		// the oldest frames that bring the history within its budget, and
		// the keyframes at or before the newest of them
		ns, over := len(h.sidx), h.bytes-h.budget
		n, nk, freed := 0, 0, int64(0)
		for n < len(h.frames)-1 && freed < over {
			freed += h.sizes[n]
			for nk < len(h.keys) && h.keys[nk].Time <= h.times[ns+n] {
				freed += h.keys[nk].size()
				nk++
			}
			n++
		}
		frames := append([]*snap.Snapshot(nil), h.frames[:n]...)
		times := append([]float64(nil), h.times[ns:ns+n]...)
		keys := append([]Keyframe(nil), h.keys[:nk]...)
		sp, dir := h.sp, h.spillDir
		h.mu.Unlock()

		if h.beforeSpill != nil {
			h.beforeSpill()
		}
		var err error
		if sp == nil {
			if sp, err = createSpill(dir, frames[0].Scene); err != nil {
				h.mu.Lock()
				h.spillErr = err
				h.mu.Unlock()
				continue // dropped instead
			}
		}
		fi := sp.w.Frames()
		wf, kf := 0, []int32(nil) // frames written, and the frame of each keyframe written
	write:
		for j, s := range frames {
			if err = sp.w.WriteFrame(s); err != nil {
				break
			}
			wf++
			for len(kf) < len(keys) && keys[len(kf)].Time <= times[j] {
				k := keys[len(kf)]
				data, e := k.Bytes()
				if e == nil {
					e = sp.w.WriteKeyframe(k.Time, data)
				}
				if e != nil {
					err = e // the keyframe stays in memory
					break write
				}
				kf = append(kf, int32(fi+j))
			}
		}

		disk := sp.w.Bytes()
		h.mu.Lock()
		h.sp, h.disk = sp, disk
		for j := range wf {
			h.sidx = append(h.sidx, int32(fi+j))
			h.bytes -= h.sizes[j]
			h.frames[j] = nil
		}
		h.frames, h.sizes = h.frames[wf:], h.sizes[wf:]
		for j, f := range kf {
			k := h.keys[j]
			h.bytes -= k.size()
			k.State, k.file = nil, nil
			h.skeys = append(h.skeys, spilledKey{Keyframe: k, frame: f})
			h.keys[j] = Keyframe{}
		}
		h.keys = h.keys[len(kf):]
		if err != nil {
			h.spillErr = err
		}
		h.mu.Unlock()
	}
}

// trim drops the oldest frames in memory until the history fits its budget
// (spilling off or failed); the newest frame always stays. Keyframes before
// the oldest kept frame go but the one it needs. Called with h.mu held.
func (h *History) trim() {
	for h.bytes > h.budget && len(h.frames) > 1 {
		ns := len(h.sidx) // the oldest frame in memory
		h.bytes -= h.sizes[0]
		h.dropT = h.times[ns]
		h.dropped++
		h.frames[0] = nil
		h.frames, h.sizes = h.frames[1:], h.sizes[1:]
		if ns == 0 {
			h.times = h.times[1:]
		} else {
			h.times = append(h.times[:ns], h.times[ns+1:]...)
		}
		// a keyframe is useful while it is at or before the oldest frame
		// only if it is the newest such one
		for len(h.keys) > 1 && h.keys[1].Time <= h.times[ns] {
			h.bytes -= h.keys[0].size()
			h.keys = h.keys[1:]
		}
	}
}

// createSpill creates a spill recording in dir ("" os.TempDir()) and
// opens its reader on the same file.
func createSpill(dir, scene string) (*spillFile, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.CreateTemp(dir, "grainlab-history-*.grec")
	if err != nil {
		return nil, err
	}
	path := f.Name()
	fail := func(err error) (*spillFile, error) {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w, err := record.NewWriter(f, record.Header{Scene: scene})
	if err != nil {
		return fail(err)
	}
	size := func() (int64, error) {
		st, err := f.Stat()
		if err != nil {
			return 0, err
		}
		return st.Size(), nil
	}
	r, err := record.NewReader(f, size, path)
	if err != nil {
		return fail(err)
	}
	return &spillFile{f: f, path: path, w: w, r: r}, nil
}

// Note describes what the budget cost: how many frames are on disk and
// where, why spilling failed, how many were dropped; "" when everything is
// in memory.
func (h *History) Note() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var parts []string
	if ns := len(h.sidx); ns > 0 && h.sp != nil {
		parts = append(parts, fmt.Sprintf("%d oldest frames (up to t=%.4g s) on disk: %s in %s",
			ns, h.times[ns-1], formatBytes(h.disk), filepath.Base(h.sp.path)))
	}
	if h.spillErr != nil {
		parts = append(parts, fmt.Sprintf("spilling failed (%v)", h.spillErr))
	}
	if h.dropped > 0 {
		parts = append(parts, fmt.Sprintf("%d oldest frames dropped, up to t=%.4g s", h.dropped, h.dropT))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("history over its memory budget (%s): %s", formatBytes(h.budget), strings.Join(parts, "; "))
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

// Len is the number of frames held, spilled or in memory (snap.Frames).
func (h *History) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.times)
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

// Frame returns frame i (snap.Frames): one in memory is shared, not
// copied; a spilled one is decoded from the spill file (contact data to
// float32, docs/recording.md).
func (h *History) Frame(i int) (*snap.Snapshot, error) {
	h.mu.Lock()
	if i < 0 || i >= len(h.times) {
		n := len(h.times)
		h.mu.Unlock()
		return nil, fmt.Errorf("history: frame %d out of range [0, %d)", i, n)
	}
	ns := len(h.sidx)
	if i >= ns {
		defer h.mu.Unlock()
		return h.frames[i-ns], nil
	}
	fi, r := int(h.sidx[i]), h.sp.r
	h.mu.Unlock()
	if fi >= r.Len() {
		if _, err := r.Refresh(); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
	}
	s, err := r.Frame(fi)
	if err != nil {
		return nil, fmt.Errorf("history: spilled frame %d: %w", i, err)
	}
	return s, nil
}

// Close forgets every frame and removes the spill file (snap.Frames); the
// history stays usable, empty.
func (h *History) Close() error {
	h.wmu.Lock()
	defer h.wmu.Unlock()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reset()
}

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
