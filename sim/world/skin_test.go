package world_test

import (
	"fmt"
	"math"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// lowSkinMin lowers world.SphereSkinMin to n for the test.
func lowSkinMin(t *testing.T, n int) {
	old := world.SphereSkinMin
	world.SphereSkinMin = n
	t.Cleanup(func() { world.SphereSkinMin = old })
}

// fallingSpheres builds sphere-box-soft with n spheres falling from the
// generator's lattice in a box ⌈∛n⌉ cells of 2.1 d wide and twice as tall
// (the scene of `make bench-lammps N=…`), with the extra settings given.
func fallingSpheres(t *testing.T, n int, sets ...string) *world.World {
	t.Helper()
	m := int(math.Ceil(math.Cbrt(float64(n))))
	l := float64(m)*0.0021 + 1e-4
	sp, err := scene.LoadBuiltin("sphere-box-soft", append([]string{
		fmt.Sprintf("generators.s.count=%d", n),
		fmt.Sprintf("generators.s.region.max=[%g, %g, %g]", l, l, 2*l),
		fmt.Sprintf("walls.box.max=[%g, %g, %g]", l, l, 2*l)}, sets...)...)
	if err != nil {
		t.Fatal(err)
	}
	return startBuilt(t, sp)
}

// skinRun steps w and returns its Δt, kinetic and gravity energies and
// contacts at every step and its bodies at the end, bit for bit, its
// contact energy at every step and its Verlet list rebuilds.
func skinRun(t *testing.T, w *world.World, steps int) (string, []float64, int) {
	t.Helper()
	b0 := w.VerletBuilds()
	out := ""
	var pot []float64
	for range steps {
		if _, err := w.Integrator.Step(w, 1); err != nil {
			t.Fatal(err)
		}
		st := &w.Stats
		out += fmt.Sprintf("%x %x %x %d|", st.Dt, st.Kinetic, st.PotentialGravity, st.Contacts)
		pot = append(pot, st.PotentialContact)
	}
	w.SyncBodies()
	for _, b := range w.Bodies() {
		out += fmt.Sprintf("%x %x %x %x|", b.X, b.Q, b.V, b.W)
	}
	return out, pot, w.VerletBuilds() - b0
}

// sameEnergy reports the first step whose contact energies differ by more
// than 1e-12 relative: the sphere path sums them in nChunks ranges of the
// pair list (spheres_list.go), whose bounds move with the list's length,
// so a list with more far pairs groups the same terms differently and the
// sum may differ in its last bits (a diagnostic: the forces are summed per
// sphere, in pair order, and stay the same bits).
func sameEnergy(a, b []float64) error {
	for i := range a {
		if d := math.Abs(a[i] - b[i]); d > 1e-12*max(math.Abs(a[i]), math.Abs(b[i])) {
			return fmt.Errorf("step %d: contact energy %.17g vs %.17g", i+1, a[i], b[i])
		}
	}
	return nil
}

// The sphere path's skin (World.VerletSkin: max(4 ḡ, 0.6 r_min) on a
// Hookean world of at least SphereSkinMin spheres, lowered here; docs/performance.md "Session 16: the sphere list's
// skin") against the skin of before (0.2 r_min, set with contact.skin),
// on 1000 spheres falling in a box for 400 steps: the same Δt, energies
// and contacts at every step and the same bodies (the skin only decides
// when the list is rebuilt, and every pair within reach is listed either
// way), with at most 0.65 × the rebuilds: a sphere falling from rest
// crosses a skin three times as wide in √3 times as long (½ g t²), so the
// rebuilds fall to 1/√3 ≈ 0.58 of them or fewer.
func TestSphereSkinFallingBoxRebuildsLess(t *testing.T) {
	const n, steps = 1000, 400
	lowSkinMin(t, n)
	auto := fallingSpheres(t, n)
	old := fallingSpheres(t, n, "contact.skin=0.0002")
	rmin := auto.MinBodyRadius()
	if got, want := auto.VerletSkin(), max(4*auto.MaxGap(), 0.6*rmin); got != want {
		t.Fatalf("skin %g, want max(4 ḡ, 0.6 r_min) = %g", got, want)
	}
	if got := old.VerletSkin(); got != 0.0002 || 0.0002 != 0.2*rmin {
		t.Fatalf("contact.skin=0.0002: skin %g (r_min %g), want 0.0002 = 0.2 r_min", got, rmin)
	}
	a, ea, na := skinRun(t, auto, steps)
	b, eb, nb := skinRun(t, old, steps)
	t.Logf("%d steps: %d rebuilds at skin %.3g r_min, %d at 0.2 r_min", steps, na, auto.VerletSkin()/rmin, nb)
	if a != b {
		t.Fatal("the run at the sphere path's skin differs from the run at 0.2 r_min")
	}
	if err := sameEnergy(ea, eb); err != nil {
		t.Fatal(err)
	}
	if nb < 10 || float64(na) > 0.65*float64(nb) {
		t.Fatalf("%d rebuilds at the sphere path's skin, %d at 0.2 r_min: want at most 0.65 × (and at least 10 at 0.2 r_min)", na, nb)
	}
}

// The same skin and list rebuilds, the same steps and bodies on 1, 2 and
// 3 workers with every pass split (the skin depends on the radii and ḡ
// alone).
func TestSphereSkinAnyWorkers(t *testing.T) {
	lowSkinMin(t, 2000)
	var ref string
	var refPot []float64
	var refBuilds int
	var refSkin float64
	for _, workers := range []int{1, 2, 3} {
		w := fallingSpheres(t, 2000)
		w.Settings.Workers, w.Settings.SphereSplit = workers, world.SplitAlways
		out, pot, builds := skinRun(t, w, 200)
		if workers == 1 {
			ref, refPot, refBuilds, refSkin = out, pot, builds, w.VerletSkin()
			continue
		}
		if out != ref || fmt.Sprint(pot) != fmt.Sprint(refPot) || builds != refBuilds || w.VerletSkin() != refSkin {
			t.Fatalf("%d workers: %d rebuilds at skin %g, 1 worker %d at %g, or the runs differ", workers, builds, w.VerletSkin(), refBuilds, refSkin)
		}
	}
	t.Logf("%d rebuilds at skin %g on 1, 2 and 3 workers", refBuilds, refSkin)
}

// The settled 218-sphere box (a dense pack: the skin's cost is the far
// pairs it lists): at the sphere path's skin the list holds at most twice
// the pairs of 0.2 r_min — centres within 2r + 2ḡ + s, a shell volume
// ((2.6 + 2ḡ/r)/(2.2 + 2ḡ/r))³ ≤ 1.65 × in a uniform pack — and the run
// is the same to the bit.
func TestSphereSkinSettledPairs(t *testing.T) {
	const settled = "../validation/testdata/sphere-box-soft-218-settled.json"
	lowSkinMin(t, 218)
	start := func(sets ...string) *world.World {
		sp, err := scene.LoadBuiltin("sphere-box-soft", sets...)
		if err != nil {
			t.Fatal(err)
		}
		w, err := scene.Build(sp)
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
	auto, old := start(), start("contact.skin=0.0002")
	if r := old.MinBodyRadius(); old.VerletSkin() != 0.2*r || auto.VerletSkin() != 0.6*r {
		t.Fatalf("skins %g and %g, want 0.6 and 0.2 r_min (%g)", auto.VerletSkin(), old.VerletSkin(), r)
	}
	a, ea, _ := skinRun(t, auto, 50)
	b, eb, _ := skinRun(t, old, 50)
	pa, pb := auto.VerletPairCount(), old.VerletPairCount()
	t.Logf("218 settled spheres: %d listed pairs at skin %.3g r_min, %d at 0.2 r_min (%d contacts)", pa, auto.VerletSkin()/auto.MinBodyRadius(), pb, auto.Stats.Contacts)
	if a != b {
		t.Fatal("the settled box at the sphere path's skin differs from the run at 0.2 r_min")
	}
	if err := sameEnergy(ea, eb); err != nil {
		t.Fatal(err)
	}
	if pb == 0 || pa > 2*pb {
		t.Fatalf("%d listed pairs at the sphere path's skin, %d at 0.2 r_min: want at most twice", pa, pb)
	}
}

// Worlds off the sphere path's Hookean case keep the skin of before,
// max(4 ḡ, 0.2 r_min): the sphere piling (Hertz: its step bound reads
// every listed pair's speed, Spheres.StableDt) and the tetrapod box, with
// the threshold lowered to their size; and the 218-sphere box below it.
func TestSphereSkinOthersUnchanged(t *testing.T) {
	for _, name := range []string{"sphere-piling", "box-of-tetrapods", "sphere-box-soft"} {
		world.SphereSkinMin = 4096
		if name != "sphere-box-soft" {
			lowSkinMin(t, 1)
		}
		sp, err := scene.LoadBuiltin(name)
		if err != nil {
			t.Fatal(err)
		}
		w := startBuilt(t, sp)
		if got, want := w.VerletSkin(), max(4*w.MaxGap(), 0.2*w.MinBodyRadius()); got != want {
			t.Errorf("%s: skin %g, want max(4 ḡ, 0.2 r_min) = %g", name, got, want)
		}
	}
}
