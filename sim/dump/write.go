package dump

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"grainlab/sim/snap"
)

// Columns is the ATOMS header Writer writes: sphere centres (OVITO and
// LAMMPS' read_dump read it, and so does Open).
const Columns = "id type x y z vx vy vz radius"

// Writer writes snapshots as frames of a LAMMPS `dump custom` text file.
type Writer struct {
	w *bufio.Writer
	b []byte
}

// NewWriter returns a Writer on w; call Flush at the end.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 1<<16)} }

// Write appends one frame: ITEM: TIME (the snapshot's time), ITEM:
// TIMESTEP (its step), the bodies that are not walls as atoms with id =
// their rank among them + 1 (the body order), type = material + 1, the
// centre, velocity and bounding radius, and a box that holds them all.
func (d *Writer) Write(s *snap.Snapshot) error {
	wall := make([]bool, len(s.Bodies))
	for _, wl := range s.Walls {
		if wl.Body >= 0 && wl.Body < len(wall) {
			wall[wl.Body] = true
		}
	}
	n := 0
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for i, b := range s.Bodies {
		if wall[i] {
			continue
		}
		n++
		for a, x := range [3]float64{b.Pos.X, b.Pos.Y, b.Pos.Z} {
			lo[a] = min(lo[a], x-b.Radius)
			hi[a] = max(hi[a], x+b.Radius)
		}
	}
	if n == 0 {
		lo, hi = [3]float64{}, [3]float64{}
	}
	b := d.b[:0]
	b = fmt.Appendf(b, "ITEM: TIME\n%s\nITEM: TIMESTEP\n%d\nITEM: NUMBER OF ATOMS\n%d\nITEM: BOX BOUNDS ff ff ff\n",
		strconv.FormatFloat(s.Stats.Time, 'g', -1, 64), s.Stats.Step, n)
	for a := range 3 {
		b = strconv.AppendFloat(b, lo[a], 'g', -1, 64)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, hi[a], 'g', -1, 64)
		b = append(b, '\n')
	}
	b = append(b, "ITEM: ATOMS "+Columns+"\n"...)
	id := 0
	for i, body := range s.Bodies {
		if wall[i] {
			continue
		}
		id++
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(body.Material+1), 10)
		for _, x := range [...]float64{body.Pos.X, body.Pos.Y, body.Pos.Z, body.Vel.X, body.Vel.Y, body.Vel.Z, body.Radius} {
			b = append(b, ' ')
			b = strconv.AppendFloat(b, x, 'g', -1, 64)
		}
		b = append(b, '\n')
		if len(b) > 1<<15 {
			if _, err := d.w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	_, err := d.w.Write(b)
	d.b = b[:0]
	return err
}

// Flush writes what is buffered.
func (d *Writer) Flush() error { return d.w.Flush() }
