package lammps_test

import (
	"bytes"
	"os/exec"
	"testing"

	"grainlab/sim/lammps"
)

// With LIGGGHTS installed (Debian's liggghts, 3.8), its deck and
// Grainlab's explicit sphere path run the boxes of TestDeckAgreesWithLAMMPS
// (velocity Verlet, S2 eq. 20 as written, hooke/stiffness ≡ gran/hooke)
// and agree to rounding: positions to 1e-15 m, velocities to 1e-12 m/s,
// with and without damping, wall contacts included. limitForce clamps the
// normal force at ≥ 0 on the pair style and on the walls as our
// limit_damping does, so the limited run holds to rounding too. The Hertz
// variant (hertz/stiffness ≡ gran/hertz/history with γ and k scaled by
// √(R_eff δ)) runs the soft box with contact.default.model=hertz and its
// kn in Pa (the same 10.02 factor over √(R δ) ≈ 1e-4 m: a softer box, the
// spheres sink, collide and shift).
func TestDeckAgreesWithLIGGGHTS(t *testing.T) {
	bin, err := exec.LookPath("liggghts")
	if err != nil {
		t.Skip("liggghts not installed: apt-get install liggghts")
	}
	agree(t, engine{bin, lammps.InputLIGGGHTS, lammps.WriteLIGGGHTS}, 1e-15, 1e-12)
}

// The LIGGGHTS deck names its model, walls and trajectory dump: one fix
// wall/gran primitive per wall plane of the box (five: no lid), the
// frictionless soft box without tangential history, and a dump custom of
// the columns sim/dump reads.
func TestDeckLIGGGHTSLines(t *testing.T) {
	w := box(t)
	d, err := lammps.WriteLIGGGHTS(w, lammps.Options{Steps: 10, Dt: 1e-5, DumpEvery: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"atom_style granular\n",
		"pair_style gran model hooke/stiffness tangential no_history tangential_damping off limitForce off absolute_damping off\n",
		"fix m_kn all property/global kn peratomtypepair 1 10.02\n",
		"primitive type 1 zplane 0 ",
		"dump traj all custom 5 " + lammps.TrajectoryName + " id type x y z vx vy vz omegax omegay omegaz radius\n",
	} {
		if !bytes.Contains(d.Input, []byte(want)) {
			t.Errorf("no %q in the deck:\n%s", want, d.Input)
		}
	}
	if n := bytes.Count(d.Input, []byte("wall/gran")); n != 5 {
		t.Errorf("%d walls in the deck, want 5:\n%s", n, d.Input)
	}
}
