package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"

	"grainlab/sim/dump"
	"grainlab/sim/record"
	"grainlab/sim/snap"
)

// OpenFrames opens a run made headless or elsewhere as a snap.Frames,
// choosing by content: a Grainlab recording (sim/record, by its magic
// bytes) or a LAMMPS/LIGGGHTS `dump custom` text file (it starts with an
// ITEM: line). A file that is neither, or a dump with bad columns, is an
// *InputError (exit 2) naming the file.
func OpenFrames(path string) (snap.Frames, error) { return OpenFramesWith(path, dump.Options{}) }

// OpenFramesWith is OpenFrames with the options of a dump (its step size,
// a `dump local` file of contacts); a recording ignores them.
func OpenFramesWith(path string, o dump.Options) (snap.Frames, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &InputError{err}
		}
		return nil, err
	}
	head := make([]byte, 64)
	n, err := io.ReadFull(f, head)
	f.Close()
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head = head[:n]
	if bytes.HasPrefix(head, []byte(record.Magic)) {
		r, err := record.Open(path)
		if err != nil {
			return nil, &InputError{err}
		}
		return r, nil
	}
	if bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("ITEM:")) {
		r, err := dump.OpenWith(path, o)
		if err != nil {
			return nil, &InputError{err}
		}
		return r, nil
	}
	return nil, &InputError{fmt.Errorf("%s: not a Grainlab recording or a LAMMPS dump (it starts with %q)", path, clipHead(head))}
}

// FrameIndex returns the index of the newest frame of src at or before t
// (0 when t is before the first, -1 when src is empty).
func FrameIndex(src snap.Frames, t float64) int {
	n := src.Len()
	if n == 0 {
		return -1
	}
	i := sort.Search(n, func(i int) bool { return src.Time(i) > t }) - 1
	return max(i, 0)
}

func clipHead(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 32 {
		b = b[:32]
	}
	return string(b)
}
