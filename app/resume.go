package app

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A resume is a run whose --restart file is its own --out directory's
// final.json (the same file, os.SameFile): the command an interrupted run
// prints. It continues the directory's series.csv (and contacts.csv with
// output.contacts=every) instead of starting them anew, so that following
// the printed command loses no row (docs/outputs.md, "Resuming into the
// same directory").

// isResume reports whether restart is dir's own final.json.
func isResume(dir, restart string) bool {
	return restart != "" && sameFile(filepath.Join(dir, FinalFile), restart)
}

// csvCut is where a resumed run continues one of the directory's CSV files:
// the bytes kept are those of the rows with t ≤ t0 (the restart time).
type csvCut struct {
	exists bool    // the file is there (else the run starts it anew)
	keep   int64   // bytes kept: the header and the rows with t ≤ t0
	rows   int     // rows kept (the header not counted)
	first  float64 // t of the first row kept
	last   float64 // t of the last row kept
	prev   float64 // t of the row before the last instant kept (rows ≥ 2)
	lastAt int64   // offset of the last kept instant's first row
	lastT0 bool    // the last row kept is at t0 itself (its t is g(t0))
}

// resumeErr is a refused resume: exit 2, nothing touched.
func resumeErr(path, format string, a ...any) error {
	return &InputError{fmt.Errorf("%s: %s; the --restart file is this directory's own final.json, so the run would continue its outputs: use another --out, or move %s away to start it anew (nothing was changed)",
		path, fmt.Sprintf(format, a...), filepath.Base(path))}
}

// scanCut reads the CSV file at path, whose first line must be header,
// and finds the rows to keep for a resume at t0: those whose t (the first
// column, as written: 10 significant digits) is at most t0's. A last line
// without its '\n' (a kill inside the kernel's write) is dropped; rows are
// in time order (the run writes them so). A header that differs (another
// scene or other flags: other columns) or a row whose t does not parse is
// refused.
func scanCut(path, header string, t0 float64) (csvCut, error) {
	var c csvCut
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, &OutputError{path, "open", err}
	}
	defer f.Close()
	c.exists = true
	lim, _ := strconv.ParseFloat(g(t0), 64) // t0 as the rows write it
	r := bufio.NewReaderSize(f, 64<<10)
	var line []byte
	var off int64
	readLine := func() ([]byte, error) {
		line = line[:0]
		for {
			b, err := r.ReadSlice('\n')
			line = append(line, b...)
			if err != bufio.ErrBufferFull {
				return line, err
			}
		}
	}
	head, err := readLine()
	if err != nil { // no whole header line: a file cut at once
		if err == io.EOF {
			return c, resumeErr(path, "no complete header line")
		}
		return c, &OutputError{path, "read", err}
	}
	if got := strings.TrimSuffix(string(head), "\n"); got != header {
		return c, resumeErr(path, "its columns are not this run's (%s)", headerDiff(got, header))
	}
	off = int64(len(head))
	c.keep = off
	for n := 2; ; n++ {
		l, err := readLine()
		if err == io.EOF {
			break // a last line without '\n' (or none): dropped
		}
		if err != nil {
			return c, &OutputError{path, "read", err}
		}
		ts, _, _ := bytes.Cut(l, []byte{','})
		t, perr := strconv.ParseFloat(string(bytes.TrimSuffix(ts, []byte{'\n'})), 64)
		if perr != nil {
			return c, resumeErr(path, "line %d: the time %.30q is not a number", n, ts)
		}
		if t > lim {
			break
		}
		if c.rows == 0 {
			c.first = t
		}
		if c.rows == 0 || t != c.last { // a new instant (contacts.csv has many rows each)
			if c.rows > 0 {
				c.prev = c.last
			}
			c.lastAt = off
		}
		c.last = t
		c.rows++
		off += int64(len(l))
		c.keep = off
	}
	c.lastT0 = c.rows > 0 && c.last == lim
	return c, nil
}

// headerDiff names the first column where two CSV headers differ.
func headerDiff(got, want string) string {
	a, b := strings.Split(got, ","), strings.Split(want, ",")
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			return fmt.Sprintf("it lacks column %d %q", i+1, b[i])
		case i >= len(b):
			return fmt.Sprintf("it has a column %d %q this run does not write", i+1, a[i])
		case a[i] != b[i]:
			return fmt.Sprintf("column %d is %q, this run's is %q", i+1, a[i], b[i])
		}
	}
	return "they differ"
}

// resumePlan is what a resume keeps of the directory's CSV files.
type resumePlan struct {
	series, contacts csvCut
	allContacts      bool    // contacts.csv is continued (output.contacts=every)
	dropT0           bool    // the rows at t0 are a stop's extra instant, dropped
	t0               float64 // the restart time, exact (the rows hold it to 10 digits)
}

// planResume checks series.csv (and contacts.csv when allContacts) for a
// resume at t0, touching nothing: a refusal (an *InputError) leaves the
// directory as it was.
func planResume(dir string, seriesHeader []string, t0 float64, allContacts bool) (*resumePlan, error) {
	p := &resumePlan{allContacts: allContacts, t0: t0}
	var err error
	if p.series, err = scanCut(filepath.Join(dir, SeriesFile), strings.Join(seriesHeader, ","), t0); err != nil {
		return nil, err
	}
	if allContacts {
		if p.contacts, err = scanCut(filepath.Join(dir, ContactsFile), contactsHeader, t0); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// decide settles, with the run's output interval every, whether the series'
// last kept row at t0 is one an uninterrupted run writes too: a row on the
// output grid (the first step end at or after a multiple of every since
// the row before), or a signal's stop row at a time between (SIGINT writes
// a last row at the time reached). A stop row is dropped, with
// contacts.csv's instant at t0 when it is continued: the resumed run
// writes the same rows an uninterrupted run does from t0 on.
func (p *resumePlan) decide(every float64) {
	s := &p.series
	if !s.lastT0 || s.rows < 2 {
		return // no row at t0 (a checkpoint between output times), or only the start row
	}
	// On the grid, as in RunOutputs' loop (w.Time ≥ nextOut − 1e-12)?
	// t0 is the restart state's exact time (review r7: its 10-digit row
	// judged a stop 3e-12 before an output time on the grid); prev, the
	// row before, is read back from 10 digits, which puts a row at a step
	// end within ulps of an output time (fixed steps) on that time.
	if nextTime(s.prev, every) <= p.t0+1e-12 {
		return
	}
	p.dropT0 = true
	s.keep = s.lastAt
	s.rows--
	if c := &p.contacts; p.allContacts && c.rows > 0 && c.last == s.last {
		c.keep = c.lastAt
	}
}

// resumeFirstRow reports whether the resumed run writes its start row (t0):
// only into a series it starts anew. A kept row at t0 is that row already;
// without one, t0 is a checkpoint between output times, where an
// uninterrupted run writes no row.
func (p *resumePlan) resumeFirstRow() bool { return p == nil || !p.series.exists || p.series.rows == 0 }

// openKept opens path to continue it after its first keep bytes (the rest,
// rows after t0, cut off).
func openKept(path string, keep int64) (*sink, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, &OutputError{path, "open", err}
	}
	if err := f.Truncate(keep); err != nil {
		f.Close()
		return nil, &OutputError{path, "truncate the rows after the restart time of", err}
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		f.Close()
		return nil, &OutputError{path, "seek", err}
	}
	return &sink{path: path, f: f, off: keep, buf: make([]byte, 0, sinkBuf+sinkBuf/4)}, nil
}

// vtkAside renames an earlier series DIR/vtk to DIR/vtk.before-resume-N
// (the first free N) before a resume with --vtk, whose series starts anew
// at t0 (sim/vtk.Create removes the frames it finds): no frame is lost. It
// returns the new name ("" when there was no DIR/vtk).
func vtkAside(dir string) (string, error) {
	d := filepath.Join(dir, "vtk")
	if _, err := os.Lstat(d); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	for n := 1; n < 10000; n++ {
		to := fmt.Sprintf("%s.before-resume-%d", d, n)
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			if err := os.Rename(d, to); err != nil {
				return "", &OutputError{d, "move the earlier VTK series aside", err}
			}
			return to, nil
		}
	}
	return "", &OutputError{d, "move the earlier VTK series aside", errors.New("no free name vtk.before-resume-N")}
}
