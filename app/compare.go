package app

// Two integrators side by side (issue 18 item 7): a second copy of the
// window's scene, started from the main run's state, run with another
// integrator or other contact-law parameters in lock step with the main
// run, and compared frame by frame. Pure Go like simloop.go: the window
// draws what Pair returns.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/snap"
	"grainlab/sim/state"
)

// CompareConfig is what the second run changes: another integrator and/or
// scene overrides (--set k=v, typically contact-law parameters).
type CompareConfig struct {
	Integrator string   // "" keeps the main run's integrator
	Sets       []string // "key=value" overrides by dotted path, applied after the main run's state
}

// String names the configuration for labels ("newmark", "mu_s=0.3").
func (c CompareConfig) String() string {
	var parts []string
	if c.Integrator != "" {
		parts = append(parts, c.Integrator)
	}
	for _, s := range c.Sets {
		parts = append(parts, strings.TrimPrefix(s, "contact.default."))
	}
	if len(parts) == 0 {
		return "same settings"
	}
	return strings.Join(parts, ", ")
}

// CheckCompare validates cfg for the scene of o without building anything:
// the integrator's name and the overrides' keys and values (scene.Find).
// An error is bad input naming the flag.
func CheckCompare(o Options, cfg CompareConfig) error {
	if cfg.Integrator != "" && !slices.Contains(integrate.Names, cfg.Integrator) {
		return &InputError{fmt.Errorf("--compare %q: unknown integrator (one of %s)", cfg.Integrator, strings.Join(integrate.Names, ", "))}
	}
	if len(cfg.Sets) == 0 {
		return nil
	}
	sets := append(append([]string(nil), o.Sets...), cfg.Sets...)
	if _, err := scene.Find(o.Scene, sets...); err != nil {
		return &InputError{fmt.Errorf("--compare-set: %w", err)}
	}
	return nil
}

// CompareSample is one frame of the comparison: both runs at the main
// run's frame time.
type CompareSample struct {
	Time             float64        // the main run's time (s)
	Energy           [2]float64     // total energy (kinetic + gravity + contact) of the main run [0] and the second [1] (J)
	Contacts         [2]int         // their active contacts
	MaxDiff          float64        // largest distance between a body's centres in the two runs (m)
	MaxDiffBody      int            // that body's index (-1: none)
	TimeA, TimeB     float64        // the two runs' times (TimeB ≥ TimeA, less than one step of B apart)
	Main, Second     *snap.Snapshot // the two frames (nil in Series)
	StepsA, StepsB   int64          // the runs' step counts
	RejectA, RejectB int64          // their rejected steps
}

// ComparePair is what the comparison publishes (immutable): the latest
// sample with both snapshots, the series of the earlier samples for the
// plots, and a status.
type ComparePair struct {
	CompareSample
	Config CompareConfig
	Series []CompareSample // oldest first, without snapshots; the last is this sample
	Starts int             // how many times the second run was (re)started from the main run
	Err    string          // why the second run stopped ("" while it runs)
	Status string          // what happened last (started, restarted at a branch)
}

// compareSeriesLen is how many samples the plots keep.
const compareSeriesLen = 600

// Compare runs a second copy of a SimLoop's scene on its own goroutine, in
// lock step with the loop: the loop pauses before a step while the second
// run has not reached the loop's previous published frame, so the slower of
// the two paces the pair and the window shows both at (nearly) the same time.
// The second run advances with the same step-end rule as `grainlab run`
// (integrate.AdvancePast: a frame time never shortens a step), so its
// trajectory does not depend on when the frames are taken, and with the
// same integrator and parameters it is the main run bit for bit.
type Compare struct {
	main *SimLoop
	cfg  CompareConfig

	pair   atomic.Pointer[ComparePair]
	target atomic.Uint64 // float64 bits: the main-run time the worker advances to (+Inf: none)
	stop   atomic.Bool
	wake   chan struct{}
	quit   chan struct{}
	done   chan struct{}
}

// StartCompare attaches a comparison to l, replacing (and ending) the one
// attached before, and starts it. The second run starts from the main run's state
// between two of its steps. cfg should have passed CheckCompare; a load
// failure ends the comparison with Pair().Err.
func StartCompare(l *SimLoop, cfg CompareConfig) *Compare {
	c := &Compare{main: l, cfg: cfg, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	c.target.Store(math.Float64bits(math.Inf(-1))) // the loop holds until the capture
	c.pair.Store(&ComparePair{Config: cfg, CompareSample: CompareSample{MaxDiffBody: -1}, Status: "starting"})
	if old := l.cmp.Swap(c); old != nil {
		old.halt()
	}
	go c.run()
	return c
}

// Pair returns the latest published comparison (never nil).
func (c *Compare) Pair() *ComparePair { return c.pair.Load() }

// Stop detaches the comparison from its loop and waits for its goroutine
// (safe to call twice).
func (c *Compare) Stop() {
	c.main.cmp.CompareAndSwap(c, nil)
	c.halt()
	c.main.poke()
}

func (c *Compare) halt() {
	if !c.stop.Swap(true) {
		close(c.quit)
	}
	<-c.done
}

// poke wakes the loop goroutine (a command's wake, without a command).
func (l *SimLoop) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// holds tells the loop (on its goroutine) to wait before its next step:
// its last published frame is newer than the one the second run works on.
func (c *Compare) holds(last *snap.Snapshot) bool {
	return last != nil && last.Stats.Time > math.Float64frombits(c.target.Load())
}

// notify is called by the loop after each publication.
func (c *Compare) notify() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// captured is the main run's state taken on its goroutine.
type captured struct {
	data []byte
	err  error
	opts Options
	gen  uint64
	time float64
	end  float64
	// stale is the loop's last frame before the capture: it is older than
	// the captured state, and the loop publishes that state next.
	stale *snap.Snapshot
}

// capture takes the main run's state (state.Encode, the keyframes'
// format) between two of its steps; false when quitting.
func (c *Compare) capture() (captured, bool) {
	got := make(chan captured, 1)
	c.main.send(command{kind: cmdCall, fn: func(l *SimLoop) {
		w := l.sim.World
		if l.added > 0 {
			// The second run is built from the scene file: bodies added from
			// meshes are not in it, and its state would not restore.
			got <- captured{err: fmt.Errorf("the main run has %d %s added from meshes, which a comparison cannot rebuild: reset (R) or reload the scene first", l.added, plural("body", l.added))}
			return
		}
		data, err := state.Encode(w)
		o := l.opts
		o.Sets = append(append([]string(nil), o.Sets...), l.lawSets...)
		// hold the loop from now on, and publish this state (a frame older
		// than it would look like a branch)
		c.target.Store(math.Float64bits(w.Time))
		l.dirty = true
		got <- captured{data: data, err: err, opts: o, gen: l.gen, time: w.Time, end: l.end, stale: l.last}
	}})
	select {
	case k := <-got:
		return k, true
	case <-c.quit:
		return captured{}, false
	case <-c.main.done:
		return captured{}, false
	}
}

// load builds the second run from k: the main run's scene with its
// overrides and live law edits, the state k holds (the restart path of
// Load, bit for bit) and then the configuration's integrator and overrides.
func (c *Compare) load(k captured) (*Sim, error) {
	if k.err != nil {
		return nil, k.err
	}
	o := k.opts
	o.Sets = append(o.Sets, c.cfg.Sets...)
	if c.cfg.Integrator != "" {
		o.Integrator = c.cfg.Integrator
	}
	o.Restart = fmt.Sprintf("main run at t=%.6g s", k.time)
	o.restartData = k.data
	if !(k.time < k.end) || math.IsInf(k.end, 1) {
		o.Time = math.Max(2*k.time, k.time+1) // the end only bounds the restart's time
	}
	s, err := Load(o)
	if err != nil {
		return nil, err
	}
	// The state replays the main run's edits after the overrides: the
	// configuration's contact parameters go on top (world.SetParam).
	for _, kv := range c.cfg.Sets {
		key, val, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(key, "contact.") {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			if err := s.World.SetParam(key, v); err != nil {
				return nil, fmt.Errorf("--compare-set %s: %w", kv, err)
			}
		}
	}
	return s, nil // the next step evaluates the edited law, as after a panel edit
}

func (c *Compare) fail(p *ComparePair, msg string) {
	q := *p
	q.Err = msg
	c.target.Store(math.Float64bits(math.Inf(1))) // release the loop
	c.pair.Store(&q)
	c.main.poke()
	if c.main.OnPublish != nil {
		c.main.OnPublish()
	}
}

// run is the comparison goroutine: (re)start the second run from the main
// run's state, then follow the main run's published frames.
func (c *Compare) run() {
	defer close(c.done)
	defer c.target.Store(math.Float64bits(math.Inf(1)))
	var (
		sim    *Sim
		gen    uint64
		end    float64
		last   *snap.Snapshot
		lastT  float64        // the main run's time of the last compared frame
		stale  *snap.Snapshot // the loop's frame before the capture (not a branch)
		series []CompareSample
		starts int
		status string
	)
	for {
		select {
		case <-c.quit:
			return
		default:
		}
		st := c.main.State()
		s1 := st.Snap
		switch {
		case sim != nil && st.Gen == gen && s1 == stale:
			s1 = nil // wait for the captured state's frame
		case sim != nil && (st.Gen != gen || s1.Stats.Time < lastT-1e-12*math.Max(1, math.Abs(lastT))):
			// a reset, a new scene or a branch of the main run: start again from it
			sim = nil
			status = fmt.Sprintf("restarted from the main run at t=%.6g s", s1.Stats.Time)
		}
		if s1 == nil {
			if !c.waitWake() {
				return
			}
			continue
		}
		if sim == nil {
			k, ok := c.capture()
			if !ok {
				return
			}
			s, err := c.load(k)
			if err != nil {
				c.fail(c.pair.Load(), fmt.Sprintf("comparison (%s) stopped: %v", c.cfg, err))
				<-c.quit
				return
			}
			sim, gen, end, last, series = s, k.gen, k.end, nil, series[:0]
			lastT, stale = k.time, k.stale
			starts++
			if status == "" {
				status = fmt.Sprintf("started from the main run at t=%.6g s", k.time)
			}
			continue // take the main run's frame afresh
		}
		t := s1.Stats.Time
		lastT = t
		c.target.Store(math.Float64bits(t))
		c.main.poke()
		w := sim.World
		if w.Time < t-1e-12 {
			if w.Time >= end-1e-12 {
				end = math.Inf(1) // as the loop: past its end time it runs on
			}
			_, err := integrate.AdvancePast(w, t, math.Max(end, t), func() bool { return c.stop.Load() })
			if err == nil {
				err = w.CheckFinite()
			}
			if err != nil {
				c.fail(c.pair.Load(), fmt.Sprintf("comparison (%s) stopped at t=%.6g s: %v", c.cfg, w.Time, err))
				<-c.quit
				return
			}
			if c.stop.Load() {
				return
			}
		}
		if last == nil || w.Time != last.Stats.Time || s1 != c.pair.Load().Main {
			s2 := w.Snapshot(last)
			last = s2
			smp := sample(s1, s2)
			series = append(series, smp)
			if len(series) > compareSeriesLen {
				series = slices.Delete(series, 0, len(series)-compareSeriesLen)
			}
			p := &ComparePair{CompareSample: smp, Config: c.cfg, Starts: starts, Status: status}
			p.Series = make([]CompareSample, len(series))
			for i, x := range series {
				x.Main, x.Second = nil, nil
				p.Series[i] = x
			}
			c.pair.Store(p)
			if c.main.OnPublish != nil {
				c.main.OnPublish() // the window wakes as for the main run's frames
			}
		}
		if c.main.State().Snap != s1 {
			continue // the main run published meanwhile
		}
		if !c.waitWake() {
			return
		}
	}
}

// waitWake waits for the main run's next frame; false when the comparison
// is to end (Stop, or the main run closed: then it waits for Stop).
func (c *Compare) waitWake() bool {
	select {
	case <-c.quit:
		return false
	case <-c.main.done:
		<-c.quit
		return false
	case <-c.wake:
		return true
	}
}

// sample compares the two runs' snapshots: energies, contacts and the
// largest centre distance, with B's centres taken back to A's time along
// their velocities (B is less than one of its steps ahead; the first-order
// error ½|a|δt² is below a nanometre for δt = 10 µs under gravity).
func sample(a, b *snap.Snapshot) CompareSample {
	smp := CompareSample{
		Time: a.Stats.Time, TimeA: a.Stats.Time, TimeB: b.Stats.Time,
		Main: a, Second: b, MaxDiffBody: -1,
		StepsA: a.Stats.Step, StepsB: b.Stats.Step, RejectA: a.Stats.Rejected, RejectB: b.Stats.Rejected,
	}
	for i, s := range [2]*snap.Snapshot{a, b} {
		smp.Energy[i] = s.Stats.Kinetic + s.Stats.PotentialGravity + s.Stats.PotentialContact
		smp.Contacts[i] = s.Stats.Contacts
	}
	dt := b.Stats.Time - a.Stats.Time
	for i := range min(len(a.Bodies), len(b.Bodies)) {
		ba, bb := &a.Bodies[i], &b.Bodies[i]
		if ba.Fixed {
			continue
		}
		pb := bb.Pos
		if dt != 0 {
			pb = pb.AddScaled(-dt, bb.Vel)
		}
		if d := pb.Sub(ba.Pos).Norm(); d > smp.MaxDiff || (smp.MaxDiffBody < 0 && d == 0) {
			smp.MaxDiff, smp.MaxDiffBody = d, i
		}
	}
	return smp
}
