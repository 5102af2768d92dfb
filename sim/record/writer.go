package record

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Header is what a recording says about the whole run.
type Header struct {
	Scene string // the scene's name
}

// Writer appends frames and keyframes to a recording. Each frame (with the
// mesh, string and layout chunks it needs first) goes to the underlying
// io.Writer in one Write call, so a process killed at any instant leaves
// every frame before the one in flight readable. Not safe for concurrent use.
type Writer struct {
	out    io.Writer
	closer io.Closer // the file of Create; nil for NewWriter
	err    error     // the first write error: every later call returns it

	meshes  []snap.Mesh        // the file's mesh table
	meshIDs map[meshKey]uint64 // mesh identity → index in meshes
	strs    map[string]uint64  // the intern table
	nstrs   uint64

	layout layoutKey // of the last layout chunk written
	have   bool      // a layout has been written

	frames, keyframes int
	last              snap.Stats // of the last frame written
	bytes             int64
	buf, pay          []byte
}

// meshKey identifies a mesh by the identity of its arrays (the world shares
// them between snapshots), so the common case needs no comparison.
type meshKey struct {
	name   string
	v0     *geom.Vec3
	t0     *[3]int32
	nv, nt int
}

func keyOf(m *snap.Mesh) meshKey {
	k := meshKey{name: m.Name, nv: len(m.Verts), nt: len(m.Tris)}
	if len(m.Verts) > 0 {
		k.v0 = &m.Verts[0]
	}
	if len(m.Tris) > 0 {
		k.t0 = &m.Tris[0]
	}
	return k
}

// layoutKey is what a layout chunk holds: the frame's meshes (as indices
// into the file's mesh table), and the bodies' and walls' constant parts.
type layoutKey struct {
	meshes []uint64
	bodies []bodyConst
	walls  []wallConst
}

type bodyConst struct {
	Name     string
	Mesh     int
	Radius   float64
	Fixed    bool
	Material int
	Group    string
}

type wallConst struct {
	Name       string
	Body, Mesh int
}

// NewWriter starts a recording on out: the magic, the version and the
// header chunk. Meshes, body and wall tables follow with the first frame.
func NewWriter(out io.Writer, h Header) (*Writer, error) {
	w := &Writer{out: out, meshIDs: map[meshKey]uint64{}, strs: map[string]uint64{}}
	b := append([]byte(Magic), 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[len(Magic):], Version)
	var e enc
	e.str(h.Scene)
	b = appendChunk(b, chunkHeader, e.b)
	if err := w.write(b); err != nil {
		return nil, err
	}
	return w, nil
}

// Create creates (or truncates) the file at path and starts a recording in
// it; Close closes the file.
func Create(path string, h Header) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(f, h)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	w.closer = f
	return w, nil
}

func (w *Writer) write(b []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.out.Write(b)
	w.bytes += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = fmt.Errorf("recording: %w", err)
	}
	return w.err
}

// Frames is the number of frames written; Keyframes the number of keyframes.
func (w *Writer) Frames() int { return w.frames }

// Keyframes is the number of keyframes written.
func (w *Writer) Keyframes() int { return w.keyframes }

// Bytes is the number of bytes written so far.
func (w *Writer) Bytes() int64 { return w.bytes }

// Last is the statistics (time, step) of the last frame written.
func (w *Writer) Last() snap.Stats { return w.last }

// intern returns the id of s, queuing a strings chunk entry for a new one.
func (w *Writer) intern(s string, fresh *[]string) uint64 {
	if id, ok := w.strs[s]; ok {
		return id
	}
	id := w.nstrs
	w.nstrs++
	w.strs[s] = id
	*fresh = append(*fresh, s)
	return id
}

// meshID returns the file's index of m, appending a mesh chunk to w.buf for
// a mesh not yet written (equal content under another array is the same mesh).
func (w *Writer) meshID(m *snap.Mesh) uint64 {
	k := keyOf(m)
	if id, ok := w.meshIDs[k]; ok {
		return id
	}
	for id := range w.meshes {
		o := &w.meshes[id]
		if o.Name == m.Name && slices.Equal(o.Verts, m.Verts) && slices.Equal(o.Tris, m.Tris) && slices.Equal(o.Edges, m.Edges) {
			w.meshIDs[k] = uint64(id)
			return uint64(id)
		}
	}
	id := uint64(len(w.meshes))
	w.meshes = append(w.meshes, *m)
	w.meshIDs[k] = id
	var e enc
	e.str(m.Name)
	e.u(uint64(len(m.Verts)))
	for _, v := range m.Verts {
		e.f64(v.X)
		e.f64(v.Y)
		e.f64(v.Z)
	}
	e.u(uint64(len(m.Tris)))
	for _, t := range m.Tris {
		e.u(uint64(uint32(t[0])))
		e.u(uint64(uint32(t[1])))
		e.u(uint64(uint32(t[2])))
	}
	w.buf = appendChunk(w.buf, chunkMesh, e.b)
	if len(m.Edges) > 0 {
		e = enc{}
		e.u(id)
		e.u(uint64(len(m.Edges)))
		for _, ed := range m.Edges {
			e.u(uint64(uint32(ed[0])))
			e.u(uint64(uint32(ed[1])))
		}
		w.buf = appendChunk(w.buf, chunkEdges, e.b)
	}
	return id
}

// layoutOf returns s's layout, reusing cur's slices when s's equals it.
func (w *Writer) layoutOf(s *snap.Snapshot, cur *layoutKey) (layoutKey, bool) {
	same := w.have && len(s.Meshes) == len(cur.meshes) && len(s.Bodies) == len(cur.bodies) && len(s.Walls) == len(cur.walls)
	ids := make([]uint64, len(s.Meshes))
	for i := range s.Meshes {
		ids[i] = w.meshID(&s.Meshes[i])
		same = same && ids[i] == cur.meshes[i]
	}
	if same {
		for i := range s.Bodies {
			b := &s.Bodies[i]
			c := &cur.bodies[i]
			if b.Mesh != c.Mesh || b.Radius != c.Radius || b.Fixed != c.Fixed || b.Material != c.Material || b.Name != c.Name || b.Group != c.Group {
				same = false
				break
			}
		}
	}
	if same {
		for i, wl := range s.Walls {
			if c := cur.walls[i]; wl.Name != c.Name || wl.Body != c.Body || wl.Mesh != c.Mesh {
				same = false
				break
			}
		}
	}
	if same {
		return *cur, true
	}
	l := layoutKey{meshes: ids, bodies: make([]bodyConst, len(s.Bodies)), walls: make([]wallConst, len(s.Walls))}
	for i, b := range s.Bodies {
		l.bodies[i] = bodyConst{Name: b.Name, Mesh: b.Mesh, Radius: b.Radius, Fixed: b.Fixed, Material: b.Material, Group: b.Group}
	}
	for i, wl := range s.Walls {
		l.walls[i] = wallConst{Name: wl.Name, Body: wl.Body, Mesh: wl.Mesh}
	}
	return l, false
}

// checkIndices refuses a snapshot whose indices point outside its tables
// (a reader would refuse the frame).
func checkIndices(s *snap.Snapshot) error {
	nm, nb := len(s.Meshes), len(s.Bodies)
	for i, b := range s.Bodies {
		if b.Mesh < 0 || b.Mesh >= nm {
			return fmt.Errorf("body %d (%s): mesh %d of %d", i, b.Name, b.Mesh, nm)
		}
	}
	for i, wl := range s.Walls {
		if wl.Body < 0 || wl.Body >= nb || wl.Mesh < 0 || wl.Mesh >= nm {
			return fmt.Errorf("wall %d (%s): body %d of %d, mesh %d of %d", i, wl.Name, wl.Body, nb, wl.Mesh, nm)
		}
	}
	for i, c := range s.Contacts {
		if c.A < 0 || c.A >= nb || c.B < 0 || c.B >= nb || c.Kind >= snap.NumContactKinds {
			return fmt.Errorf("contact %d: bodies %d, %d of %d, kind %d", i, c.A, c.B, nb, c.Kind)
		}
	}
	return nil
}

// Contact flag bits beside the kind (low 3 bits) in a contact's first byte.
const (
	flagSliding    = 1 << 3
	flagSuppressed = 1 << 4
	flagSwap       = 1 << 5 // snap.Contact.Swap (0 in files written before it)
)

// WriteFrame appends s as the next frame. Poses, velocities and wall
// forces are stored as float64 (a scrubbed frame is the live one, bit for
// bit); contact points, normals, gaps and forces and the bodies' summed
// contact force as float32 (docs/recording.md).
func (w *Writer) WriteFrame(s *snap.Snapshot) error {
	if w.err != nil {
		return w.err
	}
	if err := checkIndices(s); err != nil {
		return fmt.Errorf("recording: frame at t=%g s: %w", s.Stats.Time, err)
	}
	w.buf = w.buf[:0]
	l, same := w.layoutOf(s, &w.layout)
	var fresh []string
	st := &s.Stats
	integ := w.intern(st.Integrator, &fresh)
	var groups []uint64 // the bodies' group ids when the layout changes and a body has a group
	if !same && slices.ContainsFunc(l.bodies, func(b bodyConst) bool { return b.Group != "" }) {
		groups = make([]uint64, len(l.bodies))
		for i, b := range l.bodies {
			groups[i] = w.intern(b.Group, &fresh)
		}
	}
	ruleOf := map[string]uint64{}
	for i := range s.Contacts {
		r := s.Contacts[i].SuppressedBy
		if _, ok := ruleOf[r]; !ok {
			ruleOf[r] = w.intern(r, &fresh)
		}
	}
	if len(fresh) > 0 {
		var e enc
		e.u(uint64(len(fresh)))
		for _, x := range fresh {
			e.str(x)
		}
		w.buf = appendChunk(w.buf, chunkStrings, e.b)
	}
	if !same {
		var e enc
		e.u(uint64(len(l.meshes)))
		for _, id := range l.meshes {
			e.u(id)
		}
		e.u(uint64(len(l.bodies)))
		for _, b := range l.bodies {
			e.str(b.Name)
			e.u(uint64(b.Mesh))
			e.f64(b.Radius)
			e.byte1(b2u(b.Fixed))
			e.i(int64(b.Material))
		}
		e.u(uint64(len(l.walls)))
		for _, wl := range l.walls {
			e.str(wl.Name)
			e.u(uint64(wl.Body))
			e.u(uint64(wl.Mesh))
		}
		w.buf = appendChunk(w.buf, chunkLayout, e.b)
		w.layout, w.have = l, true
	}
	if groups != nil {
		var e enc
		e.u(uint64(len(groups)))
		for _, g := range groups {
			e.u(g)
		}
		w.buf = appendChunk(w.buf, chunkGroups, e.b)
	}

	e := enc{b: w.pay[:0]}
	e.f64(st.Time) // first: the reader indexes frames by time without decoding them
	e.i(st.Step)
	e.f64(st.Dt)
	e.f64(st.Kinetic)
	e.f64(st.PotentialGravity)
	e.f64(st.PotentialContact)
	e.i(int64(st.Contacts))
	for _, n := range st.ByKind {
		e.i(int64(n))
	}
	e.i(int64(st.Suppressed))
	e.i(st.NightOwls)
	e.i(st.Rejected)
	e.f64(st.StepsPerSecond)
	e.u(integ)
	e.i(int64(st.NewtonIters))
	e.i(int64(st.LinearIters))
	e.f64(st.Residual)
	e.i(st.SQFailures)
	e.f64(s.SkinGap)

	e.u(uint64(len(s.Bodies)))
	for i := range s.Bodies {
		b := &s.Bodies[i]
		e.f64(b.Pos.X)
		e.f64(b.Pos.Y)
		e.f64(b.Pos.Z)
		e.f64(b.Rot.W)
		e.f64(b.Rot.X)
		e.f64(b.Rot.Y)
		e.f64(b.Rot.Z)
		e.f64(b.Vel.X)
		e.f64(b.Vel.Y)
		e.f64(b.Vel.Z)
		e.f64(b.AngVel.X)
		e.f64(b.AngVel.Y)
		e.f64(b.AngVel.Z)
		e.f32(b.ContactForce)
	}
	e.u(uint64(len(s.Walls)))
	for i := range s.Walls {
		wl := &s.Walls[i]
		e.byte1(b2u(wl.Enabled))
		e.f64(wl.Force.X)
		e.f64(wl.Force.Y)
		e.f64(wl.Force.Z)
	}
	e.u(uint64(len(s.Contacts)))
	for i := range s.Contacts {
		c := &s.Contacts[i]
		e.u(uint64(c.A))
		e.u(uint64(c.B))
		e.i(int64(c.FeatA))
		e.i(int64(c.FeatB))
		fl := byte(c.Kind)
		if c.Sliding {
			fl |= flagSliding
		}
		if c.Suppressed {
			fl |= flagSuppressed
		}
		if c.Swap {
			fl |= flagSwap
		}
		e.byte1(fl)
		e.u(ruleOf[c.SuppressedBy])
		e.f32(c.Point.X)
		e.f32(c.Point.Y)
		e.f32(c.Point.Z)
		e.f32(c.Normal.X)
		e.f32(c.Normal.Y)
		e.f32(c.Normal.Z)
		e.f32(c.Gap)
		e.f32(c.Fn)
		e.f32(c.Ft.X)
		e.f32(c.Ft.Y)
		e.f32(c.Ft.Z)
	}
	w.pay = e.b
	if len(e.b) > maxChunk {
		return fmt.Errorf("recording: frame at t=%g s is %d bytes (limit %d)", st.Time, len(e.b), maxChunk)
	}
	w.buf = appendChunk(w.buf, chunkFrame, e.b)
	if err := w.write(w.buf); err != nil {
		return err
	}
	w.frames++
	w.last = *st
	return nil
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// WriteKeyframe appends a keyframe: the simulated time t and the bytes of a
// state file (state.Encode) from which a run resumes at t.
func (w *Writer) WriteKeyframe(t float64, state []byte) error {
	if w.err != nil {
		return w.err
	}
	if len(state)+8 > maxChunk {
		return fmt.Errorf("recording: keyframe at t=%g s is %d bytes (limit %d)", t, len(state), maxChunk)
	}
	var e enc
	e.f64(t)
	e.b = append(e.b, state...)
	if err := w.write(appendChunk(nil, chunkKeyframe, e.b)); err != nil {
		return err
	}
	w.keyframes++
	return nil
}

// Close closes the file of Create (a NewWriter's io.Writer is the caller's
// to close). Every frame is already written: Close adds nothing.
func (w *Writer) Close() error {
	if w.closer == nil {
		return nil
	}
	err := w.closer.Close()
	w.closer = nil
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	return nil
}
