// Package dump reads and writes LAMMPS/LIGGGHTS text dumps: `dump custom`
// files of particles (spheres, LIGGGHTS superquadrics) as a snap.Frames, with
// optional contact pairs from a `dump local` file, and writes snapshots as a
// `dump custom` of sphere centres (OVITO and LAMMPS' read_dump read it).
//
// A dump is read in one pass that keeps, per frame, only its byte offset and
// header (O(frames) memory); a frame's rows are decoded on demand, so a dump
// larger than memory plays. Columns are found by their names (docs/outputs.md).
package dump

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// lineReader reads lines keeping the byte offset and line number of the
// next line.
type lineReader struct {
	r    *bufio.Reader
	off  int64 // offset of the next line
	line int   // number of the next line (1-based)
	buf  []byte
}

func newLineReader(r io.Reader, off int64, line int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 1<<16), off: off, line: line}
}

// next returns the next line without its newline; complete is false for a
// last line that ends without one (a file cut while being written). The
// slice is valid until the next call.
func (l *lineReader) next() (b []byte, complete bool, err error) {
	l.buf = l.buf[:0]
	for {
		s, e := l.r.ReadSlice('\n')
		l.buf = append(l.buf, s...)
		if e == bufio.ErrBufferFull {
			continue
		}
		if e != nil && !errors.Is(e, io.EOF) {
			return nil, false, e
		}
		if len(l.buf) == 0 {
			return nil, false, io.EOF
		}
		l.off += int64(len(l.buf))
		l.line++
		b = l.buf
		complete = e == nil
		if complete {
			b = b[:len(b)-1]
		}
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
		return b, complete, nil
	}
}

// block is the index entry of one frame (a dump custom's atoms or a dump
// local's entries): its header and where its rows start.
type block struct {
	start     int     // line of the frame's first ITEM
	step      int64   // ITEM: TIMESTEP
	time      float64 // ITEM: TIME, when hasTime
	hasTime   bool
	n         int           // rows
	box       [3][3]float64 // lo, hi, tilt (xy, xz, yz) per axis row; tilt only when triclinic
	triclinic bool
	cols      *header // the ATOMS / ENTRIES header (shared by equal headers)
	rowsOff   int64   // byte offset of the first row
	rowsLine  int     // line number of the first row
}

// header is a parsed column header.
type header struct {
	line  string
	names []string
	atoms *atomCols  // dump custom
	local *localCols // dump local
}

// scan indexes every complete frame of a dump. item is "ATOMS" (dump custom)
// or "ENTRIES" (dump local); parse turns a column header into its layout,
// or an error naming the column. A last frame cut short is left out and
// described in note.
func scan(r io.Reader, path, item string, parse func(names []string) (*header, error)) (blocks []block, note string, err error) {
	lr := newLineReader(r, 0, 1)
	headers := map[string]*header{}
	countItem := "ITEM: NUMBER OF " + item
	rowsItem := "ITEM: " + item
	var cur *block
	errAt := func(line int, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, a...))
	}
	// value reads the one-line value of an item.
	value := func() (string, int, bool) {
		b, complete, e := lr.next()
		if e != nil || !complete {
			return "", lr.line - 1, false
		}
		return strings.TrimSpace(string(b)), lr.line - 1, true
	}
	incomplete := func(what string) (block, string, error) {
		c := *cur
		n := len(blocks)
		if n == 0 {
			return c, "", errAt(c.start, "the dump's first frame is incomplete (%s); no frame to read", what)
		}
		return c, fmt.Sprintf("%s: the frame at line %d (timestep %d) is incomplete (%s); read %d frames, up to timestep %d",
			path, c.start, c.step, what, n, blocks[n-1].step), nil
	}
	seen := map[string]bool{}
	for {
		lineNo := lr.line
		b, complete, e := lr.next()
		if errors.Is(e, io.EOF) {
			if cur != nil {
				_, note, err := incomplete("no " + rowsItem)
				return blocks, note, err
			}
			break
		}
		if e != nil {
			return nil, "", fmt.Errorf("%s: %w", path, e)
		}
		if !complete { // a last line cut while being written
			if cur == nil {
				cur = &block{start: lineNo}
			}
			_, note, err := incomplete("its line " + strconv.Itoa(lineNo) + " is cut")
			return blocks, note, err
		}
		t := strings.TrimSpace(string(b))
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "ITEM:") {
			if len(blocks) == 0 && cur == nil {
				return nil, "", errAt(lineNo, "not a LAMMPS dump (expected ITEM: TIMESTEP, found %q)", clip(t))
			}
			return nil, "", errAt(lineNo, "unexpected line %q (expected an ITEM: line)", clip(t))
		}
		if cur == nil {
			cur = &block{start: lineNo}
			clear(seen)
		}
		key := strings.TrimSpace(strings.TrimPrefix(t, "ITEM:"))
		if seen[key] && !strings.HasPrefix(key, "BOX BOUNDS") {
			return nil, "", errAt(lineNo, "second %q in one frame (the previous frame's rows are missing?)", t)
		}
		seen[key] = true
		switch {
		case key == "UNITS":
			if _, _, ok := value(); !ok {
				_, note, err := incomplete("no units")
				return blocks, note, err
			}
		case key == "TIME":
			v, ln, ok := value()
			if !ok {
				_, note, err := incomplete("no time")
				return blocks, note, err
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, "", errAt(ln, "ITEM: TIME: %q is not a number", clip(v))
			}
			cur.time, cur.hasTime = x, true
		case key == "TIMESTEP":
			v, ln, ok := value()
			if !ok {
				_, note, err := incomplete("no timestep")
				return blocks, note, err
			}
			x, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return nil, "", errAt(ln, "ITEM: TIMESTEP: %q is not an integer", clip(v))
			}
			cur.step = x
		case "ITEM: "+key == countItem:
			v, ln, ok := value()
			if !ok {
				_, note, err := incomplete("no count")
				return blocks, note, err
			}
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 {
				return nil, "", errAt(ln, "%s: %q is not a count", countItem, clip(v))
			}
			cur.n = x
		case strings.HasPrefix(key, "BOX BOUNDS"):
			cur.triclinic = strings.Contains(key, "xy")
			for a := range 3 {
				v, ln, ok := value()
				if !ok {
					_, note, err := incomplete("box bounds cut")
					return blocks, note, err
				}
				f := strings.Fields(v)
				want := 2
				if cur.triclinic {
					want = 3
				}
				if len(f) != want {
					return nil, "", errAt(ln, "box bounds: %d values, want %d", len(f), want)
				}
				for k, s := range f {
					x, err := strconv.ParseFloat(s, 64)
					if err != nil {
						return nil, "", errAt(ln, "box bounds: %q is not a number", clip(s))
					}
					cur.box[a][k] = x
				}
			}
		case "ITEM: "+key == rowsItem || strings.HasPrefix(key, item+" "):
			if !seen["TIMESTEP"] {
				return nil, "", errAt(lineNo, "%s before ITEM: TIMESTEP", rowsItem)
			}
			if !seen[strings.TrimPrefix(countItem, "ITEM: ")] {
				return nil, "", errAt(lineNo, "%s before %s", rowsItem, countItem)
			}
			h, ok := headers[t]
			if !ok {
				names := strings.Fields(strings.TrimPrefix(key, item))
				h, err = parse(names)
				if err != nil {
					return nil, "", errAt(lineNo, "%v (header: %s)", err, clip(t))
				}
				h.line, h.names = t, names
				headers[t] = h
			}
			cur.cols = h
			cur.rowsOff, cur.rowsLine = lr.off, lr.line
			for k := 0; k < cur.n; k++ {
				_, complete, e := lr.next()
				if e != nil || !complete {
					if e != nil && !errors.Is(e, io.EOF) {
						return nil, "", fmt.Errorf("%s: %w", path, e)
					}
					_, note, err := incomplete(fmt.Sprintf("%d of %d rows", k, cur.n))
					return blocks, note, err
				}
			}
			blocks = append(blocks, *cur)
			cur = nil
		default:
			return nil, "", errAt(lineNo, "unknown item %q", clip(t))
		}
	}
	if len(blocks) == 0 {
		return nil, "", fmt.Errorf("%s: no frame (not a LAMMPS dump?)", path)
	}
	return blocks, "", nil
}

// clip shortens a quoted piece of input for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// fields splits a row on blanks into dst (reused).
func fields(dst [][]byte, b []byte) [][]byte {
	dst = dst[:0]
	for {
		i := 0
		for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		b = b[i:]
		if len(b) == 0 {
			return dst
		}
		j := bytes.IndexAny(b, " \t")
		if j < 0 {
			return append(dst, b)
		}
		dst = append(dst, b[:j])
		b = b[j:]
	}
}
