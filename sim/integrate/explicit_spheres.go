package integrate

import (
	"fmt"
	"math"

	"grainlab/sim/world"
)

// stepSpheres is Step on the world's sphere path (world.Spheres): the same
// velocity Verlet, rejections and step-size rule, on flat arrays. The
// accepted state is in the bodies; a trial step reads them and writes the
// flat trial state, so a rejection needs no roll-back.
func (x *Explicit) stepSpheres(w *world.World, s *world.Spheres, dtMax float64) (float64, error) {
	dt := math.Min(w.Dt, dtMax)
	rt := newRetry(w, x.Name(), 0.25, nil)
	for {
		s.Drift(dt)
		owls, bad := s.Evaluate(w.Time+dt, dt)
		if !bad && owls == 0 {
			break
		}
		w.Stats.NightOwls += int64(owls)
		next, err := rt.reject(dt, rejectWhy(bad))
		if err != nil {
			if bad {
				return 0, err
			}
			// Night owls at the smallest step: accept them; they are now candidates.
			s.Drift(dt)
			s.Evaluate(w.Time+dt, dt)
			break
		}
		dt = next
	}
	s.Accept(0.5 * dt) // the second half kick, the state to the bodies
	w.Time += dt
	w.Steps++
	w.Stats.Dt = dt
	w.Dt = math.Min(dt*1.25, s.StableDt())
	return dt, nil
}

// startSpheres is Start on the sphere path: the forces of the bodies' state.
func startSpheres(w *world.World, s *world.Spheres) error {
	tr := s.Trial()
	for k, b := range s.Bodies() {
		st := &tr.S[k]
		st.X, st.V, st.W, st.Q = b.X, b.V, b.W, b.Q
	}
	if _, bad := s.Evaluate(w.Time, 0); bad {
		return fmt.Errorf("t=%g s: the initial state has penetrating or non-finite contacts", w.Time)
	}
	s.Accept(0)
	if w.Dt <= 0 {
		w.Dt = w.Settings.Dt
	}
	w.Dt = math.Min(w.Dt, s.StableDt())
	w.Stats.Dt = w.Dt
	return nil
}
