package world

import (
	"math"

	"grainlab/sim/broad"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/sphere"
)

// The per-sphere passes of an explicit step on the sphere path. The generic
// stages walk the bodies once per stage; here each pass does, for one block
// of spheres, the work of several stages, so that a step walks the sphere
// array three times (Drift, Evaluate, Accept) instead of six:
//
//   - Drift: the integrator's first half kick and drift (KickDrift, package
//     integrate), with, in the same loop over a block (SphereDrift), the
//     force accumulators set to the weight (stageAccumulate's start), the
//     kernels' centres and the displacements of the Verlet test
//     (updateList, ListDisplaced; with lazy bodies not read while a bound
//     on the displacements proves the list kept: dispBound);
//   - Accept: the integrator's second half kick (Kick), then the state
//     written to the bodies and the statistics of the accepted state
//     (energies, travel bound).
//
// The kinematics are the integrator's; the world hands it the spheres in
// blocks of passBlock, in sphere order (body order unless the spheres are
// in spatial order: spheres_order.go), and does its own part of each block
// while the block is in cache. Drift reads the accepted state from a flat
// array in pass order (acc) and writes the trial state (tr), so a rejected
// trial needs no roll-back: the next Drift starts from acc again. Accept
// leaves the accepted state where the step computed it, in tr; with lazy
// bodies the next Drift swaps the two arrays (trAcc) instead of Accept
// copying 152 bytes a sphere into acc. The states are split by field
// (sphere.States: x, v, F apart from ω, T, q), so the translational
// stream that every pass and kernel reads is 72 bytes a sphere; while no
// sphere turns or carries a moment (every ω and T +0 to the bit, lazy
// bodies: rotStill), Drift and Accept leave the rotational stream (80 bytes
// a sphere) alone — the rotational skip, the same bits. By default Accept writes the accepted state to the bodies and the next Drift
// reads it back from them, so whatever changes a body between steps is seen
// by the next one. With lazy bodies (SetLazyBodies: a caller that reads
// nothing but the world's time and statistics between steps) acc is the
// state of record and the bodies are written only by SyncBodies: a step then
// touches no body.Body at all (≈ 450 B each, spread over the heap).

// SphereKin is a species of spheres (equal mass properties and material)
// as the integrator's kinematic passes see it: the inverse mass and
// (isotropic) inverse moment of inertia of each of its spheres, and its
// weight m·g, the force a trial step starts from (stageAccumulate's start).
// The passes get a table of them by species and each sphere's species
// beside its trial and accepted states (a sphere's own figures would be two
// more streams of 16 bytes a sphere).
type SphereKin struct {
	InvM, InvI float64
	Weight     geom.Vec3
}

// SphereDrift is one block of spheres of a sphere Drift as the
// integrator's KickDrift gets it: the one pass a step makes over the
// spheres before the evaluation, so that each sphere's state is read once.
// The integrator fills the trial states Tr from the accepted states Acc
// (Acc with the forces of the accepted step) over the step Dt, sphere i of
// species Spec[i] with the figures Kin[Spec[i]], and in the same loop does
// the world's part: each trial force set to the species' Weight and each
// trial moment to +0, each trial centre copied to X (the kernels' centres,
// sphere.Flat.X) and, when Ref is not nil, put to the Verlet list's
// displacement test against Ref[i] (ListDisplaced, which updates D1, D2
// and Finite). Under the rotational skip Acc.R and Tr.R are nil: the
// kinematics then leave R alone.
type SphereDrift struct {
	Kin     []SphereKin
	Spec    []int32
	Acc, Tr sphere.States
	X       []geom.Vec3 // the kernels' centres of the block
	Ref     []geom.Vec3 // the list's reference positions of the block (nil: no test)
	Dt      float64
	N       int     // the spheres of the whole system (not the block's): what the integrator's choice of stores goes by
	D1, D2  float64 // the two largest squared displacements so far
	Finite  bool    // every displacement so far finite
}

// KickDrift is the integrator's first pass over a block of spheres of a
// sphere step (velocity Verlet's half kick and drift: integrate's
// sphereKickDrift), with the world's part of the pass (SphereDrift).
type KickDrift func(d *SphereDrift)

// ListDisplaced is the Verlet list's displacement test of one sphere at x
// with reference position p (Verlet.Update's): given the two largest
// squared displacements d1 ≥ d2 so far and whether all were finite, it
// returns them with this sphere's. Small enough to be inlined in the
// integrator's KickDrift loop.
func ListDisplaced(x, p geom.Vec3, d1, d2 float64, finite bool) (float64, float64, bool) {
	dx, dy, dz := x.X-p.X, x.Y-p.Y, x.Z-p.Z
	d := dx*dx + dy*dy + dz*dz
	if !(d <= math.MaxFloat64) {
		finite = false
	}
	if d > d2 {
		if d > d1 {
			d1, d2 = d, d1
		} else {
			d2 = d
		}
	}
	return d1, d2, finite
}

// SphereAccept is one block of spheres of a sphere Accept as the
// integrator's Kick gets it: the half kick of H of the trial states Tr with
// their forces, sphere i of species Spec[i] with the figures
// Kin[Spec[i]] (velocity Verlet's second half kick: integrate's
// sphereKick). Under the rotational skip Tr.R is nil: only the velocities
// are kicked, and in the same loop the integrator does the world's part of
// the pass: each kicked sphere put to AcceptSphere (its energies, summed
// in sphere order into Ekin and Egrav) and SphereMax.Keep (its species'
// maxima, Max) with the mass and maxima of its species, which Species
// switches when the species changes. Otherwise the world does its part
// after the kick. Only the world makes a SphereAccept (Spheres.Accept's
// ranges, finishRange) and hands it to the Kick it was given: the species'
// masses and maxima that Species switches are the world's (unexported), so
// a SphereAccept made elsewhere cannot switch species (Species panics).
// It is exported, with Kick, for package integrate's kinematics alone.
type SphereAccept struct {
	Kin  []SphereKin
	Spec []int32
	Tr   sphere.States
	H    float64
	// The world's part under the rotational skip, carried from block to block.
	G           geom.Vec3 // gravity
	Ekin, Egrav float64   // the energies so far (sphere order)
	Cur         int32     // the species of the sphere before (−1: none)
	Mass        float64   // its mass
	Max         SphereMax // its maxima so far
	// FSum is the sum in sphere order of the kicked spheres' F.X + F.Y +
	// F.Z (each term (F.X + F.Y) + F.Z, added to FSum), carried from block
	// to block: forcesBad's sum under the rotational skip, for Accept's
	// test after EvaluateKick (not finite: the step is rejected).
	FSum float64
	// NoEnergy: the world sums the energies itself when they are read
	// (lazy energies: World.SetLazyEnergies), so the kick may leave Ekin
	// and Egrav as they are (it still keeps Max and FSum).
	NoEnergy bool
	specs    []sphereSpec
	vmax2    []SphereMax // the species' maxima (Cur's in Max)
}

// Kick is the integrator's half kick of a block of spheres of a sphere
// Accept, with the world's part under the rotational skip (SphereAccept).
type Kick func(a *SphereAccept)

// SphereMax is what Accept keeps of a species for the step bound: the
// largest squared speed V2 of its spheres that do not turn and the largest
// squared force F2 of those without a moment.
type SphereMax struct{ V2, F2 float64 }

// Species makes sp the species of the next spheres of a SphereAccept: mx,
// the maxima of the species before (Cur), is written back, and it returns
// sp's mass and its maxima so far.
func (a *SphereAccept) Species(sp int32, mx SphereMax) (float64, SphereMax) {
	if a.Cur >= 0 {
		a.vmax2[a.Cur] = mx
	}
	a.Cur = sp
	return a.specs[sp].mass, a.vmax2[sp]
}

// AcceptSphere is Accept's part for one kicked sphere st of mass m that
// neither turns nor carries a moment (the rotational skip): its kinetic
// energy ½ m |v|² added to ekin (KineticEnergy) and its gravitational
// energy −m g·x to egrav; it returns them and |v|² (for SphereMax.Keep).
// Small enough to be inlined in the integrator's Kick loop. The same
// rounded operations as finishRange's loop (norm2, sphereKE, spherePE), so
// that the rotational skip (lazy bodies) and the full pass (eager bodies)
// give the same bits on FMA builds too.
func AcceptSphere(st *sphere.Lin, m float64, g geom.Vec3, ekin, egrav float64) (float64, float64, float64) {
	v := &st.V
	v2 := float64(v.X*v.X) + float64(v.Y*v.Y) + float64(v.Z*v.Z) // norm2, written out: no inline mark in the loop
	return ekin + sphereKE(m, v2), egrav - spherePE(m, g, st.X), v2
}

// The sums of Accept's energies and maxima, written out with each product
// rounded (float64(x·y) forbids fusing it into a multiply-add: Go spec,
// "Floating-point operators"). FMA builds (GOAMD64=v3, arm64) fuse a
// product wherever it meets an add, and inlining decides where: the
// integrator's Kick loop under the rotational skip (AcceptSphere) and
// finishRange's loop would otherwise round the same sphere's terms
// differently, and lazy and eager bodies give other bits (review r1,
// session 15; docs/ARCHITECTURE.md, "Determinism and fused multiply-adds").
// On amd64 v1 nothing fuses and the conversions change no bit.

// norm2 is |v|² = v.X² + v.Y² + v.Z² (geom.Vec3.Norm2) with each square
// rounded.
func norm2(v geom.Vec3) float64 {
	return float64(v.X*v.X) + float64(v.Y*v.Y) + float64(v.Z*v.Z)
}

// sphereKE is a sphere's translational kinetic energy ½ m |v|² of mass m
// and squared speed v2 (KineticEnergy), rounded: never fused with the sum it
// is added to.
func sphereKE(m, v2 float64) float64 { return float64(0.5 * m * v2) }

// spherePE is m g·x, the opposite of the gravitational energy of a sphere
// of mass m at x (PotentialGravity), each product rounded: never fused with
// the sum it is subtracted from.
func spherePE(m float64, g, x geom.Vec3) float64 {
	return float64(m * (float64(g.X*x.X) + float64(g.Y*x.Y) + float64(g.Z*x.Z)))
}

// Keep returns the maxima mx with those of a sphere that neither turns nor
// carries a moment, of squared speed v2 and force f (smoothTravelDt,
// travelAcc: |v| + |ω|r = |v|, |F|/m + |T|R/I = |F|/m; a NaN is skipped).
func (mx SphereMax) Keep(v2 float64, f *geom.Vec3) SphereMax {
	if v2 > mx.V2 {
		mx.V2 = v2
	}
	if f2 := norm2(*f); f2 > mx.F2 {
		mx.F2 = f2
	}
	return mx
}

// passBlock is the number of spheres the kinematics get at once in a pass:
// a block's states (152 bytes each in two arrays, 38 KiB) stay in cache for the world's
// part of the pass. (64 measured 4% more CPU per particle-step at 20 000
// spheres than the fused loop of before; 256 none: BenchmarkStepSpheresN.)
const passBlock = 256

// driftParts is the number of ranges of a split Drift pass. Its results are
// the two largest displacements and two flags, the same for any ranges, so
// its parts need not be the chunks of the sums (nChunks): finer parts let
// the caller and a helper that comes late to the pass (woken from its park
// after the serial end of the step) finish within a smaller part of each
// other. With nChunks (8) the helper ran 40% of Drift's parts on the
// 10⁵-sphere box (docs/performance.md, "Session 19: two workers").
const driftParts = 4 * nChunks

// Drift fills the trial state from the bodies' accepted state with the
// integrator's kickDrift over dt. It sets every trial force to the sphere's
// weight and moment to zero, and records the two largest squared
// displacements from the Verlet list's reference positions for Evaluate's
// list test. Large systems with several workers drift in driftParts ranges
// of the spheres, claimed one at a time by the workers.
func (s *Spheres) Drift(dt float64, kickDrift KickDrift) {
	w := s.w
	ref := w.verlet.Ref()
	test := !w.Periodic.On() && s.listed && len(ref) == len(s.tr.L) && w.skin == s.skin
	s.dtDrift, s.testDrift, s.kickDrift = dt, test, kickDrift
	s.beginRound()
	s.driftRef = nil
	if test {
		// The Verlet list's reference positions, in sphere order (the
		// centres it was given): read in place, no copy a sphere.
		s.driftRef = ref
	}
	rejected := !s.trAcc
	// The moving frame's bound (relStep) follows only a chain of accepted
	// steps with lazy bodies, nothing turning, acc fresh.
	chain := s.trAcc && s.rotStill && s.accFresh && s.lazy
	if s.trAcc {
		// The accepted state is tr's (Accept with lazy bodies): acc takes it
		// and tr the buffer of the state before, which the trial overwrites.
		s.tr.States, s.acc = s.acc, s.tr.States
		s.trAcc = false
	}
	// The bound on the displacements (dispBound): when it proves the
	// list test's answer (keep), the pass does not read the reference.
	builds := w.verlet.Builds()
	bound, skipTest := 0.0, false
	if test && s.rotStill && s.accFresh && s.lazy {
		bound, skipTest = s.disp.step(s, dt, ref, builds)
	}
	if skipTest {
		s.driftRef, s.testDrift = nil, false
		s.disp.skips++
	}
	n := len(s.idx)
	var d1, d2 float64
	finite := true
	// The rotational skip: while rotStill, both arrays' R already hold what
	// the kinematics and the moments' clearing would write (ω + h·T/I =
	// +0 + h·(+0) = +0, q unturned, T = +0), so the pass leaves R alone;
	// not when acc is read from the bodies (they may have been changed).
	// Otherwise, with lazy bodies, the pass looks whether acc's ω and T are
	// all +0 (rotFound: the trial R is then the same, and Accept may set
	// rotStill).
	s.rotSkip = s.rotStill && s.accFresh && s.lazy
	s.rotStill = false
	readBodies := !s.accFresh
	// Without the rotational array (rotNone), a Drift that reads lazy
	// bodies whose ω and T are all +0 reads their q as the array would
	// hold it: the array stays absent (spheres_rotnone.go).
	noneRead := s.rotNone && !s.rotSkip && readBodies && s.lazy && !s.moms && s.bodiesStill(true)
	if s.rotNone && (!s.rotSkip && !noneRead || s.moms) {
		s.rotMake() // the pass writes R: the shared array again (spheres_rotnone.go)
	}
	if s.rotShared() && (!s.rotSkip || s.moms) {
		s.rotSplit(rejected && s.accFresh, s.rotSkip)
	}
	found := s.lazy && !s.rotSkip
	if s.rotSkip {
		s.rotSkips++
	}
	if s.passes() {
		if s.driftJob == nil {
			s.driftJob = func(k, clo, chi int) {
				r := &s.part[k]
				for c := clo; c < chi; c++ {
					lo, hi := c*len(s.idx)/driftParts, (c+1)*len(s.idx)/driftParts
					e1, e2, fin, fd := s.driftRange(lo, hi, r.found)
					r.d1, r.d2 = broad.KeepTwoLargest(r.d1, r.d2, e1)
					r.d1, r.d2 = broad.KeepTwoLargest(r.d1, r.d2, e2)
					r.finite = r.finite && fin
					r.found = fd
				}
			}
		}
		s.passParts()
		for k := range s.part {
			r := &s.part[k]
			r.d1, r.d2, r.finite, r.found = 0, 0, true, found
		}
		s.forkNear(driftParts, s.driftJob)
		// The two largest of the workers' two largest: those of all the
		// spheres, whichever ranges each worker ran (and driftRange(0, n)'s).
		for k := range s.part {
			r := &s.part[k]
			d1, d2 = broad.KeepTwoLargest(d1, d2, r.d1)
			d1, d2 = broad.KeepTwoLargest(d1, d2, r.d2)
			finite = finite && r.finite
			found = found && r.found
		}
	} else {
		d1, d2, finite, found = s.driftRange(0, n, found)
	}
	s.rotFound, s.tClear = found, true
	if !s.rotSkip {
		// q stays the bodies' while no sphere turns (spheres_rotnone.go).
		s.qBody = found && (s.qBody || readBodies)
	}
	s.accFresh = true // acc holds the accepted state (read from the bodies if it did not)
	s.xFresh = true   // tr.X holds the trial centres
	// Verlet.Update's test: no rebuild while the two largest displacements
	// since the build sum to at most the skin.
	// (The radii are those of the last Update; its other tests concern
	// bodies that are not finite, which send us to Update.)
	pair := math.Sqrt(d1) + math.Sqrt(d2)
	if skipTest {
		pair = 2 * bound // every displacement at most bound
	}
	keep := skipTest || test && finite && pair <= w.skin
	s.drift = driftTest{ran: true, keep: keep, pair: pair}
	s.relStep(chain, dt)
	s.disp.tried(skipTest, keep, bound, d1, builds)
	if !keep && s.eStale && s.wantReorder() {
		// The rebuild of this trial's Evaluate renumbers the spheres
		// (updateList), the accepted state with them: lazy energies are
		// summed first, in the order of the Accept that left them (acc is
		// that state; a fill after the renumbering, as on an error return
		// before the next Accept, would sum them in another order).
		s.fillEnergies()
	}
}

// SphereRotSkips returns the number of sphere-path Drifts that took the
// rotational skip (every ω and T +0, lazy bodies: spheres_step.go) since
// the world began; the tests and the bench notes read it.
func (w *World) SphereRotSkips() int64 {
	if w.sph == nil {
		return 0
	}
	return w.sph.rotSkips
}

// SphereRotArrays returns the number of rotational state arrays the
// sphere path holds: 0 while there is none (rotation still in a world
// without moments, each q its body's: rotNone), 1 while the accepted and
// trial states share one (the same, q not the bodies': rotShare), else 2
// (0 off the sphere path); the tests read it.
func (w *World) SphereRotArrays() int {
	switch s := w.sph; {
	case s == nil:
		return 0
	case s.rotNone:
		return 0
	case s.rotShared():
		return 1
	}
	return 2
}

// passes reports whether Drift, Accept and a list rebuild split their
// passes between the workers: when the step's round is split (splitRound:
// the evaluation is), on systems of at least passMin spheres (Accept's sums
// are then split in nChunks on one worker too).
func (s *Spheres) passes() bool {
	return s.round.split && s.w.Settings.Workers > 1 && len(s.idx) >= passMin
}

// passMin is the smallest system whose Drift and Accept passes are split
// (below it a pass lasts less than handing half of it to the other worker).
const passMin = 2048

// passParts sizes s.part to the crew's workers (the worker indices of s.fork).
func (s *Spheres) passParts() {
	if nw := max(s.w.Settings.Workers, 1); len(s.part) != nw {
		s.part = make([]passPart, nw)
	}
}

// passPart is one worker's results of a pass of Drift or Accept, over the
// ranges of spheres it claimed (driftParts or nChunks ranges, one a claim: a worker held
// up by another process leaves the rest of the pass to the others).
type passPart struct {
	d1, d2 float64
	finite bool
	found  bool // the worker's ranges found acc's ω and T all +0 (Drift)
	travel float64
	accR   float64 // largest |a|/R of the worker's spheres (finishRange)
	vmax2  []SphereMax
	_      [64]byte // keep the workers' parts on their own cache lines
}

// driftRange is Drift's pass over the spheres lo…hi−1 (sphere order),
// block by block: the integrator's KickDrift, which does the kinematics,
// the forces, the centres and the list test in one loop (SphereDrift).
// It returns the two largest squared displacements from the reference
// positions (when tested) and whether they are finite, and, given look,
// whether every accepted ω and T of the range is +0 (all bits zero;
// false without look: the looking stops at the first that is not).
// With the rotational skip (rotSkip) it leaves the rotational states alone.
func (s *Spheres) driftRange(lo, hi int, look bool) (d1, d2 float64, finite, found bool) {
	skip := s.rotSkip || s.rotNone // rotNone: ω and T +0 already (Drift's noneRead)
	found = look
	d := SphereDrift{Kin: s.kin, Dt: s.dtDrift, N: len(s.tr.L), Finite: true}
	for b0 := lo; b0 < hi; b0 += passBlock {
		b1 := min(b0+passBlock, hi)
		d.Tr, d.Spec, d.Acc, d.X = s.tr.Slice(b0, b1), s.spec[b0:b1], s.acc.Slice(b0, b1), s.tr.X[b0:b1]
		switch {
		case !s.accFresh && s.body == nil:
			s.readVirtual(d.Acc, b0, b1)
		case !s.accFresh && d.Acc.R == nil:
			al := d.Acc.L[:len(d.Spec)]
			for i, b := range s.body[b0:b1] { // the accepted state is the bodies' (ω = T = +0: rotNone)
				al[i] = sphere.Lin{X: b.X, V: b.V, F: b.F}
			}
		case !s.accFresh:
			al, ar := d.Acc.L[:len(d.Spec)], d.Acc.R[:len(d.Spec)]
			for i, b := range s.body[b0:b1] { // the accepted state is the bodies'
				al[i] = sphere.Lin{X: b.X, V: b.V, F: b.F}
				ar[i] = sphere.Rot{W: b.W, T: b.T, Q: b.Q}
			}
		}
		if s.testDrift {
			d.Ref = s.driftRef[b0:b1]
		}
		if skip {
			d.Acc.R, d.Tr.R = nil, nil
		} else if found {
			found = rotZero(d.Acc.R[:len(d.Spec)])
		}
		s.kickDrift(&d)
	}
	return d.D1, d.D2, d.Finite, found
}

// One rotational array while rotation is still. While rotStill, acc.R and
// tr.R hold the same values (ω = T = +0, the same q), so in a world whose
// laws make no moment (!moms) Accept drops one of them and both share the
// other (rotShare: 80 bytes a sphere less, 80 MB at 10⁶). The next Drift
// that writes the trial R (it does not skip: a sphere turns, acc is read
// from the bodies, a rebuild) or that runs in a world whose laws make
// moments (friction or rolling resistance edited on) makes tr its own
// array again (rotSplit). The sharing holds while only the rotational
// skip's passes run, which write no R; what else may write R while it is
// shared: the evaluation's moments (T: a wall slot's rounding on a
// frictionless law) and Accept's kick of ω that follows them — the
// accepted state then is that array (tr, trAcc), right for acc after the
// next Drift's swap; after a rejected trial the array is acc's with the
// trial's T added, and acc's ω and T were +0 (rotStill when it was
// shared), which rotSplit puts back.

// rotShared reports whether acc and tr share their rotational array.
func (s *Spheres) rotShared() bool {
	return len(s.acc.R) > 0 && len(s.tr.R) > 0 && &s.acc.R[0] == &s.tr.R[0]
}

// rotShare makes acc share tr's rotational array (rotStill: the two hold
// the same values), dropping acc's own.
func (s *Spheres) rotShare() {
	if !s.rotShared() && len(s.acc.R) == len(s.tr.R) {
		s.acc.R = s.tr.R
	}
}

// rotSplit gives tr a rotational array of its own again, filled with the
// shared one's values when keep (a skipping Drift leaves it as it is);
// after a rejected trial (rejected, acc fresh) it first puts acc's ω and
// T back to +0 (what they were when the array was shared: the trial's
// evaluation may have added its moments to T).
func (s *Spheres) rotSplit(rejected, keep bool) {
	ar := s.acc.R
	if rejected {
		s.rotReset()
	}
	s.tr.R = make([]sphere.Rot, len(ar))
	if keep {
		copy(s.tr.R, ar)
	}
}

// rotReset puts acc's ω and T back to +0 in the shared rotational array
// (what they were when it was shared; a thrown-away trial's evaluation may
// have added its moments to T).
func (s *Spheres) rotReset() {
	for i := range s.acc.R {
		s.acc.R[i].W, s.acc.R[i].T = geom.Vec3{}, geom.Vec3{}
	}
}

// rotZero reports whether every ω and T of rs is +0: all their bits zero
// (a −0 would kick to +0: ω + h·T/I is then not ω's bits).
func rotZero(rs []sphere.Rot) bool {
	for i := range rs {
		ro := &rs[i]
		if math.Float64bits(ro.W.X)|math.Float64bits(ro.W.Y)|math.Float64bits(ro.W.Z)|
			math.Float64bits(ro.T.X)|math.Float64bits(ro.T.Y)|math.Float64bits(ro.T.Z) != 0 {
			return false
		}
	}
	return true
}

// nonZeroBits reports whether a moment is not +0 (a bit of it set).
func nonZeroBits(t geom.Vec3) bool {
	return math.Float64bits(t.X)|math.Float64bits(t.Y)|math.Float64bits(t.Z) != 0
}

// driftTest is what the last Drift did for the next updateList.
type driftTest struct {
	ran  bool // the trial forces are the weights
	keep bool // the Verlet list stays valid for the trial state
	// pair bounds |x_I − ref_I| + |x_J − ref_J| of every pair when keep
	// (the inner list's D: spheres_inner.go)
	pair float64
}

// Accept makes the last evaluation the accepted step: it completes the
// trial state with the integrator's kick of h (velocity Verlet's second
// half kick, h = dt/2; 0 for the forces of a start) and writes it to the
// bodies; the contacts become
// the history of the next step, and the statistics (energies, contact
// counts) and wall forces are updated. After EvaluateKick it may find a
// force not finite (forcesBad's answer, from the kick's pass): it then
// commits nothing and returns false, and the step is to be rejected (the
// kicked trial velocities are overwritten by the next Drift); otherwise
// it returns true.
func (s *Spheres) Accept(h float64, kick Kick) bool {
	w := s.w
	// The kick's pass first: nothing is committed before its answer.
	ekin, egrav, travel, ok := s.finish(h, kick)
	eSkip := s.eSkip
	s.eSkip = false
	if !ok {
		// The rejected kick refilled vmax2 with the trial's maxima (NaN
		// forces skipped by Keep): the retry's Drift must not build a
		// displacement bound on them, so it runs the list test itself
		// (review r4; accepted() turns the bound on again).
		s.disp.accOK = false
		return false
	}
	s.disp.accepted(w.verlet.Builds())
	w.histStale = false
	l := &s.lists[s.cur]
	l.Touch, l.PrevTouch = l.PrevTouch, l.Touch
	l.Hist, l.PrevHist = l.PrevHist, l.Hist
	for i := range w.Walls {
		w.Walls[i].Force = s.wallForce[i]
	}

	stats := &w.Stats
	s.travel = travel
	if s.eStale = eSkip; !eSkip {
		stats.Kinetic, stats.PotentialGravity = ekin, egrav
	}
	stats.PotentialContact = s.epot
	stats.Contacts, stats.Suppressed = s.contacts, 0
	stats.ByKind = [snap.NumContactKinds]int{}
	stats.ByKind[snap.SQ] = s.contacts
	s.valid = true
	s.endRound()
	return true
}

// acceptSlots makes the last evaluation of the wall slots of spheres
// lo…hi−1 the accepted one (their contacts the history of the next step;
// each slot's own data, so the ranges may run at once) and returns the
// smallest spring bound of its candidate slots of a Hookean class (inf:
// none) and whether a candidate slot has another class (StableDt).
func (s *Spheres) acceptSlots(lo, hi int) (spring float64, other bool) {
	spring = inf
	cls := s.dt.classes
	slots := s.slots[s.slotAt(lo):s.slotAt(hi)]
	for i := range slots {
		sl := &slots[i]
		sl.accept(s.moms)
		spring, other = sl.springBound(cls, spring, other)
	}
	return spring, other
}

// accept makes the slot's step its accepted one (acceptSlots): the rim's
// facets, whether the contact is new, its touch and rim flags, and with
// moments its history.
func (sl *wallSlot) accept(moms bool) {
	if sl.rim {
		sl.e.prev, sl.e.cur = sl.e.cur, sl.e.prev[:0]
	}
	sl.pNew = sl.touch && !sl.pTouch && !(sl.pRim && hasFacet(sl.e.prev))
	sl.pTouch, sl.pRim = sl.touch, sl.rim
	if moms {
		sl.pHist = sl.hist
	}
}

// springBound folds a candidate slot's step-size class into acceptSlots'
// least Hookean spring and its "another law" flag.
func (sl *wallSlot) springBound(cls []dtClass, spring float64, other bool) (float64, bool) {
	if sl.cand {
		if c := &cls[sl.cls]; c.hooke {
			spring = min(spring, c.spring)
		} else {
			other = true
		}
	}
	return spring, other
}

// finish is Accept's pass over the spheres: the integrator's kick of h
// (h = 0 at the start), the state to the bodies, and the energies and
// travel bound of the accepted state; with it, that of their wall slots
// (acceptSlots). The energies are summed in sphere
// order; from passMin spheres on, in nChunks ranges of spheres, each from
// zero, then the ranges in order — whatever the number of workers. After
// EvaluateKick (badKick) the kick also sums the forces for forcesBad's
// test; ok is false if they are not finite, and then finish has changed
// nothing but the trial velocities and its own scratch (vmax2): split
// passes accept the wall slots in the kick pass with an undo that a failed
// test restores (spheres_slots_undo.go); one range accepts them after it.
func (s *Spheres) finish(h float64, kick Kick) (ekin, egrav, travel float64, ok bool) {
	var accR float64 // largest |a|/R of a sphere (smoothTravelDt)
	n := len(s.idx)
	s.hFinish, s.kick = h, kick
	bk := s.badKick
	s.fsum = 0
	// The rotational skip: with lazy bodies, when the trial R holds ω = +0,
	// T = +0 and acc's q (Drift skipped it or found acc so, and the
	// evaluation added no moment), the kick leaves R as it is (+0 + h·(+0)
	// = +0) and every sphere has ω = T = 0: finishRange leaves R alone, and
	// both arrays' R are then the same (rotStill for the next Drift).
	s.rotOff = s.lazy && s.tZero && (s.rotSkip || s.rotFound)
	// Lazy energies: under the skip every sphere's energy is ½m|v|² − m g·x
	// of its accepted state, which energies() sums when they are read.
	s.eSkip = s.rotOff && s.lazyE
	if bk && !s.rotOff {
		// Not the kick EvaluateKick counted on (it takes the same flags):
		// the test on its own.
		bk = false
		if s.forcesBad(false) {
			s.rotOff, s.badKick = false, false
			return 0, 0, 0, false
		}
	}
	s.badKick = bk // finishRange sums the forces (split passes: by range, finishSplitBad)
	clear(s.vmax2)
	travel = math.Inf(1)
	switch {
	case n < passMin:
		ekin, egrav, travel, accR = s.finishRange(0, n, s.vmax2, &s.fsum)
		if bk && s.fsum-s.fsum != 0 {
			s.rotOff, s.badKick = false, false
			return 0, 0, 0, false
		}
		s.slotSpring, s.slotOther = s.acceptSlots(0, n)
	case s.passes():
		if s.finishJob == nil {
			s.finishJob = func(k, clo, chi int) {
				r := &s.part[k]
				vm := s.vmax2 // worker 0's species maxima; the others' their own
				if k > 0 {
					vm = r.vmax2
				}
				for c := clo; c < chi; c++ {
					var t, a float64
					lo, hi := c*len(s.idx)/nChunks, (c+1)*len(s.idx)/nChunks
					s.chunkFS[c] = 0
					s.chunkK[c], s.chunkG[c], t, a = s.finishRange(lo, hi, vm, &s.chunkFS[c])
					r.travel, r.accR = min(r.travel, t), max(r.accR, a)
					if !s.badKick {
						s.chunkSpring[c], s.chunkOther[c] = s.acceptSlots(lo, hi)
					} else if s.rb.undo.on { // now, undone if the test fails (spheres_slots_undo.go)
						s.chunkSpring[c], s.chunkOther[c] = s.acceptSlotsUndo(lo, hi)
					}
				}
			}
		}
		s.passParts()
		for k := range s.part {
			r := &s.part[k]
			r.travel, r.accR = math.Inf(1), 0
			if k > 0 {
				r.vmax2 = resize(r.vmax2, len(s.vmax2))
				clear(r.vmax2)
			}
		}
		s.rb.undo.prepare(s, bk)
		s.forkNear(nChunks, s.finishJob)
		// Minima and maxima of the workers' (finishRange stores no NaN in
		// vmax2; min and max propagate one): those of the chunks in order.
		for k := range s.part {
			r := &s.part[k]
			travel, accR = min(travel, r.travel), max(accR, r.accR)
			if k == 0 {
				continue
			}
			for i, v := range r.vmax2 {
				m := &s.vmax2[i]
				m.V2, m.F2 = max(m.V2, v.V2), max(m.F2, v.F2)
			}
		}
		if bk {
			// The force test: the pass accepted the slots with an undo
			// (spheres_slots_undo.go), which a failed test restores.
			if s.finishSplitBad() {
				s.rb.undo.restore(s)
				s.rotOff, s.badKick = false, false
				return 0, 0, 0, false
			}
			if s.rb.undo.on { // accepted in the pass (undo.on whenever a slot exists)
				s.rb.undo.on = false
			} else { // no slot: acceptSlots' answer for each chunk, without a fork (review r7)
				for c := range nChunks {
					s.chunkSpring[c], s.chunkOther[c] = inf, false
				}
			}
		}
	default:
		for c := range nChunks {
			var t, a float64
			s.chunkK[c], s.chunkG[c], t, a = s.finishRange(c*n/nChunks, (c+1)*n/nChunks, s.vmax2, &s.fsum)
			travel, accR = min(travel, t), max(accR, a)
		}
		if bk && s.fsum-s.fsum != 0 {
			s.rotOff, s.badKick = false, false
			return 0, 0, 0, false
		}
		for c := range nChunks {
			s.chunkSpring[c], s.chunkOther[c] = s.acceptSlots(c*n/nChunks, (c+1)*n/nChunks)
		}
	}
	if n >= passMin {
		s.slotSpring, s.slotOther = inf, false
		for c := range nChunks {
			s.slotSpring, s.slotOther = min(s.slotSpring, s.chunkSpring[c]), s.slotOther || s.chunkOther[c]
		}
	}
	// With lazy bodies the accepted state stays in tr (no copy): the next
	// Drift swaps tr and acc (trAcc).
	s.accFresh, s.stale, s.trAcc = s.lazy, s.lazy, s.lazy
	if s.virt {
		s.w.freeBlockCentres() // the state is this path's from now on (sphere_block.go)
	}
	s.rotStill = s.rotOff
	if s.rotStill && !s.moms {
		s.rotDrop() // no array (q the bodies'), else one shared (spheres_rotnone.go)
	}
	s.rotSkip, s.rotFound, s.tZero, s.rotOff = false, false, false, false
	s.badKick = false
	if n >= passMin {
		for c := range nChunks {
			ekin += s.chunkK[c]
			egrav += s.chunkG[c]
		}
	}
	for i, m := range s.vmax2 {
		if vr := math.Sqrt(m.V2); vr > 0 {
			travel = min(travel, ApproachDt(0.05*s.rep[i].R, vr, 0)) // smoothTravelDt
		}
		// travelAcc of the species' spheres without a moment: |F|/m is
		// monotone in |F|², so its largest is that of the largest |F|².
		if a := math.Sqrt(m.F2) * s.kin[i].InvM; a > 0 {
			accR = max(accR, a/s.specs[i].r)
		}
	}
	return ekin, egrav, min(travel, accTravelDt(accR)), true
}

// finishRange is finish's work on spheres lo…hi−1 (sphere order): their
// energies summed from zero, the smallest travel bound of the spheres that
// turn, the largest acceleration bound over radius |a|/R of its spheres
// (travelAcc, smoothTravelDt) and the largest squared speed of each
// species' other spheres and the largest squared force of each species'
// spheres without a moment (into vmax2, for finish to take their bounds).
func (s *Spheres) finishRange(lo, hi int, vmax2 []SphereMax, fsum *float64) (ekin, egrav, travel, accR float64) {
	rare := finishRare{travel: math.Inf(1)}
	lazy := s.lazy
	g := s.w.Gravity
	// The species of the sphere before (spheres of a species mostly come
	// in runs: one run for a monodisperse set): its mass is looked up and
	// its maxima kept here, written back to vmax2 when the species changes
	// and at the end (the same comparisons in the same order).
	cur := int32(-1)
	var m float64
	var vm SphereMax
	a := SphereAccept{Kin: s.kin, H: s.hFinish, G: g, Cur: -1, NoEnergy: s.eSkip, specs: s.specs, vmax2: vmax2}
	if s.rotOff {
		if s.badKick {
			a.FSum = *fsum // s.fsum: the ranges in sphere order; a split pass's chunkFS[c]
		}
		// The rotational skip: the kick and the sums in the integrator's
		// loop (SphereAccept, AcceptSphere), ω = T = 0: no turning, no moment.
		for b0 := lo; b0 < hi; b0 += passBlock {
			b1 := min(b0+passBlock, hi)
			a.Spec, a.Tr = s.spec[b0:b1], sphere.States{L: s.tr.L[b0:b1]}
			s.kick(&a)
		}
		if a.Cur >= 0 {
			vmax2[a.Cur] = a.Max
		}
		if s.badKick {
			*fsum = a.FSum
		}
		return a.Ekin, a.Egrav, rare.travel, rare.accR
	}
	var scratch []sphere.Rot // rotNone: the block's ω = T = +0 and q (rotScratch)
	if s.tr.R == nil {
		scratch = make([]sphere.Rot, passBlock)
	}
	for b0 := lo; b0 < hi; b0 += passBlock {
		b1 := min(b0+passBlock, hi)
		spec, trs := s.spec[b0:b1], s.tr.Slice(b0, b1)
		if scratch != nil {
			trs.R = s.rotScratch(scratch, b0, b1)
		}
		tr, trr := trs.L[:len(spec)], trs.R[:len(spec)]
		a.Spec, a.Tr = spec, trs
		s.kick(&a)
		if !lazy && s.body == nil {
			s.acceptVirtual(tr, trr, b0)
		} else if !lazy {
			for i, b := range s.body[b0:b1] {
				st, ro := &tr[i], &trr[i]
				b.X, b.V, b.W, b.Q, b.F, b.T = st.X, st.V, ro.W, ro.Q, st.F, ro.T
			}
		}
		for i, sp := range spec {
			st, ro := &tr[i], &trr[i]
			if sp != cur {
				if cur >= 0 {
					vmax2[cur] = vm
				}
				cur, m, vm = sp, s.specs[sp].mass, vmax2[sp]
			}
			v2 := norm2(st.V)     // AcceptSphere's (the same rounded operations)
			ke := sphereKE(m, v2) // KineticEnergy
			if w2 := norm2(ro.W); w2 != 0 {
				ke = s.finishTurning(ro, sp, v2, ke, &rare)
			} else if v2 > vm.V2 {
				// |v| + |ω|r = |v|: a species' bound 0.05 r/|v| is its fastest sphere's.
				vm.V2 = v2
			}
			// travelAcc: |F|/m + |J⁻¹T|·R, J⁻¹ = 1/I for a sphere. Without
			// a moment it is |F|/m (+ 0, the same bits), taken per species
			// by finish from the largest |F|² (a NaN is skipped either way).
			if f2, t2 := norm2(st.F), norm2(ro.T); t2 != 0 {
				s.finishMoment(f2, sp, t2, &rare)
			} else if f2 > vm.F2 {
				vm.F2 = f2
			}
			ekin += ke
			egrav -= spherePE(m, g, st.X)
		}
	}
	if cur >= 0 {
		vmax2[cur] = vm
	}
	return ekin, egrav, rare.travel, rare.accR
}

// finishRare is what finishRange's spheres that turn or carry a moment
// add to its results (out of its loop, which then holds fewer values: on
// a frictionless run such spheres are rare).
type finishRare struct{ travel, accR float64 }

// finishTurning is finishRange's work on a sphere of species sp with
// rotational state st that turns (ω ≠ 0), of squared speed v2 and translational kinetic energy
// ke: it returns ke with the rotational energy ½ ω·Jω added and takes the
// sphere's travel bound (smoothTravelDt) into r.
func (s *Spheres) finishTurning(st *sphere.Rot, sp int32, v2, ke float64, r *finishRare) float64 {
	rep := s.rep[sp] // the same R and IBody as the sphere's body (species)
	wb := st.Q.InvRotate(st.W)
	ke += 0.5 * wb.Dot(rep.IBody().MulV(wb))
	if vr := math.Sqrt(v2) + s.wrOf(st, sp); vr > 0 {
		r.travel = min(r.travel, ApproachDt(0.05*rep.R, vr, 0)) // smoothTravelDt
	}
	return ke
}

// finishMoment is finishRange's work on a sphere of species sp with
// squared force f2 = |F|² and a moment (|T|² = t2 ≠ 0): its acceleration
// bound over radius (travelAcc: |F|/m + |J⁻¹T|·R, J⁻¹ = 1/I for a sphere)
// into r. Its products rounded, like the rest of finishRange's loop.
func (s *Spheres) finishMoment(f2 float64, sp int32, t2 float64, r *finishRare) {
	c, kn := &s.specs[sp], &s.kin[sp]
	if a := float64(math.Sqrt(f2)*kn.InvM) + float64(math.Sqrt(t2)*kn.InvI*c.r); a > 0 {
		r.accR = max(r.accR, a/c.r)
	}
}

// wrOf returns |ω| r of a sphere of species sp with rotational state st (0 when it
// does not turn): the part of the travel and approach bounds that its
// spin adds (smoothTravelDt, StableDt). Computed where it is read, from
// the accepted state, rather than kept a sphere (8 bytes, and a stream
// written every step for the rare sphere that turns on a frictionless run).
func (s *Spheres) wrOf(st *sphere.Rot, sp int32) float64 {
	if w2 := st.W.Norm2(); w2 != 0 {
		return float64(math.Sqrt(w2) * s.specs[sp].r) // rounded: never fused with a later sum
	}
	return 0
}

// SetLazyBodies turns lazy bodies on or off (off by default). While on, the
// sphere path's accepted state lives in its flat arrays and the movable
// bodies lag behind it: a caller that reads or writes a body (its state,
// forces, a snapshot, an event, another integrator) must call SyncBodies
// first. Turning it off syncs. Results are the same bits either way, for
// any number of workers, on FMA builds (GOAMD64=v3, arm64) too: the lazy
// path's rotational skip and the eager path's full passes round the same
// operations (the kicks and drifts in package integrate, AcceptSphere's
// and finishRange's sums: products rounded explicitly, never fused;
// TestSpherePathLazyBodies, run by .ci/fma-workers.sh).
func (w *World) SetLazyBodies(on bool) {
	if w.sph == nil {
		if !on {
			return
		}
		w.sph = &Spheres{w: w}
	}
	if !on {
		w.SyncBodies()
	}
	w.sph.lazy = on
}

// SyncBodies writes the sphere path's accepted state (position, velocity,
// angular velocity, orientation, force, moment) to the bodies if they lag
// behind it (SetLazyBodies); the next step reads the bodies again, so
// changes made to them after the call are seen.
func (w *World) SyncBodies() {
	if s := w.sph; s != nil {
		s.syncBodies()
	}
}

// accepted returns the accepted state of the spheres in sphere order: acc,
// or tr after an Accept with lazy bodies until the next Drift (trAcc).
func (s *Spheres) accepted() sphere.States {
	if s.trAcc {
		return s.tr.States
	}
	return s.acc
}

// syncBodies is SyncBodies.
func (s *Spheres) syncBodies() {
	s.fillEnergies() // before anything that reads the bodies may change the world
	if s.stale {
		acc := s.accepted()
		if s.rotShared() && !s.trAcc {
			// A trial since the share (thrown away: no Accept) may have
			// added its moments to the shared array's T; acc's ω and T
			// are +0 (rotSplit's reset, done before the bodies read it).
			s.rotReset()
		}
		switch {
		case s.body == nil:
			// A world's sphere blocks (virt): no record to write; they
			// hold the accepted state (sphere_block.go).
		case acc.R == nil:
			// No rotational array (spheres_rotnone.go): ω = T = +0 and q
			// the body's already.
			for o, b := range s.body {
				st := &acc.L[o]
				b.X, b.V, b.W, b.F, b.T = st.X, st.V, geom.Vec3{}, st.F, geom.Vec3{}
			}
		default:
			for o, b := range s.body {
				st, ro := &acc.L[o], &acc.R[o]
				b.X, b.V, b.W, b.Q, b.F, b.T = st.X, st.V, ro.W, ro.Q, st.F, ro.T
			}
		}
	}
	s.stale, s.accFresh = false, false
}

// dispBound is Drift's bound on the displacements of the spheres from the
// Verlet list's reference positions, which spares the pass the list test
// (ListDisplaced: reading the reference, 24 bytes a sphere) while it
// proves the test's answer: with every displacement |x − p| at most b,
// 2b ≤ skin gives √d1 + √d2 ≤ skin, the list kept — the same decision,
// and nothing else reads d1 and d2. The bound of the accepted state (acc)
// is carried from step to step: a step of Δt moves a sphere by
// Δt·|v_{1/2}| ≤ Δt·(|v| + (Δt/2)|F|/m) with v and F the accepted ones,
// whose largest per species Accept keeps (SphereMax) for every sphere while
// none turns or carries a moment (rotStill); rounding adds a relative
// 2⁻³⁰ (the maxima's squares and roots, the kick and drift: a few ulp) and
// per step 2⁻⁵⁰ of the largest coordinate (the drift's sum rounds x to half
// an ulp a component, ≤ 2⁻⁵³|x|∞ each). A Drift that runs the test
// anchors the bound at the measured √d1 (with the same relative margin).
// The bounds hold for one reference: they are dropped when the list is
// rebuilt (Verlet.Builds changes: a rejected trial's rebuild too), when
// the accepted state is read from the bodies (not accFresh) or a sphere
// turns (not rotStill), and only a Drift's own trial is accepted with its
// bound. A rejected trial leaves acc's bound as it was, but the Drift
// after a rejection runs the test anyway (Drift clears rotStill; only
// Accept sets it again), so no bound is carried across a rejection.
type dispBound struct {
	acc, trial     float64 // bounds of the accepted and trial states
	accOK, trialOK bool
	accB, trialB   int     // the list builds (Verlet.Builds) they refer to
	xmax           float64 // the largest |coordinate| of the reference (valid for builds xmaxB)
	xmaxB          int
	xmaxOK         bool
	skips          int64 // the Drifts that skipped the test (tests, bench notes)
	// maxAbsRef's split: the reference in the pass, the job (made once)
	// and each range's largest |coordinate|.
	ref      []geom.Vec3
	xmaxJob  func(worker, lo, hi int)
	xmaxPart [nChunks]float64
}

// dispMargin is the bound's relative margin for rounding (see dispBound).
const dispMargin = 1 + 0x1p-30

// step returns the bound on the displacements of a Drift of dt from acc
// (ref the list's reference, builds its build count) and whether it
// proves the list test's keep: 2b(1 + margin) ≤ skin (false for a bound
// that is not finite: a NaN fails the comparison).
func (d *dispBound) step(s *Spheres, dt float64, ref []geom.Vec3, builds int) (float64, bool) {
	if !d.accOK || d.accB != builds || len(s.vmax2) != len(s.kin) {
		return 0, false
	}
	if !d.xmaxOK || d.xmaxB != builds {
		d.xmax, d.xmaxB, d.xmaxOK = s.maxAbsRef(ref), builds, true
	}
	h, u := 0.5*dt, 0.0
	for i, m := range s.vmax2 {
		u = max(u, math.Sqrt(m.V2)+h*math.Sqrt(m.F2)*s.kin[i].InvM) // |v| + h|F|/m ≥ |v_{1/2}|
	}
	move := dt * u
	b := d.acc + move*dispMargin + 0x1p-50*(d.xmax+d.acc+move)
	return b, 2*b*dispMargin <= s.w.skin
}

// tried records a Drift's trial bound: b when it skipped the test
// (skipped), else the measured √d1 if the list is kept; none otherwise.
func (d *dispBound) tried(skipped, keep bool, b, d1 float64, builds int) {
	switch {
	case skipped:
		d.trial = b
	case keep:
		d.trial = math.Sqrt(d1) * dispMargin
	}
	d.trialOK, d.trialB = keep, builds
}

// accepted makes the last Drift's trial bound the accepted one, if the
// list was not rebuilt since (builds); an Accept with no Drift before it
// (a start) leaves none.
func (d *dispBound) accepted(builds int) {
	d.acc, d.accB = d.trial, d.trialB
	d.accOK = d.trialOK && d.trialB == builds
	d.trialOK = false
}

// maxAbsRef is maxAbsCoord(ref), in nChunks ranges on the crew when the
// step's passes are split (a maximum is the same in any order; a NaN in
// any range makes every order's NaN): after each list build, a serial
// read of every reference centre at the start of Drift otherwise.
func (s *Spheres) maxAbsRef(ref []geom.Vec3) float64 {
	if !s.passes() {
		return maxAbsCoord(ref)
	}
	d := &s.disp
	d.ref = ref
	if d.xmaxJob == nil {
		d.xmaxJob = func(_, lo, hi int) {
			for c := lo; c < hi; c++ {
				n := len(d.ref)
				d.xmaxPart[c] = maxAbsCoord(d.ref[c*n/nChunks : (c+1)*n/nChunks])
			}
		}
	}
	s.fork(nChunks, d.xmaxJob)
	d.ref = nil
	m := 0.0
	for _, x := range d.xmaxPart {
		m = max(m, x)
	}
	return m
}

// maxAbsCoord is the largest |X|, |Y|, |Z| of ps (a NaN if one is).
func maxAbsCoord(ps []geom.Vec3) float64 {
	m := 0.0
	for i := range ps {
		p := &ps[i]
		m = max(m, math.Abs(p.X), math.Abs(p.Y), math.Abs(p.Z))
	}
	return m
}

// SphereDispSkips returns the number of sphere-path Drifts that skipped
// the list's displacement test, its answer proved by the displacement bound
// (dispBound), since the world began; the tests and the bench notes read it.
func (w *World) SphereDispSkips() int64 {
	if w.sph == nil {
		return 0
	}
	return w.sph.disp.skips
}
