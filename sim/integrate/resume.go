package integrate

import (
	"fmt"
	"math"
	"sort"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
	"grainlab/sim/world"
)

// State is an integrator's own state between steps, beyond what the world
// holds (World.Dt, the bodies' forces, the contact history): what a state
// file stores so that a restarted run continues bit for bit. Explicit and
// newmark keep nothing else (their start-of-step accelerations are the
// bodies' F/m and Euler's equation with T); variational keeps its count of
// calm steps; cd its step, its warm starts and the contacts it found
// reversed.
type State struct {
	Name string `json:"name"`
	// Calm is variational's count of accepted steps since its step was last reduced.
	Calm int `json:"calm,omitempty"`
	// CDDt is cd's fixed step (0: the world's Δt).
	CDDt float64 `json:"cd_dt,omitempty"`
	// Warm are cd's forces of the last step by contact (its warm starts),
	// Reversed the polyhedron contacts it found penetrated.
	Warm     []CDContact `json:"warm,omitempty"`
	Reversed []CDContact `json:"reversed,omitempty"`
	// KeMax is newmark's largest kinetic energy seen, the scale of its
	// energy check (newmark_budget.go): a restart without it checks the
	// next steps against a smaller allowance and can cut a step the
	// uninterrupted run accepted.
	KeMax float64 `json:"ke_max,omitempty"`
}

// CDContact is one contact of cd's maps: bodies, key (kind, swap, features)
// and the force of the last step.
type CDContact struct {
	A   int      `json:"a"`
	B   int      `json:"b"`
	Key [4]int32 `json:"key"`
	F   float64  `json:"f,omitempty"`
	// Ft is the friction force on A of the last step (world), Slid whether
	// the contact slid: the tangential warm start and the μ_s/μ_d state.
	// Ft is read as a list, so that a wrong count is an error, not numbers
	// dropped or zeros added: exactly 3 when given (the count tag: sim/state
	// names a wrong count with its line when it reads a file).
	Ft   []float64 `json:"ft,omitempty" count:"3"`
	Slid bool      `json:"slid,omitempty"`
}

func cdContact(k cdKey, f float64) CDContact {
	sw := int32(0)
	if k.k.Swap {
		sw = 1
	}
	return CDContact{A: k.a, B: k.b, Key: [4]int32{int32(k.k.Kind), sw, k.k.FA, k.k.FB}, F: f}
}

func (c CDContact) key() cdKey {
	return cdKey{c.A, c.B, contact.Key{Kind: snap.ContactKind(c.Key[0]), Swap: c.Key[1] == 1, FA: c.Key[2], FB: c.Key[3]}}
}

// cdLess orders cd's map entries (maps have no order; the file does).
func cdLess(a, b CDContact) bool {
	if a.A != b.A {
		return a.A < b.A
	}
	if a.B != b.B {
		return a.B < b.B
	}
	for k := range a.Key {
		if a.Key[k] != b.Key[k] {
			return a.Key[k] < b.Key[k]
		}
	}
	return false
}

// sortCD orders cd's map entries.
func sortCD(l []CDContact) { sort.Slice(l, func(i, j int) bool { return cdLess(l[i], l[j]) }) }

// SaveState returns in's own state (State).
func SaveState(in world.Integrator) *State {
	s := &State{Name: in.Name()}
	switch x := in.(type) {
	case *Variational:
		s.Calm = x.calm
	case *Newmark:
		s.KeMax = x.bud.keMax
	case *CD:
		s.CDDt = x.Dt
		for k, f := range x.warm {
			c := cdContact(k, f)
			if t, ok := x.warmT[k]; ok && t != (geom.Vec3{}) {
				c.Ft = []float64{t.X, t.Y, t.Z}
			}
			c.Slid = x.slid[k]
			s.Warm = append(s.Warm, c)
		}
		for k, r := range x.rev {
			if r {
				s.Reversed = append(s.Reversed, cdContact(k, 0))
			}
		}
		sortCD(s.Warm)
		sortCD(s.Reversed)
	}
	return s
}

// RestoreState gives in the state s saved from an integrator of the same
// name; nbodies bounds the body indices of cd's contacts.
func RestoreState(in world.Integrator, s *State, nbodies int) error {
	if s.Name != in.Name() {
		return fmt.Errorf("integrator %q in the file, %q here", s.Name, in.Name())
	}
	switch x := in.(type) {
	case *Variational:
		x.calm = s.Calm
	case *Newmark:
		if !(s.KeMax >= 0) || math.IsInf(s.KeMax, 1) {
			return fmt.Errorf("newmark ke_max %g: want a finite kinetic energy ≥ 0", s.KeMax)
		}
		x.bud.keMax = s.KeMax
	case *CD:
		check := func(l []CDContact) error {
			for _, c := range l {
				if c.A < 0 || c.B < 0 || c.A >= nbodies || c.B >= nbodies || c.Key[0] < 0 || c.Key[0] >= int32(snap.NumContactKinds) {
					return fmt.Errorf("cd contact %d–%d %v: out of range", c.A, c.B, c.Key)
				}
				if len(c.Ft) != 0 && len(c.Ft) != 3 {
					return fmt.Errorf("cd contact %d–%d %v: ft has %d components, want 3", c.A, c.B, c.Key, len(c.Ft))
				}
			}
			return nil
		}
		if err := check(s.Warm); err != nil {
			return err
		}
		if err := check(s.Reversed); err != nil {
			return err
		}
		x.Dt = s.CDDt
		x.warm = make(map[cdKey]float64, len(s.Warm))
		x.warmT = make(map[cdKey]geom.Vec3, len(s.Warm))
		x.slid = make(map[cdKey]bool, len(s.Warm))
		for _, c := range s.Warm {
			x.warm[c.key()] = c.F
			if len(c.Ft) == 3 {
				x.warmT[c.key()] = geom.V(c.Ft[0], c.Ft[1], c.Ft[2])
			}
			if c.Slid {
				x.slid[c.key()] = true
			}
		}
		x.rev = make(map[cdKey]bool, len(s.Reversed))
		for _, c := range s.Reversed {
			x.rev[c.key()] = true
		}
	}
	return nil
}
