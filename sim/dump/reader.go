package dump

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

// Options set how a dump is read.
type Options struct {
	// Dt is the step in s that turns a frame's timestep into its time when
	// the dump has no ITEM: TIME (LAMMPS `dump_modify ... time yes`); 0:
	// the time is the timestep number.
	Dt float64
	// Contacts names a `dump local` file of contact pairs (docs/outputs.md
	// for its columns); its frames are matched to the dump's by timestep.
	Contacts string
}

// Reader is a LAMMPS/LIGGGHTS `dump custom` file opened as a snap.Frames.
// It is safe for use by several goroutines.
type Reader struct {
	path   string
	opt    Options
	f      *os.File
	frames []block
	note   string
	local  *localReader

	mu     sync.Mutex // guards f's offset and meshes
	meshes map[sq.Shape]snap.Mesh
}

var _ snap.Frames = (*Reader)(nil)

// Open indexes the dump at path (one pass; per frame only its offset and
// header are kept).
func Open(path string) (*Reader, error) { return OpenWith(path, Options{}) }

// OpenWith is Open with options.
func OpenWith(path string, o Options) (*Reader, error) {
	if math.IsNaN(o.Dt) || math.IsInf(o.Dt, 0) || o.Dt < 0 {
		return nil, fmt.Errorf("%s: the step size must be a finite number ≥ 0, got %v", path, o.Dt)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	blocks, note, err := scan(f, path, "ATOMS", parseAtomCols)
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &Reader{path: path, opt: o, f: f, frames: blocks, note: note, meshes: map[sq.Shape]snap.Mesh{}}
	if !blocks[0].hasTime && o.Dt == 0 {
		r.addNote(fmt.Sprintf("%s has no ITEM: TIME and no step size was given: frame times are timestep numbers", path))
	}
	if o.Contacts != "" {
		l, err := openLocal(o.Contacts)
		if err != nil {
			f.Close()
			return nil, err
		}
		r.local = l
		if l.note != "" {
			r.addNote(l.note)
		}
	}
	return r, nil
}

func (r *Reader) addNote(s string) {
	if r.note != "" {
		r.note += "\n"
	}
	r.note += s
}

// Note describes what was left out or assumed (a last frame cut short,
// times as timestep numbers); "" when nothing was.
func (r *Reader) Note() string { return r.note }

// Len is the number of complete frames.
func (r *Reader) Len() int { return len(r.frames) }

// Time is the simulated time of frame i: its ITEM: TIME, or its timestep
// times Options.Dt (the timestep number when Dt is 0).
func (r *Reader) Time(i int) float64 {
	b := &r.frames[i]
	switch {
	case b.hasTime:
		return b.time
	case r.opt.Dt > 0:
		return float64(b.step) * r.opt.Dt
	}
	return float64(b.step)
}

// Step is the LAMMPS timestep of frame i.
func (r *Reader) Step(i int) int64 { return r.frames[i].step }

// Close closes the files.
func (r *Reader) Close() error {
	err := r.f.Close()
	if r.local != nil {
		if e := r.local.f.Close(); err == nil {
			err = e
		}
	}
	return err
}

// Frame decodes frame i: bodies sorted by atom id, spheres of their radius
// or superquadrics of their shape (meshes shared per distinct shape), and
// the contacts of the `dump local` frame of the same timestep, if any.
func (r *Reader) Frame(i int) (*snap.Snapshot, error) {
	if i < 0 || i >= len(r.frames) {
		return nil, fmt.Errorf("%s: frame %d out of range [0, %d)", r.path, i, len(r.frames))
	}
	b := &r.frames[i]
	c := b.cols.atoms
	s := &snap.Snapshot{Scene: filepath.Base(r.path)}
	s.Stats.Step, s.Stats.Time = b.step, r.Time(i)
	s.Bodies = make([]snap.Body, 0, b.n)
	ids := make([]int64, 0, b.n)
	meshIndex := map[sq.Shape]int{}
	var f [][]byte
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.f.Seek(b.rowsOff, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", r.path, err)
	}
	lr := newLineReader(r.f, b.rowsOff, b.rowsLine)
	lo, span := boxFrame(b)
	for k := 0; k < b.n; k++ {
		line, _, err := lr.next()
		ln := lr.line - 1
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v (the file changed since it was opened?)", r.path, ln, err)
		}
		f = fields(f, line)
		if len(f) != len(b.cols.names) {
			return nil, fmt.Errorf("%s:%d: %d values, the header names %d columns", r.path, ln, len(f), len(b.cols.names))
		}
		num := func(col int) (float64, error) {
			x, err := strconv.ParseFloat(string(f[col]), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("%s:%d: column %s: %q is not a finite number", r.path, ln, b.cols.names[col], clip(string(f[col])))
			}
			return x, nil
		}
		vec := func(cols [3]int) (geom.Vec3, error) {
			var v [3]float64
			for a, col := range cols {
				if col < 0 {
					return geom.Vec3{}, nil
				}
				x, err := num(col)
				if err != nil {
					return geom.Vec3{}, err
				}
				v[a] = x
			}
			return geom.V(v[0], v[1], v[2]), nil
		}
		id, err := num(c.id)
		if err != nil {
			return nil, err
		}
		body := snap.Body{Rot: geom.QIdent(), Name: "atom " + string(f[c.id])}
		if c.typ >= 0 {
			t, err := num(c.typ)
			if err != nil {
				return nil, err
			}
			body.Material = int(t) - 1
		}
		if body.Pos, err = vec(c.pos); err != nil {
			return nil, err
		}
		if c.scaled { // LAMMPS dump: x = lo + xs·lx + ys·xy + zs·xz, y = lo + ys·ly + zs·yz, z = lo + zs·lz
			u := body.Pos
			body.Pos = geom.V(lo.X+u.X*span[0][0]+u.Y*span[0][1]+u.Z*span[0][2],
				lo.Y+u.Y*span[1][1]+u.Z*span[1][2], lo.Z+u.Z*span[2][2])
		}
		if body.Vel, err = vec(c.vel); err != nil {
			return nil, err
		}
		if body.AngVel, err = vec(c.omega); err != nil {
			return nil, err
		}
		if c.quat[0] >= 0 {
			var q [4]float64
			for a, col := range c.quat {
				if q[a], err = num(col); err != nil {
					return nil, err
				}
			}
			qq := geom.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
			if n := qq.Norm(); !(n > 0) {
				return nil, fmt.Errorf("%s:%d: column %s: zero quaternion", r.path, ln, b.cols.names[c.quat[0]])
			}
			body.Rot = qq.Normalize()
		}
		var shp sq.Shape
		switch {
		case c.shape[0] >= 0:
			h, err := vec(c.shape)
			if err != nil {
				return nil, err
			}
			shp = sq.Shape{A: h.X, B: h.Y, C: h.Z, N1: 2, N2: 2}
			if c.block[0] >= 0 {
				if shp.N1, err = num(c.block[0]); err != nil {
					return nil, err
				}
				if shp.N2, err = num(c.block[1]); err != nil {
					return nil, err
				}
			}
		default:
			x, err := num(c.size)
			if err != nil {
				return nil, err
			}
			if c.diameter {
				x /= 2
			}
			shp = sq.Sphere(x)
		}
		if err := shp.Validate(); err != nil {
			return nil, fmt.Errorf("%s:%d: atom %s: %v", r.path, ln, f[c.id], err)
		}
		mi, ok := meshIndex[shp]
		if !ok {
			mi = len(s.Meshes)
			meshIndex[shp] = mi
			s.Meshes = append(s.Meshes, r.mesh(shp))
		}
		body.Mesh = mi
		body.Radius = shp.BoundingRadius()
		s.Bodies = append(s.Bodies, body)
		ids = append(ids, int64(id))
	}
	// Bodies in atom id order: the same atom is the same body index in
	// every frame (LAMMPS writes atoms in processor order unless sorted).
	ord := make([]int, len(ids))
	for k := range ord {
		ord[k] = k
	}
	sort.SliceStable(ord, func(a, b int) bool { return ids[ord[a]] < ids[ord[b]] })
	sorted := make([]snap.Body, len(ord))
	index := make(map[int64]int, len(ord))
	for k, o := range ord {
		sorted[k] = s.Bodies[o]
		if _, dup := index[ids[o]]; dup {
			return nil, fmt.Errorf("%s: frame at line %d: atom id %d appears twice", r.path, b.start, ids[o])
		}
		index[ids[o]] = k
	}
	s.Bodies = sorted
	if r.local != nil {
		if err := r.local.contacts(b.step, s, index); err != nil {
			return nil, err
		}
	}
	s.Stats.Contacts = len(s.Contacts)
	s.Stats.ByKind[snap.SQ] = len(s.Contacts)
	return s, nil
}

// mesh returns the render mesh of a shape, made once per Reader (r.mu held).
func (r *Reader) mesh(s sq.Shape) snap.Mesh {
	if m, ok := r.meshes[s]; ok {
		return m
	}
	nu, nv := 24, 12 // as world.Snapshot tessellates smooth bodies
	if n := max(s.N1, s.N2); n > 3 {
		nu, nv = 40, 20
	}
	vs, tris := s.Mesh(nu, nv)
	name := fmt.Sprintf("sq %.4g×%.4g×%.4g n=%.3g,%.3g", s.A, s.B, s.C, s.N1, s.N2)
	if s.A == s.B && s.B == s.C && s.N1 == 2 && s.N2 == 2 {
		name = fmt.Sprintf("sphere r=%.4g", s.A)
	}
	m := snap.Mesh{Name: name, Verts: vs, Tris: tris}
	r.meshes[s] = m
	return m
}

// boxFrame returns the origin and edge vectors (rows: x, y, z components of
// a, b, c as lx xy xz / 0 ly yz / 0 0 lz) of a frame's box. A triclinic
// dump writes the bounding box: LAMMPS Howto triclinic, xlo = xlo_bound −
// min(0, xy, xz, xy+xz), xhi = xhi_bound − max(0, xy, xz, xy+xz), ylo =
// ylo_bound − min(0, yz), yhi = yhi_bound − max(0, yz).
func boxFrame(b *block) (geom.Vec3, [3][3]float64) {
	xlo, xhi := b.box[0][0], b.box[0][1]
	ylo, yhi := b.box[1][0], b.box[1][1]
	zlo, zhi := b.box[2][0], b.box[2][1]
	var xy, xz, yz float64
	if b.triclinic {
		xy, xz, yz = b.box[0][2], b.box[1][2], b.box[2][2]
		xlo -= min(0, xy, xz, xy+xz)
		xhi -= max(0, xy, xz, xy+xz)
		ylo -= min(0, yz)
		yhi -= max(0, yz)
	}
	return geom.V(xlo, ylo, zlo), [3][3]float64{{xhi - xlo, xy, xz}, {0, yhi - ylo, yz}, {0, 0, zhi - zlo}}
}

// atomCols is the layout of a `dump custom` header: column indices, −1
// when absent.
type atomCols struct {
	id, typ    int
	pos        [3]int
	scaled     bool // xs ys zs or xsu ysu zsu: fractions of the box
	vel, omega [3]int
	size       int // radius or diameter
	diameter   bool
	shape      [3]int // LIGGGHTS superquadric half-lengths shapex shapey shapez
	block      [2]int // LIGGGHTS blockiness1 blockiness2 (S1 eq. 1: n1, n2)
	quat       [4]int // scalar first
}

// parseAtomCols finds the columns by name. Columns it does not use (fx,
// c_1, …) are skipped; a family given in part (x without z), two position
// families, no id, no position or no size is an error naming the column.
func parseAtomCols(names []string) (*header, error) {
	at := map[string]int{}
	for i, n := range names {
		if _, dup := at[n]; dup {
			return nil, fmt.Errorf("column %s appears twice", n)
		}
		at[n] = i
	}
	c := &atomCols{id: -1, typ: -1, size: -1}
	// family returns the indices of a family of columns: all present, all
	// absent (ok, −1s), or an error naming the missing one.
	family := func(dst []int, fam ...string) (bool, error) {
		found := 0
		for _, n := range fam {
			if _, ok := at[n]; ok {
				found++
			}
		}
		for k, n := range fam {
			dst[k] = -1
			if found > 0 {
				i, ok := at[n]
				if !ok {
					return false, fmt.Errorf("column %s missing (the dump has %s)", n, present(at, fam))
				}
				dst[k] = i
			}
		}
		return found > 0, nil
	}
	var ok bool
	var err error
	if i, has := at["id"]; has {
		c.id = i
	} else {
		return nil, fmt.Errorf("column id missing")
	}
	if i, has := at["type"]; has {
		c.typ = i
	}
	posFams := [][]string{{"x", "y", "z"}, {"xu", "yu", "zu"}, {"xs", "ys", "zs"}, {"xsu", "ysu", "zsu"}}
	nPos := 0
	var tmp [3]int
	for k, fam := range posFams {
		if ok, err = family(tmp[:], fam...); err != nil {
			return nil, err
		}
		if ok {
			nPos++
			if nPos == 1 {
				c.pos, c.scaled = tmp, k >= 2
			}
		}
	}
	switch {
	case nPos == 0:
		return nil, fmt.Errorf("column x missing (no position columns: x y z, xu yu zu, xs ys zs or xsu ysu zsu)")
	case nPos > 1:
		return nil, fmt.Errorf("column %s: two sets of positions (keep one of x y z, xu yu zu, xs ys zs, xsu ysu zsu)", names[c.pos[0]])
	}
	if _, err = family(c.vel[:], "vx", "vy", "vz"); err != nil {
		return nil, err
	}
	if _, err = family(c.omega[:], "omegax", "omegay", "omegaz"); err != nil {
		return nil, err
	}
	hasShape, err := family(c.shape[:], "shapex", "shapey", "shapez")
	if err != nil {
		return nil, err
	}
	if _, err = family(c.block[:], "blockiness1", "blockiness2"); err != nil {
		return nil, err
	}
	nq := 0
	var q [4]int
	for _, fam := range [][]string{{"quat1", "quat2", "quat3", "quat4"}, {"quatw", "quati", "quatj", "quatk"}, {"q1", "q2", "q3", "q4"}} {
		if ok, err = family(q[:], fam...); err != nil {
			return nil, err
		}
		if ok {
			nq++
			c.quat = q
		}
	}
	if nq == 0 {
		c.quat = [4]int{-1, -1, -1, -1}
	}
	if nq > 1 {
		return nil, fmt.Errorf("column %s: two sets of quaternions", names[c.quat[0]])
	}
	r, hasR := at["radius"]
	d, hasD := at["diameter"]
	switch {
	case hasR && hasD:
		return nil, fmt.Errorf("column diameter: both radius and diameter given")
	case hasR:
		c.size = r
	case hasD:
		c.size, c.diameter = d, true
	case !hasShape:
		return nil, fmt.Errorf("column radius missing (no radius, diameter or shapex shapey shapez)")
	}
	if c.block[0] >= 0 && !hasShape {
		return nil, fmt.Errorf("column shapex missing (the dump has blockiness columns)")
	}
	return &header{atoms: c}, nil
}

// present lists which of fam are in at.
func present(at map[string]int, fam []string) string {
	s := ""
	for _, n := range fam {
		if _, ok := at[n]; ok {
			if s != "" {
				s += " "
			}
			s += n
		}
	}
	return s
}
