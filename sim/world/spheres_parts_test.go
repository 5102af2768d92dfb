package world_test

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// partsLattice returns n spheres of sphere-box-soft (frictionless Hooke) on
// a jittered lattice 1% wider than their diameter, in random body order,
// with random velocities of 0.1 m/s (pairs close and part within the first
// steps, the list is rebuilt every few steps) and, with two radii, two
// species (pair classes by species pair).
// emptySphereBox builds sphere-box-soft with the overrides given and takes
// its one generated sphere out: the world keeps its walls and material,
// and the sphere is returned as the prototype of the spheres a test adds.
func emptySphereBox(t *testing.T, sets ...string) (*world.World, *body.Body) {
	t.Helper()
	sp, err := scene.LoadBuiltin("sphere-box-soft", append([]string{"generators.s.count=1"}, sets...)...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(sp)
	if err != nil {
		t.Fatal(err)
	}
	var proto *body.Body
	keep := w.Bodies()[:0]
	for _, b := range w.Bodies() {
		if b.Wall >= 0 {
			keep = append(keep, b)
		} else {
			proto = b
		}
	}
	w.SetBodies(keep)
	return w, proto
}

func partsLattice(t *testing.T, n int, radii []float64) *world.World {
	return sphereLattice(t, n, radii, latticeSpec{pitch: 1.01, perLayer: 40, jitter: 0.01, speed: 0.2, seed: [2]uint64{3, 4}})
}

// partsWorld is partsLattice on workers (every evaluation split) and, with
// mu > 0, friction: a third of the spheres of another material whose pair
// with the default has its own law (the list keeps laws), both laws with
// friction coefficient mu.
func partsWorld(t *testing.T, n int, radii []float64, workers int, mu float64) *world.World {
	t.Helper()
	w := partsLattice(t, n, radii)
	w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
	if mu > 0 {
		other := w.Material("other")
		for k, b := range w.Bodies() {
			if b.Wall < 0 && k%3 == 0 {
				b.Material = other
			}
		}
		for _, set := range []string{"contact.default.mu", "contact.other.default.mu"} {
			if err := w.SetParam(set, mu); err != nil {
				t.Fatal(err)
			}
		}
	}
	return w
}

// latticeSpec is a test lattice of spheres (sphereLattice): the pitch and
// the jitter in diameters, at least n/perLayer sites a layer, speeds up to
// speed/2 a component, and the random stream's seed.
type latticeSpec struct {
	pitch, jitter, speed float64
	perLayer             int
	seed                 [2]uint64
}

// sphereLattice is n spheres of the given radii (sphere c of radii[c %
// len]) on a jittered cubic lattice in the empty sphere box, in random
// order, with random velocities, started (integrate.Start).
func sphereLattice(t *testing.T, n int, radii []float64, ls latticeSpec) *world.World {
	t.Helper()
	const d = 0.002
	pitch := ls.pitch * d
	m := 1
	for m*m*ls.perLayer < n {
		m++
	}
	layers := (n + m*m - 1) / (m * m)
	side, height := float64(m)*pitch, float64(layers+2)*pitch
	w, proto := emptySphereBox(t,
		fmt.Sprintf("walls.box.max=[%g, %g, %g]", side, side, height),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", side, side, height))
	rng := rand.New(rand.NewPCG(ls.seed[0], ls.seed[1]))
	for _, c := range rng.Perm(n) {
		i, j, k := c%m, (c/m)%m, c/(m*m)
		jit := func() float64 { return (rng.Float64() - 0.5) * ls.jitter * d }
		x := geom.V((float64(i)+0.5)*pitch+jit(), (float64(j)+0.5)*pitch+jit(), (float64(k)+0.5)*pitch+jit())
		b := body.NewSphere(fmt.Sprintf("s%d", c), radii[c%len(radii)], proto.Density(), x)
		b.Material = proto.Material
		b.V = geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(ls.speed)
		w.AddBody(b)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// A split evaluation by parts of spheres (evalParts: each part adds to its
// own spheres the forces of their pairs in pair order, the pairs between
// parts evaluated once for each side) gives the bits of the direct
// evaluation of one worker: 4500 frictionless Hookean spheres, in Morton
// order, colliding on a tight lattice for 300 steps (a rebuild every few
// steps) on 1, 2, 3 and 5 workers with every evaluation split give the
// same energies, contact counts and Δt at every step and the same final
// bodies; with one radius (one pair class) and two (a table of classes).
func TestSpherePathPartsAnyWorkers(t *testing.T) {
	for _, radii := range [][]float64{{0.001}, {0.001, 0.0009}} {
		t.Run(fmt.Sprintf("species=%d", len(radii)), func(t *testing.T) {
			run := func(workers int) (string, int, int) {
				w := partsLattice(t, 4500, radii)
				w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
				out, most, parts := "", 0, 0
				for range 300 {
					if workers > 1 && world.SpherePartsReady(w) {
						parts++
					}
					if _, err := w.Integrator.Step(w, 1); err != nil {
						t.Fatal(err)
					}
					st := &w.Stats
					out += fmt.Sprintf("%x %x %x %d %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
					most = max(most, st.Contacts)
				}
				if _, _, _, ordered := world.SphereArrays(w); !ordered {
					t.Fatal("the spheres are not in Morton order")
				}
				w.SyncBodies()
				for _, b := range w.Bodies() {
					out += fmt.Sprintf("%x %x|", b.X, b.V)
				}
				t.Logf("%d workers: up to %d contacts, %d of 300 evaluations by parts, %d pairs cross between parts, %d list builds",
					workers, most, parts, world.SphereCrossPairs(w), w.VerletBuilds())
				return out, most, parts
			}
			ref, most, _ := run(1)
			if most < 1000 {
				t.Fatalf("only %d contacts at most: the lattice does not collide", most)
			}
			for _, nw := range []int{2, 3, 5} {
				got, _, parts := run(nw)
				if parts < 250 {
					t.Errorf("%d workers: %d of 300 evaluations by parts", nw, parts)
				}
				if got != ref {
					t.Errorf("%d workers differ from one", nw)
				}
			}
		})
	}
}

// partsDigest steps w (a partsWorld) one step at a time and returns a
// digest of every step's statistics and of the final bodies' x, v, ω (and
// F with force): the same digest on 1, 2 and 3 workers is the same bits.
func partsDigest(t *testing.T, w *world.World, steps int, force bool) string {
	t.Helper()
	h := sha256.New()
	for step := range steps {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		st := &w.Stats
		fmt.Fprintf(h, "%x %x %x %d %x|", st.Kinetic, st.PotentialContact, st.PotentialGravity, st.Contacts, st.Dt)
	}
	w.SyncBodies()
	for _, b := range w.Bodies() {
		if force {
			fmt.Fprintf(h, "%x %x %x %x|", b.X, b.V, b.W, b.F)
		} else {
			fmt.Fprintf(h, "%x %x %x|", b.X, b.V, b.W)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}
