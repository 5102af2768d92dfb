package world

import (
	"grainlab/sim/body"
	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/sphere"
)

// Spheres is the dedicated path of worlds whose movable bodies are all
// spheres and whose walls are all planar, for the explicit integrator: the
// same stages as detect → laws → accumulate (same candidates, contacts,
// laws, night owls and step bound), on flat arrays (sphere.Flat), a half
// neighbour list with a Verlet skin (sphere.List over World.verlet) and
// closed-form sphere–plane contacts, with the friction history stored beside
// the list. While it runs it holds the contact history; the generic stages
// take it back (leaveSpheres) whenever they are used, so integrators can be
// switched between any two steps.
type Spheres struct {
	w        *World
	rekeys   int64      // key changes made in place (rekey, spheres_rekey.go; the tests read it)
	rkPend   *rekeyPend // the round trip's entries of an in-place key change until the next Accept
	virtKeep bool       // build keeps the spheres virtual: their state is acc (rekey)

	key   spheresKey // the world's shape when the tables were built
	ok    bool       // the world qualifies
	owns  bool       // the contact history lives here; w.pairs is stale
	valid bool       // tr holds an accepted state (Accept ran since the import)
	taken bool       // the import's generic pair entries are still held (releaseGeneric)

	// Spheres k = 0…n−1 are the world's movable bodies in body order.
	// body is nil while they are a world's sphere blocks (virt,
	// sphere_block.go): their state is then the blocks' centres until the
	// first Accept, the accepted state after (their records, materialized,
	// would hold it as of the last syncBodies); vTurn: a rotational array
	// was made while virtual (q may then differ from the template's: it is
	// not dropped again, rotDrop).
	body        []*body.Body
	virt, vTurn bool
	idx         []int32 // body index of sphere k
	specMat     []int32 // material of each species (a species has one: specKey); matOf(k) is sphere k's
	// The spheres are in body order unless ordered (spatial order,
	// spheres_order.go; restoreOrder finds the body order in sidx).
	ordered   bool
	orderedAt int64 // w.Steps at the last renumbering
	// kin and specs hold what Drift and Accept need of each species, the
	// integrator's kinematics and the world's part (besides a sphere's
	// state and species, Drift reads only the Verlet reference positions).
	kin   []SphereKin
	specs []sphereSpec
	// acc is the accepted state of each sphere, in sphere order:
	// Drift's start. accFresh: acc holds it (else Drift reads the bodies);
	// lazy: Accept leaves the bodies alone (SetLazyBodies); stale: the
	// bodies lag behind acc (SyncBodies writes them). trAcc: Accept left
	// the accepted state in tr (lazy bodies) and acc holds the one before,
	// until the next Drift swaps the two arrays (accepted reads it).
	acc                          sphere.States
	accFresh, lazy, stale, trAcc bool
	// The rotational skip (spheres_step.go): rotStill: both state arrays'
	// R hold ω = +0, T = +0 (every bit zero) and the same q a sphere, so
	// Drift, Accept and forcesBad may leave R alone while no moment comes;
	// set by Accept when a step found it so, cleared by a moment (Evaluate),
	// by Drift reading the bodies and by build. rotSkip: this Drift left R
	// alone; rotFound: this Drift found acc's ω and T all +0; tClear: the
	// trial moments are +0 (Drift cleared them); tZero: and the last
	// evaluation added none.
	rotStill, rotSkip, rotFound, tClear, tZero bool
	rotOff                                     bool // Accept under the skip (finish)
	// No rotational array while nothing turns (spheres_rotnone.go):
	// rotNone: acc.R and tr.R are nil, every ω and T +0, q the bodies' Q;
	// qBody: each q of the rotational states is its body's Q; pend: the
	// moments wall slots noted, a chunk each, while the array was absent.
	rotNone, qBody bool
	pend           [nChunks][]rotPend
	// Lazy energies (SetLazyEnergies, spheres_energy.go): lazyE: an Accept
	// under the rotational skip leaves the energies to energies();
	// eSkip: this Accept does (finish); eStale: Stats' kinetic and
	// gravitational energies are not yet those of the accepted state.
	lazyE, eSkip, eStale bool
	// badKick: Evaluate left the force test (forcesBad) to Accept's kick
	// (EvaluateKick); fsum: that kick's sum so far (finishRange); chunkFS:
	// a split kick's sums, each range's from zero (finishSplitBad);
	// termsLeft: a split evaluation's parts left forceTerms to that kick.
	badKick   bool
	termsLeft bool
	fsum      float64
	chunkFS   [nChunks]float64
	// rotSkips counts the Drifts that took the skip (tests, the bench notes).
	rotSkips int64
	driftRef []geom.Vec3 // the Verlet reference positions Drift tests against (nil: no test)
	disp     dispBound   // Drift's bound on the displacements from driftRef (spheres_step.go)

	// Drift and Accept in ranges on the crew (passes: driftParts, nChunks); part[k] is
	// worker k's results over the ranges it claimed.
	part             []passPart
	dtDrift, hFinish float64
	// relWait: lists to pass before the moving frame's next selection;
	// relBack: the wait after the next failed one (relSelect's back-off).
	relWait, relBack int
	kickDrift        KickDrift // the integrator's kinematics of the pass in progress
	kick             Kick
	testDrift        bool
	driftJob         func(worker, lo, hi int)
	gridFork         func(n int, job func(worker, lo, hi int)) // s.fork for the broad grid (made once)
	rb               rebuildState                              // a list rebuild in parts (rebuildParts)
	finishJob        func(worker, lo, hi int)
	chunkK, chunkG   [nChunks]float64
	sidx             []int32      // sphere of body i, −1 for walls
	specR            []float64    // radius of each species (a species has one: specKey); rOf(k) is sphere k's
	rad              []float64    // broad-phase radius r + ḡ/2
	spec             []int32      // species of sphere k (equal mass properties and material)
	rep              []*body.Body // a body of each species
	gmax             float64      // ḡ of the world (MaxGap)
	laws             []law.Smooth // the distinct smooth laws in use
	lawOf            []int32      // law of a material pair [ma·nmat + mb]
	nmat             int          // len(w.Materials) of the tables
	hooke            bool         // sphere pairs: one Hookean law without friction or rolling resistance (List.Hooke)
	moms             bool         // some law produces moments (friction or rolling resistance)
	tr               sphere.Flat  // trial state, then the last accepted one
	xFresh           bool         // tr.X holds the centres of tr.L (Drift wrote both; Evaluate uses it up)

	// Sphere pairs: the list (lists[cur]) and its rebuild buffer.
	lists    [2]sphere.List
	cur      int
	pairCls  []sphere.PairClass // the classes of species pairs [sa·nspec + sb]; nil: one per pair (many species)
	listed   bool               // Verlet.Update has run with the current radii
	restored restoredOrder      // a restart's spatial order, applied when the path takes the history (importOrder)
	skin     float64            // the skin of that run
	csr      sphere.CSR
	csrStale bool    // csr does not describe lists[cur] yet (built by the first split evaluation)
	owl      []int32 // pairs that joined at the last rebuild (night-owl candidates)
	fresh    []int32 // pairs whose spring bound has not been taken yet (StableDt)
	isFresh  []bool  // per pair: listed in fresh
	freshBuf []bool
	chunk    [nChunks + 1]int // pair ranges
	// The parts of an evaluation split by spheres (evalParts): part q owns
	// the spheres parts[q]…parts[q+1]−1, whose rows (the pairs of which
	// they are the lower sphere) are the pairs partAt[q]…partAt[q+1]−1
	// and start in chunk q; the pairs whose higher sphere is part q's and
	// lower an earlier part's are listed by rebuild range in
	// rb.part[·].cross[q]. partsOK: these describe lists[cur] (a list
	// rebuilt by rebuildParts; else the split evaluation gathers by CSR).
	parts   [nChunks + 1]int32
	partAt  [nChunks + 1]int
	partsOK bool
	carry   map[pairKey]int32 // periodic rebuilds: old pair of a key
	seenKey map[pairKey]bool

	// Walls: one plane per wall, candidate slots sphere by sphere.
	planes    []plane
	slots     []wallSlot // built in place (spheres_slots_inplace.go)
	slotKeys  []slotKey  // buildSlots' first pass (the renumbering's scratch)
	hists     []slotHist // the friction side of the slots that have one (wallSlot.hist), two entries a slot
	histsOld  []slotHist // buildSlots' spare
	slotWalls []slotWall // buildSlots' enabled walls
	seen      []uint8    // bit wi&7 of [(wi>>3)·n + k]: the pair has been a candidate (generic: has an entry); spheres_seen.go
	wallOn    []bool     // enabled flags the slots were built for
	wallStale bool       // a wall was switched: rebuild the slots
	wallForce []geom.Vec3

	// Step-size classes (StableDt).
	dt dtTables

	// Results of the last evaluation.
	contacts int
	epot     float64
	chunkN   [nChunks]int
	// A split evaluation's test of the forces, by part: every term
	// F.X+…+T.Z of its spheres finite, and the largest in magnitude
	// (Evaluate's forcesBad).
	chunkFin [nChunks]bool
	chunkMom [nChunks]bool // the chunk's walls added a moment (T not +0)
	chunkBig [nChunks]float64
	// A split evaluation by parts: each part's touching wall slots
	// (ascending), for sumSlots.
	touchSlots [nChunks][]int32
	// Accept's pass over the wall slots (acceptSlots, by sphere range):
	// the smallest spring bound of the Hookean candidate slots and whether
	// a candidate slot has another law, by chunk and in all (StableDt,
	// which runs only after an Accept has set them).
	chunkSpring [nChunks]float64
	chunkOther  [nChunks]bool
	slotSpring  float64
	slotOther   bool
	chunkE      [nChunks]float64
	// Accepted-state figures for StableDt.
	travel float64
	vmax2  []SphereMax // largest |v|² and |F|² of a species' spheres that do not turn, without a moment

	choice splitChoice
	round  splitRound // the step's one choice: Drift, the evaluation, Accept
	// evalPairs, evalSpheres and evalParts as values (made once: no
	// allocation per step)
	splitPairs, splitSpheres, splitParts func(worker, lo, hi int)
	dtEval                               float64   // dt of the evaluation in progress (evalPairs, evalSpheres)
	drift                                driftTest // the last Drift's list test
}

// sphereSpec is what the world's part of Drift and Accept needs of the
// spheres of a species.
type sphereSpec struct {
	mass float64
	r    float64 // radius (the bodies' R)
}

// spheresKey is what the tables depend on besides the bodies' own fields.
type spheresKey struct {
	lawGen    uint64
	bodies    int
	walls     int
	periodic  Periodic
	materials int
	safety    float64
	gravity   geom.Vec3
}

// plane is a planar wall as the sphere path sees it.
type plane struct {
	bi    int32 // body index
	body  *body.Body
	P, N  geom.Vec3
	box   contact.AABB   // the wall's box inflated by ḡ + skin: the candidate test of stageDetect
	edges [][2]geom.Vec3 // the boundary of its surface (edges of one triangle only)
	still bool           // V = ω = 0 (the wall does not move its contact points)
}

// wallSlot is a sphere–wall pair that can become a candidate before the next
// list rebuild: the sphere's box inflated by the rebuild margin meets the
// wall's candidate box. What only a law with friction or rolling resistance
// produces (F_t, the moment, the friction history) is in Spheres.hists, for
// the slots of worlds where some law has either (Spheres.moms): the slots
// of a frictionless world (a box of spheres) carry 112 bytes, not 280.
type wallSlot struct {
	k, wall int32
	law     int32
	cls     int32 // step-size class
	spec    int32 // the sphere's species (its radius: specR[spec]; in the padding: 112 B as before)
	// The slot's two entries of Spheres.hists, 2j and 2j+1: hist and pHist
	// are each one of them (equal after an Accept), or both noHist (no
	// law of the world has friction or rolling resistance: F_t = M = +0
	// and the history stays zero, sphere.EvalSmooth).
	// hist: this evaluation's F_t, moment and friction history (the last
	// evaluation that wrote them); pHist: the accepted step's. An
	// evaluation writes the entry that is not pHist's; Accept makes hist the
	// accepted one (pHist = hist: no copy).
	hist, pHist int32
	swap        bool // the wall's body index is below the sphere's: generic contacts are stated from the wall (A)
	deep        bool // the centre's foot lies inside the wall, farther than the margin from its rim
	seen        bool // the pair has been a candidate (copy of Spheres.seen)
	simple      bool // the law is Hookean without friction and rolling resistance (List.Hooke's)
	limit       bool // a simple law's limit_damping: F_n clamped at ≥ 0

	// This evaluation.
	cand, touch, rim, owl bool

	// The last accepted evaluation (history).
	pTouch, pRim bool
	pNew         bool // the accepted facet contact had no predecessor

	kn   float64
	damp float64 // m γ_n of a simple law

	// This evaluation.
	fn, delta, epot float64
	f               geom.Vec3 // force on the sphere

	e *pairEntry // generic pair for contacts with the wall's rim (sq.Surface); nil until needed
}

// noHist marks a wall slot without entries in Spheres.hists.
const noHist = -1

// slotHist is what an evaluation of a wall slot whose law has friction or
// rolling resistance adds: F_t and the moment in the generic orientation, and
// the friction history (S0 §2.4.9).
type slotHist struct {
	ft, m geom.Vec3
	h     law.FrictionState
}

// histOf returns the friction history of entry i of s.hists (zero for noHist).
func (s *Spheres) histOf(i int32) law.FrictionState {
	if i < 0 {
		return law.FrictionState{}
	}
	return s.hists[i].h
}

// Spheres returns the sphere path of w when w qualifies — every movable body
// a sphere, every wall planar, no loads and no bonds — holding the contact
// history from now on; nil otherwise (the generic stages hold it).
func (w *World) Spheres() *Spheres {
	if w.sph == nil {
		w.sph = &Spheres{w: w}
	}
	s := w.sph
	if s.key != w.spheresKey() && s.rekeyOK() {
		s.rekey() // the bodies as they were: in place (spheres_rekey.go)
	} else if s.key != w.spheresKey() {
		if s.virt && !w.blockCentres() {
			w.materialize() // the state is this path's: the records first (a rare rebuild)
		}
		s.syncBodies() // build reads the bodies
		if s.owns {
			s.export()
		}
		s.build()
	}
	if !s.ok || len(w.Loads) > 0 || len(w.Bonds) > 0 || w.Settings.NoSpherePath {
		w.materialize() // the generic stages read and write records
		s.syncBodies()  // the generic stages read the bodies
		if s.owns {
			s.export()
		}
		return nil
	}
	if !s.owns {
		s.importGeneric()
	} else if s.taken && s.valid {
		s.releaseGeneric()
	}
	s.checkWalls()
	return s
}

// leaveSpheres gives the contact history back to the generic stages.
// A world's sphere blocks stay virtual: the history needs no record, and a
// generic stage that reads them makes them (Bodies: materialize).
func (w *World) leaveSpheres() {
	if w.sph != nil {
		w.sph.syncBodies()
	}
	if w.sph != nil && w.sph.owns {
		w.sph.export()
	}
}

func (w *World) spheresKey() spheresKey {
	return spheresKey{lawGen: w.lawGen, bodies: w.NumBodies(), walls: len(w.Walls), periodic: w.Periodic,
		materials: len(w.Materials), safety: w.Settings.Safety, gravity: w.Gravity}
}

// build checks whether the world qualifies and derives the tables.
func (s *Spheres) build() {
	w := s.w
	s.centresFromAcc() // before sidx and acc change (sphere_block_acc.go)
	s.key = w.spheresKey()
	s.ok, s.valid, s.ordered, s.partsOK = false, false, false, false
	s.virt, s.vTurn = false, false
	if w.DefaultParams() == nil {
		return
	}
	virt := s.virtualOK()
	nb := w.NumBodies()
	if virt {
		s.body = nil
		if cap(s.idx) < nb {
			s.idx = make([]int32, 0, nb)
		}
	} else if cap(s.body) < nb { // at most one sphere a body: no append growth
		s.body, s.idx = make([]*body.Body, 0, nb), make([]int32, 0, nb)
	}
	s.body, s.idx = s.body[:0], s.idx[:0]
	s.sidx = sized(s.sidx, nb)
	for i := range nb {
		b := w.BodyRec(i) // a block sphere's template: the static fields are its
		s.sidx[i] = -1
		if b.Wall >= 0 {
			if !b.Fixed || !w.Walls[b.Wall].Planar {
				return
			}
			continue
		}
		if b.Kind != body.Sphere || b.Fixed || !(b.Mass() > 0) {
			return
		}
		s.sidx[i] = int32(len(s.idx))
		if !virt {
			s.body = append(s.body, b)
		}
		s.idx = append(s.idx, int32(i))
	}
	n := len(s.idx)
	if n == 0 {
		return
	}
	s.gmax = w.MaxGap()
	if w.skin == 0 {
		w.skin = w.sphereSkin(s.gmax)
	}

	// Laws by material pair; every pair in use needs the smooth set.
	s.nmat = len(w.Materials)
	s.lawOf = resize(s.lawOf, s.nmat*s.nmat)
	s.laws = s.laws[:0]
	ptrs := map[*ContactParams]int32{}
	used := make([]bool, s.nmat)
	for i := range nb {
		used[w.BodyRec(i).Material] = true
	}
	for ma := range s.nmat {
		for mb := range s.nmat {
			s.lawOf[ma*s.nmat+mb] = -1
			if !used[ma] || !used[mb] {
				continue
			}
			p := w.Params(ma, mb)
			if !p.HasSmooth {
				continue // only a wall–wall pair can get here; Check refuses the rest
			}
			li, ok := ptrs[p]
			if !ok {
				li = int32(len(s.laws))
				ptrs[p] = li
				s.laws = append(s.laws, p.Smooth)
			}
			s.lawOf[ma*s.nmat+mb] = li
		}
	}
	// Every pair of a sphere's material with a body's needs a law, and the
	// laws of sphere pairs decide the kernel: by material, not body pair
	// (O(materials²), not O(N²)).
	sphereMat := make([]bool, s.nmat)
	for _, i := range s.idx {
		sphereMat[w.BodyRec(int(i)).Material] = true
	}
	sphereLaws := map[int32]bool{}
	for ma := range s.nmat {
		if !sphereMat[ma] {
			continue
		}
		for mb := range s.nmat {
			if !used[mb] {
				continue
			}
			li := s.lawOf[ma*s.nmat+mb]
			if li < 0 {
				return
			}
			if sphereMat[mb] {
				sphereLaws[li] = true
			}
		}
	}
	s.hooke = false
	if len(sphereLaws) == 1 {
		for li := range sphereLaws {
			s.hooke = simple(&s.laws[li])
		}
	}
	s.moms = false
	for i := range s.laws {
		if s.laws[i].Mu > 0 || s.laws[i].MuRoll > 0 {
			s.moms = true
		}
	}

	// Per sphere: the broad phase's radius and the species (the radius,
	// material, mass, 1/m, 1/I and weight are the species': specR,
	// specMat, s.specs, s.kin).
	s.rad, s.spec = sized(s.rad, n), sized(s.spec, n)
	s.rep = s.rep[:0]
	type specKey struct {
		r, m, im float64
		ii       [3]float64
		ib       geom.Mat3 // finish reads a species' IBody
		mat      int
	}
	specs := map[specKey]int32{}
	var last *body.Body // the previous sphere, of species lastID
	var lastID int32
	for k, i := range s.idx {
		b := w.BodyRec(int(i))
		s.rad[k] = b.Radius() + s.gmax/2
		// A generator's spheres share their record, so the species is
		// mostly the previous sphere's: the same record, R and material
		// give the same key (no hash of a Mat3 a sphere).
		if last != nil && b.SameRecord(last) && b.R == last.R && b.Material == last.Material {
			s.spec[k] = lastID
			continue
		}
		key := specKey{b.R, b.Mass(), b.InvMass(), [3]float64{b.IBodyInv()[0][0], b.IBodyInv()[1][1], b.IBodyInv()[2][2]}, b.IBody(), b.Material}
		id, ok := specs[key]
		if !ok {
			id = int32(len(s.rep))
			specs[key] = id
			s.rep = append(s.rep, b)
		}
		s.spec[k], last, lastID = id, b, id
	}
	s.kin, s.specs = resize(s.kin, len(s.rep)), resize(s.specs, len(s.rep))
	s.specMat, s.specR = resize(s.specMat, len(s.rep)), resize(s.specR, len(s.rep))
	for id, b := range s.rep { // a species' figures are each of its spheres' (specKey)
		s.specMat[id], s.specR[id] = int32(b.Material), b.R
		s.kin[id] = SphereKin{InvM: b.InvMass(), InvI: b.IBodyInv()[0][0], Weight: w.Gravity.Scale(b.Mass())}
		s.specs[id] = sphereSpec{mass: b.Mass(), r: b.R}
	}
	// No rotational array from the start while no sphere turns under laws
	// without moments (spheres_rotnone.go: rotNone, q the bodies' Q).
	s.rotNone = s.hooke && !s.moms && s.bodiesStill(false)
	s.qBody = s.rotNone // else TrialFromBodies or a Drift that reads the bodies sets it
	s.accFresh, s.stale, s.trAcc = false, false, false
	s.rotStill, s.rotSkip, s.rotFound, s.tClear, s.tZero = false, false, false, false, false
	if s.rotNone {
		s.acc.ResizeLin(n)
		s.tr.ResizeLin(n)
	} else {
		if s.acc.R == nil || s.tr.R == nil {
			s.acc.R, s.tr.R = nil, nil // Resize makes them anew
		}
		s.acc.Resize(n)
		s.tr.Resize(n)
	}
	s.listed = false
	s.vmax2 = resize(s.vmax2, len(s.rep))

	// Pair classes: a table of species pairs, or one class per pair when
	// the species are too many for a table (polydisperse sets).
	s.pairCls = nil
	s.lists[0].Class, s.lists[1].Class = nil, nil
	if ns := len(s.rep); ns <= maxClassSpecies {
		s.pairCls = make([]sphere.PairClass, ns*ns)
		for sa, a := range s.rep {
			for sb, b := range s.rep {
				li := s.lawOf[a.Material*s.nmat+b.Material]
				s.pairCls[sa*ns+sb] = sphere.NewPairClass(a.R, b.R, a.Mass(), b.Mass(), s.laws[li].GammaN)
			}
		}
		s.lists[0].Class, s.lists[1].Class = s.pairCls, s.pairCls
	}

	// Walls.
	s.planes = s.planes[:0]
	for wi := range w.Walls {
		wl := &w.Walls[wi]
		b := w.BodyRec(wl.Body) // a wall: its record
		var ps contact.Posed
		ps.Update(b.Poly(), b.X, b.Q, b.Fixed)
		s.planes = append(s.planes, plane{
			bi: int32(wl.Body), body: b, P: wl.P, N: wl.N,
			box: ps.Box.Inflate(s.gmax + w.skin), edges: rimOf(b),
		})
	}
	s.wallForce = resize(s.wallForce, len(w.Walls))
	s.seen = sized(s.seen, seenCols(len(w.Walls))*n)
	clear(s.seen)
	s.wallOn = resize(s.wallOn, len(w.Walls))
	s.dt.build(s)
	s.ok = true
	s.virt = virt
	s.vTurn = virt && !s.rotNone
	s.centresToAcc() // sphere_block_acc.go
}

// virtualOK reports whether the spheres may stay a world's sphere blocks
// (virt): the world has blocks whose centres are still the truth and every
// movable body is a block's sphere. Otherwise it makes the records
// (materialize).
func (s *Spheres) virtualOK() bool {
	w := s.w
	if len(w.blocks) == 0 {
		return false
	}
	ok := w.blockCentres() || s.virtKeep // virtKeep: the state is the path's (rekey)
	for _, b := range w.bodies {
		if !ok {
			break
		}
		ok = b.Wall >= 0 // w.bodies holds the records only: any other than a wall's
	}
	if !ok {
		w.materialize()
	}
	return ok
}

// maxClassSpecies is the largest number of species whose pair classes are
// tabulated (maxClassSpecies² classes); beyond, each pair has its own
// (a variable for the tests).
var maxClassSpecies = 64

// simple reports whether p is a Hookean law without friction and rolling
// resistance: a central force that depends on the overlap and the normal
// speed only.
func simple(p *law.Smooth) bool {
	return p.Model == law.HookeLAMMPS && p.Mu == 0 && p.MuRoll == 0
}

// rimOf returns the boundary edges of a wall surface in world coordinates:
// the edges that belong to one triangle only.
func rimOf(b *body.Body) [][2]geom.Vec3 {
	type ek struct{ a, b int32 }
	count := map[ek]int{}
	for _, f := range b.Poly().Faces {
		for i := range 3 {
			a, c := f.V[i], f.V[(i+1)%3]
			count[ek{min(a, c), max(a, c)}]++
		}
	}
	var out [][2]geom.Vec3
	for _, f := range b.Poly().Faces {
		for i := range 3 {
			a, c := f.V[i], f.V[(i+1)%3]
			if count[ek{min(a, c), max(a, c)}] == 1 {
				out = append(out, [2]geom.Vec3{b.ToWorld(b.Poly().Verts[a]), b.ToWorld(b.Poly().Verts[c])})
			}
		}
	}
	return out
}

// checkWalls notes wall switches and moving walls since the last step.
func (s *Spheres) checkWalls() {
	for i := range s.planes {
		pl := &s.planes[i]
		pl.still = pl.body.V == (geom.Vec3{}) && pl.body.W == (geom.Vec3{})
		if s.wallOn[i] != s.w.Walls[i].Enabled {
			s.wallStale = true
		}
	}
}

// Bodies returns the bodies of the spheres: sphere k is Bodies()[k]. A
// world's sphere blocks are materialized first (World.Bodies).
func (s *Spheres) Bodies() []*body.Body {
	s.w.materialize()
	return s.body
}

// Trial returns the flat state the integrator fills with its trial state
// before Evaluate; after Accept it holds the accepted state.
func (s *Spheres) Trial() *sphere.Flat { return &s.tr }

// hasFacet reports whether cs holds the facet contact of a sphere–plane
// pair (key 0, 0).
func hasFacet(cs []contact.Contact) bool {
	for i := range cs {
		if cs[i].FA == 0 && cs[i].FB == 0 {
			return true
		}
	}
	return false
}

// resize returns s with length n, reallocated only when its capacity is short
// (with a quarter more room: for arrays whose length changes, e.g. by pair).
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}

// spare returns s, or nil when it holds far more room than it uses: the
// first list makes every pair fresh (a bound to take) and every part's
// lists that long, the later rebuilds a few (4 bytes a pair, 14 MB at 10⁶
// spheres, for each of s.fresh and the parts' lists).
func spare[T any](s []T) []T {
	if c := cap(s); c > 1<<16 && c > 4*len(s) {
		return nil
	}
	return s
}

// sized returns s with length n, reallocated to exactly n when its capacity
// is short: for arrays of one entry a sphere, whose length is known (no
// growth slack: 152 bytes a sphere for the states, ~40 more for the rest).
func sized[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
