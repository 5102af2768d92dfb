package integrate

import (
	"fmt"
	"strings"

	"grainlab/sim/world"
)

// Names lists the integrators New knows, in menu order.
var Names = []string{"explicit"}

// New returns a fresh integrator by name, with its default options.
func New(name string) (world.Integrator, error) {
	switch name {
	case "explicit", "":
		return &Explicit{}, nil
	}
	return nil, fmt.Errorf("unknown integrator %q (available: %s)", name, strings.Join(Names, ", "))
}
