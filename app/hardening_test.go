package app

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"grainlab/assets"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// The child process of the signal tests: the test binary re-executed with
// GRAINLAB_CHILD set runs Main on the arguments after "--" (in init:
// before the tests' own TestMain).
func init() {
	if os.Getenv("GRAINLAB_CHILD") == "1" {
		args := os.Args
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(Main(args, os.Stdout, os.Stderr))
	}
}

// child starts the test binary as `grainlab ARGS...`.
func child(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "GRAINLAB_CHILD=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &stderr
}

// waitFor polls ok until it holds (a hang guard of 60 s, not a measurement).
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 60 s", what)
		}
	}
}

func lineCount(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte("\n"))
}

// readSeries reads series.csv and checks every row is complete: as many
// fields as the header, each a number (the file ends with a newline).
func readSeries(t *testing.T, path string) [][]float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a complete row", path)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	n := len(strings.Split(lines[0], ","))
	var rows [][]float64
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != n {
			t.Fatalf("%s row %d has %d fields, header %d", path, i+1, len(f), n)
		}
		r := make([]float64, n)
		for j, s := range f {
			if r[j], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("%s row %d field %d: %v", path, i+1, j, err)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// SIGINT and SIGTERM sent to a real `grainlab run` stop it after a step
// with exit 130 / 143: series.csv holds complete rows, contacts.csv its
// header and rows, final.json the time reached (that of the last row),
// loadable with --restart; stderr names the resume command.
func TestRunSignalWritesOutputs(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, ExitInterrupt}, {syscall.SIGTERM, ExitTerminate}} {
		dir := t.TempDir()
		cmd, stderr := child(t, "run", "cube-drop-a", "--time", "1000", "--out", dir, "--quiet")
		series := filepath.Join(dir, SeriesFile)
		waitFor(t, "series.csv rows", func() bool { return lineCount(series) > 3 })
		cmd.Process.Signal(c.sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != c.code {
			t.Fatalf("%v: exit %v, want %d; stderr %s", c.sig, err, c.code, stderr)
		}
		rows := readSeries(t, series)
		fin, err := state.Read(filepath.Join(dir, FinalFile))
		if err != nil {
			t.Fatal(err)
		}
		last := rows[len(rows)-1][0] // 10 significant digits
		if math.Abs(fin.Time-last) > 1e-9*last || !(fin.Time > 0 && fin.Time < 1000) {
			t.Errorf("%v: final.json at t=%v, last series row at %v", c.sig, fin.Time, last)
		}
		if head, _ := os.ReadFile(filepath.Join(dir, ContactsFile)); !bytes.HasPrefix(head, []byte("t,body_a,")) {
			t.Errorf("%v: contacts.csv without its header: %.40q", c.sig, head)
		}
		want := "grainlab run cube-drop-a --time 1000 --restart " + filepath.Join(dir, FinalFile) + " --out " + dir
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("%v: stderr lacks the resume command %q:\n%s", c.sig, want, stderr)
		}
		s, err := Load(Options{Scene: "cube-drop-a", Time: 1000, Restart: filepath.Join(dir, FinalFile)})
		if err != nil {
			t.Fatalf("%v: --restart from the interrupted final.json: %v", c.sig, err)
		}
		if s.World.Time != fin.Time {
			t.Errorf("%v: restarted at %v, want %v", c.sig, s.World.Time, fin.Time)
		}
	}
}

// --checkpoint (and the scene key output.checkpoint) writes final.json
// during the run (atomically: a reader never sees a partial file), before
// the end time; a negative scene value is bad input.
func TestRunCheckpoint(t *testing.T) {
	keyed := sceneWith(t, "output:\n", "  checkpoint: 0.02\n")
	for _, args := range [][]string{{"cube-drop-a", "--checkpoint", "0.02"}, {keyed}} {
		dir := t.TempDir()
		cmd, stderr := child(t, append([]string{"run"}, append(args, "--time", "1000", "--out", dir, "--quiet")...)...)
		fin := filepath.Join(dir, FinalFile)
		var f state.File
		waitFor(t, "checkpoint at t ≥ 0.04", func() bool {
			var err error
			if f, err = state.Read(fin); err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("reading a checkpoint: %v", err) // a partial file
				}
				return false
			}
			return f.Time >= 0.04
		})
		cmd.Process.Kill()
		if f.Time >= 1000 || len(f.Bodies) != 1 {
			t.Fatalf("%v: checkpoint %+v; stderr %s", args, f, stderr)
		}
	}
	var stderr bytes.Buffer
	if code := Main([]string{"run", "cube-drop-a", "--set", "output.checkpoint=-1", "--out", t.TempDir()}, &bytes.Buffer{}, &stderr); code != ExitInput ||
		!strings.Contains(stderr.String(), "output.checkpoint") {
		t.Errorf("output.checkpoint=-1: exit %d, %q", code, stderr.String())
	}
}

// failAfter is an output file that accepts n bytes, then fails every write
// (a full disk); closeErr is returned by Close.
type failAfter struct {
	n        int
	closeErr error
}

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, syscall.ENOSPC
	}
	f.n -= len(p)
	return len(p), nil
}
func (f *failAfter) Close() error { return f.closeErr }

// A write or close error of any output stops the run with exit 1 and a
// message naming the file (a full disk used to exit 0 with cut files).
func TestRunWriteErrors(t *testing.T) {
	defer func(f func(string) (io.WriteCloser, error)) { createOutput = f }(createOutput)
	for _, c := range []struct {
		file string
		out  *failAfter
		msg  string
	}{
		{SeriesFile, &failAfter{n: 10000}, "no space left"},
		{ContactsFile, &failAfter{n: 1 << 30, closeErr: syscall.EIO}, "close failed"},
		{SeriesFile, &failAfter{n: 0}, "no space left"},
	} {
		createOutput = func(path string) (io.WriteCloser, error) {
			if filepath.Base(path) == c.file {
				return c.out, nil
			}
			return os.Create(path)
		}
		var stderr bytes.Buffer
		code := Main([]string{"run", "cube-drop-a", "--time", "0.3", "--out", t.TempDir(), "--quiet"}, &bytes.Buffer{}, &stderr)
		if code != ExitFailure || !strings.Contains(stderr.String(), c.file) || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%s failing (%+v): exit %d, stderr %q; want exit 1 naming the file and %q", c.file, c.out, code, stderr.String(), c.msg)
		}
	}
}

// On a real full file system (a 1 MB tmpfs; skipped where mounting is not
// allowed) the run exits 1 naming the file, and no partial final.json exists.
func TestRunFullDisk(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	defer syscall.Unmount(dir, 0)
	var stderr bytes.Buffer
	code := Main([]string{"run", "cube-drop-a", "--time", "1", "--set", "output.every=1e-5", "--set", "output.contacts=every",
		"--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
	if code != ExitFailure || !strings.Contains(stderr.String(), dir) || !strings.Contains(stderr.String(), "no space left") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if f, err := state.Read(filepath.Join(dir, FinalFile)); err == nil && f.Time > 0 {
		t.Logf("final.json at t=%g", f.Time)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a partial final.json: %v", err)
	}
}

// A run removes the previous run's outputs first: after a run that fails
// at its first step, no file of the earlier run remains.
func TestRunRemovesStaleOutputs(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{SeriesFile, ContactsFile, FinalFile} {
		os.WriteFile(filepath.Join(dir, n), []byte("stale\n"), 0o644)
	}
	var stderr bytes.Buffer
	Main([]string{"run", "cube-drop-a", "--set", "gravity=[0,0,1e300]", "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
	for _, n := range []string{SeriesFile, ContactsFile, FinalFile} {
		if data, err := os.ReadFile(filepath.Join(dir, n)); err == nil && bytes.Contains(data, []byte("stale")) {
			t.Errorf("%s of the earlier run is still there", n)
		}
	}
}

// The finite guard: the inputs stop the run with exit 1 and a
// message naming time, step, body or energy and the likely cause; final.json
// holds the last finite state and loads with --restart.
func TestRunNonFinite(t *testing.T) {
	// (density 1e300 of the issue is refused at build now: TestBuildRefusesMassOutOfRange.)
	for _, set := range []string{"gravity=[0,0,1e300]", "gravity=[1e300,0,0]"} {
		dir := t.TempDir()
		var stderr bytes.Buffer
		code := Main([]string{"run", "cube-drop-a", "--set", set, "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
		msg := stderr.String()
		if code != ExitFailure || !strings.Contains(msg, "non-finite state at t=") || !strings.Contains(msg, "(step ") ||
			!strings.Contains(msg, "parameter out of range") || !strings.Contains(msg, "last good state") {
			t.Errorf("%s: exit %d, stderr %q", set, code, msg)
			continue
		}
		fin := filepath.Join(dir, FinalFile)
		f, err := state.Read(fin)
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		if _, err := Load(Options{Scene: "cube-drop-a", Restart: fin}); err != nil {
			t.Errorf("%s: final.json (t=%g) does not load: %v", set, f.Time, err)
		}
		rows := readSeries(t, filepath.Join(dir, SeriesFile))
		for _, r := range rows {
			for _, x := range r {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%s: series.csv has a non-finite value: %v", set, r)
				}
			}
		}
	}
}

// A start state that is already non-finite (kinetic energy +Inf) is bad
// input, refused before any output is written.
func TestRunNonFiniteStart(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	code := Main([]string{"run", "cube-drop-a", "--set", "bodies.cube.velocity=[0,0,1e200]", "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
	if msg := stderr.String(); code != ExitInput || !strings.Contains(msg, "start state is not finite") || !strings.Contains(msg, "kinetic energy") {
		t.Errorf("exit %d, stderr %q", code, msg)
	}
	if _, err := os.Stat(filepath.Join(dir, SeriesFile)); err == nil {
		t.Error("series.csv written for a refused start")
	}
}

// sceneWith returns cube-drop-a with text inserted after a line prefix.
func sceneWith(t *testing.T, edits ...string) string {
	t.Helper()
	data, err := fs.ReadFile(assets.FS, "scenes/cube-drop-a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for i := 0; i < len(edits); i += 2 {
		s = strings.Replace(s, edits[i], edits[i]+edits[i+1], 1)
	}
	p := filepath.Join(t.TempDir(), "scene.yaml")
	os.WriteFile(p, []byte(s), 0o644)
	return p
}

// At the start, interpenetrating polyhedra (or one inside a wall) are bad
// input naming both bodies and the depth; deep smooth overlaps (spheres,
// a superquadric in the ground) only warn, shallow ones not at all.
func TestRunStartOverlap(t *testing.T) {
	spheres := filepath.Join(t.TempDir(), "spheres.yaml")
	os.WriteFile(spheres, []byte(`name: two-balls
time: 0.01
integrator: {name: explicit, dt: 1.0e-5}
contact:
  default: {model: hooke, kn: 1000, gamma_n: 0, kt: 0, gamma_t: 0, mu: 0}
shapes:
  ball: {type: sphere, radius: 0.02}
bodies:
  - {name: b1, shape: ball, density: 1000, position: [0.5, 0, 0.5]}
  - {name: b2, shape: ball, density: 1000, position: [0.53, 0, 0.5]}
walls:
  - {name: ground, type: plane, point: [0, 0, 0], normal: [0, 0, 1], size: [2, 2]}
`), 0o644)
	// smooth: two spheres (r 0.02 m) at the given centres and a superquadric
	// block (half-heights 0.005 m) above the ground.
	smooth := func(p1, p2, p3 string) string {
		p := filepath.Join(t.TempDir(), "smooth.yaml")
		os.WriteFile(p, []byte(`name: smooth-start
time: 0.01
integrator: {name: explicit, dt: 1.0e-5}
contact:
  default: {model: hooke, kn: 1000, gamma_n: 0, kt: 0, gamma_t: 0, mu: 0}
shapes:
  ball: {type: sphere, radius: 0.02}
  block: {type: superquadric, a: 0.01, b: 0.01, c: 0.005, n1: 4, n2: 4}
bodies:
  - {name: b1, shape: ball, density: 1000, position: `+p1+`}
  - {name: b2, shape: ball, density: 1000, position: `+p2+`}
  - {name: sq, shape: block, density: 1000, position: `+p3+`}
walls:
  - {name: ground, type: plane, point: [0, 0, 0], normal: [0, 0, 1], size: [2, 2]}
`), 0o644)
		return p
	}
	cases := []struct {
		scene string
		code  int
		msg   []string
	}{
		{sceneWith(t, "bodies:\n", "  - {name: other, shape: cube, density: 1000, position: [0.03, 0, 0.13]}\n"),
			ExitInput, []string{`"cube"`, `"other"`, "interpenetrate by"}},
		{sceneWith(t, "bodies:\n", "  - {name: sunk, shape: cube, density: 1000, position: [0.5, 0, 0.02]}\n"),
			ExitInput, []string{`"sunk"`, `"wall:ground"`, "by 0.03"}},
		{spheres, ExitOK, []string{"warning", "1 smooth contact(s) overlap", `deepest: "b1" and "b2" by 0.01 m, 50%`}},
		{smooth(`[0.5, 0, 0.5]`, `[0.5395, 0, 0.5]`, `[0.2, 0, 0.0015]`), ExitOK, // spheres 0.5 mm apart in 20 mm (2.5%); block 3.5 mm into the ground
			[]string{"warning: at the start: 1 smooth contact(s)", `"sq"`, `"wall:ground"`, "by 0.0035 m"}},
		{smooth(`[0.5, 0, 0.5]`, `[0.5399, 0, 0.5]`, `[0.2, 0, 0.0048]`), ExitOK, []string{"!warning"}}, // 0.1 mm, 0.2 mm: a settled pack's overlaps
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		code := Main([]string{"run", c.scene, "--time", "0.01", "--out", t.TempDir(), "--quiet"}, &bytes.Buffer{}, &stderr)
		ok := code == c.code
		for _, m := range c.msg {
			if no, found := strings.CutPrefix(m, "!"); found {
				ok = ok && !strings.Contains(stderr.String(), no)
				continue
			}
			ok = ok && strings.Contains(stderr.String(), m)
		}
		if !ok {
			t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), c.code, c.msg)
		}
	}
}

// Outputs never cut steps (issue 12 item 4): the same fixed-step run with
// output intervals 1e-3 (a multiple of the step 1e-4) and 3.7e-4 (not one)
// ends in bit-identical states; rows carry their step's own time, the last
// row lands on the end time.
func TestOutputIntervalsSameTrajectory(t *testing.T) {
	var fins []state.File
	for _, every := range []string{"1e-3", "3.7e-4"} {
		dir := t.TempDir()
		var stderr bytes.Buffer
		code := Main([]string{"run", "cube-drop-a", "--time", "0.15", "--integrator", "variational", "--dt", "1e-4",
			"--set", "integrator.dt_min=1e-4", "--set", "output.every=" + every, "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
		if code != ExitOK {
			t.Fatalf("every %s: exit %d: %s", every, code, stderr.String())
		}
		f, err := state.Read(filepath.Join(dir, FinalFile))
		if err != nil {
			t.Fatal(err)
		}
		fins = append(fins, f)
		rows := readSeries(t, filepath.Join(dir, SeriesFile))
		if last := rows[len(rows)-1][0]; last != 0.15 {
			t.Errorf("every %s: last row at %v, want the end time 0.15", every, last)
		}
	}
	a, b := fins[0], fins[1]
	if a.Steps != b.Steps || a.Time != b.Time {
		t.Fatalf("steps %d vs %d, time %v vs %v", a.Steps, b.Steps, a.Time, b.Time)
	}
	for i := range a.Bodies {
		if a.Bodies[i] != b.Bodies[i] {
			t.Fatalf("final states differ:\n%+v\n%+v", a.Bodies[i], b.Bodies[i])
		}
	}
}

// nextTime computes the next output time directly: O(1) for a restart at
// t0 = 1e7 with every = 1e-3 (no walk over 1e10 earlier times), and always
// after t.
func TestNextTime(t *testing.T) {
	for _, c := range []struct{ t, every float64 }{{0, 0.01}, {0.3, 0.1}, {1e7, 1e-3}, {1e20, 1e-3}, {0.1 - 1e-15, 0.1}} {
		n := nextTime(c.t, c.every)
		if !(n > c.t+1e-12) || (c.t < 1e15 && n > c.t+c.every+1e-9) {
			t.Errorf("nextTime(%v, %v) = %v", c.t, c.every, n)
		}
	}
	if n := nextTime(0.3, 0); !math.IsInf(n, 1) {
		t.Errorf("no interval: %v", n)
	}
}

// A restart late in time (t0 = 1e6 s, output every 1 ms) starts at once and
// writes its rows from t0 on.
func TestRunRestartLateTime(t *testing.T) {
	dir := t.TempDir()
	s, err := Load(Options{Scene: "cube-drop-a"})
	if err != nil {
		t.Fatal(err)
	}
	s.World.Time = 1e6
	restart := filepath.Join(dir, "late.json")
	if err := state.Write(restart, s.World); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if code := Main([]string{"run", "cube-drop-a", "--time", "1000000.005", "--restart", restart, "--out", out, "--quiet"}, &bytes.Buffer{}, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	rows := readSeries(t, filepath.Join(out, SeriesFile))
	if len(rows) < 5 || len(rows) > 8 || rows[0][0] != 1e6 {
		t.Errorf("%d rows from t=%v; want about 6 from 1e6", len(rows), rows[0][0])
	}
}

// The progress bar draws on its own: a first line within Every of the
// start although no step has finished (a step of many seconds), with Δt.
func TestProgressDrawsWithoutSteps(t *testing.T) {
	r, w := io.Pipe()
	p := NewProgress(w, 0, 1)
	p.Every = 10 * time.Millisecond
	p.Begin()
	line := make(chan string, 1)
	go func() {
		br := bufio.NewReader(r)
		br.ReadString('\r') // the leading \r of the first draw
		s, _ := br.ReadString('\r')
		line <- s
	}()
	select {
	case s := <-line:
		if !strings.Contains(s, "t=0/1 s") {
			t.Errorf("first line %q", s)
		}
	case <-time.After(30 * time.Second): // a hang guard
		t.Fatal("no progress line without steps")
	}
	go io.Copy(io.Discard, r)
	p.Set(0.5, 10, 1e-4)
	p.Done(0.5)
	w.Close()
}

// A panic in a command is an internal error: exit 3, a message asking for
// a report, no Go stack trace (unless GRAINLAB_DEBUG=1).
func TestMainRecoversPanic(t *testing.T) {
	defer func(f func([]string, io.Writer, io.Writer) int) { dispatchFn = f }(dispatchFn)
	dispatchFn = func([]string, io.Writer, io.Writer) int { panic("unreachable for positive finite sides") }
	t.Setenv("GRAINLAB_DEBUG", "")
	var stderr bytes.Buffer
	code := Main([]string{"run", "x"}, &bytes.Buffer{}, &stderr)
	msg := stderr.String()
	if code != ExitInternal || !strings.Contains(msg, "internal error: unreachable for positive finite sides") ||
		!strings.Contains(msg, "please report") || strings.Contains(msg, "goroutine") {
		t.Fatalf("exit %d, stderr %q", code, msg)
	}
}

// BenchmarkFiniteGuard: the per-step cost of the finite guard (CheckFinite
// and the copy of the last good state) on the packed box of tetrapods (300
// bodies); compare with a step of BenchmarkStep… (docs/performance.md).
func BenchmarkFiniteGuard(b *testing.B) {
	s, err := Load(Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked})
	if err != nil {
		b.Fatal(err)
	}
	var good world.BodyStates
	for i := 0; i < b.N; i++ {
		if err := s.World.CheckFinite(); err != nil {
			b.Fatal(err)
		}
		good.Save(s.World)
	}
}

// BenchmarkStartAudit: the start audit (findOverlaps) on the packed box of
// tetrapods, 300 bodies and 5 walls.
func BenchmarkStartAudit(b *testing.B) {
	s, err := Load(Options{Scene: DefaultScene, Restart: "builtin:" + DefaultPacked})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		if ov := findOverlaps(s.World); len(ov) != 0 {
			b.Fatal(ov)
		}
	}
}

// --audit EVERY reports, as warnings with time and bodies, a deep overlap
// that forms during the run (two soft spheres meeting head-on at 3 m/s
// overlap by up to 43% of their radius, ½μv² = ½kδ²; the run goes on, exit 0); without it,
// nothing is reported. A cube shot at the ground at 1e6 m/s no longer
// tunnels: the step control sees it coming (travel bound) and the run
// fails at the impact, naming it, instead of going on through the ground.
func TestRunPeriodicAudit(t *testing.T) {
	scene := filepath.Join(t.TempDir(), "soft.yaml")
	os.WriteFile(scene, []byte(`name: soft-head-on
time: 0.03
gravity: [0, 0, 0]
integrator: {name: explicit, dt: 1.0e-5}
contact:
  default: {model: hooke, kn: 2000, gamma_n: 0, kt: 0, gamma_t: 0, mu: 0}
shapes:
  ball: {type: sphere, radius: 0.02}
bodies:
  - {name: b1, shape: ball, density: 1000, position: [0.4, 0, 0.5], velocity: [1.5, 0, 0]}
  - {name: b2, shape: ball, density: 1000, position: [0.5, 0, 0.5], velocity: [-1.5, 0, 0]}
`), 0o644)
	for _, audit := range []string{"0.005", "0"} {
		var stderr bytes.Buffer
		code := Main([]string{"run", scene, "--audit", audit, "--out", t.TempDir(), "--quiet"}, &bytes.Buffer{}, &stderr)
		found := strings.Contains(stderr.String(), "warning: audit at t=") && strings.Contains(stderr.String(), `deepest: "b1" and "b2"`)
		if code != ExitOK || found != (audit != "0") {
			t.Errorf("--audit %s: exit %d, stderr %q", audit, code, stderr.String())
		}
	}
	var stderr bytes.Buffer
	code := Main([]string{"run", "cube-drop-a", "--set", "bodies.cube.velocity=[0,0,-1e6]", "--time", "0.03", "--audit", "0.01",
		"--out", t.TempDir(), "--quiet"}, &bytes.Buffer{}, &stderr)
	if code != ExitFailure || !strings.Contains(stderr.String(), "simulation failed at t=") || strings.Contains(stderr.String(), "crosses wall") {
		t.Errorf("1e6 m/s cube: exit %d, stderr %q; want a failure at the impact, no tunnelling", code, stderr.String())
	}
}
