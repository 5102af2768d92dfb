package state

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strconv"

	"grainlab/sim/body"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// Streaming a state file. At 10⁵ spheres final.json is ~100 MB and at 10⁶
// ~1 GB: Capture's copy of the bodies, the history's pair list (TakeHistory)
// and json.Encoder's buffer of the whole compact file held ~3× the file in
// memory at once. Write streams instead: the bodies are encoded one at a
// time straight from the world, the history's pairs one at a time as
// World.HistoryStream makes them, every piece by encoding/json (the same
// bytes as json.Marshal of the whole File: a struct's, a slice element's
// encoding does not depend on what surrounds it), and the compact JSON is
// laid out as it comes (layouter, layoutTo's rules) into a buffered file.
// Memory stays the world's plus one pair's state and the buffers.

// streamBuf is the file buffer of a streamed write.
const streamBuf = 1 << 16

// layouter is layoutTo as a stream: it keeps the nesting and string state
// between writes and holds back one byte, the lookahead that tells an
// empty object or array.
type layouter struct {
	out        *bufio.Writer
	stack      []bool // per open level: its members go on their own lines
	inStr, esc bool
	held       byte
	has        bool
}

// write lays out p, the next bytes of the compact JSON.
func (l *layouter) write(p []byte) {
	for _, c := range p {
		if l.has {
			l.step(l.held, c, true)
		}
		l.held, l.has = c, true
	}
}

// verbatim lays out p, one whole record (an object) at a depth whose
// levels inside it all stay on one line (two levels down or more: no
// member or element of it goes on its own line), as write would: copied.
func (l *layouter) verbatim(p []byte) {
	if len(p) == 0 {
		return
	}
	if l.has {
		l.step(l.held, p[0], true)
		l.has = false
	}
	if len(l.stack) < 2 || l.inStr {
		l.write(p)
		return
	}
	l.out.Write(p)
}

// finish lays out the held byte (the JSON's last).
func (l *layouter) finish() {
	if l.has {
		l.step(l.held, 0, false)
		l.has = false
	}
}

func (l *layouter) nl() {
	l.out.WriteByte('\n')
	for range l.stack {
		l.out.WriteString("  ")
	}
}

// step lays out c, followed by next in the JSON when more.
func (l *layouter) step(c, next byte, more bool) {
	if l.inStr {
		l.out.WriteByte(c)
		switch {
		case l.esc:
			l.esc = false
		case c == '\\':
			l.esc = true
		case c == '"':
			l.inStr = false
		}
		return
	}
	switch c {
	case '"':
		l.inStr = true
		l.out.WriteByte(c)
	case '{', '[':
		d := len(l.stack)
		brk := (c == '{' && d <= 1) || (c == '[' && d <= 2)
		empty := more && (next == '}' || next == ']')
		l.stack = append(l.stack, brk && !empty)
		l.out.WriteByte(c)
		if brk && !empty {
			l.nl()
		}
	case '}', ']':
		top := l.stack[len(l.stack)-1]
		l.stack = l.stack[:len(l.stack)-1]
		if top {
			l.nl()
		}
		l.out.WriteByte(c)
	case ',':
		l.out.WriteByte(c)
		if len(l.stack) > 0 && l.stack[len(l.stack)-1] {
			l.nl()
		}
	case ':':
		l.out.WriteByte(c)
		if len(l.stack) > 0 && l.stack[len(l.stack)-1] {
			l.out.WriteByte(' ')
		}
	default:
		l.out.WriteByte(c)
	}
}

// streamer encodes values with encoding/json into the layouter.
type streamer struct {
	l   layouter
	buf bytes.Buffer
	enc *json.Encoder
	// inPlace: the history from World.HistoryStreamInPlace.
	inPlace bool
	fast    []byte     // a record's hand-written encoding (fastenc.go)
	io      *errWriter // the file under out (writeStream), for failed
}

func newStreamer(out *bufio.Writer) *streamer {
	s := &streamer{l: layouter{out: out}}
	s.enc = json.NewEncoder(&s.buf) // HTML escaping on, as json.Marshal
	return s
}

// raw appends compact JSON text.
func (s *streamer) raw(t string) { s.l.write([]byte(t)) }

// value appends v's encoding (json.Marshal's bytes).
func (s *streamer) value(v any) error {
	s.buf.Reset()
	if err := s.enc.Encode(v); err != nil {
		return err
	}
	b := s.buf.Bytes()
	s.l.write(b[:len(b)-1]) // Encode's newline
	return nil
}

// member appends ,"key":v (without the comma when first).
func (s *streamer) member(key string, v any, first bool) error {
	if !first {
		s.raw(",")
	}
	s.raw(`"` + key + `":`)
	return s.value(v)
}

// writeStream writes the state of w to path as Encode's bytes, streamed
// (the package comment above); see Write.
func writeStream(path string, w *world.World, inPlace bool) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return &ioError{err}
	}
	ew := &errWriter{w: f}
	out := bufio.NewWriterSize(ew, streamBuf)
	s := newStreamer(out)
	s.inPlace, s.io = inPlace, ew
	if err := s.file(w); err != nil {
		f.Close()
		return err
	}
	s.l.finish()
	out.WriteByte('\n')
	if err := out.Flush(); err != nil {
		f.Close()
		return &ioError{err}
	}
	if err := f.Close(); err != nil {
		return &ioError{err}
	}
	return nil
}

// errWriter is the file under the stream's buffer, keeping its first write
// error: the stream stops at the next record once the file failed (a full
// disk) instead of encoding the rest of the state for nothing.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// ioError is a failed write or close of the state file (not an encoding
// error): Write returns it as it is, without the whole-file path's retry.
type ioError struct{ err error }

func (e *ioError) Error() string { return e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// failed returns the file's write error, wrapped as an ioError, or nil.
func (s *streamer) failed() error {
	if s.io != nil && s.io.err != nil {
		return &ioError{s.io.err}
	}
	return nil
}

// file streams Capture(w)'s File as json.Marshal writes it, laid out.
func (s *streamer) file(w *world.World) error {
	valid := w.HistoryValid()
	s.raw("{")
	first := true
	if valid { // version, omitempty: absent when 0
		if err := s.member("version", Version, true); err != nil {
			return err
		}
		first = false
	}
	if err := s.member("scene", w.Name, first); err != nil {
		return err
	}
	if err := s.member("time", w.Time, false); err != nil {
		return err
	}
	if err := s.member("steps", w.Steps, false); err != nil {
		return err
	}
	s.raw(`,"bodies":`)
	n := 0
	open := valid && w.NumBodies()-len(w.Walls) > 0 // capture's slice: [] even when empty; Capture's v1: null when none
	var bd Body
	var err error
	w.EachBody(func(_ int, b *body.Body) { // no record made (a world's sphere blocks)
		if err != nil || b.Wall >= 0 {
			return
		}
		if err = s.failed(); err != nil {
			return
		}
		if n == 0 {
			s.raw("[")
		} else {
			s.raw(",")
		}
		n++
		bd = Body{Name: b.Name, Position: arr(b.X), Quaternion: [4]float64{b.Q.W, b.Q.X, b.Q.Y, b.Q.Z},
			Velocity: arr(b.V), AngularVelocity: arr(b.W)}
		if valid {
			bd.Force, bd.Torque = Opt3{arr(b.F), true}, Opt3{arr(b.T), true}
		}
		var ok bool
		if s.fast, ok = appendBody(s.fast[:0], &bd); ok {
			s.l.verbatim(s.fast)
		} else {
			err = s.value(&bd)
		}
	})
	if err != nil {
		return err
	}
	switch {
	case n > 0:
		s.raw("]")
	case open:
		s.raw("[]")
	default:
		s.raw("null")
	}
	if !valid {
		s.raw("}")
		return nil
	}
	if w.Integrator != nil {
		if st := integrate.SaveState(w.Integrator); st != nil {
			if err := s.member("integrator", st, false); err != nil {
				return err
			}
		}
	}
	stream := w.HistoryStreamShared // each pair is written before the next: one PairState
	if s.inPlace {
		stream = w.HistoryStreamInPlace
	}
	h, np, each := stream()
	arrays := detachArrays(h) // the list's reference and the sphere order, streamed (spliceArrays)
	s.buf.Reset()
	if err := s.enc.Encode(h); err != nil {
		return err
	}
	head := bytes.Clone(s.buf.Bytes())
	head = head[:len(head)-1]
	// Pairs comes right before Stats and is not omitempty: its null is the
	// last `"pairs":null,"stats":` of the head (a string's quotes in the
	// head are escaped).
	const mark = `"pairs":null,"stats":`
	at := bytes.LastIndex(head, []byte(mark))
	if at < 0 {
		return errors.New("state: the history's pairs were not found in its encoding")
	}
	s.raw(`,"history":`)
	if np == 0 {
		if err := s.spliceArrays(head[:at], arrays); err != nil {
			return err
		}
		s.l.write(head[at:])
		s.raw("}")
		return nil
	}
	if err := s.spliceArrays(head[:at], arrays); err != nil {
		return err
	}
	s.l.write(head[at : at+len(`"pairs":`)])
	k := 0
	if err := each(func(p *world.PairState) error {
		if err := s.failed(); err != nil {
			return err
		}
		if k == 0 {
			s.raw("[")
		} else {
			s.raw(",")
		}
		k++
		var ok bool
		if s.fast, ok = appendPair(s.fast[:0], p); ok {
			s.l.verbatim(s.fast)
			return nil
		}
		return s.value(p)
	}); err != nil {
		return err
	}
	if k == 0 {
		s.raw("[]")
	} else {
		s.raw("]")
	}
	s.l.write(head[at+len(`"pairs":null`):])
	s.raw("}")
	return nil
}

// streamArrayMin (a test changes it) is the length from which a history's per-sphere arrays
// (verlet_ref, verlet_rad, sphere_order.bodies) are streamed a number at a
// time rather than encoded in the head: at 10⁶ spheres their text is
// ~80 MB, which the head's buffer and its copy held twice.
var streamArrayMin = 1024

// historyArrays are a History's per-sphere arrays, taken out of it to be
// streamed; each placeholder is the one-element array left in their place.
type historyArrays struct {
	order *world.SphereOrder
	ref   [][3]float64
	rad   []float64
}

// detachArrays takes h's long per-sphere arrays out of it (restored by
// spliceArrays' writing them), leaving one-element placeholders whose
// encodings spliceArrays finds in the head; none when they are short.
func detachArrays(h *world.History) *historyArrays {
	if h == nil || len(h.VerletRef) < streamArrayMin && (h.SphereOrder == nil || len(h.SphereOrder.Bodies) < streamArrayMin) {
		return nil
	}
	a := &historyArrays{order: h.SphereOrder, ref: h.VerletRef, rad: h.VerletRad}
	if a.order != nil {
		h.SphereOrder = &world.SphereOrder{At: a.order.At, Bodies: []int32{-1}}
	}
	if a.ref != nil {
		h.VerletRef, h.VerletRad = [][3]float64{{}}, []float64{0}
	}
	return a
}

// spliceArrays lays out head, the history's encoding up to its pairs, with
// the placeholders of detachArrays replaced by the arrays, streamed: the
// bytes of the arrays' own encoding (appendFloat is encoding/json's
// number; a non-finite one is an error as there).
func (s *streamer) spliceArrays(head []byte, a *historyArrays) error {
	if a == nil {
		s.l.write(head)
		return nil
	}
	// A key's quotes are never inside a string's encoding (escaped there):
	// each placeholder is found once, in field order.
	type splice struct {
		mark string
		put  func() error
	}
	var sp []splice
	if a.order != nil {
		sp = append(sp, splice{`"bodies":[-1]`, func() error {
			s.raw(`"bodies":[`)
			for k, b := range a.order.Bodies {
				if k > 0 {
					s.fast = append(s.fast[:0], ',')
				} else {
					s.fast = s.fast[:0]
				}
				s.fast = strconv.AppendInt(s.fast, int64(b), 10)
				s.l.write(s.fast)
			}
			s.raw("]")
			return nil
		}})
	}
	if a.ref != nil {
		sp = append(sp, splice{`"verlet_ref":[[0,0,0]],"verlet_rad":[0]`, func() error {
			s.raw(`"verlet_ref":[`)
			for k, c := range a.ref {
				if err := s.failed(); err != nil {
					return err
				}
				if !finiteAll(c[0], c[1], c[2]) {
					return errors.New("state: a non-finite number in the history's verlet_ref")
				}
				if k > 0 {
					s.raw(",")
				}
				s.fast = appendFloats(s.fast[:0], c[:])
				s.l.verbatim(s.fast)
			}
			s.raw(`],"verlet_rad":[`)
			for k, r := range a.rad {
				if !finiteAll(r) {
					return errors.New("state: a non-finite number in the history's verlet_rad")
				}
				if k > 0 {
					s.raw(",")
				}
				s.fast = appendFloat(s.fast[:0], r)
				s.l.verbatim(s.fast)
			}
			s.raw("]")
			return nil
		}})
	}
	for _, p := range sp {
		i := bytes.Index(head, []byte(p.mark))
		if i < 0 {
			return errors.New("state: the history's arrays were not found in its encoding")
		}
		s.l.write(head[:i])
		if err := p.put(); err != nil {
			return err
		}
		head = head[i+len(p.mark):]
	}
	s.l.write(head)
	return nil
}
