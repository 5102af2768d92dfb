package world

import (
	"fmt"
	"math"
	"slices"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/shape"
	"grainlab/sim/snap"
	"grainlab/sim/sq"
)

// History is everything of a world's solver state that the next step reads
// besides the bodies' kinematics and forces: the contact history by pair
// (every contact of the last accepted step with its friction state g_t,
// stick/slip, gap — the lagged dashpot's G0 — and normal; superquadric
// warm starts; the second-level feature lists), the Verlet list it was
// built for, the step the integrator tries next, wall switches, events
// already applied and the edits made while running. A state file (package
// state) stores it, so that a restarted run continues bit for bit.
// TakeHistory and RestoreHistory are its two ends.
type History struct {
	Dt    float64     `json:"dt"`              // World.Dt: the step tried next
	Skin  float64     `json:"skin"`            // the Verlet skin in use (0: chosen at the next detection)
	Walls []WallState `json:"walls,omitempty"` // by name
	// Events are the scene's events in order, with whether each is done.
	Events []EventState `json:"events,omitempty"`
	// Edits are the changes made while running (events' parameter changes
	// and the window's edits), in order; RestoreHistory replays them (shape
	// edits on the scene's shapes).
	Edits []Edit `json:"edits,omitempty"`
	// Params are the contact parameters in force (after Edits), by material
	// pair, for ParamDiff: a restart onto a scene with other laws says so.
	Params []ParamRecord `json:"params,omitempty"`
	// SphereOrder is the sphere path's spatial order when it has renumbered
	// its spheres (≥ SphereReorderMin spheres, spheres_order.go) and holds
	// the history in place (a run's final.json, WriteInPlace); VerletRef
	// and VerletRad are then in this order (sphere k's at k), else in body
	// order. A restart renumbers the spheres so before the list is taken
	// over (importOrder: the same force sums in the same order, the next
	// renumbering at the same step).
	SphereOrder *SphereOrder `json:"sphere_order,omitempty"`
	// Verlet is the broad-phase list's reference: the centres and radii it
	// was last built for (nil: it rebuilds at the next detection); Ghosts the
	// periodic images listed with it.
	VerletRef [][3]float64 `json:"verlet_ref,omitempty"`
	VerletRad []float64    `json:"verlet_rad,omitempty"`
	Ghosts    []GhostState `json:"ghosts,omitempty"`
	// Pairs are the candidate pairs: the body–body ones in list order, then
	// the body–wall entries (Wall ≥ 0).
	Pairs []PairState `json:"pairs"`
	Stats Stats       `json:"stats"` // the statistics of the last step (cumulative counters go on)
}

// SphereOrder is the sphere path's spatial order in a History: the body
// of each sphere in the path's order (a compact line of integers in the
// file) and the step of its last renumbering.
type SphereOrder struct {
	At     int64   `json:"at"`
	Bodies []int32 `json:"bodies"`
}

// WallState is one wall's switch and the force it exerted in the last step.
type WallState struct {
	Name    string     `json:"name"`
	Body    int        `json:"body"` // its index in World.Bodies
	Enabled bool       `json:"enabled"`
	Force   [3]float64 `json:"force"`
}

// EventState is one scene event: its time and whether it has been applied.
type EventState struct {
	At   float64 `json:"at"`
	Done bool    `json:"done"`
}

// Edit is one change made to a running world: a contact parameter by dotted
// path (SetParam, as events and the window make them), with Law a material
// pair's polyhedral law at once (SetLaw, the window's law panel; Path names
// the pair), or, with Material set, a material's smooth shape
// (SetSmoothShape).
type Edit struct {
	Time     float64   `json:"time"`
	Path     string    `json:"path,omitempty"`
	Value    float64   `json:"value,omitempty"`
	Law      *LawEdit  `json:"law,omitempty"`
	Material string    `json:"material,omitempty"`
	Shape    *sq.Shape `json:"shape,omitempty"`
}

// ParamRecord is the contact parameters of one material pair ("default" or
// "matA.matB") by the keys of SetField, with the law kinds.
type ParamRecord struct {
	Pair   string             `json:"pair"`
	Laws   string             `json:"laws"`
	Values map[string]float64 `json:"values"`
}

// GhostState is one periodic image of the broad phase.
type GhostState struct {
	K     int32      `json:"k"`
	Shift [3]float64 `json:"shift"`
}

// PairState is one candidate pair: bodies A < B (indices into World.Bodies),
// or, for Wall ≥ 0, the wall entry of body A (B is then the wall's body).
type PairState struct {
	A     int32       `json:"a"`
	B     int32       `json:"b"`
	Wall  int         `json:"wall"`            // −1 for a body–body pair
	Cand  bool        `json:"cand,omitempty"`  // a wall entry that was a candidate of the last detection
	Shift [3]float64  `json:"shift,omitempty"` // periodic image of B
	Mid   *[3]float64 `json:"mid,omitempty"`   // superquadric warm start (S1 §2.3), in A's frame
	// Spring is the cached Hookean step bound and the safety it was taken at (smooth pairs).
	Spring *[2]float64 `json:"spring,omitempty"`
	// Sep is the superquadric pair's separation certificate (sq.SepCert.State)
	// and SepAx the order of its next separation test (smooth pairs apart).
	// Read as a list, so that a wrong count is an error, not numbers dropped
	// or zeros added: exactly 9 (the count tag: sim/state names a wrong
	// count with its line when it reads a file).
	Sep []float64 `json:"sep,omitempty" count:"9"`
	// Chord is the superquadric pair's Newton Jacobian of its last midway
	// point (sq.Chord.State), the next solve's first step: exactly 17 numbers.
	Chord []float64           `json:"chord,omitempty" count:"17"`
	SepAx bool                `json:"sep_ax,omitempty"`
	Cache *contact.CacheState `json:"cache,omitempty"`
	Prev  []ContactState      `json:"prev,omitempty"`
}

// ContactState is one contact of the last accepted step.
type ContactState struct {
	// Key: kind, swap (0/1), feature of A, feature of B; then the hierarchy
	// rule (0: active) and flags (1 new, 2 flip, 4 sliding).
	Key  [6]int32   `json:"key"`
	PA   [3]float64 `json:"pa"`
	PB   [3]float64 `json:"pb"`
	N    [3]float64 `json:"n"`
	Gn   float64    `json:"gn"`
	G0   float64    `json:"g0"`
	Fn   float64    `json:"fn"`
	Ft   [3]float64 `json:"ft"`
	Epot float64    `json:"epot"`
	M    [3]float64 `json:"m"`
	Gt   [3]float64 `json:"gt"` // friction: recoverable tangential gap g_t (S0 eq. 44)
	// FricN is the normal of the friction law's last update when it is not N.
	FricN *[3]float64 `json:"fric_n,omitempty"`
}

func a3(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }
func v3(a [3]float64) geom.Vec3 { return geom.V(a[0], a[1], a[2]) }

// contactState and contactOf convert a contact to and from its stored form.
func contactState(c *contact.Contact) ContactState {
	var fl int32
	if c.New {
		fl |= 1
	}
	if c.Flip {
		fl |= 2
	}
	if c.Fric.Sliding {
		fl |= 4
	}
	var sw int32
	if c.Swap {
		sw = 1
	}
	s := ContactState{Key: [6]int32{int32(c.Kind), sw, c.FA, c.FB, int32(c.Rule), fl},
		PA: a3(c.PA), PB: a3(c.PB), N: a3(c.N), Gn: c.Gn, G0: c.G0, Fn: c.Fn, Ft: a3(c.Ft), Epot: c.Epot,
		M: a3(c.M), Gt: a3(c.Fric.Gt)}
	if c.Fric.N != c.N {
		fn := a3(c.Fric.N)
		s.FricN = &fn
	}
	return s
}

func contactOf(s *ContactState) (contact.Contact, error) {
	k := s.Key
	if k[0] < 0 || k[0] >= int32(snap.NumContactKinds) || k[1] < 0 || k[1] > 1 || k[4] < 0 || k[4] > int32(contact.CoplanarFace) || k[5] < 0 || k[5] > 7 {
		return contact.Contact{}, fmt.Errorf("contact key %v out of range", k)
	}
	c := contact.Contact{Key: contact.Key{Kind: snap.ContactKind(k[0]), Swap: k[1] == 1, FA: k[2], FB: k[3]},
		PA: v3(s.PA), PB: v3(s.PB), N: v3(s.N), Gn: s.Gn, G0: s.G0, Rule: contact.Rule(k[4]),
		New: k[5]&1 != 0, Flip: k[5]&2 != 0, Fn: s.Fn, Ft: v3(s.Ft), Epot: s.Epot, M: v3(s.M),
		Fric: law.FrictionState{Gt: v3(s.Gt), Sliding: k[5]&4 != 0, N: v3(s.N)}}
	if s.FricN != nil {
		c.Fric.N = v3(*s.FricN)
	}
	return c, nil
}

// paramKeys are the keys of SetField (the Numbers of law.Params), in the
// order ParamRecord lists them.
var paramKeys = law.Names(func(q *law.Param) bool { return q.Field != nil })

// paramValues reads p by the keys of SetField (law.Params' accessors).
func paramValues(p *ContactParams) map[string]float64 {
	s := p.LawSet()
	out := make(map[string]float64, len(paramKeys))
	for _, k := range paramKeys {
		q, _ := law.Lookup(k)
		out[k] = *q.Field(&s)
	}
	return out
}

// paramRecords lists the parameters of every material pair that has its own.
func (w *World) paramRecords() []ParamRecord {
	var out []ParamRecord
	for a := range w.params {
		for b := a; b < len(w.params[a]); b++ {
			p := w.params[a][b]
			if p == nil {
				continue
			}
			name := "default"
			if a != 0 || b != 0 {
				name = w.Materials[a] + "." + w.Materials[b]
			}
			laws := fmt.Sprintf("normal %v, smooth %v %s, poly %v smooth %v", p.Normal.Kind, p.Smooth.Model, p.Smooth.Radius, p.HasPoly, p.HasSmooth)
			out = append(out, ParamRecord{Pair: name, Laws: laws, Values: paramValues(p)})
		}
	}
	return out
}

// ParamDiff names the contact parameters in force in w that differ from
// the record of a state file ("contact.default.mu_s: file 0.5, here 0.3"),
// and material pairs found on one side only.
func (w *World) ParamDiff(rec []ParamRecord) []string {
	mine := map[string]ParamRecord{}
	for _, r := range w.paramRecords() {
		mine[r.Pair] = r
	}
	var out []string
	seen := map[string]bool{}
	for _, r := range rec {
		seen[r.Pair] = true
		m, ok := mine[r.Pair]
		if !ok {
			out = append(out, fmt.Sprintf("contact.%s: in the file, not in this scene", r.Pair))
			continue
		}
		if m.Laws != r.Laws {
			out = append(out, fmt.Sprintf("contact.%s: laws %q in the file, %q here", r.Pair, r.Laws, m.Laws))
		}
		for _, k := range paramKeys {
			if fv, ok := r.Values[k]; ok && fv != m.Values[k] && !(math.IsNaN(fv) && math.IsNaN(m.Values[k])) {
				out = append(out, fmt.Sprintf("contact.%s.%s: %g in the file, %g here", r.Pair, k, fv, m.Values[k]))
			}
		}
	}
	for _, r := range w.paramRecords() {
		if !seen[r.Pair] && len(rec) > 0 {
			out = append(out, fmt.Sprintf("contact.%s: in this scene, not in the file", r.Pair))
		}
	}
	return out
}

// TakeHistory returns the world's solver state (History) at the current
// accepted state. It does not change the simulation: the sphere path hands
// its history to the pair entries as every generic entry point does.
func (w *World) TakeHistory() *History {
	h, n, each := w.HistoryStream()
	if n > 0 { // none: nil, written as null as before; else allocated once (a backup at 10⁵ bodies)
		h.Pairs = make([]PairState, 0, n)
		each(func(p *PairState) error {
			h.Pairs = append(h.Pairs, *p)
			return nil
		})
	}
	return h
}

// HistoryStream is TakeHistory in two parts, for a writer that streams the
// pairs (final.json at 10⁵–10⁶ spheres): the History without its Pairs
// (nil), how many pairs TakeHistory lists, and a function that calls f with
// each of them in TakeHistory's order (the PairState is f's to keep) and
// returns f's first error. each reads the world as it is when called:
// call it before the world changes.
func (w *World) HistoryStream() (h *History, n int, each func(f func(*PairState) error) error) {
	return w.historyStream(false)
}

// HistoryStreamShared is HistoryStream (the hand-over included) but for
// the PairState given to f, f's only during the call: one is reused for
// every pair (final.json's checkpoints: no garbage a pair, 384 k pairs at
// 10⁵ spheres).
func (w *World) HistoryStreamShared() (h *History, n int, each func(f func(*PairState) error) error) {
	return w.historyStream(true)
}

// historyStream is HistoryStream, its PairState reused when shared.
func (w *World) historyStream(shared bool) (h *History, n int, each func(f func(*PairState) error) error) {
	w.leaveSpheres()
	h = w.historyHead(true)
	n = len(w.bbPairs)
	for wi := range w.wallPair {
		for _, e := range w.wallPair[wi] {
			if e != nil {
				n++
			}
		}
	}
	each = func(f func(*PairState) error) error {
		var ps PairState // shared: reused
		var sc pairScratch
		state := func(e *pairEntry, a, b int32, wall int, cand bool) *PairState {
			if !shared {
				return w.pairState(e, a, b, wall, cand)
			}
			w.fillPairState(&ps, &sc, e, a, b, wall, cand)
			return &ps
		}
		for _, e := range w.bbPairs {
			if err := f(state(e, e.A, e.B, -1, false)); err != nil {
				return err
			}
		}
		for wi := range w.wallPair {
			for i, e := range w.wallPair[wi] {
				if e != nil {
					if err := f(state(e, int32(i), int32(w.Walls[wi].Body), wi, e.gen == w.gen)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return h, n, each
}

// historyHead is the History of TakeHistory without its Pairs; the Verlet
// reference only when withRef.
func (w *World) historyHead(withRef bool) *History {
	h := &History{Dt: w.Dt, Skin: w.skin, Edits: slices.Clone(w.Edits), Params: w.paramRecords(), Stats: w.Stats}
	for _, x := range []*float64{&h.Stats.Residual, &h.Stats.Dt, &h.Stats.Kinetic, &h.Stats.PotentialGravity, &h.Stats.PotentialContact} {
		if math.IsNaN(*x) || math.IsInf(*x, 0) {
			*x = 0 // diagnostics only; JSON has no NaN
		}
	}
	for _, wl := range w.Walls {
		h.Walls = append(h.Walls, WallState{Name: wl.Name, Body: wl.Body, Enabled: wl.Enabled, Force: a3(wl.Force)})
	}
	for _, ev := range w.Events {
		h.Events = append(h.Events, EventState{At: ev.At, Done: ev.Done})
	}
	if ref, rad := w.verlet.Ref(), w.refRadii(); withRef && ref != nil && len(rad) == len(ref) {
		h.VerletRef = make([][3]float64, len(ref)) // one array (appended, it grew to twice)
		for k, c := range ref {
			h.VerletRef[k] = a3(c)
		}
		h.VerletRad = slices.Clone(rad)
		for _, g := range w.ghosts {
			h.Ghosts = append(h.Ghosts, GhostState{K: g.k, Shift: a3(g.shift)})
		}
	}
	return h
}

// pairState is pair entry e's PairState in a History, e listed as the pair
// of bodies a and b (wall: the wall's index, −1 for two bodies).
func (w *World) pairState(e *pairEntry, a, b int32, wall int, cand bool) *PairState {
	p := &PairState{}
	w.fillPairState(p, nil, e, a, b, wall, cand)
	return p
}

// pairScratch is the storage a reused PairState points into.
type pairScratch struct {
	mid    [3]float64
	spring [2]float64
}

// fillPairState sets *p to pairState's value; with sc, p's Mid and Spring
// point into sc and its Prev reuses p's storage (valid until the next
// fill).
func (w *World) fillPairState(p *PairState, sc *pairScratch, e *pairEntry, a, b int32, wall int, cand bool) {
	var prev []ContactState
	if sc != nil {
		prev = p.Prev[:0]
	}
	*p = PairState{A: a, B: b, Wall: wall, Cand: cand, Shift: a3(e.Shift), Prev: prev}
	if e.hasMid {
		if sc != nil {
			sc.mid = a3(e.mid)
			p.Mid = &sc.mid
		} else {
			m := a3(e.mid)
			p.Mid = &m
		}
	}
	if e.springGen == w.lawGen && e.springGen != 0 && !math.IsInf(e.dtSpring, 0) && !math.IsNaN(e.dtSpring) {
		if sc != nil {
			sc.spring = [2]float64{e.dtSpring, e.springSafety}
			p.Spring = &sc.spring
		} else {
			p.Spring = &[2]float64{e.dtSpring, e.springSafety}
		}
	}
	// The values pointed to are copied inside their branches: a variable
	// whose address is kept is on the heap from its declaration, and the
	// cache's (an if-init) was made for every pair (58 MB of garbage for
	// a 10⁵-sphere final.json).
	if e.sm != nil && e.sm.sepGen == w.lawGen {
		if st, ok := e.sm.sep.State(); ok {
			h := st
			p.Sep = h[:]
		}
	}
	if e.sm != nil && e.sm.chordGen == w.lawGen {
		if st, ok := e.sm.chord.State(); ok {
			h := st
			p.Chord = h[:]
		}
	}
	p.SepAx = e.sepAx
	if cs, ok := e.cache.State(); ok && len(cs.VF)+len(cs.FV)+len(cs.EE)+len(cs.VE)+len(cs.EV)+len(cs.VV) > 0 {
		h := cs
		p.Cache = &h // an empty list is rebuilt at the next detection: the same contacts
	}
	for k := range e.prev {
		p.Prev = append(p.Prev, contactState(&e.prev[k]))
	}
}

// RestoreHistory makes h the world's solver state: walls switched, events
// marked, edits replayed on the scene's shapes and contact parameters
// (every body a shape edit has changed first gets its shape before the
// first edit back, every material pair an edit has changed its parameters
// before the first edit), so that a running world given a history (a
// resume) ends with the shapes and parameters a fresh one (a restart) has,
// to the bit — and the contact history, Verlet list, pair
// entries, Δt and statistics as TakeHistory found them. The bodies (with
// their forces) must already be in the state h was taken at, in the same
// order and with the same names as in that world. The next step then
// continues exactly as the taken world's would, and integrate.Start leaves
// the restored forces and contacts alone (Resumed). Errors name what does
// not fit this world; the file is checked before anything changes, but for
// an edit the world refuses (edits before it stay applied).
func (w *World) RestoreHistory(h *History) error {
	w.leaveSpheres()
	n := w.NumBodies()
	if len(h.Events) != len(w.Events) {
		return fmt.Errorf("events: %d in the file, %d in the scene", len(h.Events), len(w.Events))
	}
	for i, ev := range h.Events {
		if ev.At != w.Events[i].At {
			return fmt.Errorf("events[%d]: at %g s in the file, %g s in the scene", i, ev.At, w.Events[i].At)
		}
	}
	if len(h.Walls) != len(w.Walls) {
		return fmt.Errorf("walls: %d in the file, %d in the scene", len(h.Walls), len(w.Walls))
	}
	for i, ws := range h.Walls {
		if ws.Name != w.Walls[i].Name || ws.Body != w.Walls[i].Body {
			return fmt.Errorf("walls[%d]: %q (body %d) in the file, %q (body %d) in the scene", i, ws.Name, ws.Body, w.Walls[i].Name, w.Walls[i].Body)
		}
	}
	if len(h.VerletRad) != len(h.VerletRef) {
		return fmt.Errorf("verlet_ref and verlet_rad differ in length")
	}
	if err := w.checkSphereOrder(h); err != nil {
		return err
	}
	prev := make([][]contact.Contact, len(h.Pairs))
	chord := make([]*sq.Chord, len(h.Pairs)) // Jacobians kept (pairs[i].chord)
	for i := range h.Pairs {
		p := &h.Pairs[i]
		if p.A < 0 || int(p.A) >= n || p.B < 0 || int(p.B) >= n || p.A == p.B {
			return fmt.Errorf("pairs[%d]: bodies %d, %d: the scene has %d bodies", i, p.A, p.B, n)
		}
		if p.Wall >= 0 && (p.Wall >= len(w.Walls) || int(p.B) != w.Walls[p.Wall].Body || w.BodyRec(int(p.A)).Wall >= 0) {
			return fmt.Errorf("pairs[%d]: no wall %d with body %d", i, p.Wall, p.B)
		}
		if p.Wall < 0 && (p.A > p.B || w.BodyRec(int(p.A)).Wall >= 0 || w.BodyRec(int(p.B)).Wall >= 0) {
			return fmt.Errorf("pairs[%d]: bodies %d, %d: a body–body pair lists two bodies that are not walls, the lower first", i, p.A, p.B)
		}
		ba, bb := w.BodyRec(int(min(p.A, p.B))), w.BodyRec(int(max(p.A, p.B))) // static fields: no record made
		smooth := isSmooth(ba) || isSmooth(bb)
		if p.Cache != nil && (smooth || !cacheFits(p.Cache, ba.Poly(), bb.Poly())) {
			return fmt.Errorf("pairs[%d]: feature lists do not fit bodies %s and %s", i, w.BodyName(int(min(p.A, p.B))), w.BodyName(int(max(p.A, p.B))))
		}
		if p.Sep != nil {
			// checked here; kept (below) when it is for B's shape after the
			// edits are replayed (sq.SepCertOf's ok)
			err := countError(p.Sep, 9)
			if err == nil {
				_, _, err = sq.SepCertOf([9]float64(p.Sep), bb.SQ())
			}
			if err == nil && (!isSmooth(ba) || !isSmooth(bb)) {
				err = fmt.Errorf("a separation certificate for %s and %s, not two superquadrics", w.BodyName(int(min(p.A, p.B))), w.BodyName(int(max(p.A, p.B))))
			}
			if err != nil {
				return fmt.Errorf("pairs[%d].sep: %w", i, err)
			}
		}
		if p.Chord != nil {
			var ch sq.Chord
			err := countError(p.Chord, 17)
			if err == nil {
				ch, err = sq.ChordOf([17]float64(p.Chord))
			}
			if err == nil && (!isSmooth(ba) || !isSmooth(bb)) {
				err = fmt.Errorf("a Newton Jacobian for %s and %s, not two smooth bodies", w.BodyName(int(min(p.A, p.B))), w.BodyName(int(max(p.A, p.B))))
			}
			if err != nil {
				return fmt.Errorf("pairs[%d].chord: %w", i, err)
			}
			chord[i] = &ch
		}
		for k := range p.Prev {
			c, err := contactOf(&p.Prev[k])
			if err == nil && (c.Kind == snap.SQ) != smooth {
				err = fmt.Errorf("contact kind %v in a pair of %s and %s", c.Kind, w.BodyName(int(min(p.A, p.B))), w.BodyName(int(max(p.A, p.B))))
			}
			if err == nil && !smooth && !keyFits(c.Key, ba.Poly(), bb.Poly()) {
				err = fmt.Errorf("contact key %v: no such features of %s and %s", p.Prev[k].Key, w.BodyName(int(min(p.A, p.B))), w.BodyName(int(max(p.A, p.B))))
			}
			if err != nil {
				return fmt.Errorf("pairs[%d].prev[%d]: %w", i, k, err)
			}
			prev[i] = append(prev[i], c)
		}
	}
	if !(h.Dt > 0) || math.IsInf(h.Dt, 0) || !(h.Skin >= 0) || math.IsInf(h.Skin, 0) {
		return fmt.Errorf("dt %g, skin %g: want a finite dt > 0 and skin ≥ 0", h.Dt, h.Skin)
	}
	// The edits are replayed on the scene's shapes and contact parameters,
	// as a restart replays them: a resumed world holds its latest shapes
	// and parameters, whose bodies the replay would scale again and whose
	// parameters a history from before an edit would leave edited — the
	// edit list is the record of what was in force when.
	w.restoreSceneShapes()
	w.restoreSceneParams()
	w.Edits = nil // each replayed edit records itself; the list is then h's
	for i, e := range h.Edits {
		if err := w.applyEdit(i, e); err != nil {
			return err // an EditError: edits[i] by index (two edits may share a time)
		}
	}
	w.Edits = slices.Clone(h.Edits)
	for i, ev := range h.Events {
		w.Events[i].Done = ev.Done
	}
	for i, ws := range h.Walls {
		w.Walls[i].Enabled, w.Walls[i].Force = ws.Enabled, v3(ws.Force)
	}

	// The pair entries.
	w.wallPair = make([][]*pairEntry, len(w.Walls))
	for wi := range w.wallPair {
		w.wallPair[wi] = make([]*pairEntry, n)
	}
	w.bbPairs, w.pairs = w.bbPairs[:0], w.pairs[:0]
	w.gen++
	cand := map[*pairEntry]bool{}
	for i := range h.Pairs {
		p := &h.Pairs[i]
		e := &pairEntry{A: p.A, B: p.B, Shift: v3(p.Shift)}
		if p.Wall >= 0 {
			bi := p.A
			e.A, e.B = min(p.A, p.B), max(p.A, p.B)
			e.smooth = isSmooth(w.BodyRec(int(bi)))
			w.wallPair[p.Wall][bi] = e
			if p.Cand {
				e.gen = w.gen
				cand[e] = true
			}
		} else {
			e.smooth = isSmooth(w.BodyRec(int(p.A))) || isSmooth(w.BodyRec(int(p.B)))
			w.bbPairs = append(w.bbPairs, e)
		}
		if p.Mid != nil {
			e.mid, e.hasMid = v3(*p.Mid), true
		}
		if p.Spring != nil {
			e.dtSpring, e.springSafety, e.springGen = p.Spring[0], p.Spring[1], w.lawGen
			e.springMA, e.springMB = w.BodyRec(int(p.A)).MassOrInf(), w.BodyRec(int(p.B)).MassOrInf() // the state's bodies: those it was computed with
		}
		if p.Cache != nil {
			e.cache.SetState(*p.Cache)
		}
		if p.Sep != nil {
			if k, ok, _ := sq.SepCertOf([9]float64(p.Sep), w.BodyRec(int(max(p.A, p.B))).SQ()); ok {
				e.smoothState().sep, e.sm.sepGen = k, w.lawGen
			}
		}
		if chord[i] != nil {
			e.smoothState().chord, e.sm.chordGen = *chord[i], w.lawGen
		}
		e.sepAx = p.SepAx
		e.prev = prev[i]
	}
	// Wall candidates in detection order: wall by wall, body by body.
	w.pairs = append(w.pairs, w.bbPairs...)
	for wi := range w.wallPair {
		for _, e := range w.wallPair[wi] {
			if e != nil && cand[e] {
				w.pairs = append(w.pairs, e)
			}
		}
	}

	// The broad phase as it was last built.
	w.skin = h.Skin
	w.posed = make([]contact.Posed, n)
	w.placeLook() // no record made (a world's sphere blocks)
	w.verlet.Invalidate()
	w.ghosts = w.ghosts[:0]
	if h.VerletRef != nil {
		for _, g := range h.Ghosts {
			w.ghosts = append(w.ghosts, ghost{g.K, v3(g.Shift)})
		}
		ref := make([]geom.Vec3, len(h.VerletRef))
		for i, c := range h.VerletRef {
			ref[i] = v3(c)
		}
		if h.SphereOrder == nil {
			w.verlet.Update(ref, h.VerletRad, w.skin)
		} else {
			// In the spheres' spatial order: the sphere path builds it
			// when it takes the history over in that order (importOrder);
			// until then no list (a generic stage rebuilds it).
			w.keepSphereOrder(h, ref)
		}
	}
	if h.SphereOrder == nil || h.VerletRef == nil {
		w.keepSphereOrder(h, nil)
	}
	w.Dt, w.Stats = h.Dt, h.Stats
	w.resumed, w.histStale = true, false
	return nil
}

// HistoryValid reports whether the contact history and forces belong to
// the bodies' current state: false after BodyStates.Restore put an earlier
// state back, until the next accepted evaluation (Commit, or the sphere
// path's Accept). A state file then holds the kinematics only.
func (w *World) HistoryValid() bool { return !w.histStale }

// featureCounts returns the vertices, edges and faces of a polyhedron.
func featureCounts(p *shape.Polyhedron) (v, e, f int32) {
	return int32(len(p.Verts)), int32(len(p.Edges)), int32(len(p.Faces))
}

// keyFits reports whether a polyhedral contact key names features of a and b.
func keyFits(k contact.Key, a, b *shape.Polyhedron) bool {
	if a == nil || b == nil {
		return false
	}
	va, ea, fa := featureCounts(a)
	vb, eb, fb := featureCounts(b)
	in := func(i, n int32) bool { return i >= 0 && i < n }
	switch k.Kind {
	case snap.VF:
		if k.Swap {
			return in(k.FA, fa) && in(k.FB, vb)
		}
		return in(k.FA, va) && in(k.FB, fb)
	case snap.EE:
		return in(k.FA, ea) && in(k.FB, eb)
	case snap.VE:
		if k.Swap {
			return in(k.FA, ea) && in(k.FB, vb)
		}
		return in(k.FA, va) && in(k.FB, eb)
	case snap.VV:
		return in(k.FA, va) && in(k.FB, vb)
	}
	return false
}

// cacheFits reports whether every feature pair of c names features of a and b.
func cacheFits(c *contact.CacheState, a, b *shape.Polyhedron) bool {
	if a == nil || b == nil {
		return false
	}
	va, ea, fa := featureCounts(a)
	vb, eb, fb := featureCounts(b)
	for _, l := range []struct {
		p      [][2]int32
		na, nb int32
	}{{c.VF, va, fb}, {c.FV, fa, vb}, {c.EE, ea, eb}, {c.VE, va, eb}, {c.EV, ea, vb}, {c.VV, va, vb}} {
		for _, q := range l.p {
			if q[0] < 0 || q[0] >= l.na || q[1] < 0 || q[1] >= l.nb {
				return false
			}
		}
	}
	return true
}

// Resumed reports, once, whether RestoreHistory has set the forces and
// contacts of the current state (integrate.Start then has nothing to do).
func (w *World) Resumed() bool {
	r := w.resumed
	w.resumed = false
	return r
}

// countError reports a list of numbers whose count is not n.
func countError(v []float64, n int) error {
	if len(v) != n {
		return fmt.Errorf("%d numbers: want %d", len(v), n)
	}
	return nil
}
