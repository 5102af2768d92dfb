// Command grainlab watches, tunes and debugs discrete-element simulations of
// granular matter: rigid polyhedra, superquadrics and spheres.
package main

import (
	"os"

	"grainlab/app"
)

func main() {
	os.Exit(app.Main(os.Args[1:], os.Stdout, os.Stderr))
}
