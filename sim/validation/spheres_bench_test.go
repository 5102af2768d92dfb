package validation

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/internal/cputime"
	"grainlab/sim/lammps"
	"grainlab/sim/world"
)

// sphereLattice returns the sphere-box-soft world (Hookean, frictionless,
// d = 2 mm) with n spheres instead of its 218, placed without the scene's
// generator: on a simple cubic lattice of pitch 1.02 d in a box of side m
// pitches (m = ⌈√(n/40)⌉, about 40 layers deep) with a jitter of 0.01 d
// and velocities up to 0.05 m/s, in a shuffled order (seed 1) — as the
// generator lists them, with no spatial order. Set-up is O(n), so the
// path can be measured from 5 000 to 10⁶ spheres; the spheres settle from
// the start (contacts form within a few steps).
func sphereLattice(t testing.TB, n int) *world.World {
	t.Helper()
	const d = 0.002
	pitch := 1.02 * d
	m := int(math.Ceil(math.Sqrt(float64(n) / 40)))
	layers := (n + m*m - 1) / (m * m)
	side := float64(m) * pitch
	height := float64(layers+2) * pitch
	w := load(t, "sphere-box-soft", "generators.s.count=1",
		fmt.Sprintf("walls.box.max=[%g, %g, %g]", side, side, height),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", side, side, height))
	var proto *body.Body
	bodies := w.Bodies()[:0]
	for _, b := range w.Bodies() {
		if b.Wall >= 0 {
			bodies = append(bodies, b)
		} else {
			proto = b
		}
	}
	w.SetBodies(bodies)
	rng := rand.New(rand.NewPCG(1, 2))
	order := rng.Perm(n)
	for _, c := range order {
		i, j, k := c%m, (c/m)%m, c/(m*m)
		jit := func() float64 { return (rng.Float64() - 0.5) * 0.01 * d }
		x := geom.V((float64(i)+0.5)*pitch+jit(), (float64(j)+0.5)*pitch+jit(), (float64(k)+0.5)*pitch+jit())
		b := body.NewSphere(fmt.Sprintf("s%d", c), proto.R, proto.Density(), x)
		b.Material = proto.Material
		b.V = geom.V(rng.Float64()-0.5, rng.Float64()-0.5, rng.Float64()-0.5).Scale(0.1)
		w.AddBody(b)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// BenchmarkStepSpheresN times explicit steps of n settling spheres
// (sphereLattice) on the sphere path with one worker and with two (split
// always), after 100 steps of warm-up, and reports µs per particle-step (the
// unit of LAMMPS' timings). -benchtime should be a step count (e.g. 200x)
// at large n. Compare runs with benchstat over interleaved runs.
func BenchmarkStepSpheresN(b *testing.B) {
	for _, n := range []int{5000, 20000, 50000, 100000} {
		for _, c := range []struct {
			name    string
			workers int
			split   world.SplitMode
		}{{"W1", 1, world.SplitNever}, {"W2", 2, world.SplitAlways}} {
			b.Run(fmt.Sprintf("N%d/%s", n, c.name), func(b *testing.B) {
				w := sphereLattice(b, n)
				w.Settings.Workers, w.Settings.SphereSplit = c.workers, c.split
				for range 100 {
					if _, err := w.Integrator.Step(w, 1); err != nil {
						b.Fatal(err)
					}
				}
				b.ResetTimer()
				cpu0 := cputime.Process().Seconds()
				contacts := 0
				for i := 0; i < b.N; i++ {
					if _, err := w.Integrator.Step(w, 1); err != nil {
						b.Fatal(err)
					}
					contacts += w.Stats.Contacts
				}
				b.StopTimer()
				cpu := cputime.Process().Seconds() - cpu0
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N)/float64(n), "µs/particle")
				b.ReportMetric(cpu*1e6/float64(b.N)/float64(n), "cpu-µs/particle")
				b.ReportMetric(float64(contacts)/float64(b.N)/float64(n), "contacts/particle")
			})
		}
	}
}

// BenchmarkLAMMPSSpheresN runs the deck `grainlab lammps` would write
// (lammps.Write) for sphereLattice(n) after the same 100 warm-up steps,
// b.N steps of Grainlab's current step, in Debian's serial LAMMPS (lmp),
// and reports its CPU time per particle-step (getrusage of the child: the
// set-up of lmp included, as Grainlab's BenchmarkStepSpheresN excludes its
// own; with b.N ≥ 200 it is a few percent). Skipped without lmp.
func BenchmarkLAMMPSSpheresN(b *testing.B) {
	lmp, err := exec.LookPath("lmp")
	if err != nil {
		b.Skip("lmp not installed")
	}
	for _, n := range []int{5000, 20000, 50000, 100000} {
		b.Run(fmt.Sprintf("N%d", n), func(b *testing.B) {
			w := sphereLattice(b, n)
			for range 100 {
				if _, err := w.Integrator.Step(w, 1); err != nil {
					b.Fatal(err)
				}
			}
			deck, err := lammps.Write(w, lammps.Options{Steps: b.N, Dt: w.Dt})
			if err != nil {
				b.Fatal(err)
			}
			dir := b.TempDir()
			if err := os.WriteFile(filepath.Join(dir, lammps.DataName), deck.Data, 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "in.lammps"), deck.Input, 0o644); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(lmp, "-in", "in.lammps", "-log", "none", "-screen", "none")
			cmd.Dir = dir
			b.ResetTimer()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("lmp: %v\n%s", err, out)
			}
			b.StopTimer()
			cpu := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
			b.ReportMetric(cpu*1e6/float64(b.N)/float64(n), "cpu-µs/particle")
		})
	}
}
