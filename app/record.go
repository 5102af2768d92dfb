package app

import (
	"fmt"
	"math"
	"time"

	"grainlab/sim/record"
	"grainlab/sim/snap"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// recorder writes the recording of a headless run (`run --record FILE`,
// docs/recording.md): a frame at the first step end at or after every
// multiple of record.every (default output.every; like series rows, these
// times never shorten a step), a keyframe (with a frame) at every multiple
// of record.keyframes, and both at the start and at the end or interruption.
// A nil *recorder records nothing.
type recorder struct {
	w               *record.Writer
	path            string
	every, keyEvery float64
	nextFrame       float64
	nextKey         float64
	prev            *snap.Snapshot
	lastFrame       float64        // time of the last frame written (NaN: none)
	lastKey         float64        // time of the last keyframe written (NaN: none)
	spent           time.Duration  // wall time in write (snapshot, encoding, state.Encode, the writes)
	report          *time.Duration // RunConfig.recSpent: spent, at finish
}

// newRecorder creates the recording at path (truncating it) and writes the
// start frame and keyframe of w. every ≤ 0 takes the scene's record.every,
// else output.every.
func newRecorder(path string, s *Sim, every float64) (*recorder, error) {
	if path == "" {
		return nil, nil
	}
	if s.Spec.Record.Every > 0 {
		every = s.Spec.Record.Every
	}
	rw, err := record.Create(path, record.Header{Scene: s.World.Name})
	if err != nil {
		return nil, &InputError{fmt.Errorf("--record: %w", err)}
	}
	r := &recorder{w: rw, path: path, every: every, keyEvery: s.Spec.Record.Keyframes, lastFrame: math.NaN(), lastKey: math.NaN()}
	if !(r.keyEvery > 0) {
		r.keyEvery = 1
	}
	w := s.World
	if err := r.write(w, true); err != nil {
		rw.Close()
		return nil, err
	}
	return r, nil
}

// next is the next time the recorder needs a step end at or after.
func (r *recorder) next() float64 {
	if r == nil {
		return math.Inf(1)
	}
	return min(r.nextFrame, r.nextKey)
}

// write writes a frame of w (unless one at this time is written) and, when
// key, a keyframe; it sets the next times after w.Time.
func (r *recorder) write(w *world.World, key bool) error {
	start := time.Now()
	defer func() { r.spent += time.Since(start) }()
	if w.Time != r.lastFrame {
		s := w.Snapshot(r.prev)
		if err := r.w.WriteFrame(s); err != nil {
			return fmt.Errorf("%s: %w", r.path, err)
		}
		r.prev, r.lastFrame = s, w.Time
	}
	if key && w.Time != r.lastKey {
		data, err := state.Encode(w)
		if err != nil {
			return fmt.Errorf("%s: keyframe at t=%g s: %w", r.path, w.Time, err)
		}
		if err := r.w.WriteKeyframe(w.Time, data); err != nil {
			return fmt.Errorf("%s: %w", r.path, err)
		}
		r.lastKey = w.Time
	}
	r.nextFrame = nextTime(w.Time, r.every)
	if key {
		r.nextKey = nextTime(w.Time, r.keyEvery)
	}
	return nil
}

// step records what is due at w.Time after a step (end: the run's end time).
func (r *recorder) step(w *world.World, end float64) error {
	if r == nil {
		return nil
	}
	atEnd := w.Time >= end-1e-12
	key := w.Time >= r.nextKey-1e-12 || atEnd
	if key || w.Time >= r.nextFrame-1e-12 {
		return r.write(w, key)
	}
	return nil
}

// finish writes the last frame and keyframe of w (unless written at this
// time) and closes the file; after a failed step (final false) it only closes.
func (r *recorder) finish(w *world.World, final bool) error {
	if r == nil {
		return nil
	}
	var err error
	if final {
		err = r.write(w, true)
	}
	if r.report != nil {
		*r.report = r.spent
	}
	if e := r.w.Close(); err == nil && e != nil {
		err = fmt.Errorf("%s: %w", r.path, e)
	}
	return err
}

// summary describes the recording for the run's closing message.
func (r *recorder) summary() string {
	if r == nil {
		return ""
	}
	l := r.w.Last()
	return fmt.Sprintf("%s: %d frames (last t=%.6g s, step %d), %d keyframes, %.3g MB, %.3g s of wall time",
		r.path, r.w.Frames(), l.Time, l.Step, r.w.Keyframes(), float64(r.w.Bytes())/1e6, r.spent.Seconds())
}
