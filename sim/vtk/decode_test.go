package vtk

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// VTP is a .vtp file decoded in pure Go (the tests' reader, independent of
// VTK): the piece's counts and every DataArray's values by section and
// name ("PointData/radius", "Points/Points", "Verts/connectivity", …).
type VTP struct {
	Points, Verts, Lines, Strips, Polys int
	Arrays                              map[string]VTPArray
	Order                               []string // the arrays' keys in file order
}

// VTPArray is one DataArray: its type, components and raw little-endian
// bytes.
type VTPArray struct {
	Type  string
	Comps int
	Raw   []byte
}

// F64 is the array's values as float64 (Float64 arrays).
func (a VTPArray) F64() []float64 {
	out := make([]float64, len(a.Raw)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(a.Raw[8*i:]))
	}
	return out
}

// F32 is the array's values (Float32 arrays).
func (a VTPArray) F32() []float32 {
	out := make([]float32, len(a.Raw)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(a.Raw[4*i:]))
	}
	return out
}

// I32 is the array's values (Int32 arrays).
func (a VTPArray) I32() []int32 {
	out := make([]int32, len(a.Raw)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(a.Raw[4*i:]))
	}
	return out
}

var (
	rePiece = regexp.MustCompile(`^    <Piece NumberOfPoints="(\d+)" NumberOfVerts="(\d+)" NumberOfLines="(\d+)" NumberOfStrips="(\d+)" NumberOfPolys="(\d+)">$`)
	reArray = regexp.MustCompile(`^        <DataArray type="(\w+)" Name="(\w+)" NumberOfComponents="(\d+)" format="appended" offset="(\d+)"/>$`)
	reOpen  = regexp.MustCompile(`^      <(\w+)>$`)
)

var typeSize = map[string]int{"Float64": 8, "Float32": 4, "Int32": 4, "UInt8": 1, "Int64": 8}

// DecodeVTP reads path and checks its structure: the header the writer
// writes (XML declaration, VTKFile PolyData version 1.0 little endian
// UInt64 headers, one Piece), every DataArray appended at the offset it
// names (the running sum of 8 + the earlier arrays' byte counts), its
// UInt64 byte count equal to its tuples × components × type size (points
// and point data: NumberOfPoints tuples; cell data: the cells; a cell
// block's offsets: its cells), and the file ending right after the last
// array.
func DecodeVTP(path string) (*VTP, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	const mark = "  <AppendedData encoding=\"raw\">\n   _"
	h := bytes.Index(b, []byte(mark))
	if h < 0 {
		return nil, fmt.Errorf("%s: no appended data", path)
	}
	data := b[h+len(mark):]
	lines := strings.Split(strings.TrimSuffix(string(b[:h]), "\n"), "\n")
	head := []string{`<?xml version="1.0"?>`, `<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">`, "  <PolyData>"}
	tail := []string{"    </Piece>", "  </PolyData>"}
	if len(lines) < len(head)+1+len(tail) {
		return nil, fmt.Errorf("%s: %d header lines", path, len(lines))
	}
	for i, l := range head {
		if lines[i] != l {
			return nil, fmt.Errorf("%s: line %d is %q, want %q", path, i+1, lines[i], l)
		}
	}
	for i, l := range tail {
		if got := lines[len(lines)-len(tail)+i]; got != l {
			return nil, fmt.Errorf("%s: %q where %q ends the header", path, got, l)
		}
	}
	m := rePiece.FindStringSubmatch(lines[len(head)])
	if m == nil {
		return nil, fmt.Errorf("%s: piece %q", path, lines[len(head)])
	}
	v := &VTP{Arrays: map[string]VTPArray{}}
	for i, p := range []*int{&v.Points, &v.Verts, &v.Lines, &v.Strips, &v.Polys} {
		*p, _ = strconv.Atoi(m[i+1])
	}
	cellCount := map[string]int{"Verts": v.Verts, "Lines": v.Lines, "Strips": v.Strips, "Polys": v.Polys}
	section, off := "", 0
	for _, l := range lines[len(head)+1 : len(lines)-len(tail)] {
		if o := reOpen.FindStringSubmatch(l); o != nil && section == "" {
			section = o[1]
			continue
		}
		if section != "" && l == "      </"+section+">" {
			section = ""
			continue
		}
		a := reArray.FindStringSubmatch(l)
		if a == nil || section == "" {
			return nil, fmt.Errorf("%s: header line %q", path, l)
		}
		size, ok := typeSize[a[1]]
		comps, _ := strconv.Atoi(a[3])
		o, _ := strconv.Atoi(a[4])
		if !ok || o != off || off+8 > len(data) {
			return nil, fmt.Errorf("%s: array %s at offset %s, want %d (type %s, %d data bytes)", path, a[2], a[4], off, a[1], len(data))
		}
		n := int(binary.LittleEndian.Uint64(data[off:]))
		if off+8+n > len(data) {
			return nil, fmt.Errorf("%s: array %s of %d bytes past the end", path, a[2], n)
		}
		var tuples int
		switch {
		case section == "PointData" || section == "Points":
			tuples = v.Points
		case section == "CellData":
			tuples = v.Verts + v.Lines + v.Strips + v.Polys
		case a[2] == "offsets":
			tuples = cellCount[section]
		default: // connectivity: any count
			tuples = n / (size * comps)
		}
		if n != tuples*comps*size {
			return nil, fmt.Errorf("%s: %s/%s has %d bytes, want %d", path, section, a[2], n, tuples*comps*size)
		}
		key := section + "/" + a[2]
		v.Arrays[key] = VTPArray{Type: a[1], Comps: comps, Raw: data[off+8 : off+8+n]}
		v.Order = append(v.Order, key)
		off += 8 + n
	}
	if section != "" {
		return nil, fmt.Errorf("%s: <%s> not closed", path, section)
	}
	if rest := string(data[off:]); rest != "\n  </AppendedData>\n</VTKFile>\n" {
		return nil, fmt.Errorf("%s: %d bytes after the last array: %.40q", path, len(rest), rest)
	}
	return v, nil
}
