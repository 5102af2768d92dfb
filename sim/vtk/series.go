package vtk

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// Names of the series under DIR/vtk/ (scripts rely on them; docs/outputs.md).
const (
	Subdir      = "vtk"
	BodiesPVD   = "bodies.pvd"
	ContactsPVD = "contacts.pvd"
	WallsPVD    = "walls.pvd"
	SpheresPVD  = "spheres.pvd"
)

// series are the collections' names, in the order Write writes them:
// spheres (the fourth) only once a frame has a sphere (Series).
var series = [4]string{"bodies", "contacts", "walls", "spheres"}

// Options are a series' choices.
type Options struct {
	// SphereMesh writes the spheres tessellated in bodies.pvd, as before
	// spheres.pvd (grainlab run --vtk-sphere-mesh): ≈ 23 kB a sphere a
	// frame, where spheres.pvd's point takes 80 bytes.
	SphereMesh bool
}

// Series writes one frame per Write into DIR/vtk/: bodies_NNNNNN.vtp,
// contacts_NNNNNN.vtp, walls_NNNNNN.vtp and spheres_NNNNNN.vtp, and
// rewrites the .pvd collections atomically after each frame, so that a run
// killed at any point leaves collections that list only complete frames.
//
// Spheres (the bodies whose mesh is a sphere's, "sphere r=…") are points
// in spheres.pvd (one vertex per sphere with its radius: ParaView's Point
// Gaussian representation or a Glyph filter scaled by radius), not meshes
// in bodies.pvd, unless Options.SphereMesh. A series without a sphere in
// any frame has no spheres.pvd; the first frame with one writes
// spheres.pvd with an empty piece for each earlier frame, so that it lists
// every frame like the other collections.
type Series struct {
	dir     string
	opt     Options
	times   []float64
	spheres bool          // spheres.pvd is written (a frame had a sphere)
	out     *bufio.Writer // a frame's file buffer
	pvd     bytes.Buffer
}

// Create makes DIR/vtk (removing the frames and collections of an earlier
// series there) and returns a Series writing into it, spheres as points.
func Create(dir string) (*Series, error) { return CreateWith(dir, Options{}) }

// CreateWith is Create with options.
func CreateWith(dir string, o Options) (*Series, error) {
	d := filepath.Join(dir, Subdir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	for _, s := range series {
		// Frames only (frameName's six digits or more): a user's spheres_clip.vtp stays.
		old, _ := filepath.Glob(filepath.Join(d, s+"_[0-9][0-9][0-9][0-9][0-9][0-9]*.vtp"))
		old = append(old, filepath.Join(d, s+".pvd"), filepath.Join(d, s+".pvd.tmp"))
		// A killed run's frame being written (writeFrame's temporary name).
		tmp, _ := filepath.Glob(filepath.Join(d, "."+s+"_[0-9][0-9][0-9][0-9][0-9][0-9]*.vtp.tmp"))
		old = append(old, tmp...)
		for _, f := range old {
			if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
				return nil, err
			}
		}
	}
	return &Series{dir: d, opt: o}, nil
}

// Dir is the directory the series is written in (DIR/vtk).
func (s *Series) Dir() string { return s.dir }

// Write adds the snapshot f as the next frame at time f.Stats.Time.
//
// Each of the frame's files is written under a temporary name (".NAME.tmp")
// and renamed into place once complete, and the collections are rewritten
// (through a temporary file and a rename too) only after the frame's last
// file: a reader — or a file-series glob such as ParaView's — never sees
// half a frame, whether the write fails (a full disk) or the process is
// killed. On a failed frame the error names the frame, its time and file;
// the frame's files already in place are removed, and the earlier frames
// and the collections stay as they were (docs/outputs.md).
func (s *Series) Write(f *snap.Snapshot) error {
	k := len(s.times)
	var done []string // frame k's files in place
	fail := func(path string, err error) error {
		for _, d := range done {
			os.Remove(d)
		}
		return fmt.Errorf("frame %d (t = %s s), %s: %w", k, strconv.FormatFloat(f.Stats.Time, 'g', -1, 64), filepath.Base(path), err)
	}
	write := func(name string, p *polyData) error {
		path := filepath.Join(s.dir, name)
		if err := s.writeFrame(path, p); err != nil {
			return fail(path, err)
		}
		done = append(done, path)
		return nil
	}
	sphere := sphereMeshes(f)
	if s.opt.SphereMesh {
		sphere = nil // every mesh in bodies
	}
	for i, p := range [3]*polyData{bodies(f, sphere), contacts(f), walls(f)} {
		if err := write(frameName(series[i], k), p); err != nil {
			return err
		}
	}
	if sp := spheres(f, sphere); sp.npts > 0 || s.spheres {
		for j := 0; !s.spheres && j < k; j++ { // the earlier frames: none (listed by no collection yet)
			if err := write(frameName(series[3], j), spheres(&snap.Snapshot{}, nil)); err != nil {
				return err
			}
		}
		if err := write(frameName(series[3], k), sp); err != nil {
			return err
		}
		s.spheres = true
	}
	s.times = append(s.times, f.Stats.Time)
	if err := s.writePVDs(); err != nil {
		// The frame is complete; a collection may list it or not.
		return fmt.Errorf("frame %d (t = %s s), the collections: %w", k, strconv.FormatFloat(f.Stats.Time, 'g', -1, 64), err)
	}
	return nil
}

// createFrame creates a frame's temporary file; tests replace it to inject
// write failures (a full disk).
var createFrame = func(path string) (io.WriteCloser, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// tmpName is the name a file of the series is written under before its
// rename into place: hidden, and no frame's name (Create removes those a
// killed run left).
func tmpName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
}

// writeFrame writes piece p to path through a buffer (the bodies' arrays
// made as they are written: no copy of the frame in memory), under a
// temporary name renamed to path once complete (on failure removed).
func (s *Series) writeFrame(path string, p *polyData) error {
	tmp := tmpName(path)
	f, err := createFrame(tmp)
	if err != nil {
		return err
	}
	if s.out == nil {
		s.out = bufio.NewWriterSize(f, 1<<20)
	} else {
		s.out.Reset(f)
	}
	p.encode(s.out)
	err = s.out.Flush()
	s.out.Reset(nil) // no reference to the closed file
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// Close ends the series (every collection is already complete on disk).
func (s *Series) Close() error { return nil }

func frameName(series string, k int) string { return fmt.Sprintf("%s_%06d.vtp", series, k) }

// writePVDs rewrites the three collections through a temporary file and
// a rename.
func (s *Series) writePVDs() error {
	for _, name := range series {
		if name == "spheres" && !s.spheres {
			continue
		}
		b := &s.pvd
		b.Reset()
		b.WriteString(`<?xml version="1.0"?>` + "\n")
		b.WriteString(`<VTKFile type="Collection" version="1.0" byte_order="LittleEndian" header_type="UInt64">` + "\n  <Collection>\n")
		for k, t := range s.times {
			fmt.Fprintf(b, `    <DataSet timestep="%s" group="" part="0" file="%s"/>`+"\n",
				strconv.FormatFloat(t, 'g', -1, 64), frameName(name, k))
		}
		b.WriteString("  </Collection>\n</VTKFile>\n")
		path := filepath.Join(s.dir, name+".pvd")
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
			os.Remove(tmp)
			return err
		}
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return nil
}

// isWall marks the bodies of a snapshot that are walls.
func isWall(f *snap.Snapshot) []bool {
	w := make([]bool, len(f.Bodies))
	for _, wl := range f.Walls {
		if wl.Body >= 0 && wl.Body < len(w) {
			w[wl.Body] = true
		}
	}
	return w
}

// bodies is the surface of every body that is not a wall: its mesh (a
// polyhedron's triangles, a sphere's or superquadric's tessellation) at
// its pose, with point arrays body_id (index in the snapshot's bodies),
// velocity, angular_velocity (of the body, rad/s, world frame) and
// material. Every array is made as it is written (gen), body by body, in
// the bytes the arrays held (a frame of 10⁵ spheres: 2.6 GB). The bodies
// whose mesh m has sphere[m] are left out (spheres.pvd has them); sphere
// nil: none is.
func bodies(f *snap.Snapshot, sphere []bool) *polyData {
	p := newPolyData()
	wall := isWall(f)
	var in []int // the bodies drawn
	ntris := 0
	for i := range f.Bodies {
		b := &f.Bodies[i]
		if wall[i] || b.Mesh < 0 || b.Mesh >= len(f.Meshes) || sphere != nil && sphere[b.Mesh] {
			continue
		}
		in = append(in, i)
		p.npts += len(f.Meshes[b.Mesh].Verts)
		ntris += len(f.Meshes[b.Mesh].Tris)
	}
	var sc [24]byte
	// perVert is an array of a body's value at each of its vertices.
	perVert := func(name, typ string, comps, bytes int, put func(dst []byte, b *snap.Body, i int)) *array {
		return &array{name: name, typ: typ, comps: comps, n: p.npts * bytes, gen: func(w *bufio.Writer) {
			for _, i := range in {
				b := &f.Bodies[i]
				put(sc[:0], b, i)
				for range f.Meshes[b.Mesh].Verts {
					w.Write(sc[:bytes])
				}
			}
		}}
	}
	le := binary.LittleEndian
	id := perVert("body_id", "Int32", 1, 4, func(d []byte, _ *snap.Body, i int) { le.AppendUint32(d, uint32(int32(i))) })
	f32 := func(d []byte, v geom.Vec3) {
		d = le.AppendUint32(d, math.Float32bits(float32(v.X)))
		d = le.AppendUint32(d, math.Float32bits(float32(v.Y)))
		le.AppendUint32(d, math.Float32bits(float32(v.Z)))
	}
	vel := perVert("velocity", "Float32", 3, 12, func(d []byte, b *snap.Body, _ int) { f32(d, b.Vel) })
	ang := perVert("angular_velocity", "Float32", 3, 12, func(d []byte, b *snap.Body, _ int) { f32(d, b.AngVel) })
	mat := perVert("material", "Int32", 1, 4, func(d []byte, b *snap.Body, _ int) { le.AppendUint32(d, uint32(int32(b.Material))) })
	p.points.n, p.points.gen = p.npts*24, func(w *bufio.Writer) {
		for _, i := range in {
			b := &f.Bodies[i]
			R := b.Rot.Mat()
			for _, v := range f.Meshes[b.Mesh].Verts {
				x := R.MulV(v).Add(b.Pos)
				d := le.AppendUint64(sc[:0], math.Float64bits(x.X))
				d = le.AppendUint64(d, math.Float64bits(x.Y))
				w.Write(le.AppendUint64(d, math.Float64bits(x.Z)))
			}
		}
	}
	p.npolys = ntris
	p.polys.conn.n, p.polys.conn.gen = ntris*12, func(w *bufio.Writer) {
		base := int32(0)
		for _, i := range in {
			m := &f.Meshes[f.Bodies[i].Mesh]
			for _, t := range m.Tris {
				d := le.AppendUint32(sc[:0], uint32(base+t[0]))
				d = le.AppendUint32(d, uint32(base+t[1]))
				w.Write(le.AppendUint32(d, uint32(base+t[2])))
			}
			base += int32(len(m.Verts))
		}
	}
	p.polys.offs.n, p.polys.offs.gen = ntris*4, func(w *bufio.Writer) {
		for k := range ntris {
			w.Write(le.AppendUint32(sc[:0], uint32(int32(3*(k+1)))))
		}
	}
	p.pointData = []*array{id, vel, ang, mat}
	return p
}

// contacts is the active contacts: one vertex per contact at its point,
// then one line per contact between the centres of its two bodies (a
// wall's end at the contact point) — the force network. Point arrays (on
// the vertex and on both line ends): force (on A: Fn n + Ft, N), normal
// (from B to A), type (snap.ContactKind: 0 VF, 1 EE, 2 VE, 3 VV, 4 SQ),
// stick (1 sticking, 0 sliding), body_a, body_b; cell array fn = |F_n|
// (on the vertex and on the line).
func contacts(f *snap.Snapshot) *polyData {
	p := newPolyData()
	wall := isWall(f)
	var act []*snap.Contact
	for i := range f.Contacts {
		if c := &f.Contacts[i]; !c.Suppressed {
			act = append(act, c)
		}
	}
	n := len(act)
	force := &array{name: "force", typ: "Float64", comps: 3}
	normal := &array{name: "normal", typ: "Float64", comps: 3}
	typ := &array{name: "type", typ: "Int32", comps: 1}
	stick := &array{name: "stick", typ: "UInt8", comps: 1}
	ba := &array{name: "body_a", typ: "Int32", comps: 1}
	bb := &array{name: "body_b", typ: "Int32", comps: 1}
	fn := &array{name: "fn", typ: "Float64", comps: 1}
	end := func(body int, c *snap.Contact) geom.Vec3 {
		if body < 0 || body >= len(f.Bodies) || wall[body] {
			return c.Point
		}
		return f.Bodies[body].Pos
	}
	for pass := 0; pass < 2; pass++ { // the vertices, then the lines' ends
		for _, c := range act {
			pts := []geom.Vec3{c.Point}
			if pass == 1 {
				pts = []geom.Vec3{end(c.A, c), end(c.B, c)}
			}
			F := c.Normal.Scale(c.Fn).Add(c.Ft)
			for _, x := range pts {
				p.points.f64(x.X, x.Y, x.Z)
				force.f64(F.X, F.Y, F.Z)
				normal.f64(c.Normal.X, c.Normal.Y, c.Normal.Z)
				typ.i32(int32(c.Kind))
				s := uint8(1)
				if c.Sliding {
					s = 0
				}
				stick.u8(s)
				ba.i32(int32(c.A))
				bb.i32(int32(c.B))
			}
		}
	}
	for i := range act {
		p.verts.add(int32(i))
	}
	for i := range act {
		p.lines.add(int32(n+2*i), int32(n+2*i+1))
	}
	for pass := 0; pass < 2; pass++ { // cell order: verts, then lines
		for _, c := range act {
			fn.f64(abs(c.Fn))
		}
	}
	p.npts = 3 * n
	p.pointData = []*array{force, normal, typ, stick, ba, bb}
	p.cellData = []*array{fn}
	return p
}

// walls is every wall's surface at its pose, with point arrays wall_id
// (index in the snapshot's walls), enabled (1/0) and force (the total
// force the bodies exert on the wall, N).
func walls(f *snap.Snapshot) *polyData {
	p := newPolyData()
	id := &array{name: "wall_id", typ: "Int32", comps: 1}
	en := &array{name: "enabled", typ: "UInt8", comps: 1}
	force := &array{name: "force", typ: "Float64", comps: 3}
	for i, wl := range f.Walls {
		if wl.Body < 0 || wl.Body >= len(f.Bodies) || wl.Mesh < 0 || wl.Mesh >= len(f.Meshes) {
			continue
		}
		b := &f.Bodies[wl.Body]
		m := &f.Meshes[wl.Mesh]
		base := int32(p.npts)
		R := b.Rot.Mat()
		e := uint8(0)
		if wl.Enabled {
			e = 1
		}
		for _, v := range m.Verts {
			x := R.MulV(v).Add(b.Pos)
			p.points.f64(x.X, x.Y, x.Z)
			id.i32(int32(i))
			en.u8(e)
			force.f64(wl.Force.X, wl.Force.Y, wl.Force.Z)
		}
		p.npts += len(m.Verts)
		for _, t := range m.Tris {
			p.polys.add(base+t[0], base+t[1], base+t[2])
		}
	}
	p.pointData = []*array{id, en, force}
	return p
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
