package integrate

import (
	"fmt"
	"strings"

	"grainlab/sim/world"
)

// Names lists the integrators New knows, in menu order.
var Names = []string{"explicit", "newmark", "variational", "variational1", "cd"}

// New returns a fresh integrator by name, with its default options.
func New(name string) (world.Integrator, error) {
	switch name {
	case "explicit", "":
		return &Explicit{}, nil
	case "newmark":
		return NewNewmark(), nil
	case "variational":
		return NewVariational(0.5), nil // S2: α = ½, second order
	case "variational1":
		return NewVariational(0), nil // S2: α = 0, first order
	case "cd":
		return NewCD(), nil // S3: APGD with the compatible forces
	}
	return nil, fmt.Errorf("unknown integrator %q (available: %s)", name, strings.Join(Names, ", "))
}

// NewFor returns New(name) set up to take over w, or Check's reason why it
// cannot run w: a contact-dynamics integrator steps at the scene's largest
// step (Settings.DtMax) instead of inheriting the small adaptive step an
// explicit run leaves behind. (The other integrators size their own steps
// from the contact laws whenever they step: stepcontrol.go.)
func NewFor(name string, w *world.World) (world.Integrator, error) {
	if err := Check(name, w); err != nil {
		return nil, err
	}
	in, err := New(name)
	if err != nil {
		return nil, err
	}
	if c, ok := in.(*CD); ok {
		c.Dt = w.Settings.DtMax
	}
	return in, nil
}

// Check returns why integrator name cannot run the world w (a scene it
// has no model for), or nil. An unknown name is New's error. NewFor refuses
// with it; a command line that selects the integrator should map it to bad
// input (exit code 2), the window shows it and keeps the old integrator.
//
// Refused: cd on a world with rolling resistance (a smooth law's mu_roll >
// 0): contact dynamics (S3) solves for normal (and Coulomb) contact
// impulses only, so the rolling-resistance torque would be dropped without
// a word.
func Check(name string, w *world.World) error {
	if _, err := New(name); err != nil {
		return err
	}
	if name != "cd" {
		return nil
	}
	n := len(w.Materials)
	for a := 0; a < n; a++ {
		for b := a; b < n; b++ {
			p := w.Params(a, b)
			if p != nil && p.HasSmooth && p.Smooth.MuRoll > 0 {
				return fmt.Errorf("integrator cd cannot run this scene: contact %s–%s has rolling resistance (mu_roll %g), which contact dynamics (S3) does not model; use explicit, newmark, variational or variational1",
					w.Materials[a], w.Materials[b], p.Smooth.MuRoll)
			}
		}
	}
	return nil
}
