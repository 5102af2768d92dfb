package lammps_test

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/dump"
	"grainlab/sim/geom"
	"grainlab/sim/integrate"
	"grainlab/sim/lammps"
	"grainlab/sim/scene"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// The states the decks start from: the soft box (sphere-box-soft) settled
// for 1 s, and the box at S2's stiffness (sphere-box) at 0.1 s, while its
// spheres fall and collide (`grainlab run sphere-box --time 0.1`, its
// final.json).
const (
	settled = "../validation/testdata/sphere-box-soft-218-settled.json"
	falling = "../validation/testdata/sphere-box-218-t0.1.json"
)

// box returns the S2 §3.4 box of 218 spheres in its soft variant
// (sphere-box-soft) settled for 1 s, started.
func box(t *testing.T, sets ...string) *world.World {
	t.Helper()
	return boxAt(t, "sphere-box-soft", settled, sets...)
}

// boxAt returns the scene name with the states of file, started.
func boxAt(t *testing.T, name, settled string, sets ...string) *world.World {
	t.Helper()
	s, err := scene.LoadBuiltin(name, sets...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	f, err := state.Read(settled)
	if err != nil {
		t.Fatal(err)
	}
	if err := state.Apply(w, f, settled); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(w); err != nil {
		t.Fatal(err)
	}
	return w
}

// atoms parses the Atoms section of a data file: id → diameter, density, x, y, z.
func atoms(t *testing.T, data []byte) map[int][5]float64 {
	t.Helper()
	out := map[int][5]float64{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "Atoms"):
			in = true
			continue
		case strings.HasPrefix(line, "Velocities"):
			in = false
		}
		f := strings.Fields(line)
		if !in || len(f) != 7 {
			continue
		}
		id, _ := strconv.Atoi(f[0])
		var v [5]float64
		for i := range v {
			x, err := strconv.ParseFloat(f[i+2], 64)
			if err != nil {
				t.Fatalf("atom line %q: %v", line, err)
			}
			v[i] = x
		}
		out[id] = v
	}
	return out
}

// The deck of the sphere box holds every sphere exactly (positions to the
// bit, mass ρπd³/6 within 1e-15 relative), the scene's law, the box's walls
// (open top), gravity and the world's Verlet skin.
func TestDeckSphereBox(t *testing.T) {
	w := box(t)
	d, err := lammps.Write(w, lammps.Options{Steps: 100, Dt: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	at := atoms(t, d.Data)
	if len(at) != 218 {
		t.Fatalf("%d atoms, want 218", len(at))
	}
	k := 0
	for _, b := range w.Bodies() {
		if b.Wall >= 0 {
			continue
		}
		k++
		a := at[k]
		if a[2] != b.X.X || a[3] != b.X.Y || a[4] != b.X.Z || a[0] != 2*b.R {
			t.Fatalf("atom %d = %v, body %s at %v radius %g", k, a, b.Name, b.X, b.R)
		}
		if m := a[1] * math.Pi / 6 * a[0] * a[0] * a[0]; math.Abs(m-b.Mass()) > 1e-15*b.Mass() {
			t.Fatalf("atom %d: mass %g, want %g", k, m, b.Mass())
		}
	}
	in := string(d.Input)
	for _, want := range []string{
		"pair_style gran/hooke 10.02 0 20 10 0 1\n",
		"fix wallx all wall/gran hooke 10.02 0 20 10 0 1 xplane 0 0.012\n",
		"fix wally all wall/gran hooke 10.02 0 20 10 0 1 yplane 0 0.012\n",
		"zplane 0 NULL\n",
		"fix gravity all gravity 9.8100000000000005 vector 0 0 -1\n",
		"neighbor " + strconv.FormatFloat(w.VerletSkin(), 'g', 17, 64) + " bin",
		"timestep 0.0001\n", "run 100\n",
	} {
		if !strings.Contains(in, want) {
			t.Errorf("input lacks %q:\n%s", want, in)
		}
	}
	// limit_damping: the pair style's keyword, only when the law has it on
	// (fix wall/gran has none).
	if strings.Contains(in, "limit_damping") {
		t.Errorf("limit_damping written for a law without it:\n%s", in)
	}
	d, err = lammps.Write(box(t, "contact.default.limit_damping=true"), lammps.Options{Steps: 100, Dt: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	in = string(d.Input)
	if !strings.Contains(in, "pair_style gran/hooke 10.02 0 20 10 0 1 limit_damping\n") || strings.Count(in, "limit_damping") != 1 {
		t.Errorf("limit_damping: want it once, on the pair style:\n%s", in)
	}
}

// Worlds LAMMPS cannot run the same way are refused, naming what is wrong.
func TestDeckRefuses(t *testing.T) {
	for _, c := range []struct {
		scene string
		sets  []string
		want  string
	}{
		{"box-of-tetrapods", nil, `"fill0" is not a sphere`},
		{"sphere-box", []string{"contact.default.mu_roll=0.1"}, "mu_roll"},
		{"sphere-box", []string{"contact.default.model=hertz-material", "contact.default.youngs_modulus=1e7", "contact.default.poisson_ratio=0.3", "contact.default.restitution=0.5"}, "hertz-material"},
		{"sphere-box", []string{"contact.default.model=hertz", "contact.default.mu=0.3", "contact.default.kt=0"}, "contact.kt = 0 with mu = 0.3"},
	} {
		s, err := scene.LoadBuiltin(c.scene, c.sets...)
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		_, err = lammps.Write(w, lammps.Options{Steps: 1, Dt: 1e-5})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want one naming %q", c.scene, c.sets, err, c.want)
		}
	}
	w := box(t)
	for _, o := range []lammps.Options{{Steps: 0, Dt: 1e-5}, {Steps: 1, Dt: math.NaN()}, {Steps: 1, Dt: -1}} {
		if _, err := lammps.Write(w, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

// With LAMMPS installed (Debian's lmp), the deck and Grainlab's explicit
// sphere path run the soft box, settled, for 2000 steps of 1e-5 s, and the
// box at S2's stiffness while its spheres fall and collide (from 0.1 s) for
// 100 steps of 2e-6 s: both are velocity Verlet on gran/hooke (S2 eq. 20
// as written, the dashpot free to pull). Without damping (γ_n = 0) and
// with the scenes' γ_n they agree to rounding: positions to 1e-15 m
// (5e-13 diameters), velocities to 1e-12 m/s (measured ≤ 3e-17 m and
// 5e-14 m/s), wall contacts included; clamping our law alone moves the
// falling box by 2e-8 m and 2.5e-4 m/s. Longer runs of the falling box
// drift apart by chaos alone (5e-12 m/s after 500 steps). With
// limit_damping the pair style clamps as our law does, but LAMMPS' fix
// wall/gran has no such keyword and lets a wall contact pull while its
// dashpot outweighs its spring, which our clamped law does not: 1e-9 m and
// 1e-6 m/s (measured 1e-10 m, 8e-8 m/s).
func TestDeckAgreesWithLAMMPS(t *testing.T) {
	lmp, err := exec.LookPath("lmp")
	if err != nil {
		t.Skip("lmp (LAMMPS) not installed: apt-get install lammps")
	}
	agree(t, lammpsEngine(lmp), 1e-9, 1e-6)
}

// agree runs the boxes of TestDeckAgreesWithLAMMPS and
// TestDeckAgreesWithLIGGGHTS with engine e and Grainlab's explicit sphere
// path and checks that they agree to rounding, positions to 1e-15 m and
// velocities to 1e-12 m/s, except the limit_damping run, to ldx and ldv
// (the engine's wall contacts may differ there).
func agree(t *testing.T, e engine, ldx, ldv float64) {
	t.Helper()
	for _, c := range []struct {
		name, scene, state string
		steps              int
		dt                 float64
		sets               []string
		dx, dv             float64
	}{
		{"undamped", "sphere-box-soft", settled, 2000, 1e-5, []string{"contact.default.gamma_n=0"}, 1e-15, 1e-12},
		{"damped", "sphere-box-soft", settled, 2000, 1e-5, nil, 1e-15, 1e-12},
		{"limit_damping", "sphere-box-soft", settled, 2000, 1e-5, []string{"contact.default.limit_damping=true"}, ldx, ldv},
		{"s2-stiffness-falling", "sphere-box", falling, 100, 2e-6, nil, 1e-15, 1e-12},
		{"hertz", "sphere-box-soft", settled, 2000, 1e-5, []string{"contact.default.model=hertz", "contact.default.kn=1e5"}, 1e-15, 1e-12},
	} {
		t.Run(c.name, func(t *testing.T) {
			dx, dv := runBoth(t, e, c.scene, c.state, c.steps, c.dt, c.sets)
			if dx > c.dx || dv > c.dv {
				t.Errorf("|Δx| = %g m (≤ %g), |Δv| = %g m/s (≤ %g)", dx, c.dx, dv, c.dv)
			}
		})
	}
}

// engine is a program that runs a deck: its binary, the deck writer and
// the input script's name.
type engine struct {
	bin, input string
	write      func(*world.World, lammps.Options) (*lammps.Deck, error)
}

func lammpsEngine(bin string) engine { return engine{bin, "in.lammps", lammps.Write} }

// runBoth runs the box of scene name from the states of file state for
// steps steps of dt in the engine and in Grainlab and returns the largest
// differences of a position and of a velocity component.
func runBoth(t *testing.T, e engine, name, state string, steps int, dt float64, sets []string) (dx, dv float64) {
	fix := strconv.FormatFloat(dt, 'g', -1, 64)
	w := boxAt(t, name, state, append([]string{"integrator.dt=" + fix, "integrator.dt_max=" + fix}, sets...)...)
	dir := t.TempDir()
	d, err := e.write(w, lammps.Options{Steps: steps, Dt: dt, Dump: "final.dump"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, e.input), d.Input, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, lammps.DataName), d.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(e.bin, "-in", e.input, "-log", "none", "-screen", "none")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", e.bin, err, out)
	}
	t0 := w.Time
	for range steps {
		if _, err := w.Integrator.Step(w, dt); err != nil {
			t.Fatal(err)
		}
		if w.Stats.Dt != dt {
			t.Fatalf("step %d: Δt = %g, want the fixed %g", w.Steps, w.Stats.Dt, dt)
		}
	}
	if got := w.Time - t0; math.Abs(got-float64(steps)*dt) > 1e-12 {
		t.Fatalf("advanced %g s", got)
	}
	dump, err := os.ReadFile(filepath.Join(dir, "final.dump"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(dump), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "ITEM: ATOMS") {
			start = i + 1
		}
	}
	if start < 0 {
		t.Fatalf("no atoms in the dump:\n%s", dump)
	}
	var spheres []int
	for i, b := range w.Bodies() {
		if b.Wall < 0 {
			spheres = append(spheres, i)
		}
	}
	moved, n := 0.0, 0
	for _, l := range lines[start:] {
		f := strings.Fields(l)
		if len(f) != 7 {
			continue
		}
		id, _ := strconv.Atoi(f[0])
		var v [6]float64
		for i := range v {
			v[i], _ = strconv.ParseFloat(f[i+1], 64)
		}
		b := w.Bodies()[spheres[id-1]]
		dx = max(dx, math.Abs(v[0]-b.X.X), math.Abs(v[1]-b.X.Y), math.Abs(v[2]-b.X.Z))
		dv = max(dv, math.Abs(v[3]-b.V.X), math.Abs(v[4]-b.V.Y), math.Abs(v[5]-b.V.Z))
		moved = max(moved, math.Abs(b.V.X), math.Abs(b.V.Y), math.Abs(b.V.Z))
		n++
	}
	t.Logf("%d spheres after %d steps: |Δx| ≤ %.3g m, |Δv| ≤ %.3g m/s (largest |v| %.3g m/s)", n, steps, dx, dv, moved)
	if n != len(spheres) || moved == 0 {
		t.Fatalf("%d of %d spheres in the dump, largest |v| %g", n, len(spheres), moved)
	}
	return dx, dv
}

// The deck's trajectory dump, written by LAMMPS itself and opened by
// sim/dump: frame 0 holds the deck's spheres where the world has them
// (positions, velocities, radii to rounding: 1e-15 m, 1e-15 m/s), a
// frame every DumpEvery steps at the deck's times, and the last frame
// where Grainlab's own explicit run puts the spheres after the same steps
// (1e-15 m, 1e-12 m/s, the tolerances of TestDeckAgreesWithLAMMPS).
// The test adds LAMMPS' sphere–sphere pair forces as a `dump local`
// (compute property/local patom1 patom2 + compute pair/local fx fy fz,
// the documented 5-column convention): at step 0 they are Grainlab's
// sphere–sphere contacts of the same state, pair for pair, F = F_n n +
// F_t on the first sphere to 1e-9 of the largest force.
func TestDeckDumpTrajectory(t *testing.T) {
	lmp, err := exec.LookPath("lmp")
	if err != nil {
		t.Skip("lmp (LAMMPS) not installed: apt-get install lammps")
	}
	const steps, every, dt = 200, 50, 1e-5
	fix := strconv.FormatFloat(dt, 'g', -1, 64)
	w := box(t, "integrator.dt="+fix, "integrator.dt_max="+fix)
	dir := t.TempDir()
	d, err := lammps.Write(w, lammps.Options{Steps: steps, Dt: dt, DumpEvery: every})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(d.Input, []byte("dump traj all custom 50 "+lammps.TrajectoryName+" id type x y z vx vy vz omegax omegay omegaz radius")) {
		t.Fatalf("no dump line in the deck:\n%s", d.Input)
	}
	local := "compute pairs all property/local patom1 patom2\ncompute forces all pair/local fx fy fz\n" +
		"dump contacts all local 50 dump.contacts c_pairs[1] c_pairs[2] c_forces[1] c_forces[2] c_forces[3]\n" +
		"dump_modify contacts format float %.17g\ntimestep "
	input := strings.Replace(string(d.Input), "timestep ", local, 1)
	if err := os.WriteFile(filepath.Join(dir, "in.lammps"), []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, lammps.DataName), d.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lmp, "-in", "in.lammps", "-log", "none", "-screen", "none")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("lmp: %v\n%s", err, out)
	}
	r, err := dump.OpenWith(filepath.Join(dir, lammps.TrajectoryName), dump.Options{Contacts: filepath.Join(dir, "dump.contacts")})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Len() != steps/every+1 || r.Note() != "" {
		t.Fatalf("%d frames (want %d), note %q", r.Len(), steps/every+1, r.Note())
	}
	for i := range r.Len() {
		if want := float64(i*every) * dt; math.Abs(r.Time(i)-want) > 1e-15 {
			t.Errorf("frame %d at t = %.17g s, want %g", i, r.Time(i), want)
		}
	}
	var spheres []int
	for i, b := range w.Bodies() {
		if b.Wall < 0 {
			spheres = append(spheres, i)
		}
	}
	compare := func(i int) (dx, dv float64) {
		f, err := r.Frame(i)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Bodies) != len(spheres) {
			t.Fatalf("frame %d: %d bodies, want %d", i, len(f.Bodies), len(spheres))
		}
		for k, bi := range spheres {
			b, g := w.Bodies()[bi], f.Bodies[k]
			dx = max(dx, g.Pos.Sub(b.X).Norm())
			dv = max(dv, g.Vel.Sub(b.V).Norm())
			if math.Abs(g.Radius-b.R) > 1e-15 || g.Material != 0 {
				t.Fatalf("frame %d, sphere %d: radius %g (want %g), material %d", i, k, g.Radius, b.R, g.Material)
			}
		}
		return dx, dv
	}
	if dx, dv := compare(0); dx > 1e-15 || dv > 1e-15 {
		t.Errorf("frame 0: |Δx| = %g m, |Δv| = %g m/s from the deck's world", dx, dv)
	}
	// Step 0's contacts: LAMMPS' pairs against the world's sphere pairs.
	f0, err := r.Frame(0)
	if err != nil {
		t.Fatal(err)
	}
	rank := map[int]int{} // body index → sphere rank (the dump's body index)
	for k, bi := range spheres {
		rank[bi] = k
	}
	type pair struct{ a, b int }
	ours := map[pair]geom.Vec3{} // force on a
	fmax := 0.0
	for _, c := range w.Snapshot(nil).Contacts {
		ra, okA := rank[c.A]
		rb, okB := rank[c.B]
		if !okA || !okB || c.Suppressed {
			continue
		}
		F := c.Normal.Scale(c.Fn).Add(c.Ft)
		ours[pair{ra, rb}], ours[pair{rb, ra}] = F, F.Neg()
		fmax = max(fmax, F.Norm())
	}
	df := 0.0
	for _, c := range f0.Contacts {
		F := c.Normal.Scale(c.Fn).Add(c.Ft)
		g, ok := ours[pair{c.A, c.B}]
		if !ok {
			if F.Norm() == 0 { // a pair within the cutoff, not touching
				continue
			}
			t.Fatalf("LAMMPS pair %d–%d (|F| = %g N) is not a Grainlab contact", c.A, c.B, F.Norm())
		}
		df = max(df, F.Sub(g).Norm())
		delete(ours, pair{c.A, c.B})
		delete(ours, pair{c.B, c.A})
	}
	if len(ours) != 0 || len(f0.Contacts) == 0 {
		t.Fatalf("%d Grainlab sphere contacts not in LAMMPS' dump local (%d entries)", len(ours)/2, len(f0.Contacts))
	}
	t.Logf("step 0: %d LAMMPS pairs, forces within %.3g N of Grainlab's (largest %.3g N)", len(f0.Contacts), df, fmax)
	if df > 1e-9*fmax {
		t.Errorf("pair forces differ by %g N (≤ 1e-9 × %g)", df, fmax)
	}
	for range steps {
		if _, err := w.Integrator.Step(w, dt); err != nil {
			t.Fatal(err)
		}
	}
	dx, dv := compare(r.Len() - 1)
	t.Logf("last frame (step %d) against Grainlab's run: |Δx| ≤ %.3g m, |Δv| ≤ %.3g m/s", r.Step(r.Len()-1), dx, dv)
	if dx > 1e-15 || dv > 1e-12 {
		t.Errorf("last frame: |Δx| = %g m (≤ 1e-15), |Δv| = %g m/s (≤ 1e-12)", dx, dv)
	}
}
