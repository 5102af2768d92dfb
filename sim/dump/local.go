package dump

import (
	"fmt"
	"math"
	"os"
	"strconv"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// localReader is an indexed `dump local` file of contact pairs.
type localReader struct {
	path   string
	f      *os.File
	blocks []block
	byStep map[int64]int
	note   string
}

// localCols is the layout of a `dump local` header: the two atom ids and
// the force on the first atom (by the second).
type localCols struct {
	id1, id2 int
	force    [3]int
}

// Column conventions of a `dump local` of contacts (docs/outputs.md):
//   - by name: id1 id2 (or patom1 patom2) and fx fy fz, anywhere;
//   - LAMMPS, 5 columns: `compute property/local patom1 patom2` then
//     `compute pair/local fx fy fz` (force on the first atom), dumped in
//     that order (`dump local ... c_1[1] c_1[2] c_2[1] c_2[2] c_2[3]`);
//   - LIGGGHTS, 12 columns: `compute pair/gran/local pos id force`:
//     x1 y1 z1 x2 y2 z2, id1 id2 periodic, fx fy fz (force on the first).
func parseLocalCols(names []string) (*header, error) {
	at := map[string]int{}
	for i, n := range names {
		at[n] = i
	}
	get := func(alt ...string) int {
		for _, n := range alt {
			if i, ok := at[n]; ok {
				return i
			}
		}
		return -1
	}
	c := &localCols{id1: get("id1", "patom1"), id2: get("id2", "patom2"),
		force: [3]int{get("fx"), get("fy"), get("fz")}}
	named := c.id1 >= 0 || c.id2 >= 0 || c.force[0] >= 0 || c.force[1] >= 0 || c.force[2] >= 0
	switch {
	case named:
		for k, n := range []string{"id1", "id2", "fx", "fy", "fz"} {
			if [5]int{c.id1, c.id2, c.force[0], c.force[1], c.force[2]}[k] < 0 {
				return nil, fmt.Errorf("column %s missing (contact columns by name: id1 id2 fx fy fz)", n)
			}
		}
	case len(names) == 5:
		c.id1, c.id2, c.force = 0, 1, [3]int{2, 3, 4}
	case len(names) == 12:
		c.id1, c.id2, c.force = 6, 7, [3]int{9, 10, 11}
	default:
		return nil, fmt.Errorf("column %s: %d unnamed columns; contacts need id1 id2 fx fy fz by name, or 5 columns (LAMMPS property/local patom1 patom2 + pair/local fx fy fz) or 12 (LIGGGHTS pair/gran/local pos id force)",
			names[0], len(names))
	}
	return &header{local: c}, nil
}

func openLocal(path string) (*localReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	blocks, note, err := scan(f, path, "ENTRIES", parseLocalCols)
	if err != nil {
		f.Close()
		return nil, err
	}
	l := &localReader{path: path, f: f, blocks: blocks, note: note, byStep: map[int64]int{}}
	for i, b := range blocks {
		l.byStep[b.step] = i
	}
	return l, nil
}

// contacts adds to s the contacts of the local frame at step: one per pair,
// its point midway between the two surfaces on the line of centres, its
// normal from the second atom (B) to the first (A), Fn = F·n and Ft = F −
// Fn n with F the force on A. index maps atom ids to body indices.
func (l *localReader) contacts(step int64, s *snap.Snapshot, index map[int64]int) error {
	i, ok := l.byStep[step]
	if !ok {
		return nil
	}
	b := &l.blocks[i]
	c := b.cols.local
	if _, err := l.f.Seek(b.rowsOff, 0); err != nil {
		return fmt.Errorf("%s: %w", l.path, err)
	}
	lr := newLineReader(l.f, b.rowsOff, b.rowsLine)
	var f [][]byte
	for k := 0; k < b.n; k++ {
		line, _, err := lr.next()
		ln := lr.line - 1
		if err != nil {
			return fmt.Errorf("%s:%d: %v", l.path, ln, err)
		}
		f = fields(f, line)
		if len(f) != len(b.cols.names) {
			return fmt.Errorf("%s:%d: %d values, the header names %d columns", l.path, ln, len(f), len(b.cols.names))
		}
		num := func(col int) (float64, error) {
			x, err := strconv.ParseFloat(string(f[col]), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return 0, fmt.Errorf("%s:%d: column %s: %q is not a finite number", l.path, ln, b.cols.names[col], clip(string(f[col])))
			}
			return x, nil
		}
		body := func(col int) (int, error) {
			x, err := num(col)
			if err != nil {
				return 0, err
			}
			j, ok := index[int64(math.Round(x))]
			if !ok {
				return 0, fmt.Errorf("%s:%d: column %s: atom %g is not in the dump's frame at timestep %d", l.path, ln, b.cols.names[col], x, step)
			}
			return j, nil
		}
		a, err := body(c.id1)
		if err != nil {
			return err
		}
		bb, err := body(c.id2)
		if err != nil {
			return err
		}
		var F [3]float64
		for k, col := range c.force {
			if F[k], err = num(col); err != nil {
				return err
			}
		}
		force := geom.V(F[0], F[1], F[2])
		A, B := &s.Bodies[a], &s.Bodies[bb]
		d := A.Pos.Sub(B.Pos)
		dist := d.Norm()
		n := geom.V(0, 0, 1)
		if dist > 0 {
			n = d.Scale(1 / dist)
		}
		gap := dist - A.Radius - B.Radius
		fn := force.Dot(n)
		s.Contacts = append(s.Contacts, snap.Contact{
			A: a, B: bb, FeatA: -1, FeatB: -1, Kind: snap.SQ,
			Point:  B.Pos.Add(n.Scale(B.Radius + gap/2)),
			Normal: n, Gap: gap, Fn: fn, Ft: force.Sub(n.Scale(fn)),
		})
		A.ContactForce += force.Norm()
		B.ContactForce += force.Norm()
	}
	return nil
}
