package shape

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"grainlab/sim/geom"
)

// MaxSTLBytes caps the size of an STL file ReadSTL accepts (1 GiB).
const MaxSTLBytes = 1 << 30

const (
	stlHeaderBytes = 84 // 80-byte header + uint32 triangle count
	stlTriBytes    = 50 // normal, 3 vertices (12 float32) + uint16 attribute
)

// ReadSTL parses a binary or ASCII STL stream and welds vertices closer than
// weldTol (≤ 0: 1e-9 × the bounding-box diagonal). The stored facet normals
// are ignored: orientation comes from the vertex order. name labels errors
// ("rock.stl:17: …"). Degenerate triangles are returned as they are (with
// repeated indices if welding collapsed them); NewPolyhedron rejects them.
// It never panics, and allocates in proportion to the input's size.
func ReadSTL(r io.Reader, name string, weldTol float64) (verts []geom.Vec3, tris [][3]int32, err error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSTLBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxSTLBytes {
		return nil, nil, fmt.Errorf("%s: larger than %d bytes", name, MaxSTLBytes)
	}
	var soup []geom.Vec3 // three per triangle
	if isBinarySTL(data) {
		soup, err = parseBinarySTL(data, name)
	} else {
		soup, err = parseASCIISTL(data, name)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(soup) == 0 {
		return nil, nil, fmt.Errorf("%s: no triangles", name)
	}
	verts, idx := weld(soup, weldTol)
	tris = make([][3]int32, len(idx)/3)
	for t := range tris {
		tris[t] = [3]int32{idx[3*t], idx[3*t+1], idx[3*t+2]}
	}
	return verts, tris, nil
}

// isBinarySTL decides the format: a size that matches the triangle count in
// the header is binary even when the header starts with "solid" (many
// exporters write that); otherwise text starting with "solid" is ASCII.
func isBinarySTL(data []byte) bool {
	if len(data) >= stlHeaderBytes {
		n := uint64(binary.LittleEndian.Uint32(data[80:84]))
		if uint64(len(data)) == stlHeaderBytes+stlTriBytes*n {
			return true
		}
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) < 5 || !strings.EqualFold(string(trimmed[:5]), "solid") {
		return len(data) >= stlHeaderBytes // not ASCII: report as (malformed) binary
	}
	for _, c := range data {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' {
			return true // control bytes: binary with a "solid…" header
		}
	}
	return false
}

func parseBinarySTL(data []byte, name string) ([]geom.Vec3, error) {
	if len(data) < stlHeaderBytes {
		return nil, fmt.Errorf("%s: binary STL truncated: %d bytes, shorter than the %d-byte header", name, len(data), stlHeaderBytes)
	}
	n := uint64(binary.LittleEndian.Uint32(data[80:84]))
	have := uint64(len(data)-stlHeaderBytes) / stlTriBytes
	switch {
	case n > have:
		return nil, fmt.Errorf("%s: binary STL truncated: header says %d triangles, file holds %d", name, n, have)
	case uint64(len(data)) != stlHeaderBytes+stlTriBytes*n:
		return nil, fmt.Errorf("%s: binary STL header says %d triangles (%d bytes) but the file has %d bytes", name, n, stlHeaderBytes+stlTriBytes*n, len(data))
	}
	soup := make([]geom.Vec3, 0, 3*n)
	f32 := func(b []byte) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))) }
	for t := uint64(0); t < n; t++ {
		rec := data[stlHeaderBytes+stlTriBytes*t:]
		for k := 0; k < 3; k++ {
			b := rec[12+12*k:]
			v := geom.Vec3{X: f32(b[0:]), Y: f32(b[4:]), Z: f32(b[8:])}
			if !v.IsFinite() {
				return nil, fmt.Errorf("%s: binary triangle %d: vertex %d has a non-finite coordinate (%g, %g, %g)", name, t, k, v.X, v.Y, v.Z)
			}
			soup = append(soup, v)
		}
	}
	return soup, nil
}

// parseASCIISTL reads "solid … facet normal … outer loop vertex×3 endloop
// endfacet … endsolid", keywords case-insensitive, several solids allowed.
func parseASCIISTL(data []byte, name string) ([]geom.Vec3, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), len(data)+1)
	const (
		outside = iota // expect "solid"
		inSolid        // expect "facet" or "endsolid"
		inFacet        // expect "outer loop"
		inLoop         // expect "vertex" (3×), then "endloop"
		endLoop        // expect "endfacet"
	)
	state, nv, line := outside, 0, 0
	var soup []geom.Vec3
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		kw := strings.ToLower(f[0])
		switch state {
		case outside:
			if kw != "solid" {
				return nil, fail("expected \"solid\", got %q", clip(f[0]))
			}
			state = inSolid
		case inSolid:
			switch kw {
			case "facet":
				if len(f) != 5 || strings.ToLower(f[1]) != "normal" {
					return nil, fail("expected \"facet normal nx ny nz\"")
				}
				for _, s := range f[2:] {
					if _, err := strconv.ParseFloat(s, 64); err != nil {
						return nil, fail("bad normal component %q", clip(s))
					}
				}
				state = inFacet
			case "endsolid":
				state = outside
			default:
				return nil, fail("expected \"facet\" or \"endsolid\", got %q", clip(f[0]))
			}
		case inFacet:
			if kw != "outer" || len(f) != 2 || strings.ToLower(f[1]) != "loop" {
				return nil, fail("expected \"outer loop\", got %q", clip(strings.Join(f, " ")))
			}
			state, nv = inLoop, 0
		case inLoop:
			if nv == 3 {
				switch kw {
				case "endloop":
					state = endLoop
				case "vertex":
					return nil, fail("facet has more than 3 vertices")
				default:
					return nil, fail("expected \"endloop\", got %q", clip(f[0]))
				}
				continue
			}
			if kw == "endloop" {
				return nil, fail("facet has %d vertices, want 3", nv)
			}
			if kw != "vertex" {
				return nil, fail("expected \"vertex\", got %q", clip(f[0]))
			}
			if len(f) != 4 {
				return nil, fail("expected \"vertex x y z\", got %d numbers", len(f)-1)
			}
			var c [3]float64
			for i := range c {
				x, err := strconv.ParseFloat(f[1+i], 64)
				if err != nil && !errors.Is(err, strconv.ErrRange) {
					return nil, fail("bad coordinate %q", clip(f[1+i]))
				}
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, fail("non-finite coordinate %q", clip(f[1+i]))
				}
				c[i] = x
			}
			soup = append(soup, geom.Vec3{X: c[0], Y: c[1], Z: c[2]})
			nv++
		case endLoop:
			if kw != "endfacet" {
				return nil, fail("expected \"endfacet\", got %q", clip(f[0]))
			}
			state = inSolid
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if state != outside {
		return nil, fmt.Errorf("%s:%d: unexpected end of file (missing \"endsolid\")", name, line)
	}
	return soup, nil
}

// clip shortens a token quoted in an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// weld merges points closer than tol with a hash grid of cell size tol and
// returns the unique points and, for each input point, its index.
func weld(pts []geom.Vec3, tol float64) ([]geom.Vec3, []int32) {
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		lo, hi = lo.Min(p), hi.Max(p)
	}
	if !(tol > 0) {
		tol = 1e-9 * hi.Sub(lo).Norm()
	}
	idx := make([]int32, len(pts))
	var out []geom.Vec3
	if !(tol > 0) || math.IsInf(tol, 0) { // all points coincide, or absurd scale: exact matches only
		exact := map[geom.Vec3]int32{}
		for i, p := range pts {
			j, ok := exact[p]
			if !ok {
				j = int32(len(out))
				exact[p] = j
				out = append(out, p)
			}
			idx[i] = j
		}
		return out, idx
	}
	type cell [3]int64
	cellOf := func(p geom.Vec3) cell {
		var c cell
		for a := 0; a < 3; a++ {
			x := math.Floor((p.Idx(a) - lo.Idx(a)) / tol)
			c[a] = int64(max(-1<<60, min(x, 1<<60))) // clamped: far points only share cells
		}
		return c
	}
	grid := map[cell][]int32{}
	for i, p := range pts {
		c := cellOf(p)
		found := int32(-1)
	search:
		for dx := int64(-1); dx <= 1; dx++ {
			for dy := int64(-1); dy <= 1; dy++ {
				for dz := int64(-1); dz <= 1; dz++ {
					for _, j := range grid[cell{c[0] + dx, c[1] + dy, c[2] + dz}] {
						if out[j].Dist(p) <= tol {
							found = j
							break search
						}
					}
				}
			}
		}
		if found < 0 {
			found = int32(len(out))
			out = append(out, p)
			grid[c] = append(grid[c], found)
		}
		idx[i] = found
	}
	return out, idx
}

// LoadSTL reads an STL file and builds the closed polyhedron it bounds,
// named after the file's base name.
func LoadSTL(path string, weldTol float64) (*Polyhedron, error) {
	v, t, err := readSTLFile(path, weldTol)
	if err != nil {
		return nil, err
	}
	return NewPolyhedron(filepath.Base(path), v, t)
}

func readSTLFile(path string, weldTol float64) ([]geom.Vec3, [][3]int32, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadSTL(f, path, weldTol)
}

// WriteSTLBinary writes p's faces in its body frame as binary STL (float32).
func WriteSTLBinary(w io.Writer, p *Polyhedron) error {
	bw := bufio.NewWriter(w)
	var hdr [stlHeaderBytes]byte
	copy(hdr[:80], "grainlab binary STL: "+p.Name) // never starts with "solid"
	binary.LittleEndian.PutUint32(hdr[80:], uint32(len(p.Faces)))
	bw.Write(hdr[:])
	var rec [stlTriBytes]byte
	put := func(off int, v geom.Vec3) {
		binary.LittleEndian.PutUint32(rec[off:], math.Float32bits(float32(v.X)))
		binary.LittleEndian.PutUint32(rec[off+4:], math.Float32bits(float32(v.Y)))
		binary.LittleEndian.PutUint32(rec[off+8:], math.Float32bits(float32(v.Z)))
	}
	for _, f := range p.Faces {
		put(0, f.N)
		for k, v := range f.V {
			put(12+12*k, p.Verts[v])
		}
		bw.Write(rec[:])
	}
	return bw.Flush()
}

// WriteSTLASCII writes p's faces in its body frame as ASCII STL with
// shortest round-trip float64 coordinates.
func WriteSTLASCII(w io.Writer, p *Polyhedron) error {
	bw := bufio.NewWriter(w)
	name := strings.Join(strings.Fields(p.Name), "_")
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fmt.Fprintf(bw, "solid %s\n", name)
	for _, f := range p.Faces {
		fmt.Fprintf(bw, "  facet normal %s %s %s\n    outer loop\n", g(f.N.X), g(f.N.Y), g(f.N.Z))
		for _, v := range f.V {
			x := p.Verts[v]
			fmt.Fprintf(bw, "      vertex %s %s %s\n", g(x.X), g(x.Y), g(x.Z))
		}
		fmt.Fprintf(bw, "    endloop\n  endfacet\n")
	}
	fmt.Fprintf(bw, "endsolid %s\n", name)
	return bw.Flush()
}
