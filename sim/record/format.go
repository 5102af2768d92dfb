// Package record writes and reads recordings: a run as a sequence of frames
// (snap.Snapshot) with full-state keyframes at intervals, in one compact,
// append-only, chunked binary file (docs/recording.md). Every chunk carries
// its length and a CRC-32C, so a file cut short by a killed run, or damaged,
// reads up to its last complete frame; a Reader also reads a file that is
// still being written (Refresh).
package record

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
)

// Magic opens every recording; Version follows it (uint32, little-endian).
const Magic = "GRAINREC"

// Version is the format version this package writes and reads.
const Version = 1

// fileHead is the length of the magic and the version.
const fileHead = len(Magic) + 4

// Chunk types (one byte before the payload length).
const (
	chunkHeader   = 'H' // scene name; first chunk of a file
	chunkMesh     = 'M' // one mesh, appended to the file's mesh table
	chunkStrings  = 'S' // strings appended to the intern table (rule and integrator names)
	chunkLayout   = 'L' // the body and wall tables frames refer to, until the next layout
	chunkFrame    = 'F' // one frame
	chunkKeyframe = 'K' // the time and the bytes of a state file (state.Encode)
	// Optional chunks (added within version 1; a reader that predates them
	// skips them, and a file without them reads with empty groups and no edges).
	chunkEdges  = 'E' // a mesh's edge table (snap.Mesh.Edges), right after its mesh chunk
	chunkGroups = 'G' // the bodies' groups (snap.Body.Group) of the layout just before, as intern ids
)

// chunkOverhead is the bytes around a payload: type, length, checksum.
const chunkOverhead = 1 + 4 + 4

// maxChunk bounds a payload length; a larger one is damage, not data.
const maxChunk = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendChunk appends a chunk (type, payload length, payload, CRC-32C of
// type, length and payload) to dst.
func appendChunk(dst []byte, typ byte, payload []byte) []byte {
	start := len(dst)
	dst = append(dst, typ)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
	dst = append(dst, payload...)
	sum := crc32.Checksum(dst[start:], castagnoli)
	return binary.LittleEndian.AppendUint32(dst, sum)
}

// enc appends little-endian values to a byte slice.
type enc struct{ b []byte }

func (e *enc) f64(x float64) { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x)) }
func (e *enc) f32(x float64) {
	e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(float32(x)))
}
func (e *enc) u(x uint64)   { e.b = binary.AppendUvarint(e.b, x) }
func (e *enc) i(x int64)    { e.b = binary.AppendVarint(e.b, x) }
func (e *enc) byte1(x byte) { e.b = append(e.b, x) }
func (e *enc) str(s string) { e.u(uint64(len(s))); e.b = append(e.b, s...) }

// errShort is a payload that ends before its content (never in a chunk
// whose checksum matched, unless the file was made to look so).
var errShort = errors.New("payload shorter than its content")

// dec reads what enc wrote; the first error sticks and later reads return
// zeros, so a damaged payload is an error, never a panic.
type dec struct {
	b   []byte
	err error
}

func (d *dec) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		if d.err == nil {
			d.err = errShort
		}
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *dec) f64() float64 {
	if p := d.take(8); p != nil {
		return math.Float64frombits(binary.LittleEndian.Uint64(p))
	}
	return 0
}

func (d *dec) f32() float64 {
	if p := d.take(4); p != nil {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
	}
	return 0
}

func (d *dec) u() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *dec) i() int64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = errShort
		return 0
	}
	d.b = d.b[n:]
	return x
}

func (d *dec) byte1() byte {
	if p := d.take(1); p != nil {
		return p[0]
	}
	return 0
}

// count reads a length of items of at least minSize bytes each, refusing
// one the rest of the payload cannot hold (no huge allocation from damage).
func (d *dec) count(minSize int) int {
	n := d.u()
	if d.err == nil && n > uint64(len(d.b)/max(minSize, 1)) {
		d.err = errShort
		return 0
	}
	return int(n)
}

// index reads an index that must be below n.
func (d *dec) index(n int) int {
	x := d.u()
	if d.err == nil && x >= uint64(n) {
		d.err = errors.New("index out of range")
		return 0
	}
	return int(x)
}

func (d *dec) str() string {
	n := d.count(1)
	return string(d.take(n))
}
