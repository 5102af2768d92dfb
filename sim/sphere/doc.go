// Package sphere holds the contact geometry of spherical particles
// (sphere–sphere and sphere–plane overlap), the analytic linear damped
// oscillator of a Hookean impact (de Klerk et al., S2 §2.2 and §3.1;
// HookeOscillator) and, for the world's sphere path (world.Spheres), the
// spheres' flat state (Flat), their candidate pairs in a half neighbour list
// (List) and its pair kernels: the frictionless Hookean law of S2 eq. 20
// specialised for speed (List.Hooke) and the general smooth law with friction
// history (List.Smooth, EvalSmooth). The law itself is law.Smooth (one home,
// one sign convention); the kernels call it or are pinned to it by tests
// (TestHookeKernel, TestSmoothKernel).
//
// Conventions (shared with packages law and contact, docs/ARCHITECTURE.md):
//   - the normal n is a unit vector from B towards A; the force on A is +F·n,
//     on B −F·n, F > 0 compressive; the dashpot may make it tensile
//     (S2 eq. 20 as written) unless the law's LimitDamping clamps it at 0;
//   - the overlap δ = r_A + r_B − |x_A − x_B| = −g_n is positive in contact
//     and negative (minus the gap) when separated;
//   - v_n = ġ_n = (v_A − v_B)·n is positive when the bodies separate (as
//     law.Smooth.Normal takes it);
//   - the damping rate γ_n has units 1/s: the dashpot force is −m_eff γ_n v_n.
//
// The kernels do not allocate.
package sphere
