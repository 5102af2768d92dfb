package window

// The window's time bar (issue 14 items 3–5): which frame is shown (the
// live snapshot, a past frame of the history, or a frame of a recorded run
// in a player), playback, stepping, and `grainlab view FILE`.

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"grainlab/app"
	"grainlab/sim/snap"
	"grainlab/ui"
)

// isRunFile reports whether arg names a recorded run (a recording or a
// LAMMPS/LIGGGHTS dump) rather than a scene: an existing regular file that
// is not a .yaml/.yml scene and is named like a path (a slash or an
// extension), so that built-in scene names are never taken for one.
func isRunFile(arg string) bool {
	low := strings.ToLower(arg)
	if strings.HasSuffix(low, ".yaml") || strings.HasSuffix(low, ".yml") {
		return false
	}
	if !strings.ContainsRune(arg, '/') && filepath.Ext(arg) == "" {
		return false
	}
	st, err := os.Stat(arg)
	return err == nil && st.Mode().IsRegular()
}

// viewRun opens the window as a player on a recorded run.
func viewRun(path string, vo viewOptions, stdout, stderr io.Writer) int {
	src, err := app.OpenFrames(path)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab view:", err)
		return app.ExitInput
	}
	defer src.Close()
	if src.Len() == 0 {
		fmt.Fprintf(stderr, "grainlab view: %s: no complete frame\n", path)
		return app.ExitInput
	}
	if vo.MaxFPS <= 0 {
		vo.MaxFPS = 60
	}
	if !(vo.Share > 0 && vo.Share <= 1) {
		vo.Share = DefaultRenderShare
	}
	win, r, u, input, closeUI, err := openUI("Grainlab — " + filepath.Base(path))
	if err != nil {
		fmt.Fprintln(stderr, "grainlab:", err)
		return app.ExitFailure
	}
	defer closeUI()
	w := newWindow(win, r, u, nil, vo, input)
	w.setPlayer(src, path)
	if vo.Play {
		w.tl.Playing = true
	}
	if vo.Speed > 0 {
		w.tl.Factor = vo.Speed
	}
	w.run()
	if vo.Report {
		w.report(stdout)
	}
	return app.ExitOK
}

// setPlayer makes the window a player of src (the loop, if any, pauses).
func (w *window) setPlayer(src snap.Frames, name string) {
	if w.player && w.src != nil && w.src != src {
		w.src.Close()
	}
	if w.loop != nil {
		w.loop.Pause()
	}
	w.src, w.player, w.runName = src, true, name
	w.cache, w.cacheIdx = nil, -1
	w.tl = ui.NewTimeline()
	w.tl.Seek(src.Time(0))
	w.pstate = app.LoopState{Gen: w.pstate.Gen + 1, Scene: name, Speed: 1, End: math.Inf(1)}
	w.status, w.statusErr = fmt.Sprintf("playing back %s: %d frames, t = %.4g .. %.4g s", name, src.Len(), src.Time(0), src.Time(src.Len()-1)), false
}

// leavePlayer goes back to the simulation (the scene that was running).
func (w *window) leavePlayer() {
	if !w.player || w.loop == nil {
		return
	}
	w.src.Close()
	w.src, w.player, w.runName = w.loop.History(), false, ""
	w.cache, w.cacheIdx = nil, -1
	w.tl = ui.NewTimeline()
	w.gen = 0 // frame the scene again
	w.scene = ""
}

// openRun opens a recorded run from the panel's file field; a broken file
// leaves the running scene as it is, with the error in the status line.
func (w *window) openRun(path string) {
	src, err := app.OpenFrames(path)
	if err == nil && src.Len() == 0 {
		src.Close()
		err = fmt.Errorf("%s: no complete frame", path)
	}
	if err != nil {
		w.status, w.statusErr = "open failed, the current scene keeps running: "+err.Error(), true
		return
	}
	w.setPlayer(src, path)
}

// state is the loop's published state, or the player's in its place.
func (w *window) state() *app.LoopState {
	if w.player || w.loop == nil {
		st := w.pstate
		st.Snap = w.shown
		if st.Snap == nil {
			st.Snap, _ = w.frameAt(0)
		}
		st.Playing = false
		st.Status, st.StatusSeq = "", w.loopSeq
		return &st
	}
	return w.loop.State()
}

// shownSnap is the snapshot the last frame drew (the live one before any).
func (w *window) shownSnap() *snap.Snapshot {
	if w.shown != nil {
		return w.shown
	}
	return w.state().Snap
}

// frameAt decodes frame i of the source (the last one is kept).
func (w *window) frameAt(i int) (*snap.Snapshot, error) {
	if w.src == nil {
		return nil, fmt.Errorf("no frames")
	}
	if i == w.cacheIdx && w.cache != nil && w.player {
		return w.cache, nil
	}
	s, err := w.src.Frame(i)
	if err != nil {
		return nil, err
	}
	w.cache, w.cacheIdx = s, i
	return s, nil
}

// pick advances the playback and returns the snapshot to draw and the live
// one (the same unless a past frame is shown).
func (w *window) pick(live *snap.Snapshot) (shown, newest *snap.Snapshot) {
	now := time.Now()
	dt := 0.0
	if !w.tick.IsZero() {
		dt = now.Sub(w.tick).Seconds()
	}
	w.tick = now
	if w.src == nil {
		return live, live
	}
	n := w.src.Len()
	if n == 0 {
		w.shownIdx = -1
		return live, live
	}
	w.tl.Advance(min(dt, 0.25), w.src.Time(0), w.src.Time(n-1), !w.player)
	if w.tl.Live && !w.player {
		w.shownIdx = -1
		return live, live
	}
	i := app.FrameIndex(w.src, w.tl.T)
	s, err := w.frameAt(i)
	if err != nil {
		w.status, w.statusErr = fmt.Sprintf("frame %d: %v", i, err), true
		w.tl.Playing = false
		if !w.player {
			w.tl.Live = true
			return live, live
		}
		if w.shown != nil {
			return w.shown, w.shown
		}
		return live, live
	}
	w.shownIdx = i
	if w.player {
		return s, s
	}
	return s, live
}

// timeBar draws the time bar under the view.
func (w *window) timeBar() ui.TimeBarActions {
	if w.src == nil || w.hidePanel {
		return ui.TimeBarActions{}
	}
	ww, _ := w.win.GetSize()
	pw := float32(0)
	if !w.hidePanel {
		pw = w.panel.Width
		if pw <= 0 {
			pw = 330
		}
		pw += 6
	}
	in := ui.TimeBarInput{
		N: w.src.Len(), Time: w.src.Time, Index: w.shownIdx, Timeline: &w.tl, Player: w.player,
		X: 6, W: max(float32(ww)-pw-12, 200), Scale: w.u.Scale(),
	}
	if in.Index < 0 {
		in.Index = in.N - 1
	}
	if h, ok := w.src.(*app.History); ok {
		for _, m := range h.Markers() {
			in.Markers = append(in.Markers, ui.TimeMark{Time: m.Time, Kind: int(m.Kind), Label: m.Kind.String() + ": " + m.Label})
		}
		in.Note = h.Note()
		in.BudgetMB = float64(h.Budget()) / (1 << 20)
	}
	return w.panel.DrawTimeBar(&in)
}

// applyTimeBar turns the time bar's actions into cursor moves and commands.
func (w *window) applyTimeBar(a *ui.TimeBarActions) {
	if w.src == nil {
		return
	}
	if a.Seek || a.GoLive || a.TogglePlay || a.FactorChanged || a.StepBack || a.StepForward || a.Resume || a.Budget > 0 {
		w.input.touch()
	}
	if a.FactorChanged {
		w.tl.Factor = a.Factor
	}
	if a.Seek {
		w.tl.Seek(w.src.Time(a.SeekIndex))
	}
	if a.GoLive && !w.player {
		w.tl.Live, w.tl.Playing = true, false
	}
	if a.TogglePlay {
		w.togglePlayback()
	}
	if a.StepBack {
		w.stepFrame(-1)
	}
	if a.StepForward {
		w.stepFrame(+1)
	}
	if a.Resume && !w.player && !w.tl.Live && w.shown != nil {
		w.loop.ResumeFrom(w.shown.Stats.Time)
		w.tl.Live, w.tl.Playing = true, false
	}
	if a.Budget > 0 {
		if h, ok := w.src.(*app.History); ok {
			h.RequestBudget(int64(a.Budget * (1 << 20)))
		}
	}
}

// togglePlayback starts or stops playing the recorded frames. From the live
// edge, forward play starts at the oldest frame and backward play at the
// newest.
func (w *window) togglePlayback() {
	n := w.src.Len()
	if n == 0 {
		return
	}
	if w.tl.Playing && !w.tl.Live {
		w.tl.Playing = false
		return
	}
	if w.tl.Live {
		if w.tl.Factor < 0 {
			w.tl.Seek(w.src.Time(n - 1))
		} else {
			w.tl.Seek(w.src.Time(0))
		}
	} else if w.tl.Factor > 0 && w.tl.T >= w.src.Time(n-1) && w.player {
		w.tl.Seek(w.src.Time(0)) // replay from the start
	}
	w.tl.Playing = true
}

// stepFrame shows the recorded frame d (±1) away from the shown one; → at
// the live edge steps the simulation, ← from it shows the frame before.
func (w *window) stepFrame(d int) {
	if w.src == nil {
		return
	}
	w.tl.Playing = false
	n := w.src.Len()
	if w.tl.Live && !w.player {
		if d > 0 {
			w.loop.Step()
			return
		}
		if n >= 2 {
			w.tl.Seek(w.src.Time(n - 2))
		}
		return
	}
	if n == 0 {
		return
	}
	i := app.FrameIndex(w.src, w.tl.T) + d
	switch {
	case i >= n-1 && !w.player:
		w.tl.Live = true
	case i < 0:
		w.tl.Seek(w.src.Time(0))
	default:
		w.tl.Seek(w.src.Time(min(i, n-1)))
	}
}

// applyPlayer handles the panel's actions while a recorded run plays: the
// run controls drive the playback; loading a scene goes back to simulating.
func (w *window) applyPlayer(a *ui.Actions, s *snap.Snapshot) {
	switch {
	case a.Play, a.Pause:
		w.togglePlayback()
	case a.Step:
		w.stepFrame(+1)
	case a.Reset:
		w.tl.Seek(w.src.Time(0))
	}
	if a.Fit {
		w.fit(s)
	}
	if a.Screenshot {
		w.shotReq = true
	}
	if a.SpeedChanged && !a.AsFast {
		w.tl.Factor = math.Copysign(a.Speed, w.tl.Factor)
	}
	if a.OpenFile != "" {
		if isRunFile(a.OpenFile) {
			w.openRun(a.OpenFile)
		} else if w.loop != nil {
			w.leavePlayer()
			w.loop.OpenFile(a.OpenFile)
		}
	}
	if a.LoadScene != "" && w.loop != nil {
		w.leavePlayer()
		o := app.Options{Scene: a.LoadScene, Workers: w.opts.Workers, Restart: "auto"}
		app.AutoRestart(&o)
		w.loop.Load(o)
	}
	if a.Law != nil || a.Material != nil || len(a.Params) > 0 || a.Compatible != nil || len(a.Walls) > 0 || a.Integrator != "" {
		w.status, w.statusErr = "a recorded run plays back: nothing to simulate (load a scene to edit)", true
	}
	if a.ViewChanged {
		w.arrowSet = true
	}
}
