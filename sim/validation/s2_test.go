package validation

import (
	"math"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/world"
)

// S2 §3.4, Fig. 11a: 218 spheres settle in an L × L × 20L box (Hookean,
// k d/(m g) = 195 000, μ = 0). The scene runs with velocity Verlet until the
// first spheres reach the floor (t = 0.1 s); from that shared state one copy
// continues with velocity Verlet and one with the variational integrator
// (α = ½, fixed h = 1e-4 s ≈ t_c/23). The mean kinetic energy per particle,
// averaged over 0.05 s windows, must agree within the statistical noise of
// this chaotic settling, measured by a third copy that continues with
// velocity Verlet at half the step: |KE_var − KE_Verlet| ≤ 3·(noise + 2% of
// the window's KE) + 1e-3·KE(0.1 s) in every window.
func TestS2SettlingKineticEnergy(t *testing.T) {
	const t0, t1, win = 0.1, 0.5, 0.05
	mk := func() *world.World {
		w := load(t, "sphere-box", "integrator.dt_max=1e-4")
		advance(t, w, t0, nil)
		return w
	}
	ref, vi, half := mk(), mk(), mk()
	vi.Integrator = integrate.NewVariational(0.5)
	vi.Settings.Dt = 1e-4
	half.Settings.DtMax = 0.5e-4
	half.Settings.Safety /= 2
	ke0 := ref.Stats.Kinetic / 218
	n := int(math.Round((t1 - t0) / win))
	kr, kv, kh := make([]float64, n), make([]float64, n), make([]float64, n)
	sample := func(w *world.World, k []float64) func() bool {
		last := w.Time
		return func() bool {
			i := int((w.Time - t0 - 1e-12) / win)
			if i >= 0 && i < n {
				k[i] += w.Stats.Kinetic / 218 * (w.Time - last) / win
			}
			last = w.Time
			return false
		}
	}
	advance(t, ref, t1, sample(ref, kr))
	advance(t, vi, t1, sample(vi, kv))
	advance(t, half, t1, sample(half, kh))
	for i := 0; i < n; i++ {
		noise := math.Abs(kh[i] - kr[i])
		tol := 3*(noise+0.02*kr[i]) + 1e-3*ke0
		t.Logf("t = %.2f–%.2f s: mean KE/particle Verlet %.4g J, variational %.4g J, Verlet Δt/2 %.4g J", t0+float64(i)*win, t0+float64(i+1)*win, kr[i], kv[i], kh[i])
		if d := math.Abs(kv[i] - kr[i]); d > tol {
			t.Errorf("window %d: variational and Verlet differ by %.3g J (allowed %.3g J)", i, d, tol)
		}
	}
}
