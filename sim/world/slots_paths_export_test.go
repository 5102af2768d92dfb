package world

import (
	"fmt"
	"math/rand/v2"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/sphere"
)

// SlotPathCounts is what SlotPathsAgree saw in its trials: slots taken by
// evalSlots' off path (d ≥ r), by its closed-form touching path, and by the
// general evalSlot; and of these, slots touching, candidates and slots
// seen for the first time.
type SlotPathCounts struct {
	Off, Touching, General int
	Touch, Cand, FirstSeen int
}

// slotPathsState is what an evaluation of the wall slots may change.
type slotPathsState struct {
	slots     []wallSlot
	L         []sphere.Lin
	R         []sphere.Rot
	seen      []uint8
	hists     []slotHist
	prev, cur [][]contactRec
	wallForce []geom.Vec3
	epot      float64
	contacts  int
	owls      int
	mom       bool
	entries   []*pairEntry
}

type contactRec = contact.Contact

// SlotPathsAgree puts the spheres of w's wall slots at random distances
// from their walls (off by up to 2r, at d = r, touching, behind by up to
// 1.5r), with random lateral shifts (towards and past the rims of finite
// walls), random velocities and spins, random flags (seen, pTouch) and,
// with moving, the walls given random velocities (not still); then
// evaluates every slot with evalSlots (its fast paths) and again from the
// same state with the general evalSlot for every slot, with and without
// the sums of a direct evaluation, and reports the first field that
// differs in its bits (nil if none) and the counts of each path.
func SlotPathsAgree(w *World, rng *rand.Rand, trials int, moving bool) (SlotPathCounts, error) {
	var n SlotPathCounts
	s := w.Spheres()
	if s == nil {
		return n, fmt.Errorf("not on the sphere path")
	}
	dt := w.Dt
	for trial := range trials {
		sum := trial%2 == 1
		if moving {
			for i := range s.planes {
				pl := &s.planes[i]
				if rng.IntN(2) == 0 {
					pl.body.V = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(0.05)
					pl.still = false
				} else {
					pl.body.V, pl.body.W, pl.still = geom.Vec3{}, geom.Vec3{}, true
				}
			}
		}
		for i := range s.slots {
			sl := &s.slots[i]
			if rng.IntN(3) == 0 {
				continue
			}
			k, pl := int(sl.k), &s.planes[sl.wall]
			r := s.rOf(k)
			x := s.tr.L[k].X
			var want float64
			switch rng.IntN(6) {
			case 0:
				want = r // grazing: d = r to rounding
			case 1:
				want = r * (1 + rng.Float64()) // off
			case 2:
				want = r * rng.Float64() // touching
			case 3:
				want = -1.5 * r * rng.Float64() // behind
			case 4:
				want = r * (1 + 1e-12*rng.NormFloat64()) // either side of d = r
			default:
				want = r * (2*rng.Float64() - 0.5)
			}
			x = x.AddScaled(want-x.Sub(pl.P).Dot(pl.N), pl.N)
			if rng.IntN(3) == 0 { // along the plane: towards a rim
				u := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
				u = u.Sub(pl.N.Scale(u.Dot(pl.N)))
				x = x.AddScaled(3*r*rng.Float64(), u)
			}
			s.tr.L[k].X = x
			s.tr.L[k].V = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(0.1)
			s.tr.L[k].F = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			s.tr.R[k].W = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			if rng.IntN(4) == 0 {
				sl.seen = false
				s.putSeen(int(sl.wall), k, false)
			}
			if rng.IntN(4) == 0 {
				sl.pTouch = !sl.pTouch
			}
		}
		for k := range s.tr.R {
			s.tr.R[k].T = geom.Vec3{} // as Drift leaves them (mom's reader)
		}
		start := s.slotPathsSave()
		// The fast paths.
		s.slotPathsReset()
		owls, mom := s.evalSlots(0, 0, len(s.slots), dt, sum)
		for i := range s.slots {
			sl := &s.slots[i]
			st, pl := &start.L[sl.k], &s.planes[sl.wall]
			r := s.rOf(int(sl.k))
			d := st.X.Sub(pl.P).Dot(pl.N)
			switch {
			case !w.Periodic.On() && d >= r:
				n.Off++
			case !w.Periodic.On() && sl.deep && sl.simple && pl.still && start.slots[i].seen && -r < d && d < r && (d >= 0 || sl.pTouch):
				n.Touching++
			default:
				n.General++
			}
			if sl.touch {
				n.Touch++
			}
			if sl.cand {
				n.Cand++
			}
			if sl.seen && !start.slots[i].seen {
				n.FirstSeen++
			}
		}
		fast := s.slotPathsSave()
		fast.owls, fast.mom = owls, mom
		// The general evalSlot for every slot, from the same state.
		s.slotPathsRestore(start)
		s.slotPathsReset()
		owls, mom = 0, false
		for i := range s.slots {
			sl := &s.slots[i]
			st, ro, pl := &s.tr.L[sl.k], &s.tr.R[sl.k], &s.planes[sl.wall]
			r := s.rOf(int(sl.k))
			s.evalSlot(sl, st, ro, pl, r, st.X.Sub(pl.P).Dot(pl.N), dt)
			mom = mom || nonZeroBits(ro.T)
			if sum && sl.touch {
				owls += s.sumSlot(sl)
			}
		}
		gen := s.slotPathsSave()
		gen.owls, gen.mom = owls, mom
		if err := fast.same(gen); err != nil {
			return n, fmt.Errorf("trial %d (sums %v): %v", trial, sum, err)
		}
	}
	return n, nil
}

func (s *Spheres) slotPathsReset() {
	clear(s.wallForce)
	s.epot, s.contacts = 0, 0
}

func (s *Spheres) slotPathsSave() *slotPathsState {
	c := &slotPathsState{
		slots: append([]wallSlot(nil), s.slots...), L: append([]sphere.Lin(nil), s.tr.L...),
		R: append([]sphere.Rot(nil), s.tr.R...), seen: append([]uint8(nil), s.seen...),
		hists: append([]slotHist(nil), s.hists...), wallForce: append([]geom.Vec3(nil), s.wallForce...),
		epot: s.epot, contacts: s.contacts,
	}
	c.prev, c.cur = make([][]contactRec, len(s.slots)), make([][]contactRec, len(s.slots))
	c.entries = make([]*pairEntry, len(s.slots))
	for i := range s.slots {
		if e := s.slots[i].e; e != nil {
			c.entries[i] = e
			c.prev[i] = append([]contactRec(nil), e.prev...)
			c.cur[i] = append([]contactRec(nil), e.cur...)
		}
	}
	return c
}

func (s *Spheres) slotPathsRestore(c *slotPathsState) {
	copy(s.slots, c.slots)
	copy(s.tr.L, c.L)
	copy(s.tr.R, c.R)
	copy(s.seen, c.seen)
	copy(s.hists, c.hists)
	for i, e := range c.entries {
		if e != nil {
			e.prev = append(e.prev[:0], c.prev[i]...)
			e.cur = append(e.cur[:0], c.cur[i]...)
		}
	}
}

// same reports the first difference in the bits of two states (%v prints
// every float64 so that it reads back exactly, −0 and NaN included).
func (a *slotPathsState) same(b *slotPathsState) error {
	for i := range a.slots {
		x, y := a.slots[i], b.slots[i]
		if (x.e == nil) != (y.e == nil) {
			return fmt.Errorf("slot %d: entry %v, %v", i, x.e != nil, y.e != nil)
		}
		x.e, y.e = nil, nil
		if fx, fy := fmt.Sprintf("%+v", x), fmt.Sprintf("%+v", y); fx != fy {
			return fmt.Errorf("slot %d (sphere %d, wall %d):\n fast    %s\n general %s", i, x.k, x.wall, fx, fy)
		}
		if fx, fy := fmt.Sprintf("%+v", a.L[x.k]), fmt.Sprintf("%+v", b.L[x.k]); fx != fy {
			return fmt.Errorf("slot %d, sphere %d: %s, %s", i, x.k, fx, fy)
		}
		if fx, fy := fmt.Sprintf("%+v", a.R[x.k]), fmt.Sprintf("%+v", b.R[x.k]); fx != fy {
			return fmt.Errorf("slot %d, sphere %d: %s, %s", i, x.k, fx, fy)
		}
		if fx, fy := fmt.Sprintf("%+v %+v", a.prev[i], a.cur[i]), fmt.Sprintf("%+v %+v", b.prev[i], b.cur[i]); fx != fy {
			return fmt.Errorf("slot %d: rim contacts %s, %s", i, fx, fy)
		}
	}
	for _, c := range [][2]string{
		{fmt.Sprint(a.seen), fmt.Sprint(b.seen)}, {fmt.Sprintf("%+v", a.hists), fmt.Sprintf("%+v", b.hists)},
		{fmt.Sprint(a.wallForce), fmt.Sprint(b.wallForce)},
		{fmt.Sprint(a.epot, a.contacts, a.owls, a.mom), fmt.Sprint(b.epot, b.contacts, b.owls, b.mom)},
	} {
		if c[0] != c[1] {
			return fmt.Errorf("fast %.300s\ngeneral %.300s", c[0], c[1])
		}
	}
	return nil
}

// EvalSlotsForBench evaluates w's wall slots as a direct evaluation does
// (sums included), with evalSlots, or with old the loop before session 17
// (no off path: a slot off its plane went through evalSlot), for the
// benchmarks.
func EvalSlotsForBench(w *World, old bool) int {
	s := w.Spheres()
	s.slotPathsReset()
	if !old {
		o, _ := s.evalSlots(0, 0, len(s.slots), w.Dt, true)
		return o
	}
	slots, S := s.slots, s.tr.L
	owls, mom := 0, false
	for i := range slots {
		sl := &slots[i]
		st := &S[sl.k]
		pl := &s.planes[sl.wall]
		r := s.rOf(int(sl.k))
		d := st.X.Sub(pl.P).Dot(pl.N)
		if !(!s.w.Periodic.On() && sl.deep && sl.simple && pl.still && sl.seen && -r < d && d < r && (d >= 0 || sl.pTouch)) {
			ro := &s.tr.R[sl.k]
			s.evalSlot(sl, st, ro, pl, r, d, w.Dt)
			mom = mom || nonZeroBits(ro.T)
			if sl.touch {
				owls += s.sumSlot(sl)
			}
			continue
		}
		ov := -(d - r)
		vn := st.V.Dot(pl.N)
		fn := sl.kn*ov - sl.damp*vn
		if sl.limit && fn < 0 {
			fn = 0
		}
		fs := roundedScale(pl.N, fn)
		st.F = st.F.Add(fs)
		sl.cand, sl.touch, sl.rim, sl.owl = true, true, false, false
		sl.delta, sl.fn, sl.epot, sl.f = ov, fn, float64(0.5*sl.kn*ov*ov), fs
		s.wallForce[sl.wall] = s.wallForce[sl.wall].Add(fs)
		s.epot += sl.epot
		s.contacts++
	}
	_ = mom
	return owls
}

// WallSlotCount returns the number of w's wall slots.
func WallSlotCount(w *World) int { return len(w.Spheres().slots) }
