package world

import (
	"sort"
	"strconv"
	"sync/atomic"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// Sphere blocks: a generator's spheres without a body record each (issue
// #16, memory per sphere; docs/performance.md, "Session 25: sphere
// blocks").
//
// A scene's sphere generator makes 10⁶ spheres that differ only in their
// centre: one shared shape and mass record, one material, one velocity, one
// orientation, ω = F = T = 0. AddSphereBlock keeps them as a block — the
// name prefix, one template record and the centres — and World.bodies holds
// the records only: a block is the range of body indices first …
// first+count−1, which the records skip (World.at; the indices are
// unchanged, NumBodies counts both; Session 27: no nil pointer a sphere).
// Where a sphere's state lives:
//
//   - until the sphere path holds it: the block's centres (x) and the
//     template (the rest);
//   - from the sphere path's first Accept on (Spheres.virt, the block's
//     centres then freed): the sphere path's accepted state, as syncBodies
//     would write it to the records.
//
// Bodies() materializes: it makes every record exactly as the generator made
// it before (the template with its name, prefix+strconv.Itoa(k) as in
// body.GenNames, and the centre, or the sphere path's accepted state as
// syncBodies writes it), once; from then on the world is as if built record
// by record. NumBodies, EachBody (a scratch record a virtual sphere), BodyRec
// (the static fields: the template) and BodyName never materialize: the
// readers of `grainlab bench` and `grainlab run` use them.
type sphereBlock struct {
	first, count int         // body indices first … first+count−1
	prefix       string      // the generator's name: sphere k is prefix+strconv.Itoa(k)
	rec          body.Body   // the template: sphere 0's record (shared shape and mass record, V, Q, material …)
	x            []geom.Vec3 // the centres while they are the truth (nil once the sphere path holds them)
	xAcc         bool        // the centres, still the truth, are in the sphere path's acc (sphere_block_acc.go)
	names        string      // body.GenNames of the block, made on first need (EachBody, BodyName)
	st           *blockState // per-sphere v and F of a restart while the centres are the truth (nil: the template's; sphere_block_restore.go)
}

// materializations counts Bodies() calls that made a block's records (tests).
var materializations atomic.Int64

// AddSphereBlock appends len(x) spheres that are rec placed at x[k] and
// named prefix+strconv.Itoa(k) (k = 0, 1, …), without a record each
// (sphere_block.go), and returns the index of the first. rec must be a
// movable sphere made by a constructor (its shape and mass record is
// shared by the block; its Name and X are ignored); otherwise the spheres
// are added as records (AddBody). It changes what AddBody changes, as
// adding them one by one does.
func (w *World) AddSphereBlock(prefix string, rec *body.Body, x []geom.Vec3) int {
	first := w.NumBodies()
	if len(x) == 0 {
		return first
	}
	if !rec.Made() || rec.Kind != body.Sphere || rec.Fixed || rec.Wall != -1 {
		names := body.GenNames(prefix, len(x))
		off := 0
		for k, xk := range x {
			b := new(body.Body)
			*b = *rec
			n := body.GenNameLen(prefix, k)
			b.Name, b.X = names[off:off+n], xk
			off += n
			w.AddBody(b)
		}
		return first
	}
	if !w.blockCentres() {
		w.materialize() // blocks whose state is the sphere path's: their records first
	}
	bl := &sphereBlock{first: first, count: len(x), prefix: prefix, rec: *rec, x: x}
	bl.rec.Name = prefix + "0"
	w.blocks = append(w.blocks, bl)
	w.nvirt += len(x) // no room in w.bodies: the records skip the block (at)
	w.invalidate()
	w.lawGen += uint64(len(x) - 1) // AddBody's count, one a body
	return first
}

// Virtual reports how many bodies the world holds without a record (sphere
// blocks not yet materialized).
func (w *World) Virtual() int { return w.nvirt }

// at returns body i's record, or nil and its block when body i is a sphere
// of a block: w.bodies holds the records only, each block's spheres
// skipped. The blocks are walked in order, which keeps at inlined (a
// bisection, as blockSearch, costs 21 instructions a call more at 10⁵
// spheres in one block); a world of many blocks pays that many steps a
// lookup (review r2: scenes make a block per sphere generator).
func (w *World) at(i int) (*body.Body, *sphereBlock) {
	if len(w.blocks) == 0 {
		return w.bodies[i], nil
	}
	skip := 0
	for _, bl := range w.blocks {
		if i < bl.first {
			break
		}
		if i < bl.first+bl.count {
			return nil, bl
		}
		skip += bl.count
	}
	return w.bodies[i-skip], nil
}

// blockOf returns the block of body i, a block's sphere (w.at(i) nil).
func (w *World) blockOf(i int) *sphereBlock {
	if len(w.blocks) == 1 {
		return w.blocks[0]
	}
	return w.blockSearch(i)
}

// blockSearch is blockOf among several blocks.
func (w *World) blockSearch(i int) *sphereBlock {
	j := sort.Search(len(w.blocks), func(j int) bool { return w.blocks[j].first > i }) - 1
	return w.blocks[j]
}

// BodyRec returns body i's record for its static fields — Kind, Fixed, R,
// Material, Wall, the shape and mass record (Mass, IBody …, SameRecord),
// Group — without materializing: a block sphere's template, whose Name and
// state (X, Q, V, W, F, T) are not the sphere's. Read only.
func (w *World) BodyRec(i int) *body.Body {
	b, bl := w.at(i)
	if bl == nil {
		return b
	}
	return &bl.rec
}

// BodyName returns body i's name without materializing.
func (w *World) BodyName(i int) string {
	b, bl := w.at(i)
	if bl == nil {
		return b.Name
	}
	return bl.prefix + strconv.Itoa(i-bl.first)
}

// nameString returns the names of the block end to end (body.GenNames).
func (bl *sphereBlock) nameString() string {
	if bl.names == "" {
		bl.names = body.GenNames(bl.prefix, bl.count)
	}
	return bl.names
}

// fillVirtual sets *dst to body i, a sphere of block bl, as its record
// would be: the template, named name, with the block's centre or, once the
// sphere path holds the state (virt, the centres freed), the accepted state
// as syncBodies writes it.
func (w *World) fillVirtual(bl *sphereBlock, i int, dst *body.Body, name string) {
	*dst = bl.rec
	dst.Name = name
	w.fillState(bl, i, dst)
}

// fillState is fillVirtual's state part, into dst holding the template of
// bl (X, V, W, Q, F, T: the only fields a block's spheres do not share).
func (w *World) fillState(bl *sphereBlock, i int, dst *body.Body) {
	k := i - bl.first
	if bl.x != nil {
		dst.X = bl.x[k]
		bl.restored(k, dst)
		return
	}
	if bl.xAcc {
		dst.X = w.sph.centreInAcc(i)
		bl.restored(k, dst)
		return
	}
	s := w.sph
	o := s.sidx[i]
	acc := s.accepted()
	st := &acc.L[o]
	dst.X, dst.V, dst.F = st.X, st.V, st.F
	if acc.R != nil {
		ro := &acc.R[o]
		dst.W, dst.Q, dst.T = ro.W, ro.Q, ro.T
	} else {
		dst.W, dst.Q, dst.T = geom.Vec3{}, bl.rec.Q, geom.Vec3{} // q the template's (spheres_rotnone.go)
	}
}

// virtScratch is a scratch record for a block's spheres one after another:
// the template is copied when the block changes, the state for each sphere.
type virtScratch struct {
	b  body.Body
	bl *sphereBlock
}

// at returns body i of w, a sphere of a block, in the scratch (no name).
func (sc *virtScratch) at(w *World, i int) *body.Body {
	bl := w.blockOf(i)
	if bl != sc.bl {
		sc.b, sc.bl = bl.rec, bl
		sc.b.Name = ""
	}
	w.fillState(bl, i, &sc.b)
	return &sc.b
}

// eachBodyState is EachBody without the names of a block's spheres (the
// scratch record's Name is empty): for readers of the world's own that
// need no name (or look it up by BodyName), without the blocks' name
// strings (7 bytes a sphere).
func (w *World) eachBodyState(f func(i int, b *body.Body)) {
	if w.blocks == nil {
		for i, b := range w.bodies {
			f(i, b)
		}
		return
	}
	w.eachVirtual(f, false)
}

// eachVirtual is EachBody over a world with blocks: one scratch record,
// named if named.
func (w *World) eachVirtual(f func(i int, b *body.Body), named bool) {
	var sc body.Body
	var names string
	recs, blocks := w.bodies, w.blocks
	i, r := 0, 0 // body i, record r: the records skip the blocks
	for _, bl := range blocks {
		for ; i < bl.first; i, r = i+1, r+1 {
			f(i, recs[r])
		}
		sc = bl.rec // the static fields, once a block (f writes nothing)
		sc.Name = ""
		off := 0
		if named {
			names = bl.nameString()
		}
		for end := bl.first + bl.count; i < end; i++ {
			if named {
				n := body.GenNameLen(bl.prefix, i-bl.first)
				sc.Name = names[off : off+n]
				off += n
			}
			w.fillState(bl, i, &sc)
			f(i, &sc)
		}
	}
	for ; r < len(recs); i, r = i+1, r+1 {
		f(i, recs[r])
	}
}

// materialize makes the records of every block (Bodies): as the generator
// made them, with the state of record (the block's centres, or the sphere
// path's accepted state written as SyncBodies writes it). The sphere path
// then reads and writes them as before.
func (w *World) materialize() {
	if len(w.blocks) == 0 {
		return
	}
	materializations.Add(1)
	s := w.sph
	held := s != nil && s.virt
	synced := true
	// Every body's slot: the records where the blocks left them, the
	// blocks' records made into their ranges.
	all := make([]*body.Body, w.NumBodies())
	i, r := 0, 0
	for _, bl := range w.blocks {
		r += copy(all[i:bl.first], w.bodies[r:])
		i = bl.first + bl.count
	}
	copy(all[i:], w.bodies[r:])
	w.bodies = all
	for _, bl := range w.blocks {
		names, off := bl.nameString(), 0
		for k := range bl.count {
			b := new(body.Body) // one allocation a body, as the generator made them
			*b = bl.rec
			n := body.GenNameLen(bl.prefix, k)
			b.Name = names[off : off+n]
			off += n
			if bl.x != nil {
				b.X = bl.x[k]
				bl.restored(k, b)
			} else if bl.xAcc {
				b.X = s.centreInAcc(bl.first + k)
				bl.restored(k, b)
			} else {
				synced = false
			}
			w.bodies[bl.first+k] = b
		}
	}
	w.blocks, w.nvirt = nil, 0
	if !held {
		return
	}
	s.body = make([]*body.Body, len(s.idx))
	for k, i := range s.idx {
		s.body[k] = w.bodies[i]
	}
	s.virt = false
	if !synced {
		// The state is the sphere path's: written as SyncBodies writes it.
		s.stale = true
		s.syncBodies()
	}
}

// freeBlockCentres drops the blocks' centres once the sphere path holds the
// state (its first Accept).
func (w *World) freeBlockCentres() {
	for _, bl := range w.blocks {
		bl.x, bl.xAcc, bl.st = nil, false, nil
	}
}

// blockCentres reports whether the blocks' centres are still the truth.
func (w *World) blockCentres() bool {
	return len(w.blocks) > 0 && (w.blocks[0].x != nil || w.blocks[0].xAcc)
}

// readVirtual is Drift's read of the accepted state from the bodies
// (not accFresh) for spheres b0…b1−1 of a world's sphere blocks, into acc
// (its block of those spheres): the blocks' centres and templates while
// they are the state; otherwise the bodies would hold what the last
// syncBodies wrote, the accepted state, which acc holds already (Drift
// made the accepted array acc), so there is nothing to read.
func (s *Spheres) readVirtual(acc sphere.States, b0, b1 int) {
	w := s.w
	if !w.blockCentres() {
		return
	}
	var sc virtScratch
	for o := b0; o < b1; o++ {
		b := s.bodyAt(o, &sc)
		acc.L[o-b0] = sphere.Lin{X: b.X, V: b.V, F: b.F}
		if acc.R != nil {
			acc.R[o-b0] = sphere.Rot{W: b.W, T: b.T, Q: b.Q}
		}
	}
}

// acceptVirtual is an eager Accept's write of the accepted states tr, trr
// of spheres b0… to their bodies, for a world's sphere blocks: into acc,
// where the next Drift, which reads the bodies (not accFresh), finds them
// (readVirtual) and the block's readers too (fillVirtual: accepted()).
// A rotational array shared by acc and tr holds them already; without one
// ω = T = +0 and q is the template's.
func (s *Spheres) acceptVirtual(tr []sphere.Lin, trr []sphere.Rot, b0 int) {
	copy(s.acc.L[b0:b0+len(tr)], tr)
	if s.acc.R != nil && s.tr.R != nil && &s.acc.R[0] != &s.tr.R[0] {
		copy(s.acc.R[b0:b0+len(trr)], trr)
	}
}

// Materializations returns how many times a world's sphere blocks were made
// into records (Bodies) since the program began: the tests assert that the
// `bench` and `run` paths make none.
func Materializations() int { return int(materializations.Load()) }
