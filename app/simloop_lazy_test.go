package app

import (
	"testing"
	"time"
)

// settledSpheres is S2 §3.4's box of 218 spheres (the soft variant) from its
// settled state: a sphere-path world with a few hundred contacts.
func settledSpheres() Options {
	return Options{Scene: "sphere-box-soft", Workers: 2, Time: 100, Restart: "../sim/validation/testdata/sphere-box-soft-218-settled.json"}
}

// TestSimLoopLazySpheres: the window's loop keeps the sphere path's bodies
// lazy. Over 150 single steps, each published (150 frames), the loop writes
// the bodies 0 times (one body sync per published frame or step before
// lazy bodies: the steps wrote them), the world's bodies lag behind its flat
// state at the end, and every published frame equals, bit for bit, the
// frame of a loop that writes the bodies every step (positions,
// orientations, velocities, contacts, energies).
func TestSimLoopLazySpheres(t *testing.T) {
	const steps = 150
	run := func(eager bool) ([]*LoopState, *SimLoop) {
		l := startLoop(t, settledSpheres(), func(l *SimLoop) {
			l.KeyEvery = 1 << 20 // no periodic keyframe (a keyframe writes the bodies)
			if eager {
				l.eager = true
				l.sim.World.SetLazyBodies(false)
			}
		})
		var out []*LoopState
		for range steps {
			l.Step()
			out = append(out, sync1(t, l))
		}
		l.Close()
		return out, l
	}
	lazy, l := run(false)
	eager, _ := run(true)
	if n := l.bodySyncs.Load(); n != 0 {
		t.Errorf("the loop wrote the bodies %d times over %d published frames, want 0", n, len(lazy))
	}
	if !l.sim.World.BodiesLag() {
		t.Errorf("the bodies are current after the steps: the steps wrote them (lazy bodies off)")
	}
	if l.History().Len() < steps {
		t.Fatalf("%d frames recorded, want ≥ %d", l.History().Len(), steps)
	}
	contacts := 0
	for i := range lazy {
		a, b := lazy[i].Snap, eager[i].Snap
		if a.Stats.Step != b.Stats.Step || a.Stats.Time != b.Stats.Time || a.Stats.Kinetic != b.Stats.Kinetic || len(a.Contacts) != len(b.Contacts) {
			t.Fatalf("frame %d: lazy step %d t=%v Ek=%v %d contacts, eager step %d t=%v Ek=%v %d contacts", i,
				a.Stats.Step, a.Stats.Time, a.Stats.Kinetic, len(a.Contacts), b.Stats.Step, b.Stats.Time, b.Stats.Kinetic, len(b.Contacts))
		}
		for k := range a.Bodies {
			p, q := &a.Bodies[k], &b.Bodies[k]
			if p.Pos != q.Pos || p.Rot != q.Rot || p.Vel != q.Vel || p.AngVel != q.AngVel || p.ContactForce != q.ContactForce {
				t.Fatalf("frame %d body %d: lazy x=%v q=%v v=%v ω=%v, eager x=%v q=%v v=%v ω=%v", i, k,
					p.Pos, p.Rot, p.Vel, p.AngVel, q.Pos, q.Rot, q.Vel, q.AngVel)
			}
		}
		for k := range a.Contacts {
			if a.Contacts[k] != b.Contacts[k] {
				t.Fatalf("frame %d contact %d: lazy %+v, eager %+v", i, k, a.Contacts[k], b.Contacts[k])
			}
		}
		contacts = len(a.Contacts)
	}
	if contacts < 100 {
		t.Fatalf("%d contacts at the end: the comparison needs a loaded box", contacts)
	}
}

// TestSimLoopOnDemand: with OnDemand a running loop publishes only when
// the view asked for a frame (Want): playing as fast as possible for a
// while without asking adds no frame; each Want then brings exactly one
// newer frame; commands still publish at once; a keyframe follows after
// KeyEvery publication intervals of wall time even with fewer frames. With
// a Share too small for any publication to fit, the periodic frames stop
// after the first.
func TestSimLoopOnDemand(t *testing.T) {
	l := startLoop(t, settledSpheres(), func(l *SimLoop) {
		l.OnDemand, l.PublishInterval = true, time.Millisecond
	})
	l.SetSpeed(1, true)
	l.Play()
	st := sync1(t, l) // commands publish
	if !st.Playing {
		t.Fatalf("not playing: %s (t=%g)", st.Status, st.Snap.Stats.Time)
	}
	n0 := l.History().Len()
	time.Sleep(100 * time.Millisecond)
	if n := l.History().Len(); n != n0 {
		t.Fatalf("%d frames published while playing without a request, want 0", n-n0)
	}
	for i := range 5 {
		before := l.State()
		l.Want()
		deadline := time.Now().Add(10 * time.Second)
		for l.State() == before && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := l.State(); got == before || got.Snap.Stats.Step <= before.Snap.Stats.Step {
			t.Fatalf("request %d: no newer frame (step %d, before %d)", i, got.Snap.Stats.Step, before.Snap.Stats.Step)
		}
		time.Sleep(20 * time.Millisecond) // ≫ PublishInterval: a second frame would be out by now
		if n := l.History().Len(); n != n0+i+1 {
			t.Fatalf("after %d requests %d frames, want %d", i+1, n-n0, i+1)
		}
	}

	// Five frames over ≥ 80 ms of wall time, fewer than KeyEvery (30), but
	// more than KeyEvery publication intervals (30 ms): a periodic keyframe
	// newer than the first of them (the branch replays stay short).
	h := l.History()
	first, last := h.Time(n0), h.Time(h.Len()-1)
	if k, ok := h.KeyframeAt(last); !ok || !(k.Time > first) {
		t.Fatalf("newest keyframe at t=%v, want one after the first on-demand frame t=%v", k.Time, first)
	}

	// Share: the next periodic publication waits cost/Share ≥ 1 µs / 1e-9 = 1000 s.
	l.Close()
	m := startLoop(t, settledSpheres(), func(l *SimLoop) {
		l.OnDemand, l.PublishInterval, l.Share = true, time.Millisecond, 1e-9
	})
	m.SetSpeed(1, true)
	m.Play()
	sync1(t, m)
	n0 = m.History().Len()
	for range 50 {
		m.Want()
		time.Sleep(2 * time.Millisecond)
	}
	if n := m.History().Len() - n0; n > 1 {
		t.Fatalf("%d periodic frames with a share of 1e-9, want at most 1", n)
	}
}
