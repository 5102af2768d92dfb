// Package law holds the pointwise contact interface laws of Gay Neto &
// Wriggers (S0 §2.4.7–2.4.9): the hybrid penalty/barrier normal law, the
// viscous normal damping with its no-tension clamp, and the Coulomb friction
// law with an elastic–viscous trial force and static/dynamic coefficients;
// and the spring–dashpot laws of smooth bodies (Smooth: LAMMPS gran/hooke
// and gran/hertz, Hertz–Mindlin).
//
// Conventions (shared with package contact):
//   - g = Γ_A − Γ_B is the gap vector, g_n = |g| ≥ 0 the normal gap and
//     n = g/|g| the unit normal from B towards A (S0 eq. 29, 31);
//   - normal forces are compressive magnitudes: the force on body A is +F·n
//     and on body B is −F·n; S0's law clamps F ≥ 0 (eq. 53), the smooth
//     spring–dashpot (Smooth, S2 eq. 20) may pull unless LimitDamping;
//   - ġ_n > 0 means the bodies separate, ġ_n < 0 that they approach;
//   - Friction.Update returns the friction force acting on body A (body B
//     receives the opposite); it opposes the sliding of A relative to B.
//
// Nothing here allocates; all laws are plain values safe to copy.
package law
