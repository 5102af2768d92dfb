package record

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sync"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Reader reads a recording: an index of its frames and keyframes built by
// scanning the chunk headers and checksums, frames decoded on demand. It
// implements snap.Frames. A file cut short or damaged reads up to the last
// complete chunk before the damage (Note says where it stopped); Refresh
// reads chunks a writer has added since. Safe for concurrent use.
type Reader struct {
	mu   sync.Mutex
	name string
	src  io.ReaderAt
	size func() (int64, error)
	file *os.File // of Open; closed by Close

	scene   string
	meshes  []snap.Mesh // the file's mesh table
	strs    []string    // the intern table
	layouts []*layout
	frames  []frameRef
	keys    []keyRef
	end     int64  // offset after the last good chunk
	note    string // where and why the last scan stopped before the end of the file; "" if it did not
}

// layout is a decoded layout chunk: what frames after it share.
type layout struct {
	meshes []snap.Mesh // the frames' Snapshot.Meshes (shared by all of them)
	bodies []snap.Body // constant parts (name, mesh, radius, fixed, material, group)
	walls  []snap.Wall // constant parts (name, body, mesh)
}

type frameRef struct {
	off    int64 // of the payload
	n      int   // payload length
	t      float64
	step   int64
	layout int
}

type keyRef struct {
	off int64 // of the state bytes
	n   int
	t   float64
}

// Open opens the recording at path and indexes it. A file with a complete
// header but a torn or damaged tail opens (Note says where it stopped); a
// file that is not a recording, of another version, or without a complete
// header is an error naming the file.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	size := func() (int64, error) {
		st, err := f.Stat()
		if err != nil {
			return 0, err
		}
		return st.Size(), nil
	}
	r, err := NewReader(f, size, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

// NewReader reads a recording from src, whose current length size reports
// (it may grow: Refresh); name is used in messages. Errors as for Open.
func NewReader(src io.ReaderAt, size func() (int64, error), name string) (*Reader, error) {
	r := &Reader{name: name, src: src, size: size}
	n, err := size()
	if err != nil {
		return nil, err
	}
	head := make([]byte, fileHead)
	if m, _ := src.ReadAt(head, 0); m < fileHead {
		if m >= 0 && string(head[:min(m, len(Magic))]) == Magic[:min(m, len(Magic))] && n < int64(fileHead) {
			return nil, fmt.Errorf("%s: not a complete recording: %d bytes, shorter than the file head (%d bytes)", name, n, fileHead)
		}
		return nil, fmt.Errorf("%s: not a Grainlab recording (no %q at the start)", name, Magic)
	}
	if string(head[:len(Magic)]) != Magic {
		return nil, fmt.Errorf("%s: not a Grainlab recording (no %q at the start)", name, Magic)
	}
	if v := binary.LittleEndian.Uint32(head[len(Magic):]); v != Version {
		return nil, fmt.Errorf("%s: recording format version %d; this Grainlab reads version %d", name, v, Version)
	}
	r.end = int64(fileHead)
	if err := r.scan(); err != nil {
		return nil, err
	}
	if r.scene == "" && len(r.layouts) == 0 && r.end == int64(fileHead) {
		if r.note != "" {
			return nil, fmt.Errorf("%s: no complete header chunk: %s", name, r.note)
		}
		return nil, fmt.Errorf("%s: no header chunk", name)
	}
	return r, nil
}

// Refresh indexes the complete chunks added since the last scan (a
// recording still being written) and returns how many frames it added.
func (r *Reader) Refresh() (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.frames)
	err := r.scan()
	return len(r.frames) - n, err
}

// scan indexes chunks from r.end to the end of the file or the first
// incomplete or damaged chunk (r.note says which); r.mu is held. Errors are
// only those of reading the source.
func (r *Reader) scan() error {
	size, err := r.size()
	if err != nil {
		return fmt.Errorf("%s: %w", r.name, err)
	}
	r.note = ""
	var hdr [5]byte
	var buf []byte
	for r.end < size {
		off := r.end
		stop := func(why string) {
			last := "no frame"
			if n := len(r.frames); n > 0 {
				f := r.frames[n-1]
				last = fmt.Sprintf("%d frames, the last at t=%.9g s (step %d)", n, f.t, f.step)
			}
			r.note = fmt.Sprintf("%s: stopped at byte %d of %d: %s; read %s", r.name, off, size, why, last)
		}
		if size-off < int64(len(hdr)) {
			stop("the file ends inside a chunk header (a run killed or still writing)")
			return nil
		}
		if _, err := r.src.ReadAt(hdr[:], off); err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		typ := hdr[0]
		n := int64(binary.LittleEndian.Uint32(hdr[1:]))
		if n > maxChunk {
			stop(fmt.Sprintf("a chunk length of %d bytes (damaged)", n))
			return nil
		}
		total := int64(len(hdr)) + n + 4
		if size-off < total {
			stop(fmt.Sprintf("the file ends inside a chunk of %d bytes (a run killed or still writing)", total))
			return nil
		}
		if int64(cap(buf)) < total {
			buf = make([]byte, total)
		}
		buf = buf[:total]
		if _, err := r.src.ReadAt(buf, off); err != nil {
			return fmt.Errorf("%s: %w", r.name, err)
		}
		if crc32.Checksum(buf[:total-4], castagnoli) != binary.LittleEndian.Uint32(buf[total-4:]) {
			stop(fmt.Sprintf("checksum mismatch in the %q chunk of %d bytes (damaged, or being written)", typ, total))
			return nil
		}
		if why := r.index(typ, buf[len(hdr):total-4], off+int64(len(hdr))); why != "" {
			stop(why)
			return nil
		}
		r.end = off + total
	}
	return nil
}

// index takes one checksummed chunk into the index; it returns why not if
// the chunk cannot be used (then the scan stops before it).
func (r *Reader) index(typ byte, p []byte, off int64) string {
	first := r.end == int64(fileHead)
	if first != (typ == chunkHeader) {
		if first {
			return fmt.Sprintf("the first chunk is %q, not the header", typ)
		}
		return "a second header chunk"
	}
	d := dec{b: p}
	switch typ {
	case chunkHeader:
		r.scene = d.str()
	case chunkMesh:
		m := snap.Mesh{Name: d.str()}
		m.Verts = make([]geom.Vec3, d.count(24))
		for i := range m.Verts {
			m.Verts[i] = geom.V(d.f64(), d.f64(), d.f64())
		}
		m.Tris = make([][3]int32, d.count(3))
		for i := range m.Tris {
			for k := range 3 {
				m.Tris[i][k] = int32(d.index(len(m.Verts)))
			}
		}
		if d.err == nil {
			r.meshes = append(r.meshes, m)
		}
	case chunkEdges:
		k := d.index(len(r.meshes))
		var m *snap.Mesh
		nv := 0
		if d.err == nil {
			m = &r.meshes[k]
			nv = len(m.Verts)
		}
		edges := make([][2]int32, d.count(2))
		for i := range edges {
			edges[i] = [2]int32{int32(d.index(nv)), int32(d.index(nv))}
		}
		if d.err == nil {
			m.Edges = edges // layouts after this chunk copy it with the mesh
		}
	case chunkStrings:
		n := d.count(1)
		add := make([]string, n)
		for i := range add {
			add[i] = d.str()
		}
		if d.err == nil {
			r.strs = append(r.strs, add...)
		}
	case chunkLayout:
		l := &layout{meshes: make([]snap.Mesh, d.count(1))}
		for i := range l.meshes {
			if k := d.index(len(r.meshes)); d.err == nil {
				l.meshes[i] = r.meshes[k]
			}
		}
		l.bodies = make([]snap.Body, d.count(12))
		for i := range l.bodies {
			b := &l.bodies[i]
			b.Name = d.str()
			b.Mesh = d.index(len(l.meshes))
			b.Radius = d.f64()
			b.Fixed = d.byte1() != 0
			b.Material = int(d.i())
		}
		l.walls = make([]snap.Wall, d.count(3))
		for i := range l.walls {
			wl := &l.walls[i]
			wl.Name = d.str()
			wl.Body = d.index(len(l.bodies))
			wl.Mesh = d.index(len(l.meshes))
		}
		if d.err == nil {
			r.layouts = append(r.layouts, l)
		}
	case chunkGroups:
		if len(r.layouts) == 0 {
			return "a groups chunk before any layout chunk"
		}
		old := r.layouts[len(r.layouts)-1]
		if n := d.u(); d.err == nil && n != uint64(len(old.bodies)) {
			return fmt.Sprintf("a groups chunk of %d bodies after a layout of %d", n, len(old.bodies))
		}
		// A new layout value, not an edit of the old one: Frame may be
		// decoding from it concurrently.
		l := &layout{meshes: old.meshes, bodies: slices.Clone(old.bodies), walls: old.walls}
		for i := range l.bodies {
			l.bodies[i].Group = interned(&d, r.strs)
		}
		if d.err == nil {
			r.layouts[len(r.layouts)-1] = l
		}
	case chunkFrame:
		if len(r.layouts) == 0 {
			return "a frame before any layout chunk"
		}
		t := d.f64()
		step := d.i()
		if d.err == nil {
			r.frames = append(r.frames, frameRef{off: off, n: len(p), t: t, step: step, layout: len(r.layouts) - 1})
		}
	case chunkKeyframe:
		t := d.f64()
		if d.err == nil {
			r.keys = append(r.keys, keyRef{off: off + 8, n: len(p) - 8, t: t})
		}
	default: // a chunk of a later minor addition: skipped
	}
	if d.err != nil {
		return fmt.Sprintf("the %q chunk does not decode (%v)", typ, d.err)
	}
	return ""
}

// Scene is the recorded scene's name.
func (r *Reader) Scene() string { return r.scene }

// Note says where and why the last scan stopped before the end of the file
// (a torn tail: the frame count and the last frame's time); "" when the
// whole file was read.
func (r *Reader) Note() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.note
}

// Len is the number of complete frames indexed.
func (r *Reader) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.frames)
}

// Time is the simulated time of frame i.
func (r *Reader) Time(i int) float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames[i].t
}

// Keyframes is the number of keyframes indexed.
func (r *Reader) Keyframes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.keys)
}

// Keyframe returns the latest keyframe at or before frame i (its time ≤
// Time(i)): its time and the bytes of its state file (state.Parse reads
// them); ok is false when there is none or it cannot be read.
func (r *Reader) Keyframe(i int) (t float64, state []byte, ok bool) {
	r.mu.Lock()
	if i < 0 || i >= len(r.frames) {
		r.mu.Unlock()
		return 0, nil, false
	}
	ti := r.frames[i].t
	k := -1
	for j := len(r.keys) - 1; j >= 0; j-- {
		if r.keys[j].t <= ti {
			k = j
			break
		}
	}
	if k < 0 {
		r.mu.Unlock()
		return 0, nil, false
	}
	kr := r.keys[k]
	r.mu.Unlock()
	state = make([]byte, kr.n)
	if _, err := r.src.ReadAt(state, kr.off); err != nil {
		return 0, nil, false
	}
	return kr.t, state, true
}

// Frame decodes frame i. Its Meshes are shared with the other frames of
// the same layout.
func (r *Reader) Frame(i int) (*snap.Snapshot, error) {
	r.mu.Lock()
	if i < 0 || i >= len(r.frames) {
		n := len(r.frames)
		r.mu.Unlock()
		return nil, fmt.Errorf("%s: frame %d of %d", r.name, i, n)
	}
	fr := r.frames[i]
	l := r.layouts[fr.layout]
	strs := r.strs
	r.mu.Unlock()
	p := make([]byte, fr.n)
	if _, err := r.src.ReadAt(p, fr.off); err != nil {
		return nil, fmt.Errorf("%s: frame %d: %w", r.name, i, err)
	}
	s, err := decodeFrame(p, l, strs)
	if err != nil {
		return nil, fmt.Errorf("%s: frame %d (t=%.9g s): %w", r.name, i, fr.t, err)
	}
	s.Scene = r.scene
	return s, nil
}

func decodeFrame(p []byte, l *layout, strs []string) (*snap.Snapshot, error) {
	d := dec{b: p}
	s := &snap.Snapshot{Meshes: l.meshes}
	st := &s.Stats
	st.Time = d.f64()
	st.Step = d.i()
	st.Dt = d.f64()
	st.Kinetic = d.f64()
	st.PotentialGravity = d.f64()
	st.PotentialContact = d.f64()
	st.Contacts = int(d.i())
	for k := range st.ByKind {
		st.ByKind[k] = int(d.i())
	}
	st.Suppressed = int(d.i())
	st.NightOwls = d.i()
	st.Rejected = d.i()
	st.StepsPerSecond = d.f64()
	st.Integrator = interned(&d, strs)
	st.NewtonIters = int(d.i())
	st.LinearIters = int(d.i())
	st.Residual = d.f64()
	st.SQFailures = d.i()
	s.SkinGap = d.f64()

	if nb := d.u(); d.err == nil && nb != uint64(len(l.bodies)) {
		return nil, fmt.Errorf("%d bodies, its layout has %d", nb, len(l.bodies))
	}
	s.Bodies = make([]snap.Body, len(l.bodies))
	copy(s.Bodies, l.bodies)
	for i := range s.Bodies {
		b := &s.Bodies[i]
		b.Pos = geom.V(d.f64(), d.f64(), d.f64())
		b.Rot = geom.Quat{W: d.f64(), X: d.f64(), Y: d.f64(), Z: d.f64()}
		b.Vel = geom.V(d.f64(), d.f64(), d.f64())
		b.AngVel = geom.V(d.f64(), d.f64(), d.f64())
		b.ContactForce = d.f32()
	}
	if nw := d.u(); d.err == nil && nw != uint64(len(l.walls)) {
		return nil, fmt.Errorf("%d walls, its layout has %d", nw, len(l.walls))
	}
	if len(l.walls) > 0 {
		s.Walls = make([]snap.Wall, len(l.walls))
		copy(s.Walls, l.walls)
	}
	for i := range s.Walls {
		wl := &s.Walls[i]
		wl.Enabled = d.byte1() != 0
		wl.Force = geom.V(d.f64(), d.f64(), d.f64())
	}
	if nc := d.count(50); nc > 0 {
		s.Contacts = make([]snap.Contact, nc)
	}
	nb := len(s.Bodies)
	for i := range s.Contacts {
		c := &s.Contacts[i]
		c.A = d.index(nb)
		c.B = d.index(nb)
		c.FeatA = int32(d.i())
		c.FeatB = int32(d.i())
		fl := d.byte1()
		c.Kind = snap.ContactKind(fl & 7)
		if c.Kind >= snap.NumContactKinds && d.err == nil {
			d.err = fmt.Errorf("contact %d: kind %d", i, c.Kind)
		}
		c.Sliding = fl&flagSliding != 0
		c.Suppressed = fl&flagSuppressed != 0
		c.Swap = fl&flagSwap != 0
		c.SuppressedBy = interned(&d, strs)
		c.Point = geom.V(d.f32(), d.f32(), d.f32())
		c.Normal = geom.V(d.f32(), d.f32(), d.f32())
		c.Gap = d.f32()
		c.Fn = d.f32()
		c.Ft = geom.V(d.f32(), d.f32(), d.f32())
	}
	if d.err != nil {
		return nil, d.err
	}
	return s, nil
}

// Close closes the file of Open (a NewReader's source is the caller's).
func (r *Reader) Close() error {
	if r.file == nil {
		return nil
	}
	err := r.file.Close()
	r.file = nil
	return err
}

var _ snap.Frames = (*Reader)(nil)

// interned reads a string id and returns the string ("" after an error).
func interned(d *dec, strs []string) string {
	i := d.index(len(strs))
	if d.err != nil {
		return ""
	}
	return strs[i]
}
