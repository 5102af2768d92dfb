package window

// `grainlab export INPUT --frames DIR`: a PNG sequence of a run with the
// window's rendering (contacts and force arrows), drawn in one hidden window
// like `grainlab shot`, and DIR/frames.mp4 when ffmpeg is on PATH.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/go-gl/glfw/v3.3/glfw"

	"grainlab/app"
	"grainlab/render"
	"grainlab/sim/snap"
)

// FramesOptions control ExportFrames.
type FramesOptions struct {
	Width, Height int       // image size (0: the window's 1280×800)
	Every         int       // write every Nth frame (≤ 1: all)
	Overlays      bool      // every overlay on (AllOverlays)
	FPS           float64   // video frame rate (0: 1× real time over the written frames, within 1..60)
	Log           io.Writer // progress and the ffmpeg note (nil: quiet)
	// FFmpeg is the ffmpeg program ("" looks it up on PATH; "-" writes no video).
	FFmpeg string
}

// FramePattern is the name of the PNGs ExportFrames writes in DIR (the
// sequence number counts written frames from 0).
const FramePattern = "frame_%06d.png"

// ExportFrames renders frames of src to DIR/frame_000000.png, … with the
// window's rendering: the camera frames the bodies of the first frame and
// stays; the force arrows are scaled to the first frame with contacts. It
// then runs ffmpeg (when found) to write DIR/frames.mp4. It must run on the
// main OS thread (GLFW) and needs a display.
func ExportFrames(src snap.Frames, dir string, opt FramesOptions) error {
	n := src.Len()
	if n == 0 {
		return errors.New("no complete frame to export")
	}
	every := max(opt.Every, 1)
	if opt.Width <= 0 || opt.Height <= 0 {
		opt.Width, opt.Height = WindowWidth, WindowHeight
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	first, err := src.Frame(0)
	if err != nil {
		return fmt.Errorf("frame 0: %w", err)
	}
	win, err := openWindow(opt.Width, opt.Height, "Grainlab export", false)
	if err != nil {
		return err
	}
	defer glfw.Terminate()
	defer win.Destroy()
	r, err := render.New()
	if err != nil {
		return err
	}
	defer r.Close()
	fbw, fbh := win.GetFramebufferSize()
	so := ShotOptions{Overlays: opt.Overlays}
	cam := shotCamera(first, so, fbw, fbh)
	var v render.View
	scaled := false
	written := 0
	for i := 0; i < n; i += every {
		s, err := src.Frame(i)
		if err != nil {
			return fmt.Errorf("frame %d (t=%g s): %w", i, src.Time(i), err)
		}
		if !scaled {
			v = shotView(s, so)
			scaled = s.Stats.Contacts > 0
			v.ArrowPinned = scaled // the scale of the first frame with contacts stays (same frames on any machine)
		}
		r.Draw(s, &v, cam, fbw, fbh)
		img := render.Screenshot(fbw, fbh)
		win.SwapBuffers()
		if err := writePNG(filepath.Join(dir, fmt.Sprintf(FramePattern, written)), img); err != nil {
			return err
		}
		written++
		if opt.Log != nil && (written%50 == 0 || i+every >= n) {
			fmt.Fprintf(opt.Log, "frames: %d written (t=%.4g s)\n", written, s.Stats.Time)
		}
	}
	fps := opt.FPS
	if fps <= 0 {
		fps = 25
		if last := (n - 1) / every * every; last > 0 {
			if span := src.Time(last) - src.Time(0); span > 0 {
				fps = math.Min(60, math.Max(1, float64(written-1)/span))
			}
		}
	}
	return encodeVideo(dir, fps, opt)
}

// RunExportFrames is `export INPUT --frames DIR [--size WxH] [--every N]`
// after INPUT is open: it checks the flags (exit 2), writes the frames and
// the video (exit 1 on failure) and returns the exit code.
func RunExportFrames(src snap.Frames, dir, size string, every int, stderr io.Writer) int {
	if size == "" {
		size = fmt.Sprintf("%dx%d", WindowWidth, WindowHeight)
	}
	wd, ht, err := parseSize(size)
	if err != nil {
		fmt.Fprintln(stderr, "grainlab export: --size:", err)
		return app.ExitInput
	}
	if every < 1 {
		fmt.Fprintf(stderr, "grainlab export: --every must be ≥ 1 (got %d)\n", every)
		return app.ExitInput
	}
	if err := checkDisplay(); err != nil {
		fmt.Fprintln(stderr, "grainlab export: --frames:", err)
		return app.ExitFailure
	}
	if err := ExportFrames(src, dir, FramesOptions{Width: wd, Height: ht, Every: every, Log: stderr}); err != nil {
		fmt.Fprintln(stderr, "grainlab export: --frames:", err)
		return app.ExitFailure
	}
	return app.ExitOK
}

// encodeVideo runs ffmpeg over the PNGs of dir into dir/frames.mp4 (H.264,
// even sizes), or says why there is no video.
func encodeVideo(dir string, fps float64, opt FramesOptions) error {
	prog := opt.FFmpeg
	if prog == "-" {
		return nil
	}
	if prog == "" {
		p, err := exec.LookPath("ffmpeg")
		if err != nil {
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "frames: ffmpeg is not on PATH: no MP4 (the PNGs are in %s)\n", dir)
			}
			return nil
		}
		prog = p
	}
	out := filepath.Join(dir, "frames.mp4")
	cmd := exec.Command(prog, "-y", "-loglevel", "error", "-framerate", strconv.FormatFloat(fps, 'g', 6, 64),
		"-i", filepath.Join(dir, FramePattern), "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2",
		"-c:v", "libx264", "-pix_fmt", "yuv420p", out)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("ffmpeg (%s) failed: %v: %s", prog, err, msg)
	}
	if opt.Log != nil {
		fmt.Fprintf(opt.Log, "frames: wrote %s (%.3g frames/s)\n", out, fps)
	}
	return nil
}
