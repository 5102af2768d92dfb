package integrate

import (
	"fmt"
	"strings"

	"grainlab/sim/world"
)

// Names lists the integrators New knows, in menu order.
var Names = []string{"explicit", "newmark", "variational", "variational1"}

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
	}
	return nil, fmt.Errorf("unknown integrator %q (available: %s)", name, strings.Join(Names, ", "))
}
