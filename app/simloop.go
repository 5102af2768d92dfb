package app

// The simulation goroutine of the window. It owns the *Sim: nothing else
// touches the world while the loop runs. The GL thread talks to it only
// through a mutex-guarded command queue (never blocking for longer than an
// append) and reads what it publishes through an atomic pointer: an
// immutable LoopState holding the latest snap.Snapshot. This file imports no
// GL so that the handoff is tested with `go test -race` like any Go code.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/law"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// DefaultPublishInterval is the wall time between two snapshots while the
// simulation runs: at most one snapshot per display frame.
const DefaultPublishInterval = time.Second / 60

// DefaultPublishShare is the largest share of the simulation goroutine's
// wall time that the window lets snapshots and keyframes take (SimLoop.Share):
// a box of 10⁵ spheres costs 30 ms per snapshot while falling and ≈ 0.5 s
// with its 2·10⁵ contacts, so it publishes about three per second, then one
// every few seconds, instead of sixty, and the steps keep ≥ 80 % of the time.
const DefaultPublishShare = 0.1

// maxLag is how far (in wall seconds) the simulation may fall behind its
// real-time target: a scene slower than the target runs flat out and does
// not race to catch up after a speed-up.
const maxLag = 0.25

// SpringName is the name of the load a Ctrl-drag spring applies.
const SpringName = "spring"

// SpringStiffness is the spring rate of a Ctrl-drag per kilogram of the
// dragged body (N/m per kg = 1/s²): ω = 10 rad/s whatever the body's mass.
// The spring is critically damped on the body's mass.
const SpringStiffness = 100.0

// Integrators lists the integrators the window can switch between live:
// the registry integrate.Names, in its menu order.
func Integrators() []string { return append([]string(nil), integrate.Names...) }

// CompatibleSwitch is implemented by integrators that can report either the
// classic or the compatible contact forces (contact dynamics, S3 §6–7). The
// panel's toggle sends SetCompatible; for other integrators it is a no-op.
type CompatibleSwitch interface {
	CompatibleForces() bool
	SetCompatibleForces(on bool)
}

// LoopState is what the simulation goroutine publishes: the snapshot plus
// the controls' state. It is immutable once published.
type LoopState struct {
	Snap       *snap.Snapshot
	Gen        uint64 // incremented whenever a scene is loaded or reset
	Scene      string // the scene as loaded: built-in name or file path
	Playing    bool
	Speed      float64 // target simulated seconds per wall second
	AsFast     bool    // run as fast as possible (Speed ignored)
	End        float64 // the run pauses when the time reaches End (+Inf once passed)
	Integrator string
	Law        world.ContactParams   // default material pair, prepared
	Shapes     []world.MaterialShape // per material, the sphere/superquadric shape (world.SmoothShapes)
	// HasCompatible tells that the integrator implements CompatibleSwitch;
	// Compatible is its current setting.
	HasCompatible, Compatible bool
	MeanMass                  float64 // mean mass of the free bodies (kg), for Δt_c plots
	Spring                    bool    // a Ctrl-drag spring is attached
	// NextEvent says what the earliest pending scene event will do and
	// when ("the side walls go at t = 6 s", EventHint); "" when none.
	NextEvent string
	// Added counts the bodies added from meshes since the scene was loaded.
	Added int

	Status    string // last message (result of a command, a failure)
	StatusErr bool
	StatusSeq uint64 // incremented with every new Status

	StepsPerSecond float64 // measured while running
	RealTime       float64 // simulated seconds per wall second, measured while running

	// Totals over the whole session while playing (single steps excluded).
	RunWall  time.Duration
	RunSteps int64
	RunSim   float64
}

type cmdKind uint8

const (
	cmdPlay cmdKind = iota
	cmdPause
	cmdStep
	cmdReset
	cmdSpeed
	cmdParam
	cmdLaw
	cmdWall
	cmdLoad
	cmdIntegrator
	cmdSpring
	cmdSpringOff
	cmdShape
	cmdCompatible
	cmdSync
	cmdResume
	cmdAddMesh
	cmdCall
)

// command is one request to the simulation goroutine, built by the
// SimLoop methods. Commands are applied in order between two steps.
type command struct {
	kind   cmdKind
	name   string
	value  float64
	on     bool
	params world.ContactParams
	opts   Options
	file   bool
	body   int
	point  geom.Vec3 // spring attachment, body frame
	target geom.Vec3 // spring target, world
	shape  sq.Shape  // cmdShape: new shape of material body
	done   chan struct{}
	fn     func(*SimLoop) // cmdCall: run on the loop goroutine between two steps
}

// SimLoop runs a simulation on its own goroutine.
type SimLoop struct {
	release bool // a large world was dropped: release its memory at the next publish (gc.go)
	// PublishInterval is the wall time between snapshots while running
	// (set before Start; default DefaultPublishInterval).
	PublishInterval time.Duration
	// OnPublish, when set (before Start), is called on the simulation
	// goroutine after each publication (the window wakes its event loop).
	OnPublish func()
	// KeyEvery is how many recorded frames separate two keyframes of the
	// history (set before Start; default DefaultKeyEvery).
	KeyEvery int
	// OnDemand (set before Start) publishes a running simulation's
	// snapshots only when the view asked for one (Want) since the last
	// publication, at most every PublishInterval: a window that draws a
	// frame every two seconds gets one snapshot every two seconds, not 120.
	// Commands and Sync still publish at once; a comparison run (Compare)
	// is paced by every publication and turns it off.
	OnDemand bool
	// Share (set before Start; 0: no limit) is the largest share of the
	// wall time the periodic snapshots and keyframes may take: after a
	// publication that took d, the next periodic one waits at least
	// d/Share, and a periodic keyframe waits until as long after the last
	// one as it cost over Share (the window: DefaultPublishShare).
	Share float64

	hist *History // every published frame (app/history.go)

	mu    sync.Mutex
	queue []command
	wake  chan struct{}
	quit  chan struct{}
	done  chan struct{}
	state atomic.Pointer[LoopState]
	began atomic.Bool
	// cmp is the comparison run paced by this loop (app/compare.go), or nil.
	cmp atomic.Pointer[Compare]
	// idles counts the waits of the playing loop when it is ahead of its
	// real-time target (never when behind: tests read it).
	idles atomic.Int64
	// wanted: the view asked for a snapshot (Want, OnDemand).
	wanted atomic.Bool
	// bodySyncs counts the times the loop wrote the lazy sphere bodies
	// (World.SyncBodies while they lagged, syncBodies): before commands,
	// springs and keyframes, never for a snapshot (tests read it).
	bodySyncs atomic.Int64

	// Owned by the loop goroutine after Start.
	sim       *Sim
	opts      Options               // how sim was loaded (for reset)
	lawSets   []string              // live law changes, re-applied on reset as overrides
	lawBase   []string              // lawSets at install (a reset's)
	lawLog    []lawAt               // lawSets after each live law edit (lawSetsAt)
	shapeSets map[int]sq.Shape      // live shape edits by material, re-applied on reset
	shapes    []world.MaterialShape // world.SmoothShapes, refreshed on install and edits
	gen       uint64
	playing   bool
	speed     float64
	asFast    bool
	end       float64
	steps     int // single steps requested while paused
	spring    *springState
	good      world.BodyStates // the last finite state (the finite guard puts it back)
	status    string
	statusErr bool
	statusSeq uint64
	meanMass  float64 // mean mass of the free bodies (LoopState.MeanMass)
	last      *snap.Snapshot
	lastPub   time.Time
	pubCost   time.Duration // wall time of the last periodic publication (Share)
	lastKey   time.Time     // when the last keyframe was taken
	keyCost   time.Duration // and what it cost, encoding included (keyPace; Share)
	keyTook   time.Duration // keyCost when this publication took a keyframe, else 0
	eager     bool          // tests: bodies written every step (no lazy bodies)
	dirty     bool          // state changed since the last publication
	sinceKey  int           // frames recorded since the last keyframe
	needKey   bool          // take a keyframe at the next publication (after an edit)
	rejected  int64
	added     int     // bodies added from meshes since install
	replaying bool    // resume is stepping from a keyframe: nothing is recorded
	replayTo  float64 // the time it steps to
	syncs     []chan struct{}

	// real-time control: sim time simT0 at wall time wall0
	simT0 float64
	wall0 time.Time
	// rate measurement
	rateWall  time.Time
	rateSteps int64
	rateSim   float64
	sps, rtf  float64
	// totals while playing (any scene)
	runStart time.Time
	runWall  time.Duration
	runSteps int64
	runSim   float64
}

type springState struct {
	body   int
	point  geom.Vec3 // body frame
	target geom.Vec3
}

// NewSimLoop wraps a loaded simulation; o is how it was loaded (reset
// reloads from it). Call Start to run it.
func NewSimLoop(s *Sim, o Options) *SimLoop {
	l := &SimLoop{
		PublishInterval: DefaultPublishInterval,
		wake:            make(chan struct{}, 1),
		quit:            make(chan struct{}),
		done:            make(chan struct{}),
		speed:           1,
		KeyEvery:        DefaultKeyEvery,
		hist:            NewHistory(0),
	}
	l.install(s, o)
	l.publish(time.Now())
	return l
}

// Start launches the simulation goroutine (paused).
func (l *SimLoop) Start() {
	if l.PublishInterval <= 0 {
		l.PublishInterval = DefaultPublishInterval
	}
	if l.began.Swap(true) {
		return
	}
	go l.run()
}

// Close stops the goroutine and waits for it (safe to call twice, or
// without Start).
func (l *SimLoop) Close() {
	select {
	case <-l.quit:
	default:
		close(l.quit)
	}
	if l.began.Load() {
		<-l.done
	}
}

// History returns the record of the published frames (safe to read from
// any goroutine).
func (l *SimLoop) History() *History { return l.hist }

// ResumeFrom branches from the recorded frame at or before time t: the
// simulation goroutine restores the newest keyframe at or before it, steps to
// the frame's time and drops the recorded future (see resume).
func (l *SimLoop) ResumeFrom(t float64) { l.send(command{kind: cmdResume, value: t}) }

// State returns the latest published state (never nil).
func (l *SimLoop) State() *LoopState { return l.state.Load() }

// Latest returns the latest published snapshot.
func (l *SimLoop) Latest() *snap.Snapshot { return l.state.Load().Snap }

// send queues a command; it never blocks on the simulation.
func (l *SimLoop) send(c command) {
	l.mu.Lock()
	if c.kind == cmdSpring && len(l.queue) > 0 && l.queue[len(l.queue)-1].kind == cmdSpring {
		l.queue[len(l.queue)-1] = c // mouse motion: only the latest target matters
	} else {
		l.queue = append(l.queue, c)
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Play runs the simulation.
func (l *SimLoop) Play() { l.send(command{kind: cmdPlay}) }

// Pause stops the simulation.
func (l *SimLoop) Pause() { l.send(command{kind: cmdPause}) }

// Step advances one time step (and pauses).
func (l *SimLoop) Step() { l.send(command{kind: cmdStep}) }

// Reset reloads the scene as it was loaded, with the live law changes.
func (l *SimLoop) Reset() { l.send(command{kind: cmdReset}) }

// SetSpeed sets the real-time factor target, or as fast as possible.
func (l *SimLoop) SetSpeed(speed float64, asFast bool) {
	l.send(command{kind: cmdSpeed, value: speed, on: asFast})
}

// SetParam changes one contact parameter by dotted path (world.SetParam).
func (l *SimLoop) SetParam(path string, v float64) {
	l.send(command{kind: cmdParam, name: path, value: v})
}

// SetLaw replaces the contact law of the default material pair.
func (l *SimLoop) SetLaw(p world.ContactParams) { l.send(command{kind: cmdLaw, params: p}) }

// SetWall enables or disables the named wall.
func (l *SimLoop) SetWall(name string, on bool) { l.send(command{kind: cmdWall, name: name, on: on}) }

// Load switches to another scene; the current one keeps running when that fails.
func (l *SimLoop) Load(o Options) { l.send(command{kind: cmdLoad, opts: o}) }

// OpenFile switches to the scene file at path (which must exist).
func (l *SimLoop) OpenFile(path string) {
	l.send(command{kind: cmdLoad, opts: Options{Scene: path}, file: true})
}

// SetIntegrator switches the integrator, keeping the state.
func (l *SimLoop) SetIntegrator(name string) { l.send(command{kind: cmdIntegrator, name: name}) }

// SetShape gives the sphere and superquadric bodies of material m the shape
// s (world.SetSmoothShape) between two steps; an invalid shape is refused
// with a status message and nothing changes.
func (l *SimLoop) SetShape(m int, s sq.Shape) {
	l.send(command{kind: cmdShape, body: m, shape: s})
}

// SetCompatible switches an integrator that implements CompatibleSwitch
// between classic and compatible contact forces; a no-op (with a status
// message) for the others.
func (l *SimLoop) SetCompatible(on bool) { l.send(command{kind: cmdCompatible, on: on}) }

// Spring attaches (or moves) a spring between point (body frame) of body b
// and the world point target.
func (l *SimLoop) Spring(b int, point, target geom.Vec3) {
	l.send(command{kind: cmdSpring, body: b, point: point, target: target})
}

// SpringOff removes the spring.
func (l *SimLoop) SpringOff() { l.send(command{kind: cmdSpringOff}) }

// AddMesh adds count bodies of the closed STL mesh at path to the running
// scene, above the pile (AddMeshBodies); an invalid mesh or no room leaves
// the scene unchanged and the reason in the status line.
func (l *SimLoop) AddMesh(path string, count int) {
	l.send(command{kind: cmdAddMesh, name: path, body: count})
}

// Want tells a loop with OnDemand that the view will draw a frame soon:
// the simulation publishes its state at the next step boundary (at most
// every PublishInterval). Never blocks; calling it again before the
// publication changes nothing.
func (l *SimLoop) Want() { l.wanted.Store(true) }

// due reports whether a running loop publishes a periodic snapshot at now:
// PublishInterval (and the Share of the last publication's cost) has
// passed and, with OnDemand, the view asked for one.
func (l *SimLoop) due(now time.Time) bool {
	gap := l.PublishInterval
	if l.Share > 0 {
		gap = max(gap, time.Duration(float64(l.pubCost)/l.Share))
	}
	if now.Sub(l.lastPub) < gap {
		return false
	}
	return !l.OnDemand || l.wanted.Load() || l.cmp.Load() != nil
}

// syncBodies writes the sphere path's lazy bodies (World.SyncBodies) before
// the loop reads or changes them; it counts the syncs that wrote.
func (l *SimLoop) syncBodies() {
	w := l.sim.World
	if w.BodiesLag() {
		l.bodySyncs.Add(1)
	}
	w.SyncBodies()
}

// touchesBodies reports whether a command may read or write the bodies
// (all but the run controls): the loop syncs lazy bodies before it.
func touchesBodies(k cmdKind) bool {
	switch k {
	case cmdPlay, cmdPause, cmdStep, cmdSpeed, cmdSync:
		return false
	}
	return true
}

// Sync waits until every command sent before it is applied and the result
// published, or until timeout; it reports whether that happened.
func (l *SimLoop) Sync(timeout time.Duration) bool {
	c := command{kind: cmdSync, done: make(chan struct{})}
	l.send(c)
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-c.done:
		return true
	case <-l.done:
		return false
	case <-t.C:
		return false
	}
}

func (l *SimLoop) take() []command {
	l.mu.Lock()
	q := l.queue
	l.queue = nil
	l.mu.Unlock()
	return q
}

// install makes s the running simulation (loop goroutine or before Start).
func (l *SimLoop) install(s *Sim, o Options) {
	if l.sim != nil && l.sim.World != nil && l.sim.World.NumBodies() >= releaseBodies {
		l.release = true // the old world's memory back to the OS (releaseDropped)
	}
	l.sim, l.opts = s, o
	l.gen++
	l.end = s.End
	if !(l.end > s.World.Time) {
		l.end = math.Inf(1)
	}
	l.spring = nil
	l.last = nil
	l.steps = 0
	// The sphere path's flat arrays are the state of record between
	// commands: a step writes no body, a snapshot reads the flat state
	// (publish, World.ViewBodies), and everything that reads or writes the
	// bodies syncs them first (syncBodies). The same bits either way.
	s.World.SetLazyBodies(!l.eager)
	l.meanMass = MeanMass(s.World)
	l.shapes = s.World.SmoothShapes()
	l.good.Save(s.World)
	l.anchor(time.Now())
	l.dirty = true
	l.hist.Reset()
	l.needKey, l.sinceKey = true, 0
	// The publication and keyframe costs are the old scene's: a 10⁵-sphere
	// box's would space the next scene's snapshots seconds apart (Share).
	l.pubCost, l.keyCost, l.keyTook = 0, 0, 0
	l.rejected = s.World.Stats.Rejected
	l.added = 0
	l.lawBase, l.lawLog = slices.Clone(l.lawSets), nil
}

func (l *SimLoop) setStatus(err bool, format string, args ...any) {
	l.status, l.statusErr = fmt.Sprintf(format, args...), err
	l.statusSeq++
	l.dirty = true
}

// anchor restarts the real-time clock and the rate measurement at now.
func (l *SimLoop) anchor(now time.Time) {
	w := l.sim.World
	l.simT0, l.wall0 = w.Time, now
	l.rateWall, l.rateSteps, l.rateSim = now, w.Steps, w.Time
}

func (l *SimLoop) run() {
	defer close(l.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	wait := func(d time.Duration) bool { // false when quitting
		if d <= 0 {
			select {
			case <-l.quit:
				return false
			case <-l.wake:
			}
			return true
		}
		timer.Reset(d)
		select {
		case <-l.quit:
			timer.Stop()
			return false
		case <-l.wake:
			if !timer.Stop() {
				<-timer.C
			}
		case <-timer.C:
		}
		return true
	}
	for {
		select {
		case <-l.quit:
			return
		default:
		}
		for _, c := range l.take() {
			if c.kind == cmdSync {
				l.syncs = append(l.syncs, c.done)
				continue
			}
			if touchesBodies(c.kind) {
				l.syncBodies()
			}
			l.guard("command", func() { l.apply(c) })
		}
		now := time.Now()
		w := l.sim.World
		switch {
		case l.steps > 0:
			l.steps--
			l.guard("step", l.stepOnce)
			l.dirty = true
		case l.playing:
			if c := l.cmp.Load(); c != nil && c.holds(l.last) {
				// the comparison has not reached the previous frame: wait for it (compare.go)
				if l.dirty || len(l.syncs) > 0 {
					l.publish(now)
				}
				if !wait(l.PublishInterval) {
					return
				}
				continue
			}
			if l.asFast {
				l.guard("step", l.stepOnce)
				break
			}
			target := l.simT0 + l.speed*now.Sub(l.wall0).Seconds()
			if w.Time < target {
				// Behind: step. Never owe more than a quarter second of
				// wall time, so a slow scene does not race after a speed-up.
				if lag := (target - w.Time) / l.speed; lag > maxLag {
					l.simT0, l.wall0 = w.Time+maxLag*l.speed, now
				}
				l.guard("step", l.stepOnce)
				break
			}
			if l.dirty || len(l.syncs) > 0 || l.due(now) {
				l.publish(now)
			}
			ahead := time.Duration((w.Time - target) / l.speed * float64(time.Second))
			l.idles.Add(1)
			if !wait(min(ahead+time.Millisecond, l.PublishInterval)) {
				return
			}
			continue
		default:
			if l.dirty || len(l.syncs) > 0 {
				l.publish(now)
			}
			if !wait(0) {
				return
			}
			continue
		}
		now = time.Now()
		if l.dirty || (len(l.syncs) > 0 && l.steps == 0) || l.due(now) {
			l.publish(now)
		}
	}
}

// guard runs f and turns a panic into a paused run with the message in the
// status line: whatever happens, the window keeps the scene and stays open.
func (l *SimLoop) guard(what string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			l.setPlaying(false)
			l.steps = 0
			l.setStatus(true, "internal error in %s at t=%.6g s: %v; paused (R resets)", what, l.sim.World.Time, r)
		}
	}()
	f()
}

// stepOnce advances one step as integrate.Advance does (events land exactly),
// with the spring load refreshed first; a failure pauses the run.
func (l *SimLoop) stepOnce() {
	w := l.sim.World
	t0 := w.Time
	err := l.applyEvents()
	if err == nil {
		if l.spring != nil {
			l.syncBodies() // the spring's force reads the body's state
		}
		l.updateSpring()
		limit := math.Min(w.NextEventTime(), l.end) - w.Time
		if l.replaying { // land on the frame's time (the slack keeps an exact replay's own steps)
			limit = math.Min(limit, l.replayTo-w.Time+1e-12*math.Max(1, math.Abs(l.replayTo)))
		}
		if !(limit > 0) {
			limit = math.Inf(1)
		}
		_, err = w.Integrator.Step(w, limit)
	}
	if err == nil {
		err = l.applyEvents()
	}
	if err == nil {
		if nf := w.CheckFinite(); nf != nil {
			// The finite guard: pause with the last finite state on screen.
			l.setPlaying(false)
			l.steps = 0
			l.good.Restore(w)
			integrate.Start(w) // forces and contacts of the restored state (its error, if any, is the one shown)
			l.setStatus(true, "%v; paused at the last finite state t=%.6g s (R resets)", nf, w.Time)
			return
		}
		l.good.Save(w)
	}
	if err != nil {
		l.setPlaying(false)
		l.steps = 0
		l.setStatus(true, "simulation failed at t=%.6g s (step %d): %v; paused (R resets)", w.Time, w.Steps, err)
		return
	}
	if l.playing {
		l.runSteps++
		l.runSim += w.Time - t0
	}
	if l.playing && w.Time >= l.end-1e-12 {
		l.setPlaying(false)
		l.end = math.Inf(1)
		l.setStatus(false, "reached the scene's end time t=%.6g s; paused (play continues)", w.Time)
	}
}

func (l *SimLoop) updateSpring() {
	w := l.sim.World
	idx := -1
	for i := range w.Loads {
		if w.Loads[i].Name == SpringName {
			idx = i
			break
		}
	}
	sp := l.spring
	if sp == nil || sp.body < 0 || sp.body >= len(w.Bodies()) || w.Bodies()[sp.body].Fixed {
		if idx >= 0 {
			w.Loads = append(w.Loads[:idx], w.Loads[idx+1:]...)
		}
		return
	}
	b := w.Bodies()[sp.body]
	p := b.ToWorld(sp.point)
	k := SpringStiffness * b.Mass()
	c := 2 * math.Sqrt(k*b.Mass())
	f := sp.target.Sub(p).Scale(k).Sub(b.VelocityAt(p).Scale(c))
	ld := body.Load{Name: SpringName, Body: sp.body, Point: sp.point, Frame: body.World, Force: body.Const(f)}
	if idx >= 0 {
		w.Loads[idx] = ld
	} else {
		w.Loads = append(w.Loads, ld)
	}
}

func (l *SimLoop) apply(c command) {
	w := l.sim.World
	now := time.Now()
	switch c.kind {
	case cmdPlay:
		if !l.playing {
			l.setPlaying(true)
			l.anchor(now)
			l.dirty = true
		}
	case cmdPause:
		if l.playing {
			l.setPlaying(false)
			l.dirty = true
		}
	case cmdStep:
		l.setPlaying(false)
		l.steps++
	case cmdSpeed:
		if c.on {
			l.asFast = true
		} else if c.value > 0 && !math.IsInf(c.value, 0) {
			l.asFast, l.speed = false, c.value
		} else {
			l.setStatus(true, "speed must be a finite number > 0 (got %g)", c.value)
			return
		}
		l.anchor(now)
		l.dirty = true
	case cmdParam:
		if err := w.SetParam(c.name, c.value); err != nil {
			l.setStatus(true, "refused: %v", err)
			return
		}
		if key, ok := defaultLawKey(c.name); ok {
			if q, ok := law.Lookup(key); ok {
				l.rememberLaw(key, q.FormatNumber(c.value)) // a flag as false/true, as scenes write it
				l.logLaw()
			}
		}
		l.setStatus(false, "%s = %g", c.name, c.value)
		l.edited(MarkParam, l.status)
	case cmdLaw:
		if err := l.setLaw(c.params); err != nil {
			l.setStatus(true, "refused: %v", err)
			return
		}
		l.setStatus(false, "contact law updated")
		l.edited(MarkParam, l.status)
	case cmdWall:
		if err := w.SetWallEnabled(c.name, c.on); err != nil {
			l.setStatus(true, "%v", err)
			return
		}
		w.UpdateStats()
		state := "off"
		if c.on {
			state = "on"
		}
		l.setStatus(false, "wall %s %s", c.name, state)
		l.edited(MarkWall, l.status)
	case cmdReset:
		o := l.opts
		o.Sets = append(append([]string(nil), o.Sets...), l.lawSets...)
		s, err := Load(o)
		if err != nil {
			l.setStatus(true, "reset failed, the scene keeps running: %v", err)
			return
		}
		l.install(s, l.opts)
		l.reapplyShapes()
		l.setStatus(false, "reset %s", l.opts.Scene)
	case cmdLoad:
		if c.file {
			if st, err := os.Stat(c.opts.Scene); err != nil {
				l.setStatus(true, "open failed, the current scene keeps running: %v", err)
				return
			} else if st.IsDir() {
				l.setStatus(true, "open failed, the current scene keeps running: %s is a directory", c.opts.Scene)
				return
			}
		}
		o := c.opts
		if o.Workers == 0 {
			o.Workers = l.opts.Workers
		}
		s, err := Load(o)
		if err != nil {
			l.setStatus(true, "load failed, the current scene keeps running: %v", err)
			return
		}
		l.lawSets, l.shapeSets = nil, nil
		l.setPlaying(false)
		l.install(s, o)
		l.setStatus(false, "loaded %s", o.Scene)
	case cmdIntegrator:
		if err := l.setIntegrator(c.name); err != nil {
			l.setStatus(true, "%v", err)
			return
		}
		l.setStatus(false, "integrator %s", c.name)
		l.edited(MarkIntegrator, l.status)
	case cmdShape:
		if err := l.setShape(c.body, c.shape); err != nil {
			l.setStatus(true, "refused: %v", err)
			return
		}
		l.setStatus(false, "material %s: shape %s", l.materialName(c.body), shapeString(c.shape))
		l.edited(MarkParam, l.status)
	case cmdCompatible:
		cs, ok := w.Integrator.(CompatibleSwitch)
		if !ok {
			l.setStatus(false, "integrator %s has no classic/compatible switch", integratorName(w))
			return
		}
		cs.SetCompatibleForces(c.on)
		mode := "classic"
		if c.on {
			mode = "compatible"
		}
		l.setStatus(false, "%s contact forces", mode)
		l.edited(MarkParam, l.status)
	case cmdAddMesh:
		if err := l.addMesh(c.name, c.body); err != nil {
			l.setStatus(true, "add bodies refused, the scene is unchanged: %v", err)
			return
		}
	case cmdResume:
		if err := l.resume(c.value); err != nil {
			l.setStatus(true, "resume refused, the run is unchanged: %v", err)
			return
		}
	case cmdCall:
		c.fn(l)
	case cmdSpring:
		if c.body < 0 || c.body >= len(w.Bodies()) || w.Bodies()[c.body].Fixed || !c.point.IsFinite() || !c.target.IsFinite() {
			return
		}
		if l.spring == nil {
			l.dirty = true
		}
		l.spring = &springState{body: c.body, point: c.point, target: c.target}
	case cmdSpringOff:
		if l.spring != nil {
			l.spring = nil
			l.updateSpring()
			l.dirty = true
		}
	}
}

// addMesh adds count bodies from the mesh at path (AddMeshBodies) and
// re-starts the running integrator on the new state: the same instance, so
// the scene's integrator settings stay (every integrator sizes its per-body
// state at each step), with the forces evaluated afresh (integrate.Start),
// as after an integrator switch. An error means nothing was added; when
// the bodies were added but the integrator refuses the new state, the loop
// pauses and says so, and the edit is marked like any other.
func (l *SimLoop) addMesh(path string, count int) error {
	w := l.sim.World
	idx, err := AddMeshBodies(w, path, count)
	if err != nil {
		return err
	}
	err = integrate.Start(w)
	l.added += len(idx)
	l.meanMass = MeanMass(w)
	l.good.Save(w)
	if err != nil {
		l.setPlaying(false)
		l.setStatus(true, "added %d %s from %s, but integrator %s refused the new state, paused: %v",
			len(idx), plural("body", len(idx)), filepath.Base(path), integratorName(w), err)
	} else {
		b := w.Bodies()[idx[len(idx)-1]]
		l.setStatus(false, "added %d %s from %s above the pile (z = %.3g m)", len(idx), plural("body", len(idx)), filepath.Base(path), b.X.Z)
	}
	l.edited(MarkParam, l.status)
	return nil
}

func plural(s string, n int) string {
	if n == 1 {
		return s
	}
	if strings.HasSuffix(s, "y") {
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

// setIntegrator switches to the named integrator (integrate.New). The world
// keeps positions, velocities and the contact (friction) history; the forces
// of the current state are evaluated afresh (integrate.Start, Δt = 0: no
// friction increment) so that the new integrator starts from forces of the
// laws whatever the previous one left (contact dynamics writes its own).
func (l *SimLoop) setIntegrator(name string) error {
	w := l.sim.World
	if w.Integrator != nil && w.Integrator.Name() == name {
		l.opts.Integrator = name
		return nil
	}
	in, err := integrate.NewFor(name, w)
	if err != nil {
		return err
	}
	old := w.Integrator
	w.Integrator = in
	if err := integrate.Start(w); err != nil {
		w.Integrator = old
		l.setPlaying(false)
		return fmt.Errorf("integrator %s refused, paused: %w", name, err)
	}
	l.opts.Integrator = name
	return nil
}

// setShape changes the smooth shape of material m (world.SetSmoothShape:
// s is the shape of its first body, the others keep their sizes relative to
// it) and re-evaluates the forces at the new masses and surfaces; when that
// fails every body gets its own old shape back (world.EditSmoothShape's undo).
func (l *SimLoop) setShape(m int, s sq.Shape) error {
	w := l.sim.World
	if !slices.ContainsFunc(l.shapes, func(ms world.MaterialShape) bool { return ms.Material == m }) {
		return fmt.Errorf("material %d has no sphere or superquadric bodies", m)
	}
	undo, err := w.EditSmoothShape(m, s)
	if err != nil {
		return err
	}
	if err := integrate.Start(w); err != nil {
		undo()
		if err2 := integrate.Start(w); err2 != nil {
			l.setPlaying(false)
		}
		l.shapes = w.SmoothShapes()
		return fmt.Errorf("shape %s: %w", shapeString(s), err)
	}
	if l.shapeSets == nil {
		l.shapeSets = map[int]sq.Shape{}
	}
	l.shapeSets[m] = s
	l.shapes = w.SmoothShapes()
	l.meanMass = MeanMass(w)
	return nil
}

// shapeEdits returns the last shape edit of each material in w.Edits (nil
// when there is none): the live shape edits a reset re-applies.
func shapeEdits(w *world.World) map[int]sq.Shape {
	var out map[int]sq.Shape
	for _, e := range w.Edits {
		if m := slices.Index(w.Materials, e.Material); e.Shape != nil && m >= 0 {
			if out == nil {
				out = map[int]sq.Shape{}
			}
			out[m] = *e.Shape
		}
	}
	return out
}

// reapplyShapes repeats the live shape edits on a reset world.
func (l *SimLoop) reapplyShapes() {
	w := l.sim.World
	for m, s := range l.shapeSets {
		if w.SetSmoothShape(m, s) != nil {
			delete(l.shapeSets, m)
		}
	}
	if len(l.shapeSets) > 0 {
		if err := integrate.Start(w); err != nil {
			l.setStatus(true, "reset: the edited shapes do not fit: %v", err)
		}
		l.shapes = w.SmoothShapes()
		l.meanMass = MeanMass(w)
	}
}

func (l *SimLoop) materialName(m int) string {
	for _, ms := range l.shapes {
		if ms.Material == m && ms.Name != "" {
			return ms.Name
		}
	}
	return strconv.Itoa(m)
}

func shapeString(s sq.Shape) string {
	return fmt.Sprintf("a=%g b=%g c=%g n1=%g n2=%g", s.A, s.B, s.C, s.N1, s.N2)
}

func integratorName(w *world.World) string {
	if w.Integrator == nil {
		return "(none)"
	}
	return w.Integrator.Name()
}

// lawKeys are the scene keys of the panel's polyhedral law (law.Params on
// the panel outside the smooth law), in table order.
var lawKeys = law.Names(func(q *law.Param) bool { return q.Panel && q.Class != law.ClassSmooth })

func defaultLawKey(path string) (string, bool) {
	key, ok := strings.CutPrefix(path, "contact.default.")
	return key, ok && key != ""
}

// rememberLaw records a live change of the default law as a scene override
// so that a reset keeps it (one entry per key, the latest value).
func (l *SimLoop) rememberLaw(key, value string) {
	pre := "contact.default." + key + "="
	out := l.lawSets[:0]
	for _, s := range l.lawSets {
		if !strings.HasPrefix(s, pre) {
			out = append(out, s)
		}
	}
	l.lawSets = append(out, pre+value)
}

// lawAt is what a reset re-applies (SimLoop.lawSets) after a live law
// edit, with the length of the world's edit list after that edit.
type lawAt struct {
	edits int
	sets  []string
}

// logLaw records lawSets after a live law edit (lawSetsAt).
func (l *SimLoop) logLaw() {
	l.lawLog = append(l.lawLog, lawAt{len(l.sim.World.Edits), slices.Clone(l.lawSets)})
}

// lawSetsAt returns what a reset re-applies after the first n edits of the
// world's edit list (a resume to a keyframe with n edits: the later ones
// are the dropped future's) and forgets the live law edits after them.
func (l *SimLoop) lawSetsAt(n int) []string {
	k := len(l.lawLog)
	for k > 0 && l.lawLog[k-1].edits > n {
		k--
	}
	l.lawLog = l.lawLog[:k]
	if k == 0 {
		return slices.Clone(l.lawBase)
	}
	return slices.Clone(l.lawLog[k-1].sets)
}

// setLaw makes the panel's law p the default pair's polyhedral law, as one
// recorded edit (world.SetLaw: the law's kind and the panel's parameters;
// damp_band, not on the panel, and the smooth law stay), so that the edit
// list says what was in force when (a restart and a resume replay it).
func (l *SimLoop) setLaw(p world.ContactParams) error {
	w := l.sim.World
	s := p.LawSet()
	e := world.LawEdit{Kind: p.Normal.Kind.String(), Values: map[string]float64{}}
	for _, k := range lawKeys {
		if q, _ := law.Lookup(k); q.Kind == law.Number {
			e.Values[k] = *q.Field(&s)
		}
	}
	if err := w.SetLaw("contact.default", e); err != nil {
		return err
	}
	for _, k := range lawKeys {
		switch q, _ := law.Lookup(k); q.Kind {
		case law.Choice: // the normal law's kind, the only choice on the panel
			l.rememberLaw(k, p.Normal.Kind.String())
		case law.Number:
			l.rememberLaw(k, strconv.FormatFloat(*q.Field(&s), 'g', -1, 64))
		}
	}
	l.logLaw()
	return nil
}

// setPlaying starts or stops the run, accounting the running wall time.
func (l *SimLoop) setPlaying(on bool) {
	now := time.Now()
	if l.playing && !on {
		l.runWall += now.Sub(l.runStart)
	}
	if on && !l.playing {
		l.runStart = now
	}
	l.playing = on
}

// publish makes the current state visible to readers.
func (l *SimLoop) publish(now time.Time) {
	w := l.sim.World
	if l.playing {
		if dt := now.Sub(l.rateWall).Seconds(); dt >= 0.5 {
			l.sps = float64(w.Steps-l.rateSteps) / dt
			l.rtf = (w.Time - l.rateSim) / dt
			l.rateWall, l.rateSteps, l.rateSim = now, w.Steps, w.Time
		}
	} else {
		l.rateWall, l.rateSteps, l.rateSim = now, w.Steps, w.Time
		l.sps, l.rtf = 0, 0
	}
	t0, periodic := time.Now(), !l.dirty && len(l.syncs) == 0
	l.keyTook = 0
	l.wanted.Store(false)
	s := w.Snapshot(l.last)
	w.ViewBodies(s.Bodies) // lazy bodies: the spheres' kinematics from the flat state
	s.Stats.StepsPerSecond = l.sps
	l.last = s
	l.record(s, now)
	st := &LoopState{
		Snap: s, Gen: l.gen, Scene: l.opts.Scene, Playing: l.playing,
		Speed: l.speed, AsFast: l.asFast, End: l.end, MeanMass: l.meanMass, Spring: l.spring != nil,
		Status: l.status, StatusErr: l.statusErr, StatusSeq: l.statusSeq,
		StepsPerSecond: l.sps, RealTime: l.rtf,
		RunWall: l.runWall, RunSteps: l.runSteps, RunSim: l.runSim,
	}
	if l.playing {
		st.RunWall += now.Sub(l.runStart)
	}
	if w.Integrator != nil {
		st.Integrator = w.Integrator.Name()
	}
	st.Shapes = l.shapes
	st.Added = l.added
	if ev := nextEvent(w); ev != nil {
		st.NextEvent = EventHint(ev)
	}
	if cs, ok := w.Integrator.(CompatibleSwitch); ok {
		st.HasCompatible, st.Compatible = true, cs.CompatibleForces()
	}
	if p := w.DefaultParams(); p != nil {
		st.Law = *p
	}
	l.state.Store(st)
	if l.release { // the old scene's last snapshot replaced: nothing holds its world
		l.release = false
		releaseDropped()
	}
	if periodic {
		l.pubCost = time.Since(t0) - l.keyTook // keyframes are paced on their own
	}
	l.lastPub = now
	l.dirty = false
	if l.steps == 0 { // requested single steps are part of what Sync waits for
		for _, d := range l.syncs {
			close(d)
		}
		l.syncs = l.syncs[:0]
	}
	if l.OnPublish != nil {
		l.OnPublish()
	}
	if c := l.cmp.Load(); c != nil {
		c.notify()
	}
}

// MeanMass returns the mean mass of the free bodies of w (0 without any).
func MeanMass(w *world.World) float64 {
	var m float64
	n := 0
	for _, b := range w.Bodies() {
		if !b.Fixed {
			m += b.Mass()
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return m / float64(n)
}

// ---- the history: recording, markers, branch (issue 14 items 3–4) ----

// record keeps the published snapshot s in the history, with a keyframe
// every KeyEvery frames (with OnDemand also every KeyEvery publication
// intervals of wall time; with Share no sooner after the last than its
// cost over Share) and after an edit, and a marker when steps were rejected
// since the previous frame.
func (l *SimLoop) record(s *snap.Snapshot, now time.Time) {
	if l.replaying {
		return
	}
	w := l.sim.World
	if l.hist.Add(s) {
		l.sinceKey++
	}
	if r := w.Stats.Rejected; r > l.rejected {
		l.hist.Mark(Marker{Time: w.Time, Kind: MarkRejected, Label: fmt.Sprintf("%d rejected step(s)", r-l.rejected)})
		l.rejected = r
	}
	every := l.KeyEvery
	if every <= 0 {
		every = DefaultKeyEvery
	}
	periodic := l.sinceKey >= every
	if l.OnDemand && l.sinceKey > 0 && now.Sub(l.lastKey) >= time.Duration(every)*l.PublishInterval {
		// frames only when drawn may be seconds apart: a keyframe at least
		// every KeyEvery publication intervals (0.5 s) keeps a branch's
		// replay from its keyframe as short as at 60 frames per second
		periodic = true
	}
	if l.Share > 0 && periodic && now.Sub(l.lastKey) < time.Duration(float64(l.keyCost)/l.Share) {
		periodic = false
	}
	if l.needKey || periodic {
		t0 := time.Now()
		l.syncBodies()        // state.Capture reads the bodies
		f := state.Capture(w) // encoded only when spilled or branched from (History)
		done := make([]bool, len(w.Events))
		for i := range w.Events {
			done[i] = w.Events[i].Done
		}
		l.hist.AddKeyframe(NewKeyframe(w.Time, w.Steps, w.Dt, done, f))
		l.sinceKey, l.needKey = 0, false
		l.keyTook = time.Since(t0)
		// paced as if encoded: a keyframe spilled to disk (or branched
		// from) is encoded later, 2.5–4× its capture at 10⁵ spheres;
		// paced on the capture alone they would come several times as
		// often and fill the history (and the spill's JSON) as fast
		l.lastKey, l.keyCost = now, keyPace*l.keyTook
	}
}

// keyPace is a keyframe's full cost, its capture and a later encoding
// (state.EncodeFile when spilled or branched from), over its capture: what
// Share paces periodic keyframes by.
const keyPace = 4

// edited marks a user edit on the time bar and asks for a keyframe of the
// edited state (a branch point).
func (l *SimLoop) edited(k MarkerKind, label string) {
	if l.replaying {
		return
	}
	l.hist.Mark(Marker{Time: l.sim.World.Time, Kind: k, Label: label})
	l.needKey = true
}

// applyEvents applies the scene events that are due (world.ApplyEvents)
// and marks the bar at their time.
func (l *SimLoop) applyEvents() error {
	w := l.sim.World
	pending := pendingEvents(w)
	was := make([]bool, len(w.Events))
	for i := range w.Events {
		was[i] = w.Events[i].Done
	}
	err := w.ApplyEvents()
	if n := pendingEvents(w); n < pending && !l.replaying {
		var msgs []string
		for i := range w.Events {
			if w.Events[i].Done && !was[i] {
				msgs = append(msgs, EventDone(&w.Events[i], w.Time))
			}
		}
		l.hist.Mark(Marker{Time: w.Time, Kind: MarkEvent, Label: fmt.Sprintf("%d scene event(s)", pending-n)})
		l.needKey = true
		if err == nil {
			l.setStatus(false, "%s", strings.Join(msgs, "; "))
		}
	}
	return err
}

// pendingEvents counts the scene events not applied yet.
func pendingEvents(w *world.World) int {
	n := 0
	for i := range w.Events {
		if !w.Events[i].Done {
			n++
		}
	}
	return n
}

// startAfterRestore is the integrator start path after a state was applied:
// the one Load uses for `--restart` (forces and contacts of the state, Δt = 0).
func startAfterRestore(w *world.World) error { return integrate.Start(w) }

// resume branches from the recorded frame at or before time t: it restores
// the newest keyframe at or before that frame (state.Parse + state.Apply,
// the walls and the scene events as they were then, the restart's start
// path), steps to the frame's time as the run did, and drops the recorded
// future after it. The resumed run is the restart from that keyframe, bit
// for bit: its edit list is the keyframe's, replayed on the scene's shapes
// and contact parameters (world.RestoreHistory), so an edit made after the
// keyframe is undone with the rest of the dropped future — to keep it, the
// window sends it again after the resume, a new edit at the branch's time
// that the edit list then records. The panel's shapes, the mean mass and
// what a reset re-applies follow. On error the run is unchanged: the whole
// state saved before (state.Backup: kinematics, forces, contact history,
// integrator state, walls, events, shapes, parameters and edits) is put
// back.
func (l *SimLoop) resume(t float64) error {
	h := l.hist
	i := h.Index(t)
	if i < 0 {
		return fmt.Errorf("nothing is recorded yet")
	}
	target := h.Time(i)
	k, ok := h.KeyframeAt(target)
	if !ok {
		return fmt.Errorf("no keyframe at or before t=%.6g s (the oldest frames were dropped: their spill file could not be written)", target)
	}
	src := fmt.Sprintf("keyframe at t=%.6g s", k.Time)
	data, err := k.Bytes()
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	f, err := state.Parse(data, src)
	if err != nil {
		return err
	}
	kf, err := h.Frame(h.Index(k.Time))
	if err != nil {
		return err
	}
	w := l.sim.World
	back := state.Save(w)
	spring, lawSets, lawLog := l.spring, slices.Clone(l.lawSets), slices.Clone(l.lawLog)
	// fail puts the saved state back (and the loop's view of it) and
	// returns err.
	fail := func(err error) error {
		if rerr := back.Restore(w); rerr != nil {
			err = fmt.Errorf("%w; and the run could not be put back: %v", err, rerr)
		} else if rerr := startAfterRestore(w); rerr != nil {
			err = fmt.Errorf("%w; and the run put back does not start: %v", err, rerr)
		}
		l.shapes, l.meanMass, l.shapeSets = w.SmoothShapes(), MeanMass(w), shapeEdits(w)
		l.spring, l.lawSets, l.lawLog = spring, lawSets, lawLog
		l.updateSpring()
		l.good.Save(w)
		return err
	}
	if err := state.Apply(w, f, src); err != nil {
		return fail(err)
	}
	// The shapes and parameters are the keyframe's now (World.RestoreHistory
	// replays its edits on the scene's): the panel, the mean mass and what a
	// reset re-applies follow them.
	l.shapes, l.meanMass, l.shapeSets = w.SmoothShapes(), MeanMass(w), shapeEdits(w)
	l.lawSets = l.lawSetsAt(len(w.Edits))
	w.Steps = k.Step
	if k.Dt > 0 {
		w.Dt = k.Dt
	}
	for _, sw := range kf.Walls {
		if sw.Name != "" {
			_ = w.SetWallEnabled(sw.Name, sw.Enabled)
		}
	}
	for j := range w.Events { // as they were at the keyframe
		w.Events[j].Done = j < len(k.Done) && k.Done[j]
	}
	l.spring = nil
	l.updateSpring()
	if err := startAfterRestore(w); err != nil {
		return fail(fmt.Errorf("%s: %w", src, err))
	}
	playing := l.playing
	l.playing = false
	l.replaying, l.replayTo = true, target
	seq := l.statusSeq
	for w.Time < target-1e-12*math.Max(1, math.Abs(target)) && l.statusSeq == seq {
		l.stepOnce()
	}
	l.replaying = false
	if l.statusSeq != seq && l.statusErr {
		msg := l.status
		l.playing = playing
		return fail(fmt.Errorf("replaying from %s to t=%.6g s: %s", src, target, msg))
	}
	l.playing = playing
	h.Truncate(target)
	h.Mark(Marker{Time: w.Time, Kind: MarkBranch, Label: fmt.Sprintf("resumed from t=%.6g s", target)})
	l.good.Save(w)
	l.steps = 0
	l.needKey, l.dirty = true, true
	l.rejected = w.Stats.Rejected
	l.anchor(time.Now())
	l.setStatus(false, "resumed from t=%.6g s (keyframe t=%.6g s); the recorded future was dropped", w.Time, k.Time)
	return nil
}
