// Package sphere holds the contact geometry and spring–dashpot laws of
// spherical particles: sphere–sphere and sphere–plane overlap, the Hookean
// and Hertzian normal laws in the LAMMPS granular pair style convention, and
// the analytic linear damped oscillator of a Hookean impact (de Klerk et al.,
// S2 §2.2 and §3.1). For the world's sphere path (world.Spheres) it keeps
// spheres in flat arrays (Flat) and their candidate pairs in a half
// neighbour list (List), with the pair kernels: the frictionless Hookean law
// of S2 (Hooke) and the general smooth law with friction history (Smooth).
//
// Conventions (shared with packages law and contact):
//   - the normal n is a unit vector from B towards A; the force on A is +F·n,
//     on B −F·n, F > 0 compressive; the dashpot may make it tensile
//     (S2 eq. 20 as written) unless the law's LimitDamping clamps it at 0;
//   - the overlap δ = r_A + r_B − |x_A − x_B| is positive in contact and
//     negative (minus the gap) when separated;
//   - v_n = (v_A − v_B)·n is positive when the bodies separate;
//   - the damping rate γ_n has units 1/s: the dashpot force is m_eff γ_n v_n.
//
// The laws are plain values safe to copy; the kernels do not allocate.
package sphere
