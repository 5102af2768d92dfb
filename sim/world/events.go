package world

import (
	"fmt"
	"math"
	"strings"
)

// Event is a timed change applied between steps (a scene's `events`).
type Event struct {
	At      float64
	Disable []string // walls to turn off
	Enable  []string // walls to turn on
	Set     []Assign // parameter changes
	Done    bool
	Source  string // where it was declared, for messages
}

// Assign sets one parameter by dotted path, as `--set` does.
type Assign struct {
	Path  string
	Value float64
}

// ApplyEvents applies every pending event whose time has come (t ≥ At).
func (w *World) ApplyEvents() error {
	for i := range w.Events {
		ev := &w.Events[i]
		if ev.Done || w.Time+1e-12 < ev.At {
			continue
		}
		ev.Done = true
		for _, n := range ev.Disable {
			if err := w.SetWallEnabled(n, false); err != nil {
				return fmt.Errorf("%s: %w", ev.Source, err)
			}
		}
		for _, n := range ev.Enable {
			if err := w.SetWallEnabled(n, true); err != nil {
				return fmt.Errorf("%s: %w", ev.Source, err)
			}
		}
		for _, a := range ev.Set {
			if err := w.SetParam(a.Path, a.Value); err != nil {
				return fmt.Errorf("%s: %w", ev.Source, err)
			}
		}
	}
	return nil
}

// NextEventTime returns the time of the earliest pending event, or +Inf.
func (w *World) NextEventTime() float64 {
	t := math.Inf(1)
	for i := range w.Events {
		if !w.Events[i].Done && w.Events[i].At < t {
			t = w.Events[i].At
		}
	}
	return t
}

// SetParam changes a contact parameter of the running world by dotted path:
// contact.default.<key> or contact.<matA>.<matB>.<key>, with key one of
// gbar, eps1, n1, f, n2, zeta, mu_s, mu_d, eps_t, c_t (polyhedra) or kn,
// gamma_n, kt, gamma_t, youngs_modulus, poisson_ratio, restitution, mu,
// mu_roll, curvature_cap (spheres, superquadrics). The change is validated
// first; an invalid value is refused and nothing changes.
func (w *World) SetParam(path string, v float64) error {
	parts := strings.Split(path, ".")
	if len(parts) < 3 || parts[0] != "contact" {
		return fmt.Errorf("%s: only contact.* parameters can change while running", path)
	}
	var a, b int
	key := parts[len(parts)-1]
	switch {
	case len(parts) == 3 && parts[1] == "default":
		a, b = 0, 0
	case len(parts) == 4:
		a, b = w.materialIndex(parts[1]), w.materialIndex(parts[2])
		if a < 0 || b < 0 {
			return fmt.Errorf("%s: unknown material", path)
		}
	default:
		return fmt.Errorf("%s: expected contact.default.<key> or contact.<matA>.<matB>.<key>", path)
	}
	p := *w.Params(a, b)
	if err := SetField(&p, key, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if a == 0 && b == 0 {
		*w.params[0][0] = p
	} else {
		w.params[a][b], w.params[b][a] = &p, &p
	}
	w.skin = 0 // ḡ may have changed
	w.invalidate()
	w.Edits = append(w.Edits, Edit{Time: w.Time, Path: path, Value: v})
	return nil
}

// SetField sets one named field of p (no validation).
func SetField(p *ContactParams, key string, v float64) error {
	switch key {
	case "gbar":
		p.Normal.GBar = v
	case "eps1":
		p.Normal.Eps1 = v
	case "n1":
		p.Normal.N1 = v
	case "f":
		p.Normal.F = v
	case "n2":
		p.Normal.N2 = v
	case "zeta":
		p.Zeta = v
	case "damp_band":
		p.DampBand = v
	case "mu_s":
		p.Friction.MuS = v
	case "mu_d":
		p.Friction.MuD = v
	case "eps_t":
		p.Friction.EpsT = v
	case "c_t":
		p.Friction.CT = v
	case "kn":
		p.Smooth.Kn = v
	case "gamma_n":
		p.Smooth.GammaN = v
	case "kt":
		p.Smooth.Kt = v
	case "gamma_t":
		p.Smooth.GammaT = v
	case "youngs_modulus":
		p.Smooth.E = v
	case "poisson_ratio":
		p.Smooth.Nu = v
	case "restitution":
		p.Smooth.Restitution = v
	case "mu":
		p.Smooth.Mu = v
	case "mu_roll":
		p.Smooth.MuRoll = v
	case "curvature_cap":
		p.Smooth.CapQ = v
	default:
		return fmt.Errorf("unknown contact parameter %q", key)
	}
	return nil
}

func (w *World) materialIndex(name string) int {
	for i, m := range w.Materials {
		if m == name {
			return i
		}
	}
	return -1
}
