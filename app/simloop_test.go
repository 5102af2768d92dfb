package app

import (
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// smallScene is the default scene cut down to a few tetrapods that land
// within a fraction of a second (runs fast even with -race).
func smallScene(n string) Options {
	return Options{Scene: DefaultScene, Workers: 2, Sets: []string{
		"generators.fill.count=" + n,
		"generators.fill.region.max=[3.2,3.2,3]",
	}}
}

func startLoop(t *testing.T, o Options, configure ...func(*SimLoop)) *SimLoop {
	t.Helper()
	s, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	l := NewSimLoop(s, o)
	for _, f := range configure {
		f(l)
	}
	l.Start()
	t.Cleanup(l.Close)
	return l
}

func sync1(t *testing.T, l *SimLoop) *LoopState {
	t.Helper()
	if !l.Sync(30 * time.Second) {
		t.Fatal("the simulation goroutine did not answer")
	}
	return l.State()
}

// checksum folds everything a reader looks at into one number.
func checksum(s *snap.Snapshot) float64 {
	var h float64
	for i := range s.Bodies {
		b := &s.Bodies[i]
		h += b.Pos.X + 2*b.Pos.Y + 3*b.Pos.Z + b.Rot.W + b.Vel.Z + b.ContactForce + float64(b.Mesh)
	}
	for i := range s.Contacts {
		c := &s.Contacts[i]
		h += c.Point.X + c.Fn + c.Gap + float64(c.A+c.B)
	}
	for i := range s.Walls {
		if s.Walls[i].Enabled {
			h += float64(i + 1)
		}
	}
	for i := range s.Meshes {
		h += float64(len(s.Meshes[i].Verts))
	}
	return h + s.Stats.Time + float64(s.Stats.Step)
}

// TestSimLoopHandoffRace runs the simulation goroutine under load while one
// goroutine fires panel-like commands and two readers take snapshots the way
// the render loop does. Run with -race: any unsynchronised access fails it.
func TestSimLoopHandoffRace(t *testing.T) {
	l := startLoop(t, smallScene("10"), func(l *SimLoop) { l.PublishInterval = time.Millisecond })
	dur := 1500 * time.Millisecond
	if testing.Short() {
		dur = 300 * time.Millisecond
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var seen, commands atomic.Int64
	first := l.Latest()
	firstSum := checksum(first)

	// readers: the render loop and the panel
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last *snap.Snapshot
			var lastGen uint64
			var lastStep int64 = -1
			for {
				select {
				case <-stop:
					return
				default:
				}
				st := l.State()
				s := st.Snap
				if s == nil {
					t.Error("nil snapshot")
					return
				}
				if s != last {
					seen.Add(1)
					_ = checksum(s)
					if st.Gen == lastGen && s.Stats.Step < lastStep {
						t.Errorf("step went back from %d to %d without a reset", lastStep, s.Stats.Step)
					}
					if !(s.Stats.Time >= 0) || math.IsInf(s.Stats.Time, 0) {
						t.Errorf("bad time %g", s.Stats.Time)
					}
					for i := range s.Contacts {
						c := &s.Contacts[i]
						if c.A < 0 || c.A >= len(s.Bodies) || c.B < 0 || c.B >= len(s.Bodies) {
							t.Errorf("contact %d refers to bodies %d/%d of %d", i, c.A, c.B, len(s.Bodies))
						}
					}
					last, lastGen, lastStep = s, st.Gen, s.Stats.Step
				}
				_ = st.Law.Normal.Force(st.Law.Normal.GBar / 2)
				_ = st.Status
				time.Sleep(100 * time.Microsecond) // a frame's worth of other work, shortened
			}
		}()
	}
	// the panel and the keyboard
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewSource(7))
		walls := []string{"left", "right", "front", "back", "bottom"}
		for {
			select {
			case <-stop:
				return
			default:
			}
			commands.Add(1)
			switch rng.Intn(14) {
			case 0:
				l.Play()
			case 1:
				l.Pause()
			case 2:
				l.Step()
			case 3:
				if rng.Intn(8) == 0 {
					l.Reset()
				}
			case 4:
				l.SetSpeed(math.Pow(10, rng.Float64()*2-1), rng.Intn(2) == 0)
			case 5:
				l.SetParam("contact.default.zeta", rng.Float64())
			case 6:
				l.SetParam("contact.default.f", 1.5) // refused
			case 7:
				l.SetWall(walls[rng.Intn(len(walls))], rng.Intn(2) == 0)
			case 8:
				p := l.State().Law
				p.Friction.MuS = 0.2 + 0.3*rng.Float64()
				p.Friction.MuD = p.Friction.MuS * rng.Float64()
				l.SetLaw(p)
			case 9:
				l.Spring(rng.Intn(12), geom.V(0, 0, 0.1), geom.V(0, 0, 2))
			case 10:
				l.SpringOff()
			case 11:
				l.SetIntegrator("explicit")
			case 12:
				l.Play()
				l.SetSpeed(1, true)
			case 13:
				l.SetParam("contact.default.mu_d", 9) // refused: mu_d > mu_s
			}
			time.Sleep(time.Duration(rng.Intn(3000)) * time.Microsecond)
		}
	}()
	time.Sleep(dur)
	close(stop)
	wg.Wait()
	st := sync1(t, l)
	l.Close()
	if seen.Load() < 10 {
		t.Errorf("readers saw only %d snapshots", seen.Load())
	}
	if checksum(first) != firstSum {
		t.Error("a published snapshot changed after publication")
	}
	t.Logf("%d commands, %d snapshots seen, final t=%.4g s step %d gen %d, status %q",
		commands.Load(), seen.Load(), st.Snap.Stats.Time, st.Snap.Stats.Step, st.Gen, st.Status)
}

func TestSimLoopControls(t *testing.T) {
	l := startLoop(t, smallScene("8"))
	st := l.State()
	if st.Playing || st.Snap.Stats.Step != 0 || st.Gen != 1 || st.Integrator != "explicit" {
		t.Fatalf("initial state: playing %v step %d gen %d integrator %q", st.Playing, st.Snap.Stats.Step, st.Gen, st.Integrator)
	}

	// single steps while paused
	l.Step()
	l.Step()
	st = sync1(t, l)
	if st.Snap.Stats.Step != 2 || st.Playing || !(st.Snap.Stats.Time > 0) {
		t.Fatalf("two steps: step %d playing %v t %g", st.Snap.Stats.Step, st.Playing, st.Snap.Stats.Time)
	}

	// play as fast as possible, then pause: time advances, then stops
	l.SetSpeed(1, true)
	l.Play()
	time.Sleep(200 * time.Millisecond)
	l.Pause()
	st = sync1(t, l)
	t1 := st.Snap.Stats.Time
	if st.Playing || !(t1 > 0.01) || !st.AsFast {
		t.Fatalf("after running: playing %v t %g asFast %v", st.Playing, t1, st.AsFast)
	}
	time.Sleep(50 * time.Millisecond)
	if st = sync1(t, l); st.Snap.Stats.Time != t1 {
		t.Fatalf("time moved while paused: %g → %g", t1, st.Snap.Stats.Time)
	}

	// a live parameter change, then reset: back to t=0, the change is kept
	l.SetParam("contact.default.zeta", 0.25)
	st = sync1(t, l)
	if st.StatusErr || st.Law.Zeta != 0.25 {
		t.Fatalf("zeta: %q law %v", st.Status, st.Law.Zeta)
	}
	l.Reset()
	st = sync1(t, l)
	if st.Gen != 2 || st.Snap.Stats.Time != 0 || st.Snap.Stats.Step != 0 || st.Law.Zeta != 0.25 {
		t.Fatalf("reset: gen %d t %g step %d zeta %g (%q)", st.Gen, st.Snap.Stats.Time, st.Snap.Stats.Step, st.Law.Zeta, st.Status)
	}

	// a whole new law (as the panel sends it) is applied and survives a reset
	p := st.Law
	p.Normal.GBar, p.Friction.MuS, p.Friction.MuD = 0.004, 0.5, 0.4
	l.SetLaw(p)
	l.Reset()
	st = sync1(t, l)
	if st.Law.Normal.GBar != 0.004 || st.Law.Friction.MuS != 0.5 || st.Law.Friction.MuD != 0.4 || st.Law.Zeta != 0.25 {
		t.Fatalf("law after reset: %+v (%q)", st.Law, st.Status)
	}
	if st.Law.Normal.Eps2() <= 0 || st.Snap.SkinGap != 0.004 {
		t.Fatalf("law not prepared or skin not updated: eps2 %g skin %g", st.Law.Normal.Eps2(), st.Snap.SkinGap)
	}

	// the integrator switch keeps the state
	l.Step()
	before := sync1(t, l).Snap.Stats
	l.SetIntegrator("explicit")
	l.Step()
	st = sync1(t, l)
	if st.StatusErr || st.Snap.Stats.Step != before.Step+1 || st.Integrator != "explicit" {
		t.Fatalf("integrator switch: %q step %d→%d", st.Status, before.Step, st.Snap.Stats.Step)
	}
	l.SetIntegrator("rk4")
	if st = sync1(t, l); !st.StatusErr || !strings.Contains(st.Status, "rk4") {
		t.Fatalf("unknown integrator accepted: %q", st.Status)
	}

	// the speed setting is refused when not finite and positive
	l.SetSpeed(math.NaN(), false)
	if st = sync1(t, l); !st.StatusErr {
		t.Fatal("NaN speed accepted")
	}
}

// TestSimLoopRefusesBadParams: invalid values never reach the world.
func TestSimLoopRefusesBadParams(t *testing.T) {
	l := startLoop(t, smallScene("4"))
	law0 := l.State().Law
	for _, c := range []struct {
		path string
		v    float64
		why  string
	}{
		{"contact.default.n2", 0.5, "n2"},
		{"contact.default.f", 1, "f"},
		{"contact.default.f", 0, "f"},
		{"contact.default.gbar", math.NaN(), "gbar"},
		{"contact.default.eps1", math.Inf(1), "eps1"},
		{"contact.default.mu_d", 0.9, "mu_d"},
		{"contact.default.zeta", -1, "zeta"},
		{"contact.default.nope", 1, "nope"},
		{"integrator.dt", 1, "only contact"},
	} {
		l.SetParam(c.path, c.v)
		st := sync1(t, l)
		if !st.StatusErr || !strings.Contains(st.Status, c.why) {
			t.Errorf("%s=%g: status %q (err %v)", c.path, c.v, st.Status, st.StatusErr)
		}
		if st.Law != law0 {
			t.Fatalf("%s=%g changed the law", c.path, c.v)
		}
	}
	bad := law0
	bad.Friction.MuD = bad.Friction.MuS + 0.1
	l.SetLaw(bad)
	if st := sync1(t, l); !st.StatusErr || st.Law != law0 {
		t.Fatalf("SetLaw with mu_d > mu_s: %q", st.Status)
	}
}

// TestSimLoopWallsAndScenes: toggling a wall removes its contacts at once
// and nothing else; bad scene files leave the running scene alone.
func TestSimLoopWallsAndScenes(t *testing.T) {
	l := startLoop(t, smallScene("8"))
	l.SetSpeed(1, true)
	l.Play()
	bottom := -1
	deadline := time.Now().Add(60 * time.Second)
	for {
		s := l.Latest()
		for _, w := range s.Walls {
			if w.Name == "bottom" {
				bottom = w.Body
			}
		}
		n := 0
		for _, c := range s.Contacts {
			if c.A == bottom || c.B == bottom {
				n++
			}
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no contact with the bottom wall")
		}
		time.Sleep(5 * time.Millisecond)
	}
	l.Pause()
	before := sync1(t, l).Snap
	l.SetWall("bottom", false)
	st := sync1(t, l)
	after := st.Snap
	if st.StatusErr {
		t.Fatal(st.Status)
	}
	for _, c := range after.Contacts {
		if c.A == bottom || c.B == bottom {
			t.Fatalf("contact with the disabled wall survived: %+v", c)
		}
	}
	for _, w := range after.Walls {
		if w.Name == "bottom" && w.Enabled {
			t.Fatal("wall still enabled in the snapshot")
		}
	}
	if after.Stats.Time != before.Stats.Time || after.Stats.Step != before.Stats.Step || st.Gen != 1 {
		t.Fatal("toggling a wall reset the run")
	}
	for i := range before.Bodies {
		if before.Bodies[i].Pos != after.Bodies[i].Pos {
			t.Fatalf("body %d moved when a wall was toggled", i)
		}
	}
	l.SetWall("nope", false)
	if st := sync1(t, l); !st.StatusErr || !strings.Contains(st.Status, "nope") {
		t.Fatalf("unknown wall: %q", st.Status)
	}

	// a broken scene file: error with file:line, the scene keeps running
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.yaml")
	text := "name: broken\ntime: 1\ncontact:\n  default:\n    law: barrier\n    gbar: -1\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	l.OpenFile(bad)
	st = sync1(t, l)
	if !st.StatusErr || !regexp.MustCompile(`broken\.yaml:\d+`).MatchString(st.Status) || st.Gen != 1 || st.Snap.Scene != DefaultScene {
		t.Fatalf("broken file: gen %d scene %q status %q", st.Gen, st.Snap.Scene, st.Status)
	}
	t.Logf("broken file: %s", st.Status)
	l.OpenFile(filepath.Join(dir, "missing.yaml"))
	if st = sync1(t, l); !st.StatusErr || st.Gen != 1 {
		t.Fatalf("missing file: %q", st.Status)
	}
	l.Load(Options{Scene: "no-such-scene"})
	if st = sync1(t, l); !st.StatusErr || st.Gen != 1 {
		t.Fatalf("unknown built-in: %q", st.Status)
	}
	step := st.Snap.Stats.Step
	l.Step()
	if st = sync1(t, l); st.Snap.Stats.Step != step+1 {
		t.Fatal("the scene does not run after failed loads")
	}

	// a good scene replaces it
	l.Load(Options{Scene: "cube-drop-a"})
	st = sync1(t, l)
	if st.StatusErr || st.Gen != 2 || st.Snap.Scene != "cube-drop-a" || st.Snap.Stats.Step != 0 || st.Playing {
		t.Fatalf("load: gen %d scene %q step %d playing %v %q", st.Gen, st.Snap.Scene, st.Snap.Stats.Step, st.Playing, st.Status)
	}
}

// TestSimLoopRealTime: at a speed factor the simulated time follows the wall clock.
func TestSimLoopRealTime(t *testing.T) {
	l := startLoop(t, Options{Scene: "cube-drop-a"})
	l.SetSpeed(0.5, false)
	l.Play()
	t0 := time.Now()
	time.Sleep(time.Second)
	st := sync1(t, l)
	wall := time.Since(t0).Seconds()
	got := st.Snap.Stats.Time
	if got > 0.5*wall+0.05 || got < 0.5*wall*0.6 {
		t.Fatalf("speed 0.5 for %.2f s of wall time: t = %.3f s", wall, got)
	}
	if !(st.StepsPerSecond > 0) {
		t.Errorf("steps/s not measured: %g", st.StepsPerSecond)
	}
	t.Logf("speed 0.5: %.3f s simulated in %.3f s, %.0f steps/s, RTF %.2f", got, wall, st.StepsPerSecond, st.RealTime)
}

// TestSimLoopEndTime: the run pauses exactly at the end time, and play continues past it.
func TestSimLoopEndTime(t *testing.T) {
	o := Options{Scene: "cube-drop-a", Time: 0.02}
	l := startLoop(t, o)
	l.SetSpeed(1, true)
	l.Play()
	deadline := time.Now().Add(30 * time.Second)
	for l.State().Snap.Stats.Time < 0.02 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	st := sync1(t, l)
	if st.Playing || st.Snap.Stats.Time != 0.02 || !strings.Contains(st.Status, "end time") {
		t.Fatalf("end: playing %v t %v status %q", st.Playing, st.Snap.Stats.Time, st.Status)
	}
	l.Play()
	time.Sleep(50 * time.Millisecond)
	if st = sync1(t, l); !(st.Snap.Stats.Time > 0.02) {
		t.Fatal("play did not continue past the end time")
	}
}

// TestSimLoopSpring: a Ctrl-drag spring pulls the body towards the target
// and disappears with SpringOff.
func TestSimLoopSpring(t *testing.T) {
	l := startLoop(t, Options{Scene: "cube-drop-a", Time: 10})
	s0 := l.Latest()
	b := -1
	for i := range s0.Bodies {
		if !s0.Bodies[i].Fixed {
			b = i
			break
		}
	}
	p0 := s0.Bodies[b].Pos
	target := p0.Add(geom.V(0.5, 0, 0.5))
	l.Spring(b, geom.Vec3{}, target)
	l.SetSpeed(1, true)
	l.Play()
	deadline := time.Now().Add(60 * time.Second)
	for l.State().Snap.Stats.Time < 1.5 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	l.Pause()
	st := sync1(t, l)
	p := st.Snap.Bodies[b].Pos
	// the critically damped spring (ω = 10/s) has settled; gravity sags it by g/ω²
	want := target.Sub(geom.V(0, 0, 9.81/SpringStiffness))
	if d := p.Sub(want).Norm(); d > 0.02 || !st.Spring {
		t.Fatalf("body at %v, want %v (off by %.3g m), spring %v", p, want, d, st.Spring)
	}
	l.SpringOff()
	if st = sync1(t, l); st.Spring {
		t.Fatal("spring still on")
	}
	l.Close()
	for _, ld := range l.sim.World.Loads {
		if ld.Name == SpringName {
			t.Fatal("spring load left in the world")
		}
	}
	// out-of-range bodies are ignored
	l2 := startLoop(t, Options{Scene: "cube-drop-a"})
	l2.Spring(99, geom.Vec3{}, geom.Vec3{})
	l2.Spring(-1, geom.Vec3{}, geom.Vec3{})
	if st := sync1(t, l2); st.Spring {
		t.Fatal("spring on a missing body")
	}
}

// TestSimLoopBehindRunsFlatOut: a scene slower than its real-time target
// steps continuously, it never idles. Counted, not timed: at speed 10⁴
// (far beyond what the scene can do) the loop takes 200 steps with at most
// one wait (the instant of Play, when the target equals the time); a loop
// that idles when behind waits about once per step. At speed 10⁻⁶ it waits
// (the counter counts).
func TestSimLoopBehindRunsFlatOut(t *testing.T) {
	l := startLoop(t, smallScene("8"))
	until := func(what string, ok func(*LoopState) bool) *LoopState {
		deadline := time.Now().Add(60 * time.Second) // a hang guard, not a measurement
		for {
			st := sync1(t, l)
			if ok(st) {
				return st
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %s after 60 s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	st := sync1(t, l)
	s0, i0 := st.RunSteps, l.idles.Load()
	l.SetSpeed(1e4, false)
	l.Play()
	until("200 steps", func(st *LoopState) bool { return st.RunSteps-s0 >= 200 })
	l.Pause()
	st = sync1(t, l)
	steps, idles := st.RunSteps-s0, l.idles.Load()-i0
	t.Logf("behind: %d steps, %d waits", steps, idles)
	if idles > 1 {
		t.Fatalf("behind its target the loop waited %d times in %d steps", idles, steps)
	}
	s0, i0 = st.RunSteps, l.idles.Load()
	l.SetSpeed(1e-6, false)
	l.Play()
	until("5 waits", func(*LoopState) bool { return l.idles.Load()-i0 >= 5 })
	l.Pause()
	st = sync1(t, l)
	if steps := st.RunSteps - s0; steps > 2 {
		t.Fatalf("ahead of its target (speed 1e-6) the loop took %d steps", steps)
	}
}

type panicky struct{}

func (panicky) Name() string { return "panicky" }
func (panicky) Step(*world.World, float64) (float64, error) {
	panic("boom")
}

// TestSimLoopSurvivesPanic: a panic in a step pauses the run with the
// message; the goroutine keeps serving commands and a reset recovers.
func TestSimLoopSurvivesPanic(t *testing.T) {
	l := startLoop(t, Options{Scene: "cube-drop-a"}, func(l *SimLoop) { l.sim.World.Integrator = panicky{} })
	l.Play()
	st := sync1(t, l)
	deadline := time.Now().Add(10 * time.Second)
	for !st.StatusErr && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		st = sync1(t, l)
	}
	if st.Playing || !st.StatusErr || !strings.Contains(st.Status, "boom") {
		t.Fatalf("after a panic: playing %v status %q", st.Playing, st.Status)
	}
	l.Reset()
	l.Step()
	if st = sync1(t, l); st.StatusErr || st.Snap.Stats.Step != 1 || st.Integrator != "explicit" {
		t.Fatalf("after reset: %q step %d integrator %s", st.Status, st.Snap.Stats.Step, st.Integrator)
	}
}

// TestSimLoopFiniteGuard: a step that makes the state non-finite (gravity
// 1e300) pauses the run with an error status naming the quantity, and the
// last finite state stays shown.
func TestSimLoopFiniteGuard(t *testing.T) {
	l := startLoop(t, Options{Scene: "cube-drop-a", Sets: []string{"gravity=[0,0,1e300]"}})
	l.Play()
	st := sync1(t, l)
	deadline := time.Now().Add(30 * time.Second) // a hang guard
	for !st.StatusErr && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
		st = sync1(t, l)
	}
	if st.Playing || !st.StatusErr || !strings.Contains(st.Status, "non-finite") || !strings.Contains(st.Status, "last finite state") {
		t.Fatalf("after a non-finite step: playing %v, status %q", st.Playing, st.Status)
	}
	for _, b := range st.Snap.Bodies {
		if !b.Pos.IsFinite() || !b.Vel.IsFinite() {
			t.Fatalf("shown state not finite: %+v", b)
		}
	}
}
