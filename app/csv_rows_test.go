package app

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// cutFile is an output file that takes n bytes, then fails as a full disk
// does: the write that crosses n puts its first bytes on disk and returns
// ENOSPC (Truncate is the file's).
type cutFile struct {
	*os.File
	n int
}

func (f *cutFile) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return f.File.Write(p)
	}
	k, _ := f.File.Write(p[:f.n])
	f.n = 0
	return k, syscall.ENOSPC
}

// A full disk in the middle of series.csv or contacts.csv stops the run
// with exit 1 naming the file, and the file on disk holds whole rows only
// (each with the header's columns, the last ending in '\n'; none when
// the first write failed): the sink
// writes whole rows and cuts a failed write back. With bufio's 4 kB
// writes the file ended in a cut row.
func TestRowsWholeOnFullDisk(t *testing.T) {
	defer func(f func(string) (io.WriteCloser, error)) { createOutput = f }(createOutput)
	for _, c := range []struct {
		file string
		n    int
	}{{SeriesFile, 3000}, {SeriesFile, 100001}, {ContactsFile, 5000}, {ContactsFile, 70001}, {ContactsFile, 300007}} {
		t.Run(fmt.Sprintf("%s/%d", c.file, c.n), func(t *testing.T) {
			createOutput = func(path string) (io.WriteCloser, error) {
				f, err := os.Create(path)
				if err != nil || filepath.Base(path) != c.file {
					return f, err
				}
				return &cutFile{File: f, n: c.n}, nil
			}
			dir := t.TempDir()
			var stderr bytes.Buffer
			code := Main([]string{"run", "sphere-piling", "--time", "0.1", "--set", "output.every=0.0002", "--set", "output.contacts=every",
				"--workers", "1", "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
			if code != ExitFailure || !strings.Contains(stderr.String(), c.file) || !strings.Contains(stderr.String(), "no space left") {
				t.Fatalf("exit %d, stderr %q; want exit 1 naming %s and the full disk", code, stderr.String(), c.file)
			}
			data, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > c.n {
				t.Fatalf("%d bytes on disk (the disk took %d)", len(data), c.n)
			}
			if len(data) == 0 {
				return // the first rows' write failed: none is on disk
			}
			if data[len(data)-1] != '\n' {
				t.Fatalf("%s ends in a cut row: %q", c.file, data[max(0, len(data)-60):])
			}
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			cols := strings.Count(lines[0], ",")
			for i, l := range lines {
				if c.file == SeriesFile && strings.Count(l, ",") != cols {
					t.Fatalf("row %d has %d commas, the header %d", i, strings.Count(l, ","), cols)
				}
			}
			t.Logf("%d bytes, %d whole rows", len(data), len(lines))
		})
	}
}
