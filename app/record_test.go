package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"grainlab/sim/record"
	"grainlab/sim/state"
)

// `run --record FILE` writes a frame at the first step end at or after
// every multiple of output.every (or record.every) and at the end, a
// keyframe at the start, every record.keyframes and at the end; the last
// frame is final.json's state bit for bit and the last keyframe is
// final.json's bytes; recording does not change the run (final.json is
// the same bytes as without --record).
func TestRunRecord(t *testing.T) {
	plain, dir := t.TempDir(), t.TempDir()
	file := filepath.Join(dir, "run.grec")
	args := []string{"run", "pile-of-blocks", "--time", "0.3", "--quiet", "--set", "record.keyframes=0.1"}
	var stderr bytes.Buffer
	if code := Main(append(args, "--out", plain), &bytes.Buffer{}, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if code := Main(append(args, "--out", dir, "--record", file, "--set", "record.every=0.02"), &bytes.Buffer{}, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	a, _ := os.ReadFile(filepath.Join(plain, FinalFile))
	b, _ := os.ReadFile(filepath.Join(dir, FinalFile))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("final.json differs with --record (%d vs %d bytes)", len(a), len(b))
	}
	r, err := record.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Note() != "" || r.Scene() != "pile-of-blocks" {
		t.Errorf("note %q, scene %q", r.Note(), r.Scene())
	}
	// Frames at t=0, the first step end at or after each multiple of 0.02 s, and the end.
	n := r.Len()
	if n != 16 {
		t.Errorf("%d frames, want 16 (t=0, 14 multiples of 0.02 s before 0.3 s, the end)", n)
	}
	for i := 1; i < n-1; i++ {
		k := float64(i) * 0.02
		if ti := r.Time(i); ti < k-1e-12 || ti > k+0.002 {
			t.Errorf("frame %d at t=%v, want the first step end at or after %v", i, ti, k)
		}
	}
	if r.Keyframes() != 4 { // 0, ≥0.1, ≥0.2, the end
		t.Errorf("%d keyframes, want 4", r.Keyframes())
	}
	kt, key, ok := r.Keyframe(n - 1)
	if !ok || kt != r.Time(n-1) || !bytes.Equal(key, b) {
		t.Errorf("last keyframe: t=%v (frame at %v), %v; equal to final.json: %v", kt, r.Time(n-1), ok, bytes.Equal(key, b))
	}
	var fin state.File // as written: state.Parse would normalise the quaternions
	if err := json.Unmarshal(b, &fin); err != nil {
		t.Fatal(err)
	}
	last, err := r.Frame(n - 1)
	if err != nil {
		t.Fatal(err)
	}
	if last.Stats.Time != fin.Time || last.Stats.Step != fin.Steps {
		t.Errorf("last frame t=%v step %d; final.json t=%v step %d", last.Stats.Time, last.Stats.Step, fin.Time, fin.Steps)
	}
	byName := map[string]int{}
	for i, bd := range last.Bodies {
		byName[bd.Name] = i
	}
	for _, fb := range fin.Bodies {
		bd := last.Bodies[byName[fb.Name]]
		q := [4]float64{bd.Rot.W, bd.Rot.X, bd.Rot.Y, bd.Rot.Z}
		if bd.Name != fb.Name || [3]float64{bd.Pos.X, bd.Pos.Y, bd.Pos.Z} != fb.Position || q != fb.Quaternion ||
			[3]float64{bd.Vel.X, bd.Vel.Y, bd.Vel.Z} != fb.Velocity {
			t.Errorf("body %s: recorded %v %v %v, final.json %v %v %v", fb.Name, bd.Pos, bd.Rot, bd.Vel, fb.Position, fb.Quaternion, fb.Velocity)
		}
	}
	if len(last.Contacts) == 0 {
		t.Error("the last frame has no contacts: the pile should rest on the ground")
	}
}

// A --record path that cannot be created is bad input naming the flag,
// found before any other output is written.
func TestRunRecordBadPath(t *testing.T) {
	var stderr bytes.Buffer
	file := filepath.Join(t.TempDir(), "no", "such", "dir", "x.grec")
	out := t.TempDir()
	code := Main([]string{"run", "cube-drop-a", "--time", "0.01", "--quiet", "--out", out, "--record", file}, &bytes.Buffer{}, &stderr)
	if code != ExitInput || !strings.Contains(stderr.String(), "--record") {
		t.Errorf("exit %d, stderr %q; want %d naming --record", code, stderr.String(), ExitInput)
	}
	if _, err := os.Stat(filepath.Join(out, SeriesFile)); err == nil {
		t.Errorf("%s written before the --record error", SeriesFile)
	}
}

// A run stopped by SIGINT leaves a complete recording whose last frame is
// at final.json's time; one killed (SIGKILL) leaves a recording that opens
// up to its last complete frame, read while it was being written too.
func TestRunRecordInterrupted(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		dir := t.TempDir()
		file := filepath.Join(dir, "run.grec")
		cmd, stderr := child(t, "run", "cube-drop-a", "--time", "1000", "--out", dir, "--quiet", "--record", file, "--set", "record.every=0.001")
		var live *record.Reader
		waitFor(t, "a recording with frames", func() bool {
			if live == nil {
				live, _ = record.Open(file)
				return false
			}
			live.Refresh()
			return live.Len() > 20
		})
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || (sig == syscall.SIGINT && ee.ExitCode() != ExitInterrupt) {
			t.Fatalf("%v: exit %v; stderr %s", sig, err, stderr)
		}
		n0 := live.Len()
		live.Refresh()
		if live.Len() < n0 {
			t.Errorf("%v: Refresh lost frames: %d → %d", sig, n0, live.Len())
		}
		live.Close()
		r, err := record.Open(file)
		if err != nil {
			t.Fatalf("%v: %v", sig, err)
		}
		n := r.Len()
		for i := range n {
			if _, err := r.Frame(i); err != nil {
				t.Fatalf("%v: %v", sig, err)
			}
		}
		if sig == syscall.SIGINT {
			fin, err := state.Read(filepath.Join(dir, FinalFile))
			if err != nil {
				t.Fatal(err)
			}
			if r.Note() != "" || r.Time(n-1) != fin.Time || !strings.Contains(stderr.String(), "grainlab: recording "+file) {
				t.Errorf("SIGINT: note %q, last frame t=%v, final.json t=%v; stderr %s", r.Note(), r.Time(n-1), fin.Time, stderr)
			}
			if kt, _, ok := r.Keyframe(n - 1); !ok || kt != fin.Time {
				t.Errorf("SIGINT: last keyframe at %v (%v), want %v", kt, ok, fin.Time)
			}
		}
		if n < 20 || math.IsNaN(r.Time(n-1)) {
			t.Errorf("%v: %d frames", sig, n)
		}
		t.Logf("%v: %d frames readable, note %q", sig, n, r.Note())
		r.Close()
	}
}

// BenchmarkRunRecord times `run` over GRAINLAB_RECORD_SPAN (default 0.1)
// simulated seconds of the 300-tetrapod collapse (the packed default
// scene), without and with --record at 100 frames per simulated second
// (record.every=0.01, keyframes every 1 s), in alternating runs; it
// reports %cost, the difference of the two runs' times over the run
// without (noisy on a shared machine), %own, the wall time spent inside
// the recorder over the recording run's (the same cost, free of the noise
// between runs), and the recording's bytes per simulated second.
func BenchmarkRunRecord(b *testing.B) {
	span := 0.1
	if v := os.Getenv("GRAINLAB_RECORD_SPAN"); v != "" {
		fmt.Sscan(v, &span)
	}
	var off, on, spent time.Duration
	var bytes int64
	run := func(record bool) time.Duration {
		s, err := Load(Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked, Time: 6 + span, Sets: []string{"record.every=0.01"}})
		if err != nil {
			b.Fatal(err)
		}
		c := RunConfig{Dir: b.TempDir(), Quiet: true}
		var own time.Duration
		if record {
			c.Record = filepath.Join(c.Dir, "run.grec")
			c.recSpent = &own
		}
		start := time.Now()
		if err := s.RunOutputs(c, io.Discard); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		if record {
			st, err := os.Stat(c.Record)
			if err != nil {
				b.Fatal(err)
			}
			bytes += st.Size()
			spent += own
		}
		return d
	}
	for range b.N {
		off += run(false)
		on += run(true)
	}
	b.ReportMetric(100*(on.Seconds()-off.Seconds())/off.Seconds(), "%cost")
	b.ReportMetric(100*spent.Seconds()/on.Seconds(), "%own")
	b.ReportMetric(float64(bytes)/float64(b.N)/span/1e6, "MB/sim-s")
	b.ReportMetric(off.Seconds()/float64(b.N), "s/run")
}
