// Package vtk writes runs as ParaView series: VTK XML PolyData (.vtp) files
// with binary appended data (raw encoding, UInt64 block headers, little
// endian) and a .pvd collection per series that lists them with their
// times. Under DIR/vtk/: bodies.pvd (every body's surface but the
// spheres'), spheres.pvd (a point per sphere with its radius), contacts.pvd
// (contact points and the force network) and walls.pvd (docs/outputs.md).
package vtk

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
)

// array is one DataArray of a piece: its VTK type, components and the
// little-endian bytes of its values — held in data, or, for an array made
// as it is written (a frame of 10⁵ tessellated spheres is ≈ 2.6 GB), n
// bytes that gen writes.
type array struct {
	name  string
	typ   string // Float64, Float32, Int32, UInt8, Int64
	comps int
	data  []byte
	n     int                   // with gen: the byte count gen writes
	gen   func(w *bufio.Writer) // nil: data
}

// size is the array's byte count.
func (a *array) size() int {
	if a.gen != nil {
		return a.n
	}
	return len(a.data)
}

func (a *array) f64(v ...float64) {
	for _, x := range v {
		a.data = binary.LittleEndian.AppendUint64(a.data, math.Float64bits(x))
	}
}

func (a *array) f32(v ...float64) {
	for _, x := range v {
		a.data = binary.LittleEndian.AppendUint32(a.data, math.Float32bits(float32(x)))
	}
}

func (a *array) i32(v ...int32) {
	for _, x := range v {
		a.data = binary.LittleEndian.AppendUint32(a.data, uint32(x))
	}
}

func (a *array) u8(v ...uint8) { a.data = append(a.data, v...) }

// cells is a cell block of a PolyData piece (Verts, Lines or Polys):
// connectivity and the offset past each cell's last point.
type cells struct {
	conn, offs array
	n          int
}

func newCells() cells {
	return cells{conn: array{name: "connectivity", typ: "Int32", comps: 1}, offs: array{name: "offsets", typ: "Int32", comps: 1}}
}

// add appends a cell of the given point indices.
func (c *cells) add(pts ...int32) {
	c.conn.i32(pts...)
	c.n++
	c.offs.i32(int32(len(c.conn.data) / 4))
}

// polyData is one .vtp piece.
type polyData struct {
	npts                int
	npolys              int // with generated polys (gen): their count, else polys.n
	nverts              int // with generated verts (gen): their count, else verts.n
	points              array
	pointData           []*array
	cellData            []*array
	verts, lines, polys cells
}

func newPolyData() *polyData {
	return &polyData{points: array{name: "Points", typ: "Float64", comps: 3},
		verts: newCells(), lines: newCells(), polys: newCells()}
}

// encode returns the .vtp file: the XML with every DataArray appended
// (VTK file format, "XML File Formats", AppendedData: raw bytes after "_",
// each array prefixed by its byte count as UInt64).
func (p *polyData) encode(buf *bufio.Writer) {
	var order []*array
	off := 0
	da := func(a *array) {
		fmt.Fprintf(buf, `        <DataArray type="%s" Name="%s" NumberOfComponents="%d" format="appended" offset="%d"/>`+"\n",
			a.typ, a.name, a.comps, off)
		off += 8 + a.size()
		order = append(order, a)
	}
	buf.WriteString(`<?xml version="1.0"?>` + "\n")
	buf.WriteString(`<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">` + "\n  <PolyData>\n")
	fmt.Fprintf(buf, `    <Piece NumberOfPoints="%d" NumberOfVerts="%d" NumberOfLines="%d" NumberOfStrips="0" NumberOfPolys="%d">`+"\n",
		p.npts, p.verts.n+p.nverts, p.lines.n, p.polys.n+p.npolys)
	section := func(tag string, arrs []*array) {
		if len(arrs) == 0 {
			return
		}
		fmt.Fprintf(buf, "      <%s>\n", tag)
		for _, a := range arrs {
			da(a)
		}
		fmt.Fprintf(buf, "      </%s>\n", tag)
	}
	section("PointData", p.pointData)
	section("CellData", p.cellData)
	section("Points", []*array{&p.points})
	for _, c := range []struct {
		tag string
		c   *cells
	}{{"Verts", &p.verts}, {"Lines", &p.lines}, {"Polys", &p.polys}} {
		if c.c.n > 0 || c.c == &p.polys && p.npolys > 0 || c.c == &p.verts && p.nverts > 0 {
			section(c.tag, []*array{&c.c.conn, &c.c.offs})
		}
	}
	buf.WriteString("    </Piece>\n  </PolyData>\n  <AppendedData encoding=\"raw\">\n   _")
	var n [8]byte
	for _, a := range order {
		binary.LittleEndian.PutUint64(n[:], uint64(a.size()))
		buf.Write(n[:])
		if a.gen != nil {
			a.gen(buf)
		} else {
			buf.Write(a.data)
		}
	}
	buf.WriteString("\n  </AppendedData>\n</VTKFile>\n")
}
