// Package world owns the bodies, walls, loads, contact parameters and the
// contact list of a simulation, and the solver stages every integrator calls:
// detect (broad + narrow phase, hierarchy) → laws (normal, damping, friction)
// → accumulate (gravity, loads, contact forces into body accumulators), run
// by World.Evaluate, and commit (the evaluated contacts become the history),
// run by World.Commit; the options of both (Eval, Commit) fuse an
// integrator's per-body work, the statistics and the step bound into the
// stages' passes (laws.go names the stages). Integrators (package
// integrate) advance the state using these stages.
//
// The sphere path (Spheres: worlds of spheres and planar walls under the
// explicit integrator) is the world's sphere force stage on flat arrays, one
// file per idea: spheres.go the type, whether a world qualifies and its
// per-sphere tables (read by species: spheres_tables.go); spheres_list.go
// list upkeep (the Verlet test, the half neighbour list and its history
// carried over at rebuilds, the wall slots: built in place,
// spheres_slots_inplace.go, found by bisection, spheres_slots_at.go, seen
// flags as bits, spheres_seen.go); spheres_eval.go evaluation (pair kernels
// of package sphere, wall slots, sums in pair order, the two workers) and
// spheres_choice.go the measured choice of splitting;
// spheres_dt.go the step bound by class; spheres_step.go the passes over the
// spheres that read and write the bodies (Drift and Accept, around the
// integrator's kinematics: SphereKin, KickDrift, Kick); spheres_energy.go
// the lazy energies (summed when they are read); spheres_sync.go the
// hand-over of the contact history to and from the generic stages and the
// contact list; spheres_order.go the spatial (Morton) order. The kinematics
// are package integrate's (explicit_spheres.go); the smooth law is
// law.Smooth, which the kernels of package sphere are pinned to.
package world

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"grainlab/sim/body"
	"grainlab/sim/broad"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
)

// ContactParams are the interface laws of one material pair: Normal,
// Friction and Zeta for polyhedron–polyhedron contacts (S0), Smooth for every
// contact that involves a sphere or a superquadric (S1, S2, LAMMPS).
type ContactParams struct {
	Normal   law.Normal   // S0 eq. (49)–(51)
	Friction law.Friction // S0 eq. (54)–(57)
	Zeta     float64      // damping ratio ζ, S0 eq. (52)
	// DampBand is the outer fraction of the skin over which the dashpot of
	// S0 eq. (52) switches on smoothly (law.DampingRamp, our regularisation);
	// 0 gives eq. (52) as written, which jumps at g = ḡ when n1 = 1.
	DampBand float64
	Smooth   law.Smooth // spring–dashpot of smooth bodies (spheres, superquadrics)
	// HasPoly and HasSmooth tell which of the two sets was given; Validate sets
	// them from non-zero stiffnesses when both are false.
	HasPoly, HasSmooth bool
}

// LawSet returns p's laws as the law.Set that law.Params' accessors read.
func (p *ContactParams) LawSet() law.Set {
	return law.Set{Normal: p.Normal, Friction: p.Friction, Zeta: p.Zeta, DampBand: p.DampBand, Smooth: p.Smooth}
}

// SetLawSet makes s p's laws (HasPoly and HasSmooth are kept).
func (p *ContactParams) SetLawSet(s law.Set) {
	p.Normal, p.Friction, p.Zeta, p.DampBand, p.Smooth = s.Normal, s.Friction, s.Zeta, s.DampBand, s.Smooth
}

// Validate checks every parameter and prepares derived constants (ε2, c2 of S0 eq. 51).
func (p *ContactParams) Validate() error {
	if !p.HasPoly && !p.HasSmooth {
		p.HasPoly = p.Normal.Eps1 != 0 || p.Normal.GBar != 0
		p.HasSmooth = p.Smooth.Kn != 0 || p.Smooth.E != 0
	}
	if p.HasSmooth {
		if err := p.Smooth.Validate(); err != nil {
			return err
		}
	}
	if !p.HasPoly {
		return nil
	}
	if err := p.Normal.Prepare(); err != nil {
		return err
	}
	if err := p.Friction.Validate(); err != nil {
		return err
	}
	if math.IsNaN(p.Zeta) || math.IsInf(p.Zeta, 0) || p.Zeta < 0 {
		return fmt.Errorf("zeta must be a finite number ≥ 0 (got %g)", p.Zeta)
	}
	if !(p.DampBand >= 0 && p.DampBand <= 1) {
		return fmt.Errorf("damp_band must be in [0, 1] (got %g)", p.DampBand)
	}
	return nil
}

// Wall is a named boundary surface, backed by a fixed body.
type Wall struct {
	Name    string
	Body    int
	Enabled bool
	// Planar walls know their plane (point P, unit normal N towards the bodies).
	Planar bool
	P, N   geom.Vec3
	// Force is the total contact force the wall exerts on the bodies this step.
	Force geom.Vec3
}

// Settings control time stepping.
type Settings struct {
	Dt, DtMin, DtMax float64
	Safety           float64 // s in Δt ≤ s·2√(m_c/k_c) (S0 §2.4.7)
	Approach         float64 // fraction of a gap that may close in one step
	Workers          int
	// NoSpherePath keeps worlds of spheres on the generic stages (World.Spheres
	// returns nil): for comparisons and benchmarks of the sphere path.
	NoSpherePath bool
	// SphereSplit says when the sphere path evaluates on two workers (Workers > 1).
	SphereSplit SplitMode
	// DampLag asks the implicit integrator (newmark) to lag the dashpot
	// coefficient of S0 eq. (52) by one step (SetDampLag; scene key
	// integrator.damp_lag), DampLagEntry to give contacts new in a step the
	// fraction of the step spent in the skin (integrator.damp_lag_entry).
	// Both are on by default (DefaultSettings); false gives newmark the
	// dashpot of eq. (52) fully implicit, as written. Explicit ignores both.
	DampLag, DampLagEntry bool
	// Skin is the Verlet skin asked for, m (scene key contact.skin; 0:
	// chosen by the world, World.VerletSkin). At most World.MaxSkin.
	Skin float64
}

// WallForces appends each wall's Force (the contact force it exerts this
// step, in wall order) to dst and returns the result: the wall part of the
// state a rejected step rolls back (integrate's checkpoint).
func (w *World) WallForces(dst []geom.Vec3) []geom.Vec3 {
	for _, wl := range w.Walls {
		dst = append(dst, wl.Force)
	}
	return dst
}

// SetWallForces puts back the wall forces f taken by WallForces (one per
// wall, in wall order).
func (w *World) SetWallForces(f []geom.Vec3) {
	for i := range w.Walls {
		w.Walls[i].Force = f[i]
	}
}

// DefaultSettings returns conservative stepping settings.
func DefaultSettings() Settings {
	return Settings{Dt: 1e-4, DtMin: 1e-10, DtMax: 1e-3, Safety: 0.2, Approach: 0.25, Workers: runtime.NumCPU(),
		DampLag: true, DampLagEntry: true}
}

// Integrator advances a world by one (accepted) step.
type Integrator interface {
	Name() string
	// Step advances w by one step of at most dtMax and returns the step taken.
	Step(w *World, dtMax float64) (float64, error)
}

// World is the complete simulation state.
type World struct {
	Name     string
	bodies   []*body.Body   // the records in index order: Bodies() when there is no block; without the blocks' spheres (sphere_block.go)
	blocks   []*sphereBlock // the spheres without a record, by first body index (sphere_block.go)
	nvirt    int            // the blocks' spheres: NumBodies() = len(bodies) + nvirt
	Walls    []Wall
	Loads    []body.Load
	Bonds    []Bond
	Events   []Event
	Gravity  geom.Vec3
	Settings Settings

	Materials []string
	params    [][]*ContactParams // [matA][matB]

	Time  float64
	Steps int64
	Dt    float64 // the step the integrator will try next

	Integrator Integrator
	Probes     []Probe
	// Edits are the changes made while running (SetParam, SetLaw, SetSmoothShape), in
	// order: a state file replays them (History).
	Edits []Edit
	// sceneShape is, by body, the shape state before the body's first shape
	// edit (EditSmoothShape; zero: never edited): the scene's shapes, which
	// RestoreHistory puts back before it replays a history's edits.
	sceneShape []body.ShapeState
	// sceneParams are, by material pair (a ≤ b), the contact parameters
	// before the pair's first edit while running (SetParam, SetLaw; nil:
	// none of its own): the scene's, which RestoreHistory puts back before it
	// replays a history's edits.
	sceneParams map[[2]int]*ContactParams

	resumed   bool // RestoreHistory set the forces and contacts (Resumed)
	histStale bool // the bodies were put back without their history (HistoryValid)

	// Contact state (see detect.go).
	posed      []contact.Posed
	sqPrep     []sq.Prepared       // superquadrics' prepared shapes by body (smooth.go, prepareSQ)
	posedOld   bool                // bodies moved since posed was placed (Eval.Fixed)
	placed     []contact.Placement // Eval.Fixed's poses
	fixedPairs []*pairEntry        // Eval.Fixed's pairs: those with contacts at evaluation fixedGen
	fixedGen   uint64
	verlet     broad.Verlet
	pairs      []*pairEntry // body–body candidates (Verlet list) then body–wall candidates
	bbPairs    []*pairEntry
	detect     detectPass     // placeBodies' and pairPass's pass bodies, made once, and bodyPairs' pair table (pairtable.go)
	bp         broadPrep      // placeBodies' pass bodies and the broad phase's per-body part (detect.go)
	wallPair   [][]*pairEntry // [wall][body]
	skin       float64
	scratch    []paddedScratch
	crew       *crew                       // the helpers of the fork–joins (crew.go)
	stages     [3]func(worker, lo, hi int) // stagesPass's stages while it runs (crew.go)
	stagesRun  func(k, lo, hi int)         // stagesPass's pass body, made once (stagesFn)
	sums       contactSums                 // accumulateContacts' body ranges (laws.go)
	initInPass bool                        // stageAccumulate: forces start from gravity in the accumulation's pass
	live       livePairs                   // the pairs with contacts after the last Commit (laws.go)
	thenGen    uint64                      // gen+1 of the evaluation whose bodies Eval.Then moved (Commit's Below; 0: none)
	curLive    livePairs                   // pairPass's batches of the pairs with contacts (buf, cnt, next)
	leases     pairLeases                  // pairPass: the empty lists' leases and the pairs each batch visits
	curPairs   []*pairEntry                // the pairs with contacts of the last pairPass, in pair order
	flipped    bool                        // the last detection pass met a reversed normal (pairPass)
	gen        uint64                      // evaluation counter (pairEntry.gen)
	lawGen     uint64                      // bumped whenever laws, shapes or bodies change (cached per-pair bounds)
	dampLag    bool                        // SetDampLag
	dampEntry  bool                        // SetDampLag
	stickLag   bool                        // SetStickLag
	smoothTol  float64                     // SetSmoothTol (0: sqOptions.Tol)
	ptLag      pointLag                    // SetPointLag (pointlag.go)
	speeds     []bodySpeed                 // StableDt's per-body speed terms
	energy     [][2]float64                // UpdateStats: each body's kinetic and gravity terms
	centers    []geom.Vec3
	radii      []float64
	movable    []int
	ghosts     []ghost // periodic images (periodic.go)
	ghostBuf   []ghost

	surfaces sync.Map // *shape.Polyhedron → *sq.Surface, for smooth contacts (smooth.go)

	sph *Spheres // the sphere path (spheres.go), nil until asked for

	bound stepBound // StableDt between calls (stepbound.go)

	// Periodic boundaries along x and/or y (periodic.go).
	Periodic Periodic

	Stats Stats
	// LoadValues are the applied force and moment of each load at the last evaluation.
	LoadValues []LoadValue
}

// LoadValue is the applied force and moment of one load.
type LoadValue struct{ F, M geom.Vec3 }

// New returns an empty world with the default material.
func New(name string) *World {
	w := &World{Name: name, Gravity: geom.V(0, 0, -9.81), Settings: DefaultSettings()}
	w.Materials = []string{"default"}
	w.params = [][]*ContactParams{{nil}}
	return w
}

// Material returns the index of the named material, adding it if new.
func (w *World) Material(name string) int {
	for i, m := range w.Materials {
		if m == name {
			return i
		}
	}
	w.Materials = append(w.Materials, name)
	n := len(w.Materials)
	for i := range w.params {
		w.params[i] = append(w.params[i], nil)
	}
	w.params = append(w.params, make([]*ContactParams, n))
	return n - 1
}

// SetParams sets the contact parameters between materials a and b (symmetric).
// Pairs without explicit parameters use those of (default, default).
func (w *World) SetParams(a, b int, p ContactParams) error {
	if err := p.Validate(); err != nil {
		return err
	}
	pp := p
	w.params[a][b], w.params[b][a] = &pp, &pp
	w.invalidate()
	return nil
}

// Params returns the contact parameters between materials a and b.
func (w *World) Params(a, b int) *ContactParams {
	if p := w.params[a][b]; p != nil {
		return p
	}
	return w.params[0][0]
}

// DefaultParams returns the parameters of the default material pair (nil if unset).
func (w *World) DefaultParams() *ContactParams { return w.params[0][0] }

// MaxGap returns the largest contact skin ḡ over all material pairs.
func (w *World) MaxGap() float64 {
	g := 0.0
	for i := range w.params {
		for _, p := range w.params[i] {
			if p != nil && p.Normal.GBar > g {
				g = p.Normal.GBar
			}
		}
	}
	return g
}

// Bodies returns the world's bodies in index order (a wall's fixed body
// included). With lazy bodies (SetLazyBodies) their state is the one of the
// last SyncBodies. The slice is the world's: a caller that replaces bodies
// uses SetBodies.
//
// A world with sphere blocks (AddSphereBlock) makes their records first,
// once (materialize): readers that need no record use NumBodies, EachBody,
// BodyRec or BodyName instead.
func (w *World) Bodies() []*body.Body {
	if w.blocks != nil {
		w.materialize()
	}
	return w.bodies
}

// NumBodies returns the number of bodies, len(Bodies()).
func (w *World) NumBodies() int { return len(w.bodies) + w.nvirt }

// EachBody calls f with each body and its index, in index order, for a
// reader that only looks: f must neither keep b nor write it. The state is
// the one Bodies gives.
//
// A sphere of a block (sphere_block.go) is given as one scratch record,
// filled as its record would be: no record is made.
func (w *World) EachBody(f func(i int, b *body.Body)) {
	if w.blocks != nil {
		w.eachVirtual(f, true)
		return
	}
	for i, b := range w.bodies {
		f(i, b)
	}
}

// SetBodies replaces the bodies slice as given (a builder's pre-sized
// slice, tests). Unlike AddBody it resets nothing derived from the bodies:
// it is meant for a world that has not stepped.
func (w *World) SetBodies(bs []*body.Body) {
	w.materialize()
	w.bodies = bs
}

// GrowBodies makes room for n more bodies with a record (AddBody), without
// making a sphere block's records (a builder's room for its bodies; the
// spheres of a block need none).
func (w *World) GrowBodies(n int) {
	w.bodies = slices.Grow(w.bodies, n)
}

// AddBody appends a body and returns its index.
func (w *World) AddBody(b *body.Body) int {
	w.bodies = append(w.bodies, b)
	w.invalidate()
	return w.NumBodies() - 1
}

// AddWall adds a wall surface as a fixed body and returns the wall index.
func (w *World) AddWall(name string, surf *shape.Polyhedron, material int, enabled bool) (int, error) {
	for _, wl := range w.Walls {
		if wl.Name == name {
			return -1, fmt.Errorf("wall %q defined twice", name)
		}
	}
	b := body.NewFixed("wall:"+name, surf, geom.Vec3{}, geom.QIdent())
	b.Material = material
	b.Wall = len(w.Walls)
	bi := w.AddBody(b)
	wl := Wall{Name: name, Body: bi, Enabled: enabled}
	if n, p, ok := planeOf(surf); ok {
		wl.Planar, wl.N, wl.P = true, n, p
	}
	w.Walls = append(w.Walls, wl)
	return len(w.Walls) - 1, nil
}

// planeOf reports whether every face of surf lies in one plane.
func planeOf(s *shape.Polyhedron) (n, p geom.Vec3, ok bool) {
	if len(s.Faces) == 0 {
		return
	}
	n = s.Faces[0].N
	p = s.Verts[s.Faces[0].V[0]]
	for _, f := range s.Faces {
		if f.N.Dot(n) < 1-1e-9 {
			return n, p, false
		}
	}
	for _, v := range s.Verts {
		if math.Abs(v.Sub(p).Dot(n)) > 1e-9*(1+s.Radius) {
			return n, p, false
		}
	}
	return n, p, true
}

// WallByName returns the index of the named wall or −1.
func (w *World) WallByName(name string) int {
	for i := range w.Walls {
		if w.Walls[i].Name == name {
			return i
		}
	}
	return -1
}

// SetWallEnabled turns a wall on or off; contacts with a disabled wall vanish at once.
func (w *World) SetWallEnabled(name string, on bool) error {
	i := w.WallByName(name)
	if i < 0 {
		return fmt.Errorf("no wall named %q", name)
	}
	w.Walls[i].Enabled = on
	if !on {
		for _, e := range w.wallPairsOf(i) {
			e.cur, e.prev = e.cur[:0], e.prev[:0]
		}
		if s := w.sph; s != nil && s.owns {
			for j := range s.slots {
				if sl := &s.slots[j]; int(sl.wall) == i {
					sl.pTouch, sl.pRim, sl.touch, sl.rim, sl.cand = false, false, false, false, false
				}
			}
		}
	}
	return nil
}

// BodyByName returns the index of the named body or −1.
func (w *World) BodyByName(name string) int {
	for i, b := range w.Bodies() {
		if b.Name == name {
			return i
		}
	}
	return -1
}

// BodyNames returns the index of every body by name (BodyByName's, the
// first body of a name): one O(n) pass for callers that look up many
// names (a state file's bodies), where BodyByName per name is O(n²).
func (w *World) BodyNames() map[string]int {
	m := make(map[string]int, len(w.Bodies()))
	for i, b := range w.Bodies() {
		if _, ok := m[b.Name]; !ok {
			m[b.Name] = i
		}
	}
	return m
}

// invalidate forces both levels of the contact search to rebuild at the next detection.
func (w *World) invalidate() {
	w.lawGen++
	w.verlet.Invalidate()
	for _, e := range w.bbPairs {
		e.cache.Invalidate()
	}
	for _, ws := range w.wallPair {
		for _, e := range ws {
			if e != nil {
				e.cache.Invalidate()
			}
		}
	}
}

// Check validates the world before a run: every body has finite state and
// positive mass, and every material pair in use has parameters.
func (w *World) Check() error {
	if w.params[0][0] == nil {
		return fmt.Errorf("contact.default: no contact parameters")
	}
	var err error
	w.eachBodyState(func(i int, b *body.Body) { // no record made (sphere blocks): names looked up on error
		switch {
		case err != nil:
		case !b.Made():
			err = fmt.Errorf("body %d (%s): no shape or mass (a body must come from a body constructor)", i, w.BodyName(i))
		case !b.Finite():
			err = fmt.Errorf("body %d (%s): non-finite state", i, w.BodyName(i))
		case !b.Fixed && !(b.Mass() > 0):
			err = fmt.Errorf("body %d (%s): mass must be > 0", i, w.BodyName(i))
		}
	})
	if err != nil {
		return err
	}
	// Every material pair in use needs the law set of its body kinds.
	type use struct {
		m             int
		smooth, fixed bool
	}
	seen := map[use]bool{}
	for i := range w.NumBodies() {
		b := w.BodyRec(i)
		seen[use{b.Material, isSmooth(b), b.Fixed}] = true
	}
	for u := range seen {
		for v := range seen {
			p := w.Params(u.m, v.m)
			if (u.smooth || v.smooth) && !p.HasSmooth {
				return fmt.Errorf("contact %s–%s: spheres and superquadrics need a smooth model (model: hooke|hertz with kn, or hertz-material with youngs_modulus)", w.Materials[u.m], w.Materials[v.m])
			}
			if !u.smooth && !v.smooth && !(u.fixed && v.fixed) && !p.HasPoly {
				return fmt.Errorf("contact %s–%s: polyhedra need the barrier law (gbar, eps1, ...)", w.Materials[u.m], w.Materials[v.m])
			}
		}
	}
	if w.Periodic.On() {
		rmax := 0.0
		for i := range w.NumBodies() {
			if b := w.BodyRec(i); b.Wall < 0 {
				if b.Kind == body.Polyhedral && !b.Fixed {
					return fmt.Errorf("periodic boundaries: body %d (%s) is a polyhedron; periodic boxes support spheres and superquadrics only", i, b.Name)
				}
				rmax = max(rmax, b.R)
			}
		}
		if err := w.Periodic.Validate(rmax, w.MaxGap()); err != nil {
			return err
		}
	}
	s := w.Settings
	if !(s.DtMin > 0 && s.DtMax >= s.DtMin && s.Dt > 0) {
		return fmt.Errorf("integrator: need 0 < dt_min ≤ dt_max and dt > 0 (got dt %g, dt_min %g, dt_max %g)", s.Dt, s.DtMin, s.DtMax)
	}
	if !(s.Safety > 0 && s.Safety <= 1) {
		return fmt.Errorf("integrator.safety must be in (0, 1] (got %g)", s.Safety)
	}
	return nil
}
