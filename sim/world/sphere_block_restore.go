package world

import (
	"math"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/sq"
)

// A restart onto a world of sphere blocks without their records (issue
// #16, memory per sphere; docs/performance.md, "Session 26: outputs without
// records").
//
// A state file gives every sphere its own centre, velocity and force; the
// block keeps one template for the rest. While the block's centres are the
// spheres' state (before the sphere path's first Accept: a restart is
// applied right after the scene is built), SetBodyState writes a sphere's
// centre into the block (its centres, or acc while they are there:
// sphere_block_acc.go) and its velocity and force into the block's
// blockState, made on the first sphere whose v or F differs from the
// template's (48 bytes a sphere, against ≈ 230 for a record). fillState
// and materialize read them (restored): every reader of the block gets the
// state as the records would have held it, and the sphere path's first
// Accept, which makes its accepted array the state, drops them with the
// centres (freeBlockCentres). A sphere whose orientation, ω or torque
// differs from the template's (a turning sphere's state) cannot be held:
// SetBodyState then says so and the caller writes the record (Bodies()).

// blockState is the per-sphere velocity and force of a block's spheres
// (index k = body − first), set by a restart.
type blockState struct {
	v, f []geom.Vec3
}

// restored overwrites dst's V and F, a record of sphere k of bl filled
// from the template, with the restart's (none set: the template's).
func (bl *sphereBlock) restored(k int, dst *body.Body) {
	if st := bl.st; st != nil {
		dst.V, dst.F = st.v[k], st.f[k]
	}
}

// sameBits reports whether a and b are the same bits (+0 and −0 differ).
func sameBits(a, b geom.Vec3) bool {
	return math.Float64bits(a.X) == math.Float64bits(b.X) && math.Float64bits(a.Y) == math.Float64bits(b.Y) &&
		math.Float64bits(a.Z) == math.Float64bits(b.Z)
}

// SetBodyState sets body i's kinematic state (a state file's: x, q, v, ω)
// and, when f and t are given, its force and torque, without making a
// record for a sphere of a block: it reports false, changing nothing, when
// it cannot (a block's sphere whose q, ω or torque is not the template's,
// or once the sphere path holds the blocks' state); the caller then writes
// the record (Bodies()[i]). A body with a record is written as the record.
func (w *World) SetBodyState(i int, x geom.Vec3, q geom.Quat, v, om geom.Vec3, f, t *geom.Vec3) bool {
	b, bl := w.at(i)
	if bl == nil {
		b.X, b.Q, b.V, b.W = x, q, v, om
		if f != nil {
			b.F = *f
		}
		if t != nil {
			b.T = *t
		}
		return true
	}
	rq := bl.rec.Q
	if !sameBits(geom.V(q.W, q.X, q.Y), geom.V(rq.W, rq.X, rq.Y)) || math.Float64bits(q.Z) != math.Float64bits(rq.Z) ||
		!sameBits(om, bl.rec.W) || t != nil && !sameBits(*t, bl.rec.T) {
		return false
	}
	k := i - bl.first
	switch {
	case bl.x != nil:
		bl.x[k] = x
	case bl.xAcc:
		w.sph.acc.L[w.sph.sidx[i]].X = x
	default:
		return false // the sphere path's state (its accepted array)
	}
	fk := bl.rec.F
	if bl.st != nil {
		fk = bl.st.f[k]
	}
	if f != nil {
		fk = *f
	}
	if bl.st == nil && (!sameBits(v, bl.rec.V) || !sameBits(fk, bl.rec.F)) {
		st := &blockState{v: make([]geom.Vec3, bl.count), f: make([]geom.Vec3, bl.count)}
		for j := range st.v {
			st.v[j], st.f[j] = bl.rec.V, bl.rec.F
		}
		bl.st = st
	}
	if bl.st != nil {
		bl.st.v[k], bl.st.f[k] = v, fk
	}
	return true
}

// placeLook is place (every body posed: RestoreHistory's broad phase as it
// was last built) without making a record: a world's sphere blocks are
// posed from EachBody's scratch record, one body after another, as
// placeOne poses a record.
func (w *World) placeLook() {
	if w.blocks == nil {
		w.place()
		return
	}
	w.posedOld = false
	if n := w.NumBodies(); len(w.sqPrep) != n {
		w.sqPrep = make([]sq.Prepared, n)
	}
	w.EachBody(func(i int, b *body.Body) {
		if b.Kind == body.Polyhedral {
			w.posed[i].Update(b.Poly(), b.X, b.Q, b.Fixed)
		} else {
			w.posed[i].X, w.posed[i].Q, w.posed[i].Fixed = b.X, b.Q, b.Fixed
			w.posed[i].Box = w.placeSmooth(i, b)
		}
	})
}
