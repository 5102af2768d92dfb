// Package state saves and restores the complete state of a simulation
// (final.json of a run, checkpoints, a recording's keyframes): every body's
// kinematics and forces, the contact history, the integrator's own state,
// walls, events and edits (version 2), so that a run continues from a saved
// state bit for bit; and benchmarks start from packed configurations (files
// without a version: the bodies' kinematics only).
package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"reflect"
	"strings"

	"grainlab/assets"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// Version is the version of the state files Encode writes. Version 2 adds
// the bodies' forces, the integrator's state and the world's history; a
// file without a version (1) holds the bodies' kinematics only.
const Version = 2

// Body is one body's state.
type Body struct {
	Name            string     `json:"name"`
	Position        [3]float64 `json:"position"`
	Quaternion      [4]float64 `json:"quaternion"` // w, x, y, z
	Velocity        [3]float64 `json:"velocity"`
	AngularVelocity [3]float64 `json:"angular_velocity"`
	// Force and Torque are the total force and moment of the last
	// evaluation (version 2), which the next step starts from.
	Force  Opt3 `json:"force,omitzero"`
	Torque Opt3 `json:"torque,omitzero"`
}

// Opt3 is an optional 3-vector of a state file: written as [x, y, z] when
// Set, absent otherwise (comparable, unlike a pointer).
type Opt3 struct {
	V   [3]float64
	Set bool
}

// MarshalJSON writes the vector.
func (o Opt3) MarshalJSON() ([]byte, error) { return json.Marshal(o.V) }

// UnmarshalJSON reads the vector and marks it set.
func (o *Opt3) UnmarshalJSON(b []byte) error {
	o.Set = true
	return json.Unmarshal(b, &o.V)
}

// File is the content of final.json.
type File struct {
	Version int     `json:"version,omitempty"` // 0 (absent) is version 1
	Scene   string  `json:"scene"`
	Time    float64 `json:"time"`
	Steps   int64   `json:"steps"`
	Bodies  []Body  `json:"bodies"`
	// Integrator is the integrator's own state, History the world's (version 2).
	Integrator *integrate.State `json:"integrator,omitempty"`
	History    *world.History   `json:"history,omitempty"`
	// data is the file's bytes when Parse read it: Apply's errors in the
	// integrator state and the history's edits name their line from it.
	data []byte
}

func arr(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

func vec(a [3]float64) geom.Vec3 { return geom.V(a[0], a[1], a[2]) }

// Capture returns the complete state of w (version 2): every body that is
// not a wall, in body order, with its forces; the integrator's state and
// the world's history. When the history is not that of the bodies' state
// (world.HistoryValid: the last good state of a failed run) it returns
// the kinematics only, as a file without a version.
func Capture(w *world.World) File {
	f := File{Version: Version, Scene: w.Name, Time: w.Time, Steps: w.Steps}
	if !w.HistoryValid() {
		f.Version = 0
		w.EachBody(func(_ int, b *body.Body) {
			if b.Wall < 0 {
				f.Bodies = append(f.Bodies, Body{Name: b.Name, Position: arr(b.X), Quaternion: [4]float64{b.Q.W, b.Q.X, b.Q.Y, b.Q.Z},
					Velocity: arr(b.V), AngularVelocity: arr(b.W)})
			}
		})
		return f
	}
	return capture(w)
}

// capture is Capture of the complete state (version 2), also when the
// history is not the bodies' state.
func capture(w *world.World) File {
	f := File{Version: Version, Scene: w.Name, Time: w.Time, Steps: w.Steps}
	if n := w.NumBodies() - len(w.Walls); n > 0 { // one allocation (a backup at 10⁵ bodies); none: null as before
		f.Bodies = make([]Body, 0, n)
	}
	w.EachBody(func(_ int, b *body.Body) { // no record made (a world's sphere blocks)
		if b.Wall >= 0 {
			return
		}
		f.Bodies = append(f.Bodies, Body{
			Name: b.Name, Position: arr(b.X), Quaternion: [4]float64{b.Q.W, b.Q.X, b.Q.Y, b.Q.Z},
			Velocity: arr(b.V), AngularVelocity: arr(b.W), Force: Opt3{arr(b.F), true}, Torque: Opt3{arr(b.T), true},
		})
	})
	if w.Integrator != nil {
		f.Integrator = integrate.SaveState(w.Integrator)
	}
	f.History = w.TakeHistory()
	return f
}

// Backup is the complete state of a world in memory (Capture's, also when
// the contact history is not the bodies' state: world.HistoryValid): what
// a failed resume puts back (Restore), so that the world is exactly as it
// was — kinematics, forces, contact history, integrator state, walls,
// events, and the shapes and contact parameters of its edits.
type Backup struct {
	f     File
	stale bool
}

// Save returns the complete state of w (its bodies must be synced:
// World.SyncBodies).
func Save(w *world.World) Backup {
	return Backup{f: capture(w), stale: !w.HistoryValid()}
}

// Restore puts the saved state back into w, the world it was saved from
// (the same bodies, in any later state): a restart from it on that world
// (Apply), which replays its edits on the scene's shapes and contact
// parameters (World.RestoreHistory), so the world continues bit for bit as
// it would have from the save. The caller then starts the integrator
// (integrate.Start, which keeps the restored forces and contacts).
func (b Backup) Restore(w *world.World) error {
	if err := Apply(w, b.f, "the saved state"); err != nil {
		return err
	}
	if b.stale { // the history was not the bodies' state: say so again
		var k world.BodyStates
		k.Save(w)
		k.Restore(w)
	}
	return nil
}

// Encode returns the state of w as the bytes of a state file (JSON laid
// out by layout: one body, pair or record per line; what Write writes and
// Parse reads): final.json, checkpoints and the keyframes of a recording
// are all this. Floats are written in encoding/json's shortest form, which
// reads back to the same bits. JSON has no NaN or ±Inf: a non-finite
// number in the kinematics is an error, one elsewhere (forces, history)
// leaves a file of the kinematics only.
func Encode(w *world.World) ([]byte, error) { return EncodeFile(Capture(w)) }

// EncodeFile returns the bytes of a state file holding f (Encode's bytes
// when f is Capture's): the window captures a keyframe on the simulation
// goroutine and encodes it only when it goes to disk or a branch starts
// from it. f is not changed.
func EncodeFile(f File) ([]byte, error) {
	data, err := json.Marshal(f)
	var uv *json.UnsupportedValueError
	if errors.As(err, &uv) && f.Version >= 2 {
		// A non-finite number in the history (never seen; JSON has none):
		// the kinematics still make a state file, as an old one.
		f.Version, f.History, f.Integrator = 0, nil, nil
		f.Bodies = append([]Body(nil), f.Bodies...) // the caller's stay as they are
		for i := range f.Bodies {
			f.Bodies[i].Force, f.Bodies[i].Torque = Opt3{}, Opt3{}
		}
		data, err = json.Marshal(f)
	}
	if err != nil {
		return nil, err
	}
	return layout(data), nil
}

// layout indents compact JSON down to the records: the members of the
// top-level object and of objects directly in it go on their own lines, as
// do the elements of arrays up to two levels down (bodies, pairs, walls,
// ...); everything deeper stays on its record's line.
func layout(data []byte) []byte {
	out, _ := layoutTo(make([]byte, 0, len(data)+len(data)/8), data, nil)
	return append(out, '\n')
}

// layoutFlush is how many bytes layoutTo gathers before it hands them on.
const layoutFlush = 1 << 16

// layoutTo appends data laid out as by layout (without the final newline)
// to out; with flush, it hands out to flush and empties it whenever it
// holds layoutFlush bytes or more, and returns the rest (not flushed).
func layoutTo(out, data []byte, flush func([]byte) error) ([]byte, error) {
	type level struct{ brk bool }
	var stack []level
	nl := func() {
		out = append(out, '\n')
		for range stack {
			out = append(out, ' ', ' ')
		}
	}
	inStr, esc := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inStr {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			out = append(out, c)
		case '{', '[':
			d := len(stack)
			brk := (c == '{' && d <= 1) || (c == '[' && d <= 2)
			empty := i+1 < len(data) && (data[i+1] == '}' || data[i+1] == ']')
			stack = append(stack, level{brk && !empty})
			out = append(out, c)
			if brk && !empty {
				nl()
			}
		case '}', ']':
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.brk {
				nl()
			}
			out = append(out, c)
		case ',':
			out = append(out, c)
			if len(stack) > 0 && stack[len(stack)-1].brk {
				nl()
			}
		case ':':
			out = append(out, c)
			if len(stack) > 0 && stack[len(stack)-1].brk {
				out = append(out, ' ')
			}
		default:
			out = append(out, c)
		}
		if flush != nil && len(out) >= layoutFlush {
			if err := flush(out); err != nil {
				return out, err
			}
			out = out[:0]
		}
	}
	return out, nil
}

// Write writes the state of w as indented JSON to path: Encode's bytes.
// The state is streamed (stream.go): each body and each history pair
// encoded on its own straight from the world and laid out into a 64 KiB
// file buffer, with no copy of the bodies, of the history's pair list or
// of the whole compact JSON in memory (at 10⁵ spheres final.json is
// ~100 MB). The file is created or truncated (mode 0644 as os.WriteFile)
// first; on an encoding error (a non-finite number) the whole-file path
// (writeWhole) writes it again as before — the kinematics only — or
// returns the error. A state that cannot be written at all (a non-finite
// time or kinematics, checked first) leaves the file untouched.
func Write(path string, w *world.World) error { return write(path, w, false) }

// WriteInPlace is Write, leaving the contact history where it is: while
// the sphere path holds it, the pairs are stated from its flat arrays
// (World.HistoryStreamInPlace) instead of being handed over to the generic
// pair entries first, which at 10⁵ spheres made ~350 MB of entries (the
// peak of a run's write). The file's bytes are Write's.
func WriteInPlace(path string, w *world.World) error { return write(path, w, true) }

func write(path string, w *world.World, inPlace bool) error {
	if !kinematicsFinite(w) {
		return writeWhole(path, w) // its error, the file untouched
	}
	err := writeStream(path, w, inPlace)
	var ioe *ioError
	if err == nil {
		return nil
	} else if errors.As(err, &ioe) {
		// A failed write or close (a full disk): returned as it is. The
		// whole-file path would build the whole state in memory again (at
		// 10⁶ spheres several GB) only to fail the same way.
		return ioe.err
	}
	// An encoding error (a non-finite number): the whole-file path below
	// decides, as before the stream, what is written (the kinematics only)
	// or which error is returned. It takes the history (TakeHistory): a
	// mid-run checkpoint that gets here hands the sphere path's history to
	// the generic entries, so the run's bits then differ from a run without
	// checkpoints (docs/outputs.md, Checkpoints).
	return writeWhole(path, w)
}

// kinematicsFinite reports whether the time and every body's position,
// quaternion, velocity and angular velocity are finite: what a state file
// must hold (JSON has no NaN or ±Inf).
func kinematicsFinite(w *world.World) bool {
	z := w.Time - w.Time
	w.EachBody(func(_ int, b *body.Body) {
		if b.Wall < 0 {
			z += (b.X.X - b.X.X) + (b.X.Y - b.X.Y) + (b.X.Z - b.X.Z) + (b.Q.W - b.Q.W) + (b.Q.X - b.Q.X) +
				(b.Q.Y - b.Q.Y) + (b.Q.Z - b.Q.Z) + (b.V.X - b.V.X) + (b.V.Y - b.V.Y) + (b.V.Z - b.V.Z) +
				(b.W.X - b.W.X) + (b.W.Y - b.W.Y) + (b.W.Z - b.W.Z)
		}
	})
	return z == 0
}

// writeWhole is Write through Capture's File and one json.Encoder buffer
// of the whole compact JSON: the bytes of writeStream.
func writeWhole(path string, w *world.World) error {
	f := Capture(w)
	lw := &layoutWriter{path: path}
	err := json.NewEncoder(lw).Encode(f) // json.Marshal's bytes and a newline, in one Write
	var uv *json.UnsupportedValueError
	if errors.As(err, &uv) && f.Version >= 2 && !lw.opened() {
		data, err := EncodeFile(f) // the kinematics only (EncodeFile's fallback)
		if err != nil {
			return err
		}
		return os.WriteFile(path, data, 0o644)
	}
	if err != nil {
		if lw.file != nil {
			lw.file.Close()
		}
		return err
	}
	return lw.close()
}

// layoutWriter lays out the compact JSON that json.Encoder writes (in one
// Write: its whole buffer, then a newline) into the file at path, which it
// creates at that Write.
type layoutWriter struct {
	path  string
	file  *os.File
	calls int
}

func (l *layoutWriter) opened() bool { return l.calls > 0 }

// Write lays out p, the whole compact JSON and its newline, into the file.
func (l *layoutWriter) Write(p []byte) (int, error) {
	l.calls++
	if l.calls > 1 || len(p) == 0 || p[len(p)-1] != '\n' {
		return 0, errors.New("state: the JSON encoder wrote the state in more than one piece")
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, err
	}
	l.file = f
	write := func(b []byte) error { _, err := f.Write(b); return err }
	out, err := layoutTo(make([]byte, 0, layoutFlush+layoutFlush/4), p[:len(p)-1], write)
	if err == nil {
		err = write(append(out, '\n'))
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// close closes the file Write made.
func (l *layoutWriter) close() error {
	if l.file == nil {
		return errors.New("state: the JSON encoder wrote nothing")
	}
	return l.file.Close()
}

// QuatTol is how far from 1 a quaternion's norm may be in a state file: it
// is normalised within the tolerance and refused beyond it.
const QuatTol = 1e-6

// entry is one body entry as read, every field optional so that a missing
// one can be named (encoding/json would leave it zero) and vectors as slices
// so that a wrong count is seen (a [3]float64 drops a fourth number).
type entry struct {
	Name            *string    `json:"name"`
	Position        *[]float64 `json:"position"`
	Quaternion      *[]float64 `json:"quaternion"`
	Velocity        *[]float64 `json:"velocity"`
	AngularVelocity *[]float64 `json:"angular_velocity"`
	Force           *[]float64 `json:"force"`
	Torque          *[]float64 `json:"torque"`
}

// Read reads a state file (a path "builtin:NAME" reads states/NAME.json
// from the embedded assets) and checks it on its own: a JSON object with a
// finite time ≥ 0 and a non-empty body list; every entry with a name (not a
// wall's, "wall:…"), used once, and position, quaternion, velocity and
// angular_velocity of 3, 4, 3 and 3 finite numbers (force and torque, when
// given, 3 finite numbers); the quaternion unit within QuatTol (then
// normalised, unless within 1e-12 of unit length: kept as written); a
// version from 1 to Version. The history and integrator state of a
// version 2 file are decoded here and checked against the scene by Apply.
// Errors read "file:line: bodies[i] (name): problem".
func Read(path string) (File, error) {
	var data []byte
	var err error
	if name, ok := strings.CutPrefix(path, "builtin:"); ok {
		data, err = fs.ReadFile(assets.FS, "states/"+name+".json")
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return File{}, err
	}
	return Parse(data, path)
}

// Parse decodes and checks the content of a state file (see Read); source
// names it in errors.
func Parse(data []byte, source string) (File, error) {
	var f File
	at := func(off int64) string { return fmt.Sprintf("%s:%d", source, lineAt(data, off)) }
	jsonErr := func(off int64, err error) error {
		if le, ok := err.(*locatedError); ok {
			return fmt.Errorf("%s: %v", at(le.off), le.err)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = se.Offset
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			off = te.Offset
		}
		return fmt.Errorf("%s: %v", at(off), err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return f, fmt.Errorf("%s: empty file: want a JSON object with \"time\" and \"bodies\"", source)
		}
		return f, jsonErr(0, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return f, fmt.Errorf("%s: want a JSON object with \"time\" and \"bodies\", got %v", at(0), tokName(tok))
	}
	var hasTime, hasBodies bool
	for dec.More() {
		off := dec.InputOffset()
		kt, err := dec.Token()
		if err != nil {
			return f, jsonErr(off, err)
		}
		key, _ := kt.(string)
		off = dec.InputOffset()
		switch key {
		case "version":
			if err = dec.Decode(&f.Version); err == nil && (f.Version < 1 || f.Version > Version) {
				return f, fmt.Errorf("%s: version %d: this Grainlab reads state files of versions 1 to %d", at(off), f.Version, Version)
			}
		case "integrator":
			err = decodeValue(dec, data, off, "integrator", &f.Integrator)
		case "history":
			err = decodeValue(dec, data, off, "history", &f.History)
		case "scene":
			err = decodeValue(dec, data, off, "scene", &f.Scene)
		case "steps":
			err = dec.Decode(&f.Steps)
		case "time":
			var t *float64
			if err = dec.Decode(&t); err == nil {
				if t == nil {
					return f, fmt.Errorf("%s: time is null", at(off))
				}
				hasTime, f.Time = true, *t
			}
		case "bodies":
			hasBodies = true
			err = parseBodies(dec, data, source, &f)
		default: // fields of later versions
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			if _, ok := err.(*stateError); ok {
				return f, err
			}
			return f, jsonErr(off, err)
		}
	}
	f.data = data
	switch {
	case !hasTime:
		return f, fmt.Errorf("%s: no \"time\"", source)
	case !hasBodies:
		return f, fmt.Errorf("%s: no \"bodies\"", source)
	case !(f.Time >= 0) || math.IsInf(f.Time, 0):
		return f, fmt.Errorf("%s: time %g: want a finite time ≥ 0", source, f.Time)
	}
	return f, nil
}

// locatedError is a JSON error at offset off of the whole file.
type locatedError struct {
	off int64
	err error
}

func (e *locatedError) Error() string { return e.err.Error() }

// decodeValue decodes the value that follows the key ending at offset off
// into v, with its errors located in the whole file: a json.Decoder gives
// the offsets of a syntax or type error inside a value relative to that
// value (or to its buffer), so a large value (the history) read with
// dec.Decode was reported at the wrong line (review rv5). A list whose
// count does not fit its field (checkCounts) is an error at the list's
// line naming the field under key ("history: pairs[3].mid has 4 numbers,
// want 3").
func decodeValue(dec *json.Decoder, data []byte, off int64, key string, v any) error {
	vs := off // the value's first byte: after the colon and white space
	for vs < int64(len(data)) && strings.IndexByte(" \t\r\n:", data[vs]) >= 0 {
		vs++
	}
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) { // find it again, scanning from the value's start
			var probe json.RawMessage
			if e2 := json.Unmarshal(data[vs:], &probe); errors.As(e2, &se) {
				return &locatedError{vs + se.Offset, e2}
			}
		}
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return &locatedError{vs + se.Offset, err}
		case errors.As(err, &te):
			return &locatedError{vs + te.Offset, err}
		}
		return &locatedError{vs, err}
	}
	if err := checkCounts(raw, reflect.TypeOf(v).Elem(), key); err != nil {
		return &locatedError{vs + int64(err.(*countError).off), err}
	}
	return nil
}

// stateError is an error already located by parseBodies.
type stateError struct{ msg string }

func (e *stateError) Error() string { return e.msg }

// parseBodies decodes the body list entry by entry, so that each error
// names the entry's line.
func parseBodies(dec *json.Decoder, data []byte, source string, f *File) error {
	off := dec.InputOffset()
	fail := func(off int64, format string, args ...any) error {
		return &stateError{fmt.Sprintf("%s:%d: ", source, lineAt(data, off)) + fmt.Sprintf(format, args...)}
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return fail(off, "bodies is null: want a list of body states")
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fail(off, "bodies: want a list of body states, got %v", tokName(tok))
	}
	seen := map[string]int{}
	for i := 0; dec.More(); i++ {
		off := dec.InputOffset()
		var e *entry
		if err := dec.Decode(&e); err != nil {
			return err
		}
		if e == nil {
			return fail(off, "bodies[%d] is null", i)
		}
		b, msg := e.body()
		if msg != "" {
			if e.Name != nil {
				return fail(off, "bodies[%d] (%s): %s", i, *e.Name, msg)
			}
			return fail(off, "bodies[%d]: %s", i, msg)
		}
		if j, dup := seen[b.Name]; dup {
			return fail(off, "bodies[%d] (%s): duplicate of bodies[%d]: each body appears once", i, b.Name, j)
		}
		seen[b.Name] = i
		f.Bodies = append(f.Bodies, b)
	}
	if _, err := dec.Token(); err != nil { // ']'
		return err
	}
	if len(f.Bodies) == 0 {
		return fail(off, "bodies is empty: want the state of every body of the scene")
	}
	return nil
}

// body checks an entry and converts it; msg says what is wrong.
func (e *entry) body() (b Body, msg string) {
	if e.Name == nil || *e.Name == "" {
		return b, "no name"
	}
	b.Name = *e.Name
	if strings.HasPrefix(b.Name, wallPrefix) {
		return b, "names a wall: a state holds only the bodies; walls are the scene's"
	}
	fields := []struct {
		key string
		v   *[]float64
		dst []float64
	}{
		{"position", e.Position, b.Position[:]},
		{"quaternion", e.Quaternion, b.Quaternion[:]},
		{"velocity", e.Velocity, b.Velocity[:]},
		{"angular_velocity", e.AngularVelocity, b.AngularVelocity[:]},
	}
	for _, fd := range fields {
		if fd.v == nil {
			return b, "no " + fd.key
		}
		if len(*fd.v) != len(fd.dst) {
			return b, fmt.Sprintf("%s has %d numbers, want %d", fd.key, len(*fd.v), len(fd.dst))
		}
		copy(fd.dst, *fd.v)
	}
	for _, fd := range []struct {
		key string
		v   *[]float64
		dst *Opt3
	}{{"force", e.Force, &b.Force}, {"torque", e.Torque, &b.Torque}} {
		if fd.v == nil {
			continue
		}
		if len(*fd.v) != 3 {
			return b, fmt.Sprintf("%s has %d numbers, want 3", fd.key, len(*fd.v))
		}
		*fd.dst = Opt3{[3]float64(*fd.v), true}
	}
	if msg := b.check(); msg != "" {
		return b, msg
	}
	q := unit(b.quat())
	b.Quaternion = [4]float64{q.W, q.X, q.Y, q.Z}
	return b, ""
}

// wallPrefix starts the body name of every wall (world.AddWall).
const wallPrefix = "wall:"

func (b Body) quat() geom.Quat {
	return geom.Quat{W: b.Quaternion[0], X: b.Quaternion[1], Y: b.Quaternion[2], Z: b.Quaternion[3]}
}

// check reports a non-finite number or a quaternion farther than QuatTol
// from unit length; "" when the body state is usable.
func (b Body) check() string {
	// Arrays by value into the messages: b stays on the stack (no
	// allocation per body at 10⁵ bodies).
	switch {
	case !finite(b.Position[:]):
		return fmt.Sprintf("position %v: non-finite value", b.Position)
	case !finite(b.Quaternion[:]):
		return fmt.Sprintf("quaternion %v: non-finite value", b.Quaternion)
	case !finite(b.Velocity[:]):
		return fmt.Sprintf("velocity %v: non-finite value", b.Velocity)
	case !finite(b.AngularVelocity[:]):
		return fmt.Sprintf("angular_velocity %v: non-finite value", b.AngularVelocity)
	case b.Force.Set && !finite(b.Force.V[:]):
		return fmt.Sprintf("force %v: non-finite value", b.Force.V)
	case b.Torque.Set && !finite(b.Torque.V[:]):
		return fmt.Sprintf("torque %v: non-finite value", b.Torque.V)
	}
	if n := b.quat().Norm(); !(math.Abs(n-1) <= QuatTol) {
		return fmt.Sprintf("quaternion is not unit (|q| = %.9g, tolerance %g)", n, QuatTol)
	}
	return ""
}

// unitTol is how far from 1 a quaternion's norm may be to be kept as
// written: a state file's quaternions are the simulation's, within rounding
// of unit length, and renormalising them would change their bits (a restart
// would not continue exactly).
const unitTol = 1e-12

// unit returns q normalised, or q itself when its norm is within unitTol of 1.
func unit(q geom.Quat) geom.Quat {
	if math.Abs(q.Norm()-1) <= unitTol {
		return q
	}
	return q.Normalize()
}

// finite reports whether every number of v is finite.
func finite(v []float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// lineAt returns the 1-based line of the first non-space byte at or after
// off (a JSON decoder offset points before the separator and spaces).
func lineAt(data []byte, off int64) int {
	if off < 0 {
		off = 0
	}
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// tokName renders a JSON token for an error message.
func tokName(t json.Token) string {
	switch v := t.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '[' {
			return "a list"
		}
		return "an object"
	case string:
		return fmt.Sprintf("the string %q", v)
	}
	return fmt.Sprint(t)
}

// Apply sets every body of w to its state in f and sets the world's time.
// f must hold each body of w that is not a wall exactly once, and nothing
// else (missing, unknown and duplicate names are errors naming them), with
// finite numbers, unit quaternions (within QuatTol) and a finite time ≥ 0;
// nothing changes on such an error. source names f in errors. CheckTime
// checks the time against the run's end. A complete file (version 2) also
// restores forces, history and integrator state (ApplyNotes, which also
// says what could not be restored).
func Apply(w *world.World, f File, source string) error {
	_, err := ApplyNotes(w, f, source)
	return err
}

// OldFileNote is ApplyNotes' note for a file without a version.
const OldFileNote = "old state file: contact history and integrator state start fresh"

// ApplyNotes is Apply, returning notes for the user on what was not
// restored or differs. The rules (docs/outputs.md, final.json):
//   - bodies are matched by name: a file from a scene of another name
//     applies when its bodies are exactly this scene's (a note says so);
//   - a file without a version (or without history) restores the
//     kinematics only (OldFileNote), and so does a complete file whose
//     bodies or walls are in another order than this scene's;
//   - otherwise forces, contact history, Verlet list, Δt, wall switches,
//     events done, edits (replayed) and the step count are restored, and
//     the integrator's state when it is the same integrator (else a note);
//     the scene's contact parameters (after the replayed edits) apply, and
//     a note names those that differ from the file's record.
//
// A malformed history is an error naming it; the world is then partly
// changed (callers build a fresh one).
func ApplyNotes(w *world.World, f File, source string) (notes []string, err error) {
	if !(f.Time >= 0) || math.IsInf(f.Time, 0) {
		return nil, fmt.Errorf("%s: time %g: want a finite time ≥ 0", source, f.Time)
	}
	if len(f.Bodies) == 0 {
		return nil, fmt.Errorf("%s: no bodies: want the state of every body of scene %q", source, w.Name)
	}
	idx := make([]int, len(f.Bodies))
	seen := make(map[int]int, len(f.Bodies))
	names := bodyNames(w) // one pass: BodyByName per body is O(n²) at 10⁵ bodies
	for i, b := range f.Bodies {
		var ok bool
		if idx[i], ok = names[b.Name]; !ok {
			idx[i] = -1
		}
		switch {
		case idx[i] < 0:
			return nil, fmt.Errorf("%s: bodies[%d]: no body named %q in scene %q", source, i, b.Name, w.Name)
		case w.BodyRec(idx[i]).Wall >= 0 || strings.HasPrefix(b.Name, wallPrefix):
			return nil, fmt.Errorf("%s: bodies[%d] (%s): names a wall: a state holds only the bodies; walls are the scene's", source, i, b.Name)
		}
		if j, dup := seen[idx[i]]; dup {
			return nil, fmt.Errorf("%s: bodies[%d] (%s): duplicate of bodies[%d]: each body appears once", source, i, b.Name, j)
		}
		seen[idx[i]] = i
		if msg := b.check(); msg != "" {
			return nil, fmt.Errorf("%s: bodies[%d] (%s): %s", source, i, b.Name, msg)
		}
	}
	var missing []string
	nb := 0
	w.EachBody(func(i int, bd *body.Body) { // no record made (a world's sphere blocks)
		if bd.Wall >= 0 {
			return
		}
		nb++
		if _, ok := seen[i]; !ok {
			missing = append(missing, bd.Name)
		}
	})
	if len(missing) > 0 {
		list := missing
		more := ""
		if len(list) > 5 {
			list, more = list[:5], ", …"
		}
		return nil, fmt.Errorf("%s: %d of the %d bodies of scene %q are missing: %s%s", source, len(missing), nb, w.Name, strings.Join(list, ", "), more)
	}
	complete := f.Version >= 2 && f.History != nil
	for i, b := range f.Bodies {
		if complete && (!b.Force.Set || !b.Torque.Set) {
			return nil, fmt.Errorf("%s: bodies[%d] (%s): no force or torque: a version %d file holds both", source, i, b.Name, f.Version)
		}
	}
	if f.Scene != "" && f.Scene != w.Name {
		notes = append(notes, fmt.Sprintf("state file of scene %q applied to scene %q: its bodies match by name", f.Scene, w.Name))
	}
	inOrder := true
	for i, b := range f.Bodies {
		x, q, v, om := vec(b.Position), unit(b.quat()), vec(b.Velocity), vec(b.AngularVelocity)
		var fp, tp *geom.Vec3
		if complete {
			fv, tv := vec(b.Force.V), vec(b.Torque.V)
			fp, tp = &fv, &tv
		}
		// Without a record while the block holds it (a sphere of a
		// scene's generator); else the record (made once for all when
		// the block cannot: a turning sphere).
		if !w.SetBodyState(idx[i], x, q, v, om, fp, tp) {
			bd := w.Bodies()[idx[i]]
			bd.X, bd.Q, bd.V, bd.W = x, q, v, om
			if complete {
				bd.F, bd.T = *fp, *tp
			}
		}
		inOrder = inOrder && (i == 0 || idx[i] > idx[i-1])
	}
	w.Time = f.Time
	switch {
	case !complete:
		return append(notes, OldFileNote), nil
	case !inOrder:
		return append(notes, "the bodies are listed in another order than in this scene: contact history and integrator state start fresh"), nil
	}
	if err := w.RestoreHistory(f.History); err != nil {
		var ee *world.EditError
		if errors.As(err, &ee) { // "file:line: history.edits[i].field (at t s): problem"
			path := []any{"history", "edits", ee.Index}
			if ee.Field != "" {
				for _, k := range strings.Split(ee.Field, ".") {
					path = append(path, k)
				}
			}
			return notes, fmt.Errorf("%s: history.%w", f.at(source, path...), err)
		}
		return notes, fmt.Errorf("%s: history: %w", source, err)
	}
	w.Steps = f.Steps
	if sk := w.Settings.Skin; sk > 0 && f.History.Skin > 0 && sk != f.History.Skin {
		notes = append(notes, fmt.Sprintf("the scene asks for contact.skin %g m; the file's neighbour list was built with %g m and is kept (the same motion) until a contact parameter changes, which rebuilds it with the scene's", sk, f.History.Skin))
	}
	if d := w.ParamDiff(f.History.Params); len(d) > 0 {
		notes = append(notes, "the scene's contact parameters differ from the file's record (the scene's apply): "+strings.Join(d, "; "))
	}
	switch {
	case f.Integrator == nil || w.Integrator == nil:
	case f.Integrator.Name != w.Integrator.Name():
		notes = append(notes, fmt.Sprintf("integrator %s here, %s in the file: its own state starts fresh", w.Integrator.Name(), f.Integrator.Name))
	default:
		if err := integrate.RestoreState(w.Integrator, f.Integrator, w.NumBodies()); err != nil {
			return notes, fmt.Errorf("%s: integrator: %w", f.at(source, "integrator", stateKeyIn(err)), err)
		}
	}
	return notes, nil
}

// at returns "source:line" of the value at path in the file's bytes (Parse's;
// keys of objects and indices of lists, the deepest found when the path
// does not go all the way: its record's line), or source when f was not
// read by Parse.
func (f File) at(source string, path ...any) string {
	if f.data == nil {
		return source
	}
	dec := json.NewDecoder(bytes.NewReader(f.data))
	off := int64(0)
	var walk func(p []any) bool
	walk = func(p []any) bool { // the decoder is before a value
		if len(p) == 0 {
			return true
		}
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		d, ok := tok.(json.Delim)
		if !ok { // a number, string, …: nothing inside
			return false
		}
		for i := 0; dec.More(); i++ {
			o := dec.InputOffset()
			hit := false
			switch k := p[0].(type) {
			case string:
				kt, err := dec.Token()
				if err != nil || d != '{' {
					return false
				}
				hit = kt == k
			case int:
				if d != '[' {
					return false
				}
				hit = i == k
			}
			if hit {
				off = o
				return walk(p[1:])
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
		return false
	}
	walk(path)
	return fmt.Sprintf("%s:%d", source, lineAt(f.data, off))
}

// stateKeyIn returns the JSON key of integrate.State that err names
// ("newmark ke_max -1: …" names ke_max), or "" (the integrator's line).
func stateKeyIn(err error) string {
	t := reflect.TypeFor[integrate.State]()
	msg := err.Error()
	for i := range t.NumField() {
		k, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if k != "" && k != "name" && strings.Contains(msg, k) {
			return k
		}
	}
	return ""
}

// CheckTime reports a state time outside [0, end): a run restarted from it
// would have nothing to do (end is the run's end time, the scene's or --time).
func CheckTime(f File, source string, end float64) error {
	if !(f.Time >= 0 && f.Time < end) {
		return fmt.Errorf("%s: the state's time %g s is outside [0, %g): the run ends at %g s; give a later --time", source, f.Time, end, end)
	}
	return nil
}

// CheckPictureTime reports a state time outside [0, at] for a picture at
// time at (grainlab shot): a state at exactly that time is drawn as it is,
// a later one cannot be stepped back to it.
func CheckPictureTime(f File, source string, at float64) error {
	if !(f.Time >= 0 && f.Time <= at) {
		return fmt.Errorf("%s: the state's time %g s is outside [0, %g]: the picture is at %g s; give a --time of at least the state's time", source, f.Time, at, at)
	}
	return nil
}

// bodyNames is World.BodyNames without making a record: the index of every
// body by name (the first body of a name), the names of a world's sphere
// blocks read through EachBody.
func bodyNames(w *world.World) map[string]int {
	m := make(map[string]int, w.NumBodies())
	w.EachBody(func(i int, b *body.Body) {
		if _, ok := m[b.Name]; !ok {
			m[b.Name] = i
		}
	})
	return m
}
