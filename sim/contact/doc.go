// Package contact finds the pointwise interactions between rigid polyhedra
// with the master–master formulation of Gay Neto & Wriggers (S0 §2.4).
//
// Each body surface is split into sub-regions — vertices, edges and
// triangular faces (S0 §2.4.3) — and every candidate pair of sub-regions is
// solved as one of the four degenerated local contact problems (LCPs) of
// S0 §2.4.2: vertex–face, edge–edge, vertex–edge and vertex–vertex. Their
// closed-form solutions (S0 Appendix) live in degen.go and work on world
// coordinates only, so they know nothing about bodies or meshes.
//
// Conventions shared by the whole package:
//   - the gap vector is g = Γ_A − Γ_B, the point on A minus the point on B
//     (S0 eq. 29); g_n = |g| and n = g/|g| points from B towards A (eq. 31);
//   - a face (x1, x2, x3) is parameterised by ζ, θ ∈ [−1, 1] with
//     Γ = ζ t1 + θ t2 + b (S0 Appendix eq. 64–65), so that x1 ↔ (−1, −1),
//     x2 ↔ (1, −1), x3 ↔ (−1, 1) and the valid region is N1, N2, N3 ≥ 0
//     (S0 eq. 27, Fig. 1);
//   - an edge (x1, x2) is parameterised by ζ ∈ [−1, 1] with γ = ζ t + b
//     (S0 Appendix eq. 67–68), i.e. the face edge θ = −1;
//   - a vertex is renumbered as x1 of its face, so its parameters are
//     (ζ, θ) = (−1, −1) (S0 §2.4.2).
package contact
