package record

import (
	"io"
	"testing"
	"time"

	"grainlab/sim/snap"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// collapse is the 300-tetrapod box collapse (the default scene from its
// shipped packed state, the side walls removed: `grainlab bench`), stepped
// 200 explicit steps into the collapse.
func collapse(b *testing.B) *world.World {
	w := load(b, "box-of-tetrapods")
	const path = "builtin:box-of-tetrapods-300-packed"
	f, err := state.Read(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := state.Apply(w, f, path); err != nil {
		b.Fatal(err)
	}
	if err := w.ApplyEvents(); err != nil {
		b.Fatal(err)
	}
	for range 200 {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			b.Fatal(err)
		}
	}
	return w
}

// counter counts the bytes written to it.
type counter struct{ n int64 }

func (c *counter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkRecordFrame times recording one frame of the collapse (the
// world's snapshot and WriteFrame, as `run --record` does) and reports its
// size: B/frame, B/body-frame, B/contact-frame (from a frame written
// without contacts), and the cost against the step: %step is one frame's
// time over one explicit step's (measured on the same world before the
// timed loop), %@100fps the cost at 100 frames per simulated second
// (one frame every 0.01 s / Δt steps).
func BenchmarkRecordFrame(b *testing.B) {
	w := collapse(b)
	const steps = 30
	t0, start := w.Time, time.Now()
	for range steps {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			b.Fatal(err)
		}
	}
	perStep := time.Since(start).Seconds() / steps
	dt := (w.Time - t0) / steps

	sizeOf := func(s *snap.Snapshot) int64 { // a second frame: no meshes or layout
		var c counter
		rw, err := NewWriter(&c, Header{Scene: s.Scene})
		if err != nil {
			b.Fatal(err)
		}
		rw.WriteFrame(s)
		n := c.n
		rw.WriteFrame(s)
		return c.n - n
	}
	s := w.Snapshot(nil)
	full := sizeOf(s)
	bare := *s
	bare.Contacts = nil
	noContacts := sizeOf(&bare)
	bare.Bodies = nil
	bare.Walls = nil
	bare.Meshes = nil
	empty := sizeOf(&bare)

	rw, err := NewWriter(io.Discard, Header{Scene: w.Name})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	prev := s
	for range b.N {
		prev = w.Snapshot(prev)
		if err := rw.WriteFrame(prev); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	perFrame := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(full), "B/frame")
	b.ReportMetric(float64(noContacts-empty-int64(len(s.Walls))*25)/float64(len(s.Bodies)), "B/body-frame")
	b.ReportMetric(float64(full-noContacts)/float64(len(s.Contacts)), "B/contact-frame")
	b.ReportMetric(float64(len(s.Bodies)), "bodies")
	b.ReportMetric(float64(len(s.Contacts)), "contacts")
	b.ReportMetric(perStep*1e3, "ms/step")
	b.ReportMetric(100*perFrame/perStep, "%step")
	b.ReportMetric(100*perFrame/(perStep*0.01/dt), "%@100fps")
}

// BenchmarkReadFrame times decoding one frame of the collapse from memory.
func BenchmarkReadFrame(b *testing.B) {
	w := collapse(b)
	var buf []byte
	bw := &sliceWriter{&buf}
	rw, err := NewWriter(bw, Header{Scene: w.Name})
	if err != nil {
		b.Fatal(err)
	}
	s := w.Snapshot(nil)
	rw.WriteFrame(s)
	rd, err := NewReader(readerAt(buf), func() (int64, error) { return int64(len(buf)), nil }, "mem")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := rd.Frame(0); err != nil {
			b.Fatal(err)
		}
	}
}

type sliceWriter struct{ b *[]byte }

func (s *sliceWriter) Write(p []byte) (int, error) { *s.b = append(*s.b, p...); return len(p), nil }

type readerAt []byte

func (r readerAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(r)) {
		return 0, io.EOF
	}
	n := copy(p, r[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// BenchmarkWriteFrame times WriteFrame alone (encoding and the write to
// io.Discard) on one snapshot of the collapse.
func BenchmarkWriteFrame(b *testing.B) {
	w := collapse(b)
	s := w.Snapshot(nil)
	rw, err := NewWriter(io.Discard, Header{Scene: w.Name})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := rw.WriteFrame(s); err != nil {
			b.Fatal(err)
		}
	}
}
