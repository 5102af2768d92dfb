package app

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/state"
)

// spillSnap is a frame at step i, time t with nb bodies on one mesh, a
// wall and nb−1 contacts whose values (odd multiples of irrational numbers,
// shifted by v to tell two runs apart) need every bit of a float64.
func spillSnap(i int64, t float64, nb int, v float64) *snap.Snapshot {
	mesh := snap.Mesh{Name: "tri", Verts: []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}, Tris: [][3]int32{{0, 1, 2}}}
	s := &snap.Snapshot{Scene: "spill", Meshes: []snap.Mesh{mesh}, SkinGap: 1e-4}
	s.Stats.Step, s.Stats.Time, s.Stats.Dt, s.Stats.Integrator = i, t, 1e-5, "explicit"
	s.Stats.Kinetic = math.Pi * float64(i)
	x := float64(i)*math.Sqrt2 + v
	for k := range nb {
		f := x + float64(k)*math.E
		s.Bodies = append(s.Bodies, snap.Body{
			Name: fmt.Sprintf("b%d", k), Radius: 0.1, Pos: geom.V(f, -f/3, f/7),
			Rot: geom.Quat{W: math.Cos(f), X: math.Sin(f) / math.Sqrt(3), Y: math.Sin(f) / math.Sqrt(3), Z: math.Sin(f) / math.Sqrt(3)},
			Vel: geom.V(f/11, 0, -f/13), AngVel: geom.V(0, f/17, 0), ContactForce: f / 19,
		})
		if k > 0 {
			s.Contacts = append(s.Contacts, snap.Contact{
				A: k, B: k - 1, FeatA: int32(k), Kind: snap.VF, Point: geom.V(f/23, f/29, f/31),
				Normal: geom.V(0, 0.6, 0.8), Gap: -f * 1e-7, Fn: f * 3.3, Ft: geom.V(f/37, 0, 0), Sliding: k%2 == 0,
			})
		}
	}
	s.Bodies[0].Fixed = true
	s.Walls = []snap.Wall{{Name: "floor", Body: 0, Enabled: i%3 != 0, Force: geom.V(0, 0, x)}}
	return s
}

func f32(x float64) float64 { return float64(float32(x)) }

func v32(v geom.Vec3) geom.Vec3 { return geom.V(f32(v.X), f32(v.Y), f32(v.Z)) }

// sameFrame says how got differs from want as a recording stores it
// (docs/recording.md): poses, velocities, wall forces and stats bit for
// bit, contact data and the bodies' summed contact force to float32; ""
// when it does not.
func sameFrame(want, got *snap.Snapshot) string {
	if fmt.Sprintf("%#v", want.Stats) != fmt.Sprintf("%#v", got.Stats) || math.Float64bits(want.SkinGap) != math.Float64bits(got.SkinGap) {
		return fmt.Sprintf("stats %+v, want %+v", got.Stats, want.Stats)
	}
	if len(got.Bodies) != len(want.Bodies) || len(got.Contacts) != len(want.Contacts) {
		return fmt.Sprintf("%d bodies %d contacts, want %d %d", len(got.Bodies), len(got.Contacts), len(want.Bodies), len(want.Contacts))
	}
	for k := range want.Bodies {
		b := want.Bodies[k]
		b.ContactForce = f32(b.ContactForce)
		if fmt.Sprintf("%#v", b) != fmt.Sprintf("%#v", got.Bodies[k]) { // %#v prints every bit of a float64
			return fmt.Sprintf("body %d: %#v, want %#v", k, got.Bodies[k], b)
		}
	}
	for k := range want.Contacts {
		c := want.Contacts[k]
		c.Point, c.Normal, c.Ft, c.Gap, c.Fn = v32(c.Point), v32(c.Normal), v32(c.Ft), f32(c.Gap), f32(c.Fn)
		if fmt.Sprintf("%#v", c) != fmt.Sprintf("%#v", got.Contacts[k]) {
			return fmt.Sprintf("contact %d: %#v, want %#v", k, got.Contacts[k], c)
		}
	}
	if fmt.Sprintf("%#v", want.Walls) != fmt.Sprintf("%#v", got.Walls) {
		return fmt.Sprintf("walls %#v, want %#v", got.Walls, want.Walls)
	}
	if len(got.Meshes) != 1 || got.Meshes[0].Name != "tri" || len(got.Meshes[0].Tris) != 1 {
		return fmt.Sprintf("meshes %v", got.Meshes)
	}
	return ""
}

// spillKey is the keyframe the tests add at frame i of run tag.
func spillKey(i int, t float64, tag string) Keyframe {
	return Keyframe{Time: t, Step: int64(i), Dt: 1e-5 * float64(i+1), Done: []bool{i%2 == 0, true},
		State: bytes.Repeat([]byte(fmt.Sprintf("%s-%d;", tag, i)), 50)}
}

// checkFrames compares every frame of h with want (a spilled one as the
// recording stores it, one in memory is the snapshot added) and the times
// with theirs, and that they increase.
func checkFrames(t *testing.T, h *History, want []*snap.Snapshot) {
	t.Helper()
	if h.Len() != len(want) {
		t.Fatalf("Len() = %d, want %d (every frame added)", h.Len(), len(want))
	}
	for i, w := range want {
		if h.Time(i) != w.Stats.Time || (i > 0 && !(h.Time(i) > h.Time(i-1))) {
			t.Fatalf("Time(%d) = %.17g, want %.17g (increasing)", i, h.Time(i), w.Stats.Time)
		}
		got, err := h.Frame(i)
		if err != nil {
			t.Fatalf("Frame(%d): %v", i, err)
		}
		if ns, _, _ := h.Spilled(); i >= ns { // in memory: the snapshot added
			if got != w {
				t.Fatalf("Frame(%d) (in memory) is not the snapshot added", i)
			}
		} else if d := sameFrame(w, got); d != "" {
			t.Fatalf("Frame(%d) (spilled): %s", i, d)
		}
	}
}

// checkKey asserts that KeyframeAt(t) is want, state bytes included.
func checkKey(t *testing.T, h *History, at float64, want Keyframe) {
	t.Helper()
	k, ok := h.KeyframeAt(at)
	if !ok {
		t.Fatalf("KeyframeAt(%g): none, want the one at t=%g", at, want.Time)
	}
	if k.Time != want.Time || k.Step != want.Step || k.Dt != want.Dt || fmt.Sprint(k.Done) != fmt.Sprint(want.Done) || !bytes.Equal(k.State, want.State) {
		t.Fatalf("KeyframeAt(%g) = t=%g step %d dt=%g done %v state %.20q…, want t=%g step %d dt=%g done %v state %.20q…",
			at, k.Time, k.Step, k.Dt, k.Done, k.State, want.Time, want.Step, want.Dt, want.Done, want.State)
	}
}

// TestHistorySpill: with a budget of a few frames every frame added stays
// readable (the oldest from the spill file, as the recording stores them),
// spilled keyframes are found, a branch (Truncate) into the spilled part
// forgets its future there too and the new frames and keyframes at the same
// times are the ones read back; Close removes the file.
func TestHistorySpill(t *testing.T) {
	const nb, n, every, cut = 6, 60, 7, 23
	dir := t.TempDir()
	one := SnapshotBytes(spillSnap(0, 0, nb, 0))
	h := NewHistory(4 * one)
	h.SetSpill(dir, true)
	var want []*snap.Snapshot
	keys := map[int]Keyframe{}
	add := func(i int, v float64, tag string) {
		tm := 0.001 * float64(i+1)
		s := spillSnap(int64(i), tm, nb, v)
		if !h.Add(s) {
			t.Fatalf("frame %d not appended", i)
		}
		want = append(want, s)
		if i%every == 0 {
			keys[i] = spillKey(i, tm, tag)
			h.AddKeyframe(keys[i])
		}
	}
	for i := range n {
		add(i, 0, "a")
	}
	ns, disk, path := h.Spilled()
	t.Logf("%d frames held, %d on disk (%d bytes, %s); memory %d of %d bytes; note %q", h.Len(), ns, disk, path, h.Bytes(), h.Budget(), h.Note())
	if ns < n-5 || disk <= 0 || filepath.Dir(path) != dir {
		t.Fatalf("%d frames spilled to %q (%d bytes), want ≥ %d in %s", ns, path, disk, n-5, dir)
	}
	if h.Bytes() > h.Budget() {
		t.Errorf("memory %d bytes over the budget %d", h.Bytes(), h.Budget())
	}
	if d, _ := h.Dropped(); d != 0 {
		t.Errorf("%d frames dropped", d)
	}
	if note := h.Note(); !strings.Contains(note, "on disk") || !strings.Contains(note, filepath.Base(path)) || strings.Contains(note, "dropped") {
		t.Errorf("note %q", note)
	}
	checkFrames(t, h, want)
	for i := 0; i < n; i++ { // every frame's keyframe, spilled or not
		checkKey(t, h, want[i].Stats.Time, keys[i-i%every])
	}
	if _, ok := h.KeyframeAt(0.0005); ok {
		t.Error("a keyframe before the first")
	}
	if i := h.Index(want[10].Stats.Time + 1e-4); i != 10 {
		t.Errorf("Index in the spilled part: %d, want 10", i)
	}

	// branch from frame cut (spilled): its future goes, the new one has
	// other values and keyframes at the same times
	h.Truncate(want[cut].Stats.Time)
	want = want[:cut]
	checkFrames(t, h, want)
	checkKey(t, h, 1, keys[cut-cut%every])
	for i := cut; i < n; i++ {
		add(i, 0.5, "b")
	}
	checkFrames(t, h, want)
	for i := 0; i < n; i++ { // the new run's keyframes where it has them, at the old times
		checkKey(t, h, want[i].Stats.Time, keys[i-i%every])
	}
	if !bytes.HasPrefix(keys[n-1-(n-1)%every].State, []byte("b-")) {
		t.Fatal("test setup: the newest keyframe is not the new run's")
	}

	if err := h.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("spill file %s after Close: %v", path, err)
	}
	if h.Len() != 0 || h.Note() != "" {
		t.Errorf("after Close: %d frames, note %q", h.Len(), h.Note())
	}
	// usable again: a reset scene spills to a new file, Reset removes it
	for i := range 10 {
		add(i, 0, "c")
	}
	if _, _, p := h.Spilled(); p == "" || p == path {
		t.Errorf("spill file after Close and 10 frames: %q", p)
	} else {
		h.Reset()
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("spill file %s after Reset: %v", p, err)
		}
	}
}

// TestHistorySpillFails: a spill file that cannot be created, or whose
// writes fail, leaves the history dropping its oldest frames as without a
// spill, with a note saying why; never a crash.
func TestHistorySpillFails(t *testing.T) {
	const nb, n = 4, 30
	one := SnapshotBytes(spillSnap(0, 0, nb, 0))
	t.Run("create", func(t *testing.T) {
		h := NewHistory(4 * one)
		h.SetSpill(filepath.Join(t.TempDir(), "no", "such", "dir"), true)
		for i := range n {
			h.Add(spillSnap(int64(i), 0.001*float64(i+1), nb, 0))
		}
		d, _ := h.Dropped()
		if ns, _, _ := h.Spilled(); ns != 0 || d == 0 || h.Len()+d != n || h.Bytes() > h.Budget() {
			t.Errorf("%d held, %d spilled, %d dropped of %d; %d bytes of %d", h.Len(), ns, d, n, h.Bytes(), h.Budget())
		}
		if note := h.Note(); !strings.Contains(note, "spilling failed") || !strings.Contains(note, "no such file") || !strings.Contains(note, "dropped") {
			t.Errorf("note %q", note)
		}
		if err := h.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	t.Run("write", func(t *testing.T) {
		dir := t.TempDir()
		h := NewHistory(4 * one)
		h.SetSpill(dir, true)
		var want []*snap.Snapshot
		for i := range n {
			s := spillSnap(int64(i), 0.001*float64(i+1), nb, 0)
			want = append(want, s)
			h.Add(s)
			if i == n/2 {
				h.sp.f.Close() // the disk goes away under the writer
			}
		}
		ns, _, path := h.Spilled()
		d, _ := h.Dropped()
		if ns == 0 || d == 0 || h.Len()+d != n || h.Bytes() > h.Budget() {
			t.Errorf("%d held, %d spilled, %d dropped of %d; %d bytes of %d", h.Len(), ns, d, n, h.Bytes(), h.Budget())
		}
		if note := h.Note(); !strings.Contains(note, "spilling failed") || !strings.Contains(note, "on disk") || !strings.Contains(note, "dropped") {
			t.Errorf("note %q", note)
		}
		for i := ns; i < h.Len(); i++ { // the frames in memory are the newest
			if s, err := h.Frame(i); err != nil || s != want[n-h.Len()+i] {
				t.Fatalf("Frame(%d) = %p (%v), want the frame at t=%g", i, s, err, want[n-h.Len()+i].Stats.Time)
			}
		}
		if _, err := h.Frame(0); err == nil {
			t.Error("a spilled frame read from a closed file: no error")
		}
		h.Close()
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("spill file %s after Close: %v", path, err)
		}
	})
}

// TestHistorySpillRace reads spilled and in-memory frames and keyframes the
// way the time bar and a branch do while frames are added and the history
// is truncated (run with -race).
func TestHistorySpillRace(t *testing.T) {
	const nb = 4
	h := NewHistory(3 * SnapshotBytes(spillSnap(0, 0, nb, 0)))
	h.SetSpill(t.TempDir(), true)
	defer h.Close()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if n := h.Len(); n > 0 {
					i := h.Index(h.Time(n / 3))
					s, err := h.Frame(i)
					if err == nil && s == nil {
						t.Error("nil frame")
					}
					if k, ok := h.KeyframeAt(h.Time(i)); ok && len(k.State) == 0 {
						t.Error("keyframe without state")
					}
				}
				_ = h.Note()
			}
		}()
	}
	step := 0
	for r := range 4 {
		for i := 0; i < 150; i++ {
			step++
			tm := 1e-3 * float64(step)
			h.Add(spillSnap(int64(step), tm, nb, float64(r)))
			if step%5 == 0 {
				h.AddKeyframe(spillKey(step, tm, "r"))
			}
		}
		step -= 100
		h.Truncate(1e-3 * float64(step+1))
	}
	close(stop)
	wg.Wait()
	if ns, _, _ := h.Spilled(); ns == 0 || h.Note() == "" {
		t.Errorf("nothing spilled: note %q", h.Note())
	}
	for i := 1; i < h.Len(); i++ {
		if !(h.Time(i) > h.Time(i-1)) {
			t.Fatalf("times out of order at %d", i)
		}
	}
}

// TestSimLoopResumeSpilled: a branch from a frame whose frame and keyframe
// are both in the spill file replays the old frames bit for bit (free
// flight, as TestSimLoopResume in memory) and drops the spilled future.
func TestSimLoopResumeSpilled(t *testing.T) {
	dir := t.TempDir()
	l := startLoop(t, smallScene("8"), func(l *SimLoop) {
		l.KeyEvery = 5
		l.History().SetBudget(16 << 10)
		l.History().SetSpill(dir, true)
	})
	h := l.History()
	steps(t, l, 24)
	ns, disk, path := h.Spilled()
	t.Logf("%d of %d frames on disk (%d bytes)", ns, h.Len(), disk)
	if h.Len() != 25 || ns < 14 {
		t.Fatalf("history holds %d frames, %d spilled; want 25, frames 0..13 at least spilled", h.Len(), ns)
	}
	dx, dv := resumeAndCompare(t, l, 12, nil, true) // keyframe at frame 10, both spilled
	t.Logf("free flight from a spilled frame: unchanged resume max |Δx| = %g m, |Δv| = %g m/s", dx, dv)
	if dx != 0 || dv != 0 {
		t.Errorf("resume from a spilled frame differs: |Δx| = %g m, |Δv| = %g m/s (want bitwise equal)", dx, dv)
	}
	l.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("spill file %s after Close: %v", path, err)
	}
}

// TestHistorySpillDoesNotBlockReaders: while a spill writes (held at its
// start by a hook until released), the readers the time bar calls every
// frame — Len, Time, Index, Frame of the newest and of a frame being
// spilled, KeyframeAt, Markers, Bytes, Spilled, Note — all return (each
// within 10 s; they take microseconds) and see every frame; after the
// release the spilled frames read back as they were added and nothing was
// dropped. Called with the lock held, the hook would block them all.
func TestHistorySpillDoesNotBlockReaders(t *testing.T) {
	h := NewHistory(1 << 40)
	h.SetSpill(t.TempDir(), true)
	defer h.Close()
	const n = 12
	var want []*snap.Snapshot
	for i := range n {
		s := spillSnap(int64(i), float64(i)*0.01, 50, 0)
		want = append(want, s)
		h.Add(s)
		if i%4 == 0 {
			h.AddKeyframe(Keyframe{Time: s.Stats.Time, Step: int64(i), State: []byte(fmt.Sprintf("k-%d", i))})
		}
	}
	started, release := make(chan struct{}), make(chan struct{})
	h.beforeSpill = func() {
		close(started)
		<-release
	}
	done := make(chan struct{})
	go func() { // the simulation goroutine: a smaller budget spills half
		h.SetBudget(h.Bytes() / 2)
		close(done)
	}()
	<-started
	readers := make(chan string)
	go func() {
		last, err := h.Frame(h.Len() - 1)
		first, err0 := h.Frame(0)
		k, ok := h.KeyframeAt(0.045)
		_, _, _ = h.Spilled()
		readers <- fmt.Sprint(h.Len(), h.Time(n-1), h.Index(0.05), last == want[n-1], err, first == want[0], err0,
			ok, string(k.State), len(h.Markers()), h.Bytes() > 0, h.Note())
	}()
	select {
	case got := <-readers:
		if exp := fmt.Sprint(n, want[n-1].Stats.Time, 5, true, nil, true, nil, true, "k-4", 0, true, ""); got != exp {
			t.Errorf("readers during the spill: %s, want %s", got, exp)
		}
	case <-time.After(10 * time.Second):
		close(release)
		t.Fatal("the readers waited for the spill: they were blocked for 10 s")
	}
	close(release)
	<-done
	ns, _, _ := h.Spilled()
	if ns == 0 || ns >= n {
		t.Fatalf("%d frames spilled of %d, want some but not all", ns, n)
	}
	if d, _ := h.Dropped(); d != 0 || h.Len() != n {
		t.Fatalf("%d frames held, %d dropped, want %d and 0", h.Len(), d, n)
	}
	for i := range n {
		got, err := h.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		if i >= ns && got != want[i] {
			t.Fatalf("frame %d after the spill: not the snapshot added", i)
		}
		if d := sameFrame(want[i], got); i < ns && d != "" {
			t.Fatalf("spilled frame %d: %s", i, d)
		}
	}
	if k, ok := h.KeyframeAt(0.045); !ok || string(k.State) != "k-4" {
		t.Errorf("keyframe at 0.045 s after the spill: %q %v, want k-4", k.State, ok)
	}
}

// TestKeyframeCaptured: a keyframe of a captured state (NewKeyframe, what
// the window keeps) gives the bytes state.Encode gives at the capture, in
// memory and read back after a spill — the settled sphere box, 777
// contacts of history; its estimated size is that of a state, not zero.
func TestKeyframeCaptured(t *testing.T) {
	s, err := Load(settledSpheres())
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	if _, err := s.StepTo(w.Time+5*w.Dt, nil); err != nil {
		t.Fatal(err)
	}
	w.SyncBodies()
	k := NewKeyframe(w.Time, w.Steps, w.Dt, []bool{true}, state.Capture(w))
	want, err := state.Encode(w)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(want, []byte(`"prev"`)) {
		t.Fatal("no contact history in the state: the check is void")
	}
	if got, err := k.Bytes(); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("captured keyframe's bytes (%d, %v) differ from state.Encode's (%d)", len(got), err, len(want))
	}
	t.Logf("state file %d B, captured keyframe %d B", len(want), k.size())
	if sz := k.size(); sz < int64(len(want))/20 {
		t.Errorf("captured keyframe's size %d B, the state file %d B: the budget would not see it", sz, len(want))
	}
	h := NewHistory(1 << 40)
	h.SetSpill(t.TempDir(), true)
	defer h.Close()
	h.Add(spillSnap(0, w.Time, 3, 0))
	h.AddKeyframe(k)
	h.Add(spillSnap(1, w.Time+1, 3, 0))
	h.SetBudget(1) // spills all but the newest frame
	if ns, _, _ := h.Spilled(); ns != 1 {
		t.Fatalf("%d frames spilled, want 1", ns)
	}
	got, ok := h.KeyframeAt(w.Time)
	if !ok || !bytes.Equal(got.State, want) || got.Step != w.Steps {
		t.Fatalf("spilled captured keyframe: ok %v step %d, %d bytes; want step %d and state.Encode's %d bytes", ok, got.Step, len(got.State), w.Steps, len(want))
	}
}

// TestKeyframeSizeCountsCD: the estimated size of a captured keyframe
// (what --history-mb counts) counts every part of the state, cd's
// warm-start contacts included: on the packed 300-tetrapod pile after 20
// cd steps, it is within a factor 2 of the encoded state file's length,
// and it grows with the warm starts: by at least half and at most 4× what
// they add to the encoded length (a warm start holds 72 B in a slice
// growing by appends, ≈ 42 B of JSON without friction; uncounted, the
// history could pass its budget by their whole size).
func TestKeyframeSizeCountsCD(t *testing.T) {
	s, err := Load(Options{Scene: DefaultScene, Restart: "../assets/states/box-of-tetrapods-300-packed.json", Workers: 2, Integrator: "cd"})
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	if _, err := s.StepTo(w.Time+20*w.Dt, nil); err != nil {
		t.Fatal(err)
	}
	w.SyncBodies()
	f := state.Capture(w)
	if f.Integrator == nil || len(f.Integrator.Warm) == 0 {
		t.Fatal("no cd warm starts in the captured state: the check is void")
	}
	cold := f
	in := *f.Integrator
	in.Warm, in.Reversed = nil, nil
	cold.Integrator = &in
	k, kc := NewKeyframe(w.Time, w.Steps, w.Dt, nil, f), NewKeyframe(w.Time, w.Steps, w.Dt, nil, cold)
	enc, err := k.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	encCold, err := kc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	size, sizeCold := k.size(), kc.size()
	dSize, dEnc := size-sizeCold, int64(len(enc)-len(encCold))
	t.Logf("%d warm starts, %d reversed: keyframe %d B estimated, %d B encoded; the warm starts %d B estimated, %d B encoded",
		len(f.Integrator.Warm), len(f.Integrator.Reversed), size, len(enc), dSize, dEnc)
	if r := float64(size) / float64(len(enc)); r < 0.5 || r > 2 {
		t.Errorf("keyframe's estimated size %d B, encoded %d B (ratio %.2f): want within a factor 2", size, len(enc), r)
	}
	if r := float64(dSize) / float64(dEnc); r < 0.5 || r > 4 {
		t.Errorf("the warm starts add %d B to the estimated size, %d B to the encoded state (ratio %.2f): want 0.5 to 4", dSize, dEnc, r)
	}
	// a keyframe read back from its bytes counts them
	if kb := (Keyframe{State: enc}); kb.size() < int64(len(enc)) {
		t.Errorf("encoded keyframe's size %d B, its bytes %d B", kb.size(), len(enc))
	}
}
