package window

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/render/mainthread"
	"grainlab/sim/snap"
	"grainlab/ui"
)

func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return toRGBA(img)
}

// strip counts the pixels of rows [y0, y1) and columns [0, x1) that differ
// (beyond tol per channel) between a and b, and the pixels there.
func strip(a, b *image.RGBA, x1, y0, y1, tol int) (diff, all int) {
	for y := y0; y < y1; y++ {
		for x := 0; x < x1; x++ {
			i := a.PixOffset(x, y)
			for k := 0; k < 3; k++ {
				if d := int(a.Pix[i+k]) - int(b.Pix[i+k]); d > tol || d < -tol {
					diff++
					break
				}
			}
			all++
		}
	}
	return diff, all
}

// TestWindowTimeline drives the real window (hidden, under Xvfb): a scene
// stepped into contact is recorded; ← shows the frame before the newest;
// the time bar is drawn under the view; scrubbed to a past time t the window
// shows the same picture as `grainlab shot SCENE --time t` (the renderer is
// handed the past snapshot: bodies, contacts and force arrows); → at the
// newest frame goes live again and, live, steps the simulation.
func TestWindowTimeline(t *testing.T) {
	mainthread.NeedDisplay(t)
	o := smallScene("8")
	s, err := app.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	loop := app.NewSimLoop(s, o)
	loop.Start()
	defer loop.Close()
	for st := loop.State(); st.Snap.Stats.Contacts < 4 && st.Snap.Stats.Time < 2; st = loop.State() {
		steps(t, loop, 200)
	}
	steps(t, loop, 40)
	h := loop.History()
	n := h.Len()
	k := n - 30
	past, _ := h.Frame(k)
	tk := h.Time(k)
	if past.Stats.Contacts == 0 {
		t.Fatalf("frame %d (t=%g s) has no contacts", k, tk)
	}
	const W, H = 800, 500
	dir := t.TempDir()
	shotPNG := filepath.Join(dir, "shot.png")
	onMainCollect(t, func(fail func(string, ...any)) string {
		args := []string{"shot", app.DefaultScene, "--time", fmt.Sprintf("%.17g", tk), "--size", fmt.Sprintf("%dx%d", W, H),
			"--out", shotPNG, "--quiet", "--workers", "2"}
		for _, set := range o.Sets {
			args = append(args, "--set", set)
		}
		var so, se strings.Builder
		if code := app.Main(args, &so, &se); code != app.ExitOK {
			if strings.Contains(se.String(), "cannot open a window") {
				return se.String()
			}
			fail("grainlab shot: exit %d: %s", code, se.String())
		}
		return ""
	})
	if t.Failed() {
		return
	}
	withUI(t, W, H, func(p uiParts, fail func(string, ...any)) {
		w := newWindow(p.win, p.r, p.u, loop, viewOptions{Options: o, MaxFPS: 60, Share: DefaultRenderShare}, watchInput(p.win))
		w.testCursor = true
		w.shotDir = dir
		frames := w.drawFrames
		grab := func() *image.RGBA {
			w.shotReq = true
			frames(1)
			select {
			case msg := <-w.shots:
				p, ok := strings.CutPrefix(msg, "screenshot saved to ")
				if !ok {
					fail("%s", msg)
					return nil
				}
				return readPNG(t, p)
			case <-time.After(60 * time.Second):
				fail("no screenshot")
				return nil
			}
		}
		frames(3)
		if !w.tl.Live || w.shown != loop.Latest() {
			fail("the window does not start live")
		}
		// ← shows the frame before the newest
		w.key(glfw.KeyLeft, 0, glfw.Press, 0)
		frames(1)
		if w.tl.Live || w.shownIdx != n-2 || w.shown != mustFrame(h, n-2) {
			fail("←: live %v, shown frame %d, want %d", w.tl.Live, w.shownIdx, n-2)
		}
		w.key(glfw.KeyLeft, 0, glfw.Press, 0)
		frames(1)
		if w.shownIdx != n-3 {
			fail("← ×2: shown frame %d, want %d", w.shownIdx, n-3)
		}

		// scrub to t_k; the same view and camera as the shot
		w.tl.Seek(tk)
		frames(1)
		if w.shown != past {
			fail("scrubbed to t=%g: shown frame t=%g, want frame %d", tk, w.shown.Stats.Time, k)
		}
		fbw, fbh := p.win.GetFramebufferSize()
		w.view = shotView(past, ShotOptions{})
		w.cam = shotCamera(past, ShotOptions{}, fbw, fbh)
		withBar := grab()
		w.hidePanel = true
		bare := grab()
		shot := readPNG(t, shotPNG)
		if withBar == nil || bare == nil {
			return
		}
		if bare.Bounds() != shot.Bounds() {
			fail("window %v, shot %v", bare.Bounds(), shot.Bounds())
			return
		}
		d := countDiff(bare, shot, 24)
		all := bare.Bounds().Dx() * bare.Bounds().Dy()
		frac := float64(d) / float64(all)
		t.Logf("window scrubbed to t=%.6g s vs shot --time: %d of %d pixels differ by > 24/255 (%.3f%%); %d contacts", tk, d, all, 100*frac, past.Stats.Contacts)
		if frac > 0.0005 { // the live frame, 30 steps later, differs in 0.35%
			fail("window at t=%g and shot differ in %.3f%% of the pixels (> 0.05%%)", tk, 100*frac)
		}
		// the time bar: the strip under the view changes when it is drawn
		bar, px := strip(withBar, bare, W/2, H-ui.TimeBarHeight, H-8, 10)
		t.Logf("time bar strip: %d of %d pixels differ from the bare view", bar, px)
		if float64(bar) < 0.3*float64(px) {
			fail("no time bar under the view: %d of %d pixels changed", bar, px)
		}
		w.hidePanel = false

		// → up to the newest frame goes live; live, → steps the simulation
		w.tl.Seek(h.Time(n - 2))
		frames(1)
		w.key(glfw.KeyRight, 0, glfw.Press, 0)
		frames(1)
		if !w.tl.Live {
			fail("→ onto the newest frame did not go live")
		}
		step := loop.Latest().Stats.Step
		w.key(glfw.KeyRight, 0, glfw.Press, 0)
		if !loop.Sync(30 * time.Second) {
			fail("sync")
		}
		frames(1)
		if got := loop.Latest().Stats.Step; got != step+1 || h.Len() != n+1 {
			fail("→ live: step %d → %d, history %d → %d frames", step, got, n, h.Len())
		}
		// a broken run file from the panel: a message, the scene keeps running
		bad := filepath.Join(dir, "broken.grec")
		os.WriteFile(bad, []byte("not a recording\n"), 0o644)
		gen := loop.State().Gen
		w.apply(&ui.Actions{OpenFile: bad}, w.shown)
		frames(1)
		if w.player || !w.statusErr || !strings.Contains(w.status, "broken.grec") || loop.State().Gen != gen || w.src != snap.Frames(h) {
			fail("broken run file: player %v, status %q, gen %d → %d", w.player, w.status, gen, loop.State().Gen)
		}
		// playback at 1000× reaches the live edge
		w.tl.Seek(h.Time(0))
		w.tl.Factor = 1000
		w.togglePlayback()
		for i := 0; i < 200 && !w.tl.Live; i++ {
			frames(1)
			time.Sleep(5 * time.Millisecond)
		}
		if !w.tl.Live {
			fail("playback at 1000x did not reach the live edge: t=%g of %g", w.tl.T, h.Time(h.Len()-1))
		}
	})
}

func mustFrame(h *app.History, i int) *snap.Snapshot {
	s, _ := h.Frame(i)
	return s
}

// recorded runs the small scene into contact and returns its history (a
// snap.Frames like a recording) and the loop (closed by the test).
func recorded(t *testing.T) *app.History {
	t.Helper()
	l := startLoop(t, smallScene("8"))
	for st := l.State(); st.Snap.Stats.Contacts < 4 && st.Snap.Stats.Time < 2; st = l.State() {
		steps(t, l, 200)
	}
	steps(t, l, 40)
	return l.History()
}

// TestWindowPlayer: the window on a recorded run (no simulation) shows its
// frames: it starts at the first, → and ← step, the panel's Play plays the
// frames to the end and stops, an edit is refused with a message; a broken
// file from the panel leaves the shown run as it is.
func TestWindowPlayer(t *testing.T) {
	h := recorded(t)
	n := h.Len()
	withUI(t, 640, 400, func(p uiParts, fail func(string, ...any)) {
		w := newWindow(p.win, p.r, p.u, nil, viewOptions{MaxFPS: 60, Share: DefaultRenderShare}, watchInput(p.win))
		w.setPlayer(h, "memory")
		frames := w.drawFrames
		frames(2)
		if w.shownIdx != 0 || w.shown != mustFrame(h, 0) {
			fail("player starts at frame %d", w.shownIdx)
		}
		w.key(glfw.KeyRight, 0, glfw.Press, 0)
		w.key(glfw.KeyRight, 0, glfw.Repeat, 0)
		frames(1)
		if w.shownIdx != 2 {
			fail("→ ×2: frame %d, want 2", w.shownIdx)
		}
		w.key(glfw.KeyLeft, 0, glfw.Press, 0)
		frames(1)
		if w.shownIdx != 1 {
			fail("←: frame %d, want 1", w.shownIdx)
		}
		w.apply(&ui.Actions{Params: []ui.ParamEdit{{Key: "mu", Value: 0.1}}}, w.shown)
		if !w.statusErr || !strings.Contains(w.status, "nothing to simulate") {
			fail("an edit in the player: status %q", w.status)
		}
		w.tl.Factor = 1000
		w.apply(&ui.Actions{Play: true}, w.shown)
		for i := 0; i < 300 && w.tl.Playing; i++ {
			frames(1)
			time.Sleep(2 * time.Millisecond)
		}
		if w.tl.Playing || w.shownIdx != n-1 || w.tl.Live {
			fail("play to the end: playing %v, frame %d of %d, live %v", w.tl.Playing, w.shownIdx, n, w.tl.Live)
		}
		bad := filepath.Join(t.TempDir(), "broken.grec")
		os.WriteFile(bad, []byte("not a recording\n"), 0o644)
		w.apply(&ui.Actions{OpenFile: bad}, w.shown)
		frames(1)
		if !w.statusErr || !strings.Contains(w.status, "broken.grec") || w.src != snap.Frames(h) {
			fail("broken run file: status %q, source kept %v", w.status, w.src == snap.Frames(h))
		}
	})
}

// TestExportFrames writes a PNG sequence of a recorded run: one PNG per
// --every frames, the first one the same picture as a shot of that frame,
// the bodies moving between the first and the last; a stand-in ffmpeg
// shows the MP4 step's command line, and without ffmpeg a note says so.
func TestExportFrames(t *testing.T) {
	mainthread.NeedDisplay(t)
	h := recorded(t)
	n := h.Len()
	dir := t.TempDir()
	fake := filepath.Join(dir, "ffmpeg")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/args\"\nfor a; do last=$a; done\n: > \"$last\"\n"), 0o755)
	out := filepath.Join(dir, "frames")
	every := n / 7
	var log strings.Builder
	var errs []string
	var shot0 *image.RGBA
	var skip string
	onMain(func() {
		if err := checkDisplay(); err != nil {
			skip = err.Error()
			return
		}
		if err := ExportFrames(h, out, FramesOptions{Width: 320, Height: 200, Every: every, Log: &log, FFmpeg: fake}); err != nil {
			errs = append(errs, "export: "+err.Error())
			return
		}
		s0, _ := h.Frame(0)
		img, err := RenderShot(s0, ShotOptions{Width: 320, Height: 200})
		if err != nil {
			errs = append(errs, "shot: "+err.Error())
		}
		shot0 = img
	})
	if skip != "" {
		mainthread.NoWindow(t, skip)
	}
	for _, e := range errs {
		t.Fatal(e)
	}
	want := (n + every - 1) / every
	pngs, _ := filepath.Glob(filepath.Join(out, "frame_*.png"))
	if len(pngs) != want {
		t.Fatalf("%d PNGs for %d frames every %d, want %d", len(pngs), n, every, want)
	}
	first, last := readPNG(t, filepath.Join(out, "frame_000000.png")), readPNG(t, pngs[len(pngs)-1])
	if d := countDiff(first, shot0, 24); d != 0 {
		t.Errorf("the first exported frame differs from its shot in %d pixels", d)
	}
	if d := countDiff(first, last, 24); d < 100 {
		t.Errorf("first and last exported frames differ in only %d pixels", d)
	}
	args, err := os.ReadFile(filepath.Join(dir, "args"))
	if err != nil {
		t.Fatalf("ffmpeg not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "frames.mp4")); err != nil || !strings.Contains(string(args), "frame_%06d.png") || !strings.Contains(string(args), "-framerate") {
		t.Errorf("ffmpeg command line %q (mp4: %v)", args, err)
	}
	t.Logf("%d PNGs; ffmpeg %s; log: %s", len(pngs), strings.TrimSpace(string(args)), strings.TrimSpace(log.String()))

	// without ffmpeg on PATH: a note, the PNGs stay, no error
	var nolog strings.Builder
	t.Setenv("PATH", filepath.Join(dir, "none"))
	if err := encodeVideo(out, 10, FramesOptions{Log: &nolog}); err != nil || !strings.Contains(nolog.String(), "ffmpeg is not on PATH") {
		t.Errorf("without ffmpeg: %v, %q", err, nolog.String())
	}
}

// TestRunFileBadInput: `view` and `shot` of a file that is not a readable
// run (a recording or a dump) exit 2 naming it; --time outside a run's
// frames is an error naming their span.
func TestRunFileBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "broken.grec")
	os.WriteFile(bad, []byte("\x00garbage"), 0o644)
	for _, args := range [][]string{{"view", "--set", "time=1", bad}, {"shot", bad, "--integrator", "cd", "--out", bad + ".png"}} {
		var so, se strings.Builder
		if code := app.Main(args, &so, &se); code != app.ExitInput || !strings.Contains(se.String(), "recorded run") {
			t.Errorf("%v: exit %d, %q", args, code, se.String())
		}
	}
	for _, args := range [][]string{{"view", bad}, {"shot", bad, "--time", "0", "--out", bad + ".png"}} {
		var so, se strings.Builder
		if code := app.Main(args, &so, &se); code != app.ExitInput || !strings.Contains(se.String(), "broken.grec") {
			t.Errorf("%v: exit %d, %q", args[0], code, se.String())
		}
	}
	h := app.NewHistory(1 << 20)
	for i, tf := range []float64{0.1, 0.2, 0.3} {
		h.Add(mkSnap(int64(i), tf, 1, 0))
	}
	for _, c := range []struct {
		t    float64
		want float64
	}{{0.1, 0.1}, {0.25, 0.2}, {0.3, 0.3}} {
		s, err := frameAtTime(h, "run", c.t)
		if err != nil || s.Stats.Time != c.want {
			t.Errorf("frameAtTime(%g) = %v, %v; want the frame at t=%g", c.t, s, err, c.want)
		}
	}
	for _, c := range []struct {
		size  string
		every int
	}{{"10x10", 1}, {"640x", 1}, {"640x400", 0}} {
		var se strings.Builder
		if code := RunExportFrames(h, t.TempDir(), c.size, c.every, &se); code != app.ExitInput || !strings.Contains(se.String(), "--") {
			t.Errorf("--frames --size %q --every %d: exit %d, %q", c.size, c.every, code, se.String())
		}
	}
	for _, bt := range []float64{0.05, 0.31} {
		if _, err := frameAtTime(h, "run", bt); err == nil || !strings.Contains(err.Error(), "0.1 .. 0.3") {
			t.Errorf("frameAtTime(%g): %v", bt, err)
		}
	}
}

// `grainlab export RECORDING --frames DIR` (the command, on the main thread
// as main.go runs it): one PNG per --every-th recorded frame, of --size, the
// first one the same picture as the shot of the recording's first frame.
func TestExportFramesCommand(t *testing.T) {
	mainthread.NeedDisplay(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.grec")
	var se strings.Builder
	if code := app.Main([]string{"run", "sliding-block-a", "--time", "0.05", "--record", rec, "--out", dir, "--quiet"}, &strings.Builder{}, &se); code != app.ExitOK {
		t.Fatalf("run: exit %d: %s", code, se.String())
	}
	src, err := app.OpenFrames(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	n := src.Len()
	out := filepath.Join(dir, "frames")
	var code int
	var shot0 *image.RGBA
	onMain(func() {
		if err := checkDisplay(); err != nil {
			return
		}
		code = app.Main([]string{"export", rec, "--frames", out, "--size", "160x100", "--every", "5"}, &strings.Builder{}, &se)
		if s0, err := src.Frame(0); err == nil {
			shot0, _ = RenderShot(s0, ShotOptions{Width: 160, Height: 100})
		}
	})
	if shot0 == nil {
		mainthread.NoWindow(t, "no GL display")
	}
	if code != app.ExitOK {
		t.Fatalf("export --frames: exit %d: %s", code, se.String())
	}
	pngs, _ := filepath.Glob(filepath.Join(out, "frame_*.png"))
	if want := (n + 4) / 5; len(pngs) != want {
		t.Fatalf("%d PNGs for %d frames every 5, want %d", len(pngs), n, want)
	}
	first := readPNG(t, filepath.Join(out, fmt.Sprintf(FramePattern, 0)))
	if b := first.Bounds(); b.Dx() != 160 || b.Dy() != 100 {
		t.Fatalf("PNG size %v, want 160x100", b)
	}
	diff := 0
	for i := range first.Pix {
		if first.Pix[i] != shot0.Pix[i] {
			diff++
		}
	}
	if diff != 0 {
		t.Errorf("the first PNG differs from the shot of frame 0 in %d bytes", diff)
	}
}
