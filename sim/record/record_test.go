package record

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/snap"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// run is a recorded run in memory: the bytes, the snapshots written, the
// keyframes written (time, bytes) and the byte offset where each frame's
// Write began and ended.
type run struct {
	data   []byte
	frames []*snap.Snapshot
	keys   []keyframe
	starts []int // offset of the first byte written for frame i (its mesh/layout chunks included)
	ends   []int // offset after frame i's chunk
}

type keyframe struct {
	t     float64
	state []byte
}

func build(name string) (*world.World, error) {
	s, err := scene.LoadBuiltin(name)
	if err != nil {
		return nil, err
	}
	w, err := scene.Build(s)
	if err != nil {
		return nil, err
	}
	return w, integrate.Start(w)
}

func load(t testing.TB, name string) *world.World {
	t.Helper()
	w, err := build(name)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// record runs pile-of-blocks (polyhedra on a ground wall: VF/EE/VE
// contacts, some suppressed by the hierarchy), writing a frame every
// `every` steps and a keyframe every 4th frame, then a synthetic frame
// that exercises what the pile may not (smooth contacts, sliding, negative
// features, another mesh, a changed layout), then one more real frame.
func record(t testing.TB, frames, every int) *run {
	t.Helper()
	w := load(t, "pile-of-blocks")
	for i := 0; i < 5000 && w.Stats.Suppressed == 0; i++ { // to the first suppressed contact (t ≈ 0.1 s)
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	rw, err := NewWriter(&buf, Header{Scene: w.Name})
	if err != nil {
		t.Fatal(err)
	}
	r := &run{}
	var prev *snap.Snapshot
	put := func(s *snap.Snapshot) {
		r.starts = append(r.starts, buf.Len())
		if err := rw.WriteFrame(s); err != nil {
			t.Fatal(err)
		}
		r.ends = append(r.ends, buf.Len())
		r.frames = append(r.frames, s)
	}
	for i := range frames {
		s := w.Snapshot(prev)
		prev = s
		put(s)
		if i%4 == 0 {
			data, err := state.Encode(w)
			if err != nil {
				t.Fatal(err)
			}
			if err := rw.WriteKeyframe(w.Time, data); err != nil {
				t.Fatal(err)
			}
			r.keys = append(r.keys, keyframe{w.Time, data})
		}
		for range every {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		if i == frames/2 {
			put(synthetic(prev))
		}
	}
	r.data = buf.Bytes()
	return r
}

// synthetic is s with every kind of contact and flag, another mesh on one
// body (a layout change) and a different integrator name.
func synthetic(s *snap.Snapshot) *snap.Snapshot {
	c := *s
	c.Stats.Time = math.Nextafter(s.Stats.Time, 1)
	c.Stats.Integrator = "newmark"
	c.Stats.NewtonIters, c.Stats.LinearIters, c.Stats.Residual = 3, 17, 1e-9
	c.Stats.NightOwls, c.Stats.Rejected, c.Stats.SQFailures = 2, -1, 5 // negative: varints are signed
	c.Meshes = append(append([]snap.Mesh(nil), s.Meshes...), snap.Mesh{
		Name: "tri", Verts: []geom.Vec3{{X: 0.1}, {Y: 1e-300}, {Z: -3}}, Tris: [][3]int32{{0, 1, 2}},
	})
	c.Bodies = append([]snap.Body(nil), s.Bodies...)
	last := len(c.Bodies) - 1
	c.Bodies[last].Mesh = len(c.Meshes) - 1
	c.Bodies[last].Radius = 0.123
	c.Bodies[last].Name = "renamed"
	c.Bodies[last].Material = 3
	c.Bodies[0].Vel = geom.V(math.Inf(1), -0.0, math.SmallestNonzeroFloat64)
	c.Walls = append([]snap.Wall(nil), s.Walls...)
	if len(c.Walls) > 0 {
		c.Walls[0].Enabled = !c.Walls[0].Enabled
	}
	c.Contacts = nil
	for k := range snap.NumContactKinds {
		c.Contacts = append(c.Contacts, snap.Contact{
			A: int(k) % len(c.Bodies), B: last, FeatA: -int32(k) - 1, FeatB: 1 << 30, Kind: k,
			Point: geom.V(0.5, -0.25, 1e-3), Normal: geom.V(0, 0.6, 0.8), Gap: -1e-6 * float64(k), Fn: 12.5,
			Ft: geom.V(0.1, 0.2, 0.3), Sliding: k%2 == 0, Suppressed: k%2 == 1, Swap: k%3 == 0, SuppressedBy: fmt.Sprintf("rule-%d", k%3),
		})
	}
	return &c
}

// f32 is x as the recording stores contact data.
func f32(x float64) float64 { return float64(float32(x)) }

func v32(v geom.Vec3) geom.Vec3 { return geom.V(f32(v.X), f32(v.Y), f32(v.Z)) }

// same64 compares bit for bit (so -0 ≠ 0 and NaN = NaN).
func same64(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func sameVec(a, b geom.Vec3) bool { return same64(a.X, b.X) && same64(a.Y, b.Y) && same64(a.Z, b.Z) }

// compare reports every field of got that differs from want as the
// recording stores it: float64 bit for bit, contact data and the bodies'
// summed contact force as float32.
func compare(t *testing.T, i int, want, got *snap.Snapshot, scene string) {
	t.Helper()
	bad := func(what string, w, g any) { t.Errorf("frame %d: %s = %v, want %v", i, what, g, w) }
	if got.Scene != scene {
		bad("scene", scene, got.Scene)
	}
	if !same64(got.SkinGap, want.SkinGap) {
		bad("skin gap", want.SkinGap, got.SkinGap)
	}
	ws := want.Stats
	ws.Stages = [snap.NumStages]time.Duration{} // stage timers are measurements, not recorded
	if fmt.Sprintf("%#v", got.Stats) != fmt.Sprintf("%#v", ws) {
		bad("stats", want.Stats, got.Stats)
	}
	if len(got.Meshes) != len(want.Meshes) {
		bad("meshes", len(want.Meshes), len(got.Meshes))
	} else {
		for m := range want.Meshes {
			a, b := want.Meshes[m], got.Meshes[m]
			eq := a.Name == b.Name && len(a.Verts) == len(b.Verts) && fmt.Sprint(a.Tris) == fmt.Sprint(b.Tris) && fmt.Sprint(a.Edges) == fmt.Sprint(b.Edges)
			for k := 0; eq && k < len(a.Verts); k++ {
				eq = sameVec(a.Verts[k], b.Verts[k])
			}
			if !eq {
				bad(fmt.Sprintf("mesh %d", m), a.Name, b.Name)
			}
		}
	}
	if len(got.Bodies) != len(want.Bodies) {
		bad("bodies", len(want.Bodies), len(got.Bodies))
		return
	}
	for k, a := range want.Bodies {
		b := got.Bodies[k]
		q, r := a.Rot, b.Rot
		if !sameVec(a.Pos, b.Pos) || !same64(q.W, r.W) || !same64(q.X, r.X) || !same64(q.Y, r.Y) || !same64(q.Z, r.Z) ||
			!sameVec(a.Vel, b.Vel) || !sameVec(a.AngVel, b.AngVel) || !same64(f32(a.ContactForce), b.ContactForce) ||
			!same64(a.Radius, b.Radius) || a.Mesh != b.Mesh || a.Fixed != b.Fixed || a.Material != b.Material || a.Name != b.Name || a.Group != b.Group {
			bad(fmt.Sprintf("body %d", k), a, b)
		}
	}
	if fmt.Sprintf("%#v", got.Walls) != fmt.Sprintf("%#v", want.Walls) {
		bad("walls", want.Walls, got.Walls)
	}
	if len(got.Contacts) != len(want.Contacts) {
		bad("contacts", len(want.Contacts), len(got.Contacts))
		return
	}
	for k, a := range want.Contacts {
		e := a
		e.Point, e.Normal, e.Ft = v32(a.Point), v32(a.Normal), v32(a.Ft)
		e.Gap, e.Fn = f32(a.Gap), f32(a.Fn)
		if fmt.Sprintf("%#v", e) != fmt.Sprintf("%#v", got.Contacts[k]) {
			bad(fmt.Sprintf("contact %d", k), e, got.Contacts[k])
		}
	}
}

func memReader(t *testing.T, data []byte) (*Reader, error) {
	t.Helper()
	return NewReader(bytes.NewReader(data), func() (int64, error) { return int64(len(data)), nil }, "mem.grec")
}

// Record → reopen → the same frames, every field (poses and velocities bit
// for bit, contact data as float32), the same keyframes at or before each
// frame; the pile's frames have contacts of several kinds and suppressed ones.
func TestRoundTrip(t *testing.T) {
	r := record(t, 12, 25)
	path := filepath.Join(t.TempDir(), "run.grec")
	if err := os.WriteFile(path, r.data, 0o644); err != nil {
		t.Fatal(err)
	}
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if rd.Note() != "" {
		t.Errorf("complete file: note %q", rd.Note())
	}
	if rd.Len() != len(r.frames) || rd.Keyframes() != len(r.keys) {
		t.Fatalf("%d frames, %d keyframes; want %d, %d", rd.Len(), rd.Keyframes(), len(r.frames), len(r.keys))
	}
	contacts, suppressed := 0, 0
	for i, want := range r.frames {
		if !same64(rd.Time(i), want.Stats.Time) {
			t.Errorf("Time(%d) = %v, want %v", i, rd.Time(i), want.Stats.Time)
		}
		got, err := rd.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, i, want, got, "pile-of-blocks")
		contacts += len(want.Contacts)
		suppressed += want.Stats.Suppressed
		kt, kb, ok := rd.Keyframe(i)
		wk := r.keys[0]
		for _, k := range r.keys {
			if k.t <= want.Stats.Time {
				wk = k
			}
		}
		if !ok || kt != wk.t || !bytes.Equal(kb, wk.state) {
			t.Errorf("Keyframe(%d) = %v, %d bytes, %v; want t=%v, %d bytes", i, kt, len(kb), ok, wk.t, len(wk.state))
		}
		if _, err := state.Parse(kb, path); err != nil {
			t.Errorf("keyframe of frame %d: %v", i, err)
		}
	}
	if contacts == 0 || suppressed == 0 {
		t.Errorf("the recorded run has %d contacts, %d suppressed: the test does not exercise them", contacts, suppressed)
	}
	if _, err := rd.Frame(len(r.frames)); err == nil {
		t.Error("Frame(Len()) gave no error")
	}
}

// A file cut at any byte of its last three frames opens up to the last
// frame whose chunk is complete, with a note naming the byte, the frame
// count and the last time; a cut at a chunk boundary has no note.
func TestTruncated(t *testing.T) {
	r := record(t, 8, 10)
	n := len(r.frames)
	bounds := map[int]bool{} // the ends of chunks
	for off := fileHead; off < len(r.data); {
		off += chunkOverhead + int(binary.LittleEndian.Uint32(r.data[off+1:]))
		bounds[off] = true
	}
	for cut := r.starts[n-3]; cut <= len(r.data); cut++ {
		rd, err := memReader(t, r.data[:cut])
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		want := 0
		for want < n && r.ends[want] <= cut {
			want++
		}
		if rd.Len() != want {
			t.Fatalf("cut at %d of %d: %d frames, want %d", cut, len(r.data), rd.Len(), want)
		}
		note := rd.Note()
		boundary := bounds[cut]
		switch {
		case boundary && note != "":
			t.Errorf("cut at a chunk's end %d: note %q", cut, note)
		case !boundary && (!strings.Contains(note, fmt.Sprintf("%d frames", want)) ||
			!strings.Contains(note, fmt.Sprintf("t=%.9g s", r.frames[want-1].Stats.Time))):
			t.Errorf("cut at %d: note %q lacks %d frames and t=%.9g s", cut, note, want, r.frames[want-1].Stats.Time)
		}
		got, err := rd.Frame(want - 1)
		if err != nil {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		compare(t, want-1, r.frames[want-1], got, "pile-of-blocks")
	}
}

// A checksum mismatch in a middle frame stops the index before it, with
// a note saying so and where; the frames before it read.
func TestCorruptMidFile(t *testing.T) {
	r := record(t, 8, 10)
	k := 4
	data := append([]byte(nil), r.data...)
	data[r.ends[k]-20] ^= 0x40 // inside frame k's contact data
	rd, err := memReader(t, data)
	if err != nil {
		t.Fatal(err)
	}
	if rd.Len() != k {
		t.Fatalf("%d frames, want %d (stopped at the damaged one)", rd.Len(), k)
	}
	note := rd.Note()
	for _, s := range []string{"checksum mismatch", "mem.grec", fmt.Sprintf("%d frames", k), fmt.Sprintf("t=%.9g s", r.frames[k-1].Stats.Time)} {
		if !strings.Contains(note, s) {
			t.Errorf("note %q lacks %q", note, s)
		}
	}
	for i := range k {
		got, err := rd.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, i, r.frames[i], got, "pile-of-blocks")
	}
}

// Any single damaged byte or any cut of a small recording opens (or is an
// error naming the file) and every indexed frame decodes or errs: no panic.
func TestDamageNeverPanics(t *testing.T) {
	r := record(t, 3, 5)
	for i := range r.data {
		for _, bit := range []byte{0x01, 0x80} {
			data := append([]byte(nil), r.data...)
			data[i] ^= bit
			rd, err := memReader(t, data)
			if err != nil {
				if !strings.Contains(err.Error(), "mem.grec") {
					t.Fatalf("byte %d: error without the file name: %v", i, err)
				}
				continue
			}
			for f := range rd.Len() {
				rd.Frame(f)
				rd.Keyframe(f)
			}
		}
	}
}

// Not a recording, another version, a file too short for its head, and a
// head without a header chunk are errors naming the file.
func TestBadFiles(t *testing.T) {
	r := record(t, 1, 1)
	v2 := append([]byte(nil), r.data...)
	v2[len(Magic)] = 2
	for _, c := range []struct {
		data []byte
		want string
	}{
		{[]byte("ITEM: TIMESTEP\n0\n"), "not a Grainlab recording"},
		{nil, "shorter than the file head"},
		{r.data[:5], "shorter than the file head"},
		{v2, "version 2"},
		{r.data[:fileHead], "no header chunk"},
		{r.data[:fileHead+3], "no complete header chunk"},
	} {
		_, err := memReader(t, c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "mem.grec") {
			t.Errorf("%.20q: error %v, want one naming mem.grec with %q", c.data, err, c.want)
		}
	}
}

// A Reader of a file still being written sees, after Refresh, the frames
// completed since, and not a chunk half written.
func TestRefresh(t *testing.T) {
	r := record(t, 6, 10)
	path := filepath.Join(t.TempDir(), "live.grec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(r.data[:r.ends[1]])
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if rd.Len() != 2 {
		t.Fatalf("%d frames, want 2", rd.Len())
	}
	half := (r.starts[3] + r.ends[3]) / 2
	f.Write(r.data[r.ends[1]:half])
	if n, err := rd.Refresh(); n != 1 || err != nil || rd.Note() == "" {
		t.Fatalf("Refresh with frame 3 half written: %d new frames, %v, note %q; want 1 and a note", n, err, rd.Note())
	}
	f.Write(r.data[half:])
	if n, err := rd.Refresh(); n != len(r.frames)-3 || err != nil || rd.Note() != "" {
		t.Fatalf("Refresh: %d new frames, %v, note %q; want %d", n, err, rd.Note(), len(r.frames)-3)
	}
	for i := range r.frames {
		got, err := rd.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, i, r.frames[i], got, "pile-of-blocks")
	}
}

// childEnv makes the test binary a writer that records pile-of-blocks to
// the file it names, frame after frame, until it is killed.
const childEnv = "GRAINLAB_RECORD_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		w, err := build("pile-of-blocks")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		rw, err := Create(path, Header{Scene: w.Name})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var prev *snap.Snapshot
		ppid, start := os.Getppid(), time.Now()
		// Until killed; a guard against an orphan: stop when the parent
		// test is gone, after 2 minutes or at 100 MB.
		for os.Getppid() == ppid && time.Since(start) < 2*time.Minute && rw.Bytes() < 100<<20 {
			prev = w.Snapshot(prev)
			if err := rw.WriteFrame(prev); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if _, err := w.Integrator.Step(w, 1); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A writing process killed (SIGKILL: no chance to close) leaves a file
// that opens with every complete frame, the last one decoding.
func TestKilledWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "killed.grec")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if st, err := os.Stat(path); err == nil && st.Size() > 200_000 {
			break
		}
		if time.Now().After(deadline) { // a hang guard, not a measurement
			cmd.Process.Kill()
			t.Fatalf("no recording after 60 s: %s", stderr.String())
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	n := rd.Len()
	if n < 2 {
		t.Fatalf("%d frames", n)
	}
	prev, step := -1.0, int64(-1)
	first, err := rd.Frame(0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		s, err := rd.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		if s.Stats.Time <= prev || s.Stats.Step <= step || len(s.Bodies) != len(first.Bodies) {
			t.Fatalf("frame %d: t=%v step %d, %d bodies after t=%v step %d", i, s.Stats.Time, s.Stats.Step, len(s.Bodies), prev, step)
		}
		prev, step = s.Stats.Time, s.Stats.Step
	}
	t.Logf("killed writer: %d frames readable; note %q", n, rd.Note())
}

// One goroutine appends to a file while others Refresh and decode frames
// (run with -race): every frame indexed decodes to what was written.
func TestConcurrentRefresh(t *testing.T) {
	r := record(t, 8, 5)
	path := filepath.Join(t.TempDir(), "live.grec")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Write(r.data[:r.ends[0]])
	rd, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for off := r.ends[0]; off < len(r.data); off += 997 { // pieces that cut chunks
			f.Write(r.data[off:min(off+997, len(r.data))])
		}
	}()
	check := func() {
		for i := range rd.Len() {
			got, err := rd.Frame(i)
			if err != nil {
				t.Error(err)
				return
			}
			if got.Stats.Time != r.frames[i].Stats.Time || len(got.Contacts) != len(r.frames[i].Contacts) {
				t.Errorf("frame %d: t=%v, %d contacts; want %v, %d", i, got.Stats.Time, len(got.Contacts), r.frames[i].Stats.Time, len(r.frames[i].Contacts))
			}
		}
	}
	readers := make(chan struct{})
	for range 2 {
		go func() {
			defer func() { readers <- struct{}{} }()
			for k := 0; k < 50; k++ {
				if _, err := rd.Refresh(); err != nil {
					t.Error(err)
					return
				}
				check()
			}
		}()
	}
	<-readers
	<-readers
	<-done
	if _, err := rd.Refresh(); err != nil || rd.Len() != len(r.frames) || rd.Note() != "" {
		t.Fatalf("after the writer: %d frames of %d, %v, note %q", rd.Len(), len(r.frames), err, rd.Note())
	}
	check()
}

// chunks splits a recording after its file head into its chunks (type and
// payload), for tests that rewrite a file.
func chunks(t *testing.T, data []byte) (types []byte, payloads [][]byte) {
	t.Helper()
	for off := fileHead; off < len(data); {
		n := int(binary.LittleEndian.Uint32(data[off+1:]))
		types = append(types, data[off])
		payloads = append(payloads, data[off+5:off+5+n])
		off += chunkOverhead + n
	}
	return types, payloads
}

// The default scene (box-of-tetrapods: generated bodies, polyhedral meshes)
// recorded for a few steps reads back with the live snapshots' body groups
// and mesh edge tables (the inspector's generator names and edge
// highlights); the same file without its groups and edges chunks (what this
// package wrote before them) still reads, every other field unchanged, with
// empty groups and no edges.
func TestGroupsAndEdges(t *testing.T) {
	w := load(t, "box-of-tetrapods")
	var buf bytes.Buffer
	rw, err := NewWriter(&buf, Header{Scene: w.Name})
	if err != nil {
		t.Fatal(err)
	}
	var want []*snap.Snapshot
	var prev *snap.Snapshot
	for range 3 {
		s := w.Snapshot(prev)
		prev = s
		if err := rw.WriteFrame(s); err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
	}
	grouped, edges := 0, 0
	for _, b := range want[0].Bodies {
		if b.Group != "" {
			grouped++
		}
	}
	for _, m := range want[0].Meshes {
		edges += len(m.Edges)
	}
	if grouped == 0 || edges == 0 {
		t.Fatalf("the default scene has %d grouped bodies and %d mesh edges: the test does not exercise them", grouped, edges)
	}

	rd, err := memReader(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if rd.Note() != "" || rd.Len() != len(want) {
		t.Fatalf("%d frames (note %q), want %d", rd.Len(), rd.Note(), len(want))
	}
	for i, s := range want {
		got, err := rd.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, i, s, got, w.Name) // groups and edges included
	}

	// The same file as written before the groups and edges chunks.
	old := append([]byte(nil), buf.Bytes()[:fileHead]...)
	types, payloads := chunks(t, buf.Bytes())
	dropped := 0
	for k, typ := range types {
		if typ == chunkEdges || typ == chunkGroups {
			dropped++
			continue
		}
		old = appendChunk(old, typ, payloads[k])
	}
	if dropped == 0 {
		t.Fatal("the recording has no groups or edges chunk")
	}
	rd, err = memReader(t, old)
	if err != nil {
		t.Fatal(err)
	}
	if rd.Note() != "" || rd.Len() != len(want) {
		t.Fatalf("old format: %d frames (note %q), want %d", rd.Len(), rd.Note(), len(want))
	}
	for i, s := range want {
		got, err := rd.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		plain := *s
		plain.Bodies = slices.Clone(s.Bodies)
		for k := range plain.Bodies {
			plain.Bodies[k].Group = ""
		}
		plain.Meshes = slices.Clone(s.Meshes)
		for k := range plain.Meshes {
			plain.Meshes[k].Edges = nil
		}
		compare(t, i, &plain, got, w.Name)
	}
}

// A groups chunk whose body count is not its layout's, or one before any
// layout, stops the scan there with a note; an edges chunk naming a vertex
// the mesh does not have is damage too. Frames before them still read.
func TestBadGroupsAndEdges(t *testing.T) {
	w := load(t, "box-of-tetrapods")
	var buf bytes.Buffer
	rw, err := NewWriter(&buf, Header{Scene: w.Name})
	if err != nil {
		t.Fatal(err)
	}
	if err := rw.WriteFrame(w.Snapshot(nil)); err != nil {
		t.Fatal(err)
	}
	types, payloads := chunks(t, buf.Bytes())
	for _, tc := range []struct {
		name string
		edit func(typ byte, p []byte) []byte // nil: drop the chunk
		note string
	}{
		{"groups count", func(typ byte, p []byte) []byte {
			if typ == chunkGroups {
				var e enc
				e.u(1)
				e.u(0)
				return e.b
			}
			return p
		}, "groups chunk of 1 bodies"},
		{"groups first", func(typ byte, p []byte) []byte {
			if typ == chunkLayout {
				return nil
			}
			return p
		}, "groups chunk before any layout"},
		{"edge vertex", func(typ byte, p []byte) []byte {
			if typ == chunkEdges {
				var e enc
				e.u(0)
				e.u(1)
				e.u(0)
				e.u(1 << 20)
				return e.b
			}
			return p
		}, "index out of range"},
	} {
		data := append([]byte(nil), buf.Bytes()[:fileHead]...)
		for k, typ := range types {
			if p := tc.edit(typ, payloads[k]); p != nil {
				data = appendChunk(data, typ, p)
			}
		}
		rd, err := memReader(t, data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !strings.Contains(rd.Note(), tc.note) || rd.Len() != 0 {
			t.Errorf("%s: %d frames, note %q; want 0 frames and a note with %q", tc.name, rd.Len(), rd.Note(), tc.note)
		}
	}
}
