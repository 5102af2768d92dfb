package law

// ReboundRK4 is a reference for the restitution of a normal law: it
// integrates a contact's gap g̈ = acc(g, ġ) with classical fourth-order
// Runge–Kutta steps of dt from g = gbar at the closing speed v0 > 0
// (ġ = −v0) until the gap leaves the skin again (g ≥ gbar, ġ > 0), and
// returns the rebound ratio ġ/v0 — the coefficient of restitution — and
// whether that happened within maxSteps.
func ReboundRK4(acc func(g, gd float64) float64, gbar, v0, dt float64, maxSteps int) (e float64, ok bool) {
	g, gd := gbar, -v0
	for range maxSteps {
		k1g, k1v := gd, acc(g, gd)
		k2g, k2v := gd+dt/2*k1v, acc(g+dt/2*k1g, gd+dt/2*k1v)
		k3g, k3v := gd+dt/2*k2v, acc(g+dt/2*k2g, gd+dt/2*k2v)
		k4g, k4v := gd+dt*k3v, acc(g+dt*k3g, gd+dt*k3v)
		g += dt / 6 * (k1g + 2*k2g + 2*k3g + k4g)
		gd += dt / 6 * (k1v + 2*k2v + 2*k3v + k4v)
		if g >= gbar && gd > 0 {
			return gd / v0, true
		}
	}
	return 0, false
}
