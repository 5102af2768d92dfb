package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"grainlab/sim/world"
)

// Output file names in --out (docs/outputs.md).
const (
	SeriesFile   = "series.csv"
	ContactsFile = "contacts.csv"
	FinalFile    = "final.json"
)

// createOutput opens an output file for writing; tests replace it to inject
// write failures (a full disk).
var createOutput = func(path string) (io.WriteCloser, error) { return os.Create(path) }

// OutputError is a failed write, flush, sync, rename or close of an output
// file: exit 1, the file named.
type OutputError struct {
	Path string
	Op   string
	Err  error
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("%s: %s failed: %v (outputs are incomplete)", e.Path, e.Op, e.Err)
}
func (e *OutputError) Unwrap() error { return e.Err }

// sink is a buffered output file whose first error sticks and names the
// file. It hands the file whole rows only (each write ends at a '\n'), so
// that the file ends at a row's end whatever happens after a write: a
// killed run's series.csv and contacts.csv end with a whole row, and a
// write that fails part-way (a full disk) is cut back to the last whole
// row (Truncate, when the file has it) — no reader meets a cut line.
// bufio.Writer wrote its 4 kB buffer whenever it filled, mid-row.
type sink struct {
	path string
	f    io.WriteCloser
	buf  []byte // rows not yet written (and the row being appended)
	off  int64  // bytes written to f: whole rows
	err  error
}

// sinkBuf is the buffered bytes from which whole rows are written.
const sinkBuf = 64 << 10

func openSink(path string) (*sink, error) {
	f, err := createOutput(path)
	if err != nil {
		return nil, &OutputError{path, "create", err}
	}
	return &sink{path: path, f: f, buf: make([]byte, 0, sinkBuf+sinkBuf/4)}, nil
}

func (s *sink) fail(op string, err error) {
	if s.err == nil && err != nil {
		s.err = &OutputError{s.path, op, err}
	}
}

// put appends p to the buffer and writes the whole rows out once it holds
// sinkBuf bytes.
func (s *sink) put(p []byte) {
	s.buf = append(s.buf, p...)
	s.filled()
}

// filled writes the whole rows out once the buffer holds sinkBuf bytes.
func (s *sink) filled() {
	if len(s.buf) >= sinkBuf {
		s.rows()
	}
}

// rows writes the buffer's whole rows (up to its last '\n').
func (s *sink) rows() {
	if s.err != nil {
		return
	}
	n := bytes.LastIndexByte(s.buf, '\n') + 1
	if n == 0 {
		return // a row longer than the buffer: written once complete
	}
	s.out(s.buf[:n])
	s.buf = s.buf[:copy(s.buf, s.buf[n:])]
}

// out writes b (whole rows) to the file; a write that fails part-way is
// cut back to the rows before it.
func (s *sink) out(b []byte) {
	k, err := s.f.Write(b)
	if err == nil && k < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if t, ok := s.f.(interface{ Truncate(int64) error }); ok && k > 0 {
			t.Truncate(s.off)
		}
		s.fail("write", err)
		return
	}
	s.off += int64(k)
}

// WriteString appends to the buffer (a write error is kept for Err).
func (s *sink) WriteString(v string) {
	if s.err == nil {
		s.buf = append(s.buf, v...)
		s.filled()
	}
}

// WriteByte appends one byte.
func (s *sink) WriteByte(c byte) error {
	if s.err == nil {
		s.buf = append(s.buf, c)
		s.filled()
	}
	return s.err
}

// Write appends p (io.Writer, for fmt.Fprintf).
func (s *sink) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.put(p)
	if s.err != nil {
		return 0, s.err
	}
	return len(p), nil
}

// Flush writes the buffered whole rows to the file.
func (s *sink) Flush() error {
	s.rows()
	return s.err
}

// Close flushes and closes; the first error of the file's life is returned.
func (s *sink) Close() error {
	if s.f == nil {
		return s.err
	}
	if s.err == nil && len(s.buf) > 0 {
		s.out(s.buf) // everything, a last row without its '\n' too
		s.buf = s.buf[:0]
	}
	s.fail("close", s.f.Close())
	s.f = nil
	return s.err
}

// writeFinalAtomic writes the state of w to path through a temporary file in
// the same directory, synced and then renamed over path: a reader (or a
// crash) sees the old file or the new one, never a partial one.
func writeFinalAtomic(path string, w *world.World, write func(string, *world.World) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return &OutputError{path, "create", err}
	}
	name := tmp.Name()
	tmp.Close()
	os.Chmod(name, 0o644) // CreateTemp makes 0600; final.json is an ordinary output
	ok := false
	defer func() {
		if !ok {
			os.Remove(name)
		}
	}()
	if err := write(name, w); err != nil {
		return &OutputError{path, "write", err}
	}
	if err := syncFile(name); err != nil {
		return &OutputError{path, "sync", err}
	}
	if err := os.Rename(name, path); err != nil {
		return &OutputError{path, "rename", err}
	}
	ok = true
	return nil
}

func syncFile(name string) error {
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// removeStale deletes the outputs of an earlier run in dir (series.csv,
// contacts.csv, final.json), so the directory never mixes two runs; keep is
// a file not to delete (the --restart file when it is dir/final.json).
func removeStale(dir, keep string) error {
	for _, n := range []string{SeriesFile, ContactsFile, FinalFile} {
		p := filepath.Join(dir, n)
		if keep != "" && sameFile(p, keep) {
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return &OutputError{p, "remove the previous run's", err}
		}
	}
	return nil
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
