// Package lammps writes a world of spheres as a LAMMPS input deck: a data
// file (atom_style sphere) and an input script that runs the same system —
// the same spheres, velocities, gravity, planar walls, Verlet skin and
// gran/hooke or gran/hertz law — with LAMMPS' velocity Verlet
// (fix nve/sphere) at a fixed step, so that Grainlab's sphere path and
// LAMMPS can be timed side by side on the same machine (`make
// bench-lammps`, docs/performance.md). Worlds LAMMPS cannot run the same
// way (other shapes, walls not normal to an axis, laws without a LAMMPS
// equivalent, periodic boxes) are refused with an error that names the body,
// wall or field. WriteLIGGGHTS writes the same system as a LIGGGHTS deck
// (the same data file; liggghts.go).
package lammps

import (
	"bytes"
	"fmt"
	"math"

	"grainlab/sim/body"
	"grainlab/sim/geom"
	"grainlab/sim/law"
	"grainlab/sim/world"
)

// Deck is a LAMMPS input deck: Input reads the data file under the name
// DataName from the directory it runs in.
type Deck struct {
	Data, Input []byte
}

// DataName is the name under which Input reads Data.
const DataName = "data.spheres"

// Options set the run of the deck.
type Options struct {
	Steps int     // steps to run (> 0)
	Dt    float64 // the fixed step in s (> 0)
	Dump  string  // when set, the final positions and velocities are written to this file (id x y z vx vy vz)
	// DumpEvery > 0 adds a `dump custom` of the trajectory to TrajectoryName
	// every DumpEvery steps (and at step 0): id type x y z vx vy vz omegax
	// omegay omegaz radius, sorted by id, with ITEM: TIME (the deck's time,
	// from 0), full precision — `grainlab view/export` open it (sim/dump).
	DumpEvery int
}

// TrajectoryName is the file the deck's `dump custom` writes (Options.DumpEvery).
const TrajectoryName = "dump.grainlab"

// system is what the LAMMPS and LIGGGHTS decks of a world share: its
// spheres, their one law, the walls by axis, the box and the data file.
type system struct {
	spheres []*body.Body
	law     *law.Smooth
	style   string // LAMMPS' pair_style line (without limit_damping)
	planes  [3]axisPlanes
	bound   [3]string
	data    []byte
}

// prepare checks o and w for a deck and returns the system.
func prepare(w *world.World, o Options) (*system, error) {
	if o.Steps <= 0 {
		return nil, fmt.Errorf("steps must be > 0 (got %d)", o.Steps)
	}
	if o.DumpEvery < 0 {
		return nil, fmt.Errorf("dump every must be ≥ 0 steps (0: no trajectory dump; got %d)", o.DumpEvery)
	}
	if !(o.Dt > 0) || math.IsInf(o.Dt, 0) {
		return nil, fmt.Errorf("dt must be a finite number > 0 (got %g)", o.Dt)
	}
	if w.Periodic.On() {
		return nil, fmt.Errorf("periodic worlds are not exported")
	}
	if len(w.Loads) > 0 || len(w.Bonds) > 0 {
		return nil, fmt.Errorf("worlds with loads or bonds are not exported")
	}
	var spheres []*body.Body
	for _, b := range w.Bodies() {
		if b.Wall >= 0 {
			continue
		}
		if b.Kind != body.Sphere {
			return nil, fmt.Errorf("body %q is not a sphere (LAMMPS decks hold spheres only)", b.Name)
		}
		if b.Fixed || !(b.Mass() > 0) {
			return nil, fmt.Errorf("body %q is fixed or has no mass", b.Name)
		}
		spheres = append(spheres, b)
	}
	if len(spheres) == 0 {
		return nil, fmt.Errorf("the world has no movable spheres")
	}
	p, err := sphereLaw(w, spheres)
	if err != nil {
		return nil, err
	}
	style, err := pairStyle(p)
	if err != nil {
		return nil, err
	}
	planes, err := wallPlanes(w)
	if err != nil {
		return nil, err
	}

	// The box: the wall planes where an axis has both, else the spheres'
	// extent, shrink-wrapped ("m") so that nothing is lost.
	lo, hi := geom.V(math.Inf(1), math.Inf(1), math.Inf(1)), geom.V(math.Inf(-1), math.Inf(-1), math.Inf(-1))
	for _, b := range spheres {
		for a := range 3 {
			set(&lo, a, min(lo.Idx(a), b.X.Idx(a)-b.R))
			set(&hi, a, max(hi.Idx(a), b.X.Idx(a)+b.R))
		}
	}
	bound := [3]string{"m", "m", "m"}
	for a := range 3 {
		if p := planes[a]; p.hasLo && p.hasHi {
			set(&lo, a, min(lo.Idx(a), p.lo))
			set(&hi, a, max(hi.Idx(a), p.hi))
			bound[a] = "f"
		}
	}

	var d bytes.Buffer
	fmt.Fprintf(&d, "Grainlab world of %d spheres at t = %.17g s\n\n", len(spheres), w.Time)
	fmt.Fprintf(&d, "%d atoms\n1 atom types\n\n", len(spheres))
	for a, n := range [3]string{"x", "y", "z"} {
		fmt.Fprintf(&d, "%.17g %.17g %slo %shi\n", lo.Idx(a), hi.Idx(a), n, n)
	}
	d.WriteString("\nAtoms # sphere\n\n")
	for i, b := range spheres {
		dia := 2 * b.R
		rho := b.Mass() / (math.Pi / 6 * dia * dia * dia) // LAMMPS: m = ρ π d³/6
		fmt.Fprintf(&d, "%d 1 %.17g %.17g %.17g %.17g %.17g\n", i+1, dia, rho, b.X.X, b.X.Y, b.X.Z)
	}
	d.WriteString("\nVelocities\n\n")
	for i, b := range spheres {
		fmt.Fprintf(&d, "%d %.17g %.17g %.17g %.17g %.17g %.17g\n", i+1, b.V.X, b.V.Y, b.V.Z, b.W.X, b.W.Y, b.W.Z)
	}
	return &system{spheres: spheres, law: p, style: style, planes: planes, bound: bound, data: d.Bytes()}, nil
}

// Write returns the deck of w.
func Write(w *world.World, o Options) (*Deck, error) {
	sy, err := prepare(w, o)
	if err != nil {
		return nil, err
	}
	style, limit, planes, bound, spheres := sy.style, sy.law.LimitDamping, sy.planes, sy.bound, sy.spheres
	var in bytes.Buffer
	fmt.Fprintf(&in, "# Written by grainlab: %d spheres, the same law, walls, gravity and skin.\n", len(spheres))
	in.WriteString("units si\natom_style sphere\n")
	fmt.Fprintf(&in, "boundary %s %s %s\n", bound[0], bound[1], bound[2])
	in.WriteString("newton off\ncomm_modify vel yes\n")
	fmt.Fprintf(&in, "read_data %s\n", DataName)
	keyword := ""
	if limit {
		// The pair style's clamp of the normal force at zero, as the law's
		// LimitDamping (off: S2 eq. 20 as written, LAMMPS' default). LAMMPS'
		// fix wall/gran has no such keyword: with it on, a wall contact
		// separating faster than k_n δ/(m γ_n) pulls briefly in LAMMPS and
		// not in Grainlab.
		keyword = " limit_damping"
	}
	fmt.Fprintf(&in, "pair_style %s%s\npair_coeff * *\n", style, keyword)
	fmt.Fprintf(&in, "neighbor %.17g bin\nneigh_modify delay 0 every 1 check yes\n", w.VerletSkin())
	in.WriteString("fix integrate all nve/sphere\n")
	if g := w.Gravity.Norm(); g > 0 {
		u := w.Gravity.Scale(1 / g)
		fmt.Fprintf(&in, "fix gravity all gravity %.17g vector %.17g %.17g %.17g\n", g, u.X, u.Y, u.Z)
	}
	for a, n := range [3]string{"x", "y", "z"} {
		p := planes[a]
		if !p.hasLo && !p.hasHi {
			continue
		}
		l, h := "NULL", "NULL"
		if p.hasLo {
			l = fmt.Sprintf("%.17g", p.lo)
		}
		if p.hasHi {
			h = fmt.Sprintf("%.17g", p.hi)
		}
		fmt.Fprintf(&in, "fix wall%s all wall/gran %s %splane %s %s\n", n, style[len("gran/"):], n, l, h)
	}
	if o.DumpEvery > 0 {
		// Atom ids are the spheres' order in the data file; type 1.
		fmt.Fprintf(&in, "dump traj all custom %d %s id type x y z vx vy vz omegax omegay omegaz radius\n", o.DumpEvery, TrajectoryName)
		in.WriteString("dump_modify traj sort id time yes format float %.17g\n")
	}
	fmt.Fprintf(&in, "timestep %.17g\nthermo %d\nrun %d\n", o.Dt, o.Steps, o.Steps)
	if o.Dump != "" {
		fmt.Fprintf(&in, "write_dump all custom %s id x y z vx vy vz modify sort id format float %%.17g\n", o.Dump)
	}
	return &Deck{Data: sy.data, Input: in.Bytes()}, nil
}

// sphereLaw returns the one law between every two spheres and between
// spheres and enabled walls, or an error naming two bodies whose law
// differs or is missing.
func sphereLaw(w *world.World, spheres []*body.Body) (*law.Smooth, error) {
	var p *law.Smooth
	check := func(a, b *body.Body) error {
		cp := w.Params(a.Material, b.Material)
		if cp == nil || !cp.HasSmooth {
			return fmt.Errorf("no sphere contact law between %q and %q", a.Name, b.Name)
		}
		if p == nil {
			p = &cp.Smooth
			return nil
		}
		if cp.Smooth != *p {
			return fmt.Errorf("%q and %q use another contact law than the rest (a deck has one)", a.Name, b.Name)
		}
		return nil
	}
	// One body per material stands for the rest: the law depends on the
	// material pair only (sphere–sphere, sphere–enabled wall).
	var mats, others []*body.Body
	seen := map[int]bool{}
	for _, a := range spheres {
		if !seen[a.Material] {
			seen[a.Material] = true
			mats = append(mats, a)
		}
	}
	for _, b := range w.Bodies() {
		if b.Wall >= 0 && w.Walls[b.Wall].Enabled {
			others = append(others, b)
		}
	}
	all := append(append([]*body.Body(nil), mats...), others...)
	for _, a := range mats {
		for _, b := range all {
			if err := check(a, b); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// pairStyle returns LAMMPS' pair style with its coefficients for law p
// (its LimitDamping is the caller's keyword).
func pairStyle(p *law.Smooth) (style string, err error) {
	if p.MuRoll > 0 {
		return "", fmt.Errorf("contact.mu_roll = %g has no gran/hooke or gran/hertz equivalent", p.MuRoll)
	}
	damp, gammaT := 0, p.GammaT
	if p.GammaT > 0 {
		damp = 1
	}
	switch {
	case p.Model == law.HookeLAMMPS && !(p.Kt > 0 && p.Mu > 0):
		style = "gran/hooke" // no tangential spring: no history
	case p.Model == law.HookeLAMMPS:
		style = "gran/hooke/history"
	case p.Model == law.HertzLAMMPS:
		style = "gran/hertz/history"
		// gran/hertz/history (pair and wall) rescales a sliding contact's
		// shear by 1/k_t: with k_t = 0 and a tangential dashpot it gives
		// NaN. Without friction the tangential force is zero (|F_t| ≤ μ F_n)
		// and the dashpot is left out; with friction k_t must be > 0.
		switch {
		case !(p.Mu > 0):
			damp, gammaT = 0, 0
		case !(p.Kt > 0) && p.GammaT > 0:
			return "", fmt.Errorf("contact.kt = 0 with mu = %g and gamma_t = %g: LAMMPS' gran/hertz/history divides by k_t when a contact slides (set kt > 0)", p.Mu, p.GammaT)
		}
	default:
		return "", fmt.Errorf("contact.model = %s has no LAMMPS pair style (use hooke or hertz)", p.Model)
	}
	return fmt.Sprintf("%s %.17g %.17g %.17g %.17g %.17g %d", style, p.Kn, p.Kt, p.GammaN, gammaT, p.Mu, damp), nil
}

// axisPlanes are the walls normal to one axis: at most one facing +axis
// (lo) and one facing −axis (hi).
type axisPlanes struct {
	lo, hi       float64
	hasLo, hasHi bool
}

// wallPlanes sorts the enabled walls by axis; LAMMPS' wall/gran planes are
// infinite, so each must be planar and normal to x, y or z.
func wallPlanes(w *world.World) ([3]axisPlanes, error) {
	var out [3]axisPlanes
	for _, wl := range w.Walls {
		if !wl.Enabled {
			continue
		}
		if !wl.Planar {
			return out, fmt.Errorf("wall %q is not planar", wl.Name)
		}
		a := -1
		for i := range 3 {
			if math.Abs(wl.N.Idx(i)) > 1-1e-12 {
				a = i
			}
		}
		if a < 0 {
			return out, fmt.Errorf("wall %q is not normal to x, y or z (normal %v)", wl.Name, wl.N)
		}
		c := wl.P.Idx(a)
		p := &out[a]
		if wl.N.Idx(a) > 0 { // faces +axis: the lower bound
			if p.hasLo {
				return out, fmt.Errorf("wall %q is a second lower %s wall", wl.Name, "xyz"[a:a+1])
			}
			p.lo, p.hasLo = c, true
		} else {
			if p.hasHi {
				return out, fmt.Errorf("wall %q is a second upper %s wall", wl.Name, "xyz"[a:a+1])
			}
			p.hi, p.hasHi = c, true
		}
	}
	return out, nil
}

func set(v *geom.Vec3, a int, x float64) {
	switch a {
	case 0:
		v.X = x
	case 1:
		v.Y = x
	default:
		v.Z = x
	}
}
