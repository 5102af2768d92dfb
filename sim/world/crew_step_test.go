package world_test

import (
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/world"
)

// Eval.Move and Commit.Move run a per-body move inside the placing pass
// and Commit's pass; the result must be that of running the move on every
// body first and then Evaluate or Commit, to the bit: forces, moments and
// every contact, on the 300-tetrapod collapse from its packed state, with
// one worker and two.
func TestMovedPassesSameBits(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	for _, workers := range []int{1, 2} {
		a := startScene(t, "box-of-tetrapods", packed)
		b := startScene(t, "box-of-tetrapods", packed)
		a.Settings.Workers, b.Settings.Workers = workers, workers
		for step := 0; step < 5; step++ {
			dt := a.Dt
			// The moves' products are rounded (float64(x*y)): each call of
			// drift and kick below is compiled into its own copy of the
			// closure, and on FMA builds (GOAMD64=v3, arm64) two copies may
			// fuse x + s*y differently (docs/ARCHITECTURE.md, "Determinism
			// and fused multiply-adds").
			addScaled := func(x geom.Vec3, s float64, y geom.Vec3) geom.Vec3 {
				return geom.Vec3{X: x.X + float64(s*y.X), Y: x.Y + float64(s*y.Y), Z: x.Z + float64(s*y.Z)}
			}
			drift := func(w *world.World) func(i int) {
				return func(i int) {
					if bd := w.Bodies()[i]; !bd.Fixed {
						bd.V = addScaled(bd.V, 0.5*dt*bd.InvMass(), bd.F)
						bd.X = addScaled(bd.X, dt, bd.V)
					}
				}
			}
			kick := func(w *world.World) func(i int) {
				return func(i int) {
					if bd := w.Bodies()[i]; !bd.Fixed {
						bd.V = addScaled(bd.V, 0.5*dt*bd.InvMass(), bd.F)
					}
				}
			}
			da, ka := drift(a), kick(a)
			for i := range a.Bodies() {
				da(i)
			}
			ra := a.Evaluate(a.Time+dt, dt, world.Eval{})
			rb := b.Evaluate(b.Time+dt, dt, world.Eval{Move: drift(b)})
			if ra != rb {
				t.Fatalf("workers %d, step %d: night owls %d/%d, bad %v/%v", workers, step, ra.NightOwls, rb.NightOwls, ra.Bad, rb.Bad)
			}
			for i := range a.Bodies() {
				ka(i)
			}
			a.Commit(world.Commit{})
			b.Commit(world.Commit{Move: kick(b)})
			a.Time += dt
			b.Time += dt
			for i, ba := range a.Bodies() {
				bb := b.Bodies()[i]
				if ba.X != bb.X || ba.V != bb.V || ba.F != bb.F || ba.T != bb.T {
					t.Fatalf("workers %d, step %d, body %d: X %v/%v V %v/%v F %v/%v T %v/%v", workers, step, i, ba.X, bb.X, ba.V, bb.V, ba.F, bb.F, ba.T, bb.T)
				}
			}
			var ca, cb []contact.Contact
			a.EachContact(func(_, _ int, c *contact.Contact) { ca = append(ca, *c) })
			b.EachContact(func(_, _ int, c *contact.Contact) { cb = append(cb, *c) })
			if len(ca) != len(cb) || len(ca) == 0 {
				t.Fatalf("workers %d, step %d: %d and %d contacts", workers, step, len(ca), len(cb))
			}
			for k := range ca {
				if ca[k].Fn != cb[k].Fn || ca[k].Ft != cb[k].Ft || ca[k].Gn != cb[k].Gn || ca[k].PA != cb[k].PA || ca[k].N != cb[k].N {
					t.Fatalf("workers %d, step %d, contact %d differs: %+v / %+v", workers, step, k, ca[k], cb[k])
				}
			}
			// The step bound reads the committed state: the same too.
			if sa, sb := a.StableDt(), b.StableDt(); sa != sb {
				t.Fatalf("workers %d, step %d: StableDt %g / %g", workers, step, sa, sb)
			}
		}
	}
}

// An explicit step of the collapse forks and joins at most seven times with
// two workers (placing with the kick–drift fused in, the pair pass, the
// accumulation, the closing kick and the statistics' body terms with
// Commit, the step bound's speeds and pairs, the travel bound) and a rejected
// attempt three times (placing, pair pass, accumulation); with one worker
// never. Each fork–join hands out at least one batch, and the helpers run
// no more batches than there are.
func TestExplicitStepForkJoins(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	for _, workers := range []int{1, 2} {
		w := startScene(t, "box-of-tetrapods", packed)
		w.Settings.Workers = workers
		p0, rej0 := w.Stats.Profile, w.Stats.Rejected
		const steps = 30
		for i := 0; i < steps; i++ {
			if _, err := w.Integrator.Step(w, 1); err != nil {
				t.Fatal(err)
			}
		}
		p := w.Stats.Profile.Sub(p0)
		rejected := w.Stats.Rejected - rej0
		if workers == 1 {
			if p.ForkJoins != 0 || p.Batches != 0 || p.Helped != 0 {
				t.Errorf("one worker: %d fork–joins, %d batches, %d helped", p.ForkJoins, p.Batches, p.Helped)
			}
		} else if limit := 7*int64(steps) + 3*rejected; p.ForkJoins == 0 || p.ForkJoins > limit {
			t.Errorf("two workers: %d fork–joins in %d steps and %d rejected attempts, want 1 to %d", p.ForkJoins, steps, rejected, limit)
		}
		if p.Batches < p.ForkJoins || p.Helped > p.Batches || p.Parallel <= 0 || p.Parallel > p.Total() {
			t.Errorf("workers %d: %d fork–joins, %d batches, %d helped, parallel %v of %v", workers, p.ForkJoins, p.Batches, p.Helped, p.Parallel, p.Total())
		}
	}
}

// The accumulation splits the bodies into one range per worker, each
// worker walking every pair with contacts: every body's force and moment
// and every wall's force must be those of one worker, to the bit, with two,
// three and five workers, over steps of the collapse whose contacts change.
func TestAccumulateSameBitsAnyWorkers(t *testing.T) {
	const packed = "../../assets/states/box-of-tetrapods-300-packed.json"
	ws := map[int]*world.World{}
	for _, nw := range []int{1, 2, 3, 5} {
		ws[nw] = startScene(t, "box-of-tetrapods", packed)
		ws[nw].Settings.Workers = nw
	}
	for step := 0; step < 6; step++ {
		for _, w := range ws {
			dt := 4 * w.Dt
			for _, bd := range w.Bodies() {
				if !bd.Fixed {
					bd.V = bd.V.AddScaled(0.5*dt*bd.InvMass(), bd.F)
					bd.X = bd.X.AddScaled(dt, bd.V)
				}
			}
			w.Evaluate(w.Time+dt, dt, world.Eval{})
			w.Commit(world.Commit{})
		}
		one := ws[1]
		moved := 0
		for nw, w := range ws {
			for i, b := range w.Bodies() {
				if b1 := one.Bodies()[i]; b.F != b1.F || b.T != b1.T {
					t.Fatalf("step %d, %d workers, body %d: F %v T %v, one worker F %v T %v", step, nw, i, b.F, b.T, b1.F, b1.T)
				}
			}
			for k := range w.Walls {
				if w.Walls[k].Force != one.Walls[k].Force {
					t.Fatalf("step %d, %d workers, wall %d: force %v, one worker %v", step, nw, k, w.Walls[k].Force, one.Walls[k].Force)
				}
				if one.Walls[k].Force != (geom.Vec3{}) {
					moved++
				}
			}
		}
		if moved == 0 {
			t.Fatalf("step %d: no wall bears a force", step)
		}
	}
}
