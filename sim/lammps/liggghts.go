package lammps

import (
	"bytes"
	"fmt"
	"strings"

	"grainlab/sim/law"
	"grainlab/sim/world"
)

// InputLIGGGHTS is the name under which WriteLIGGGHTS's deck is meant to be
// saved beside DataName (run: liggghts -in in.liggghts).
const InputLIGGGHTS = "in.liggghts"

// WriteLIGGGHTS returns the LIGGGHTS (3.x) deck of w: the same data file as
// Write and an input script with the same spheres, gravity, walls, skin and
// law — pair_style gran model hooke/stiffness or hertz/stiffness (the
// coefficients k_n, k_t, γ_n, γ_t of LAMMPS' gran/hooke and gran/hertz,
// S2 eq. 20–21, given per type pair by fix property/global; γ scaled by the
// effective mass as in LAMMPS), tangential no_history where LAMMPS' deck
// has gran/hooke (no tangential spring) and history otherwise; the law's
// LimitDamping is LIGGGHTS' limitForce, on the pair style and on every fix
// wall/gran (one primitive plane per wall). The trajectory dump has no
// ITEM: TIME (LIGGGHTS 3.x has no `dump_modify time`): open it with
// `grainlab export/view --dt` set to o.Dt.
func WriteLIGGGHTS(w *world.World, o Options) (*Deck, error) {
	sy, err := prepare(w, o)
	if err != nil {
		return nil, err
	}
	p := sy.law
	model, hertz := "hooke/stiffness", false
	if p.Model == law.HertzLAMMPS {
		model, hertz = "hertz/stiffness", true
	}
	tangential := "history"
	if strings.HasPrefix(sy.style, "gran/hooke ") {
		tangential = "no_history" // no tangential spring (LAMMPS: gran/hooke)
	}
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	// Settings: tangential damping as LAMMPS' dampflag, the normal force
	// clamped at ≥ 0 as the law's LimitDamping, and for Hooke γ relative
	// to the effective mass (LAMMPS' gran/hooke: F = k_n δ − m_eff γ_n v_n).
	// Without friction the tangential force is zero in Grainlab and LAMMPS
	// (|F_t| ≤ μ F_n), but LIGGGHTS' tangential history tests the Coulomb
	// limit on the spring force alone and adds the dashpot after: its
	// damping is off then.
	settings := fmt.Sprintf("tangential_damping %s limitForce %s", onOff(p.GammaT > 0 && p.Mu > 0), onOff(p.LimitDamping))
	if !hertz {
		settings += " absolute_damping off"
	}
	var in bytes.Buffer
	fmt.Fprintf(&in, "# Written by grainlab: %d spheres, the same law, walls, gravity and skin (LIGGGHTS 3.x).\n", len(sy.spheres))
	in.WriteString("units si\natom_style granular\natom_modify map array\n")
	fmt.Fprintf(&in, "boundary %s %s %s\n", sy.bound[0], sy.bound[1], sy.bound[2])
	in.WriteString("newton off\ncommunicate single vel yes\n")
	fmt.Fprintf(&in, "read_data %s\n", DataName)
	fmt.Fprintf(&in, "neighbor %.17g bin\nneigh_modify delay 0 every 1 check yes\n", w.VerletSkin())
	for _, c := range []struct {
		name string
		v    float64
	}{{"kn", p.Kn}, {"kt", p.Kt}, {"gamman", p.GammaN}, {"gammat", p.GammaT}, {"coefficientFriction", p.Mu}} {
		fmt.Fprintf(&in, "fix m_%s all property/global %s peratomtypepair 1 %.17g\n", c.name, c.name, c.v)
	}
	fmt.Fprintf(&in, "pair_style gran model %s tangential %s %s\npair_coeff * *\n", model, tangential, settings)
	in.WriteString("fix integrate all nve/sphere\n")
	if g := w.Gravity.Norm(); g > 0 {
		u := w.Gravity.Scale(1 / g)
		fmt.Fprintf(&in, "fix gravity all gravity %.17g vector %.17g %.17g %.17g\n", g, u.X, u.Y, u.Z)
	}
	for a, n := range [3]string{"x", "y", "z"} {
		pl := sy.planes[a]
		for _, side := range []struct {
			has  bool
			at   float64
			name string
		}{{pl.hasLo, pl.lo, "lo"}, {pl.hasHi, pl.hi, "hi"}} {
			if side.has {
				fmt.Fprintf(&in, "fix wall%s%s all wall/gran model %s tangential %s primitive type 1 %splane %.17g %s\n",
					n, side.name, model, tangential, n, side.at, settings)
			}
		}
	}
	if o.DumpEvery > 0 {
		fmt.Fprintf(&in, "dump traj all custom %d %s id type x y z vx vy vz omegax omegay omegaz radius\n", o.DumpEvery, TrajectoryName)
		fmt.Fprintf(&in, "dump_modify traj sort id format \"%%d %%d%s\"\n", strings.Repeat(" %.17g", 10))
	}
	fmt.Fprintf(&in, "timestep %.17g\nthermo %d\nrun %d\n", o.Dt, o.Steps, o.Steps)
	if o.Dump != "" {
		fmt.Fprintf(&in, "write_dump all custom %s id x y z vx vy vz modify sort id format \"%%d%s\"\n", o.Dump, strings.Repeat(" %.17g", 6))
	}
	return &Deck{Data: sy.data, Input: in.Bytes()}, nil
}
