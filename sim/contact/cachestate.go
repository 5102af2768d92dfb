package contact

import "grainlab/sim/geom"

// CacheState is the content of a built Cache (S0 §2.5): its feature-pair
// lists and the relative pose it was built at, as a state file stores it so
// that a restarted run lists, orders and refreshes the same feature pairs.
type CacheState struct {
	VF     [][2]int32 `json:"vf,omitempty"`
	FV     [][2]int32 `json:"fv,omitempty"`
	EE     [][2]int32 `json:"ee,omitempty"`
	VE     [][2]int32 `json:"ve,omitempty"`
	EV     [][2]int32 `json:"ev,omitempty"`
	VV     [][2]int32 `json:"vv,omitempty"`
	RefT   [3]float64 `json:"ref_t"` // B's centre in A's frame at the build
	RefQ   [4]float64 `json:"ref_q"` // A⁻¹·B at the build (w, x, y, z)
	RefS   [3]float64 `json:"ref_s"` // A's centre in B's frame at the build
	Margin float64    `json:"margin"`
	GBar   float64    `json:"gbar"`
}

// State returns the cache's content; ok is false when it is not built
// (the next use rebuilds it).
func (c *Cache) State() (s CacheState, ok bool) {
	if !c.built {
		return s, false
	}
	cp := func(l [][2]int32) [][2]int32 { return append([][2]int32(nil), l...) }
	return CacheState{VF: cp(c.vf), FV: cp(c.fv), EE: cp(c.ee), VE: cp(c.ve), EV: cp(c.ev), VV: cp(c.vv),
		RefT: v3(c.refT), RefQ: [4]float64{c.refQ.W, c.refQ.X, c.refQ.Y, c.refQ.Z}, RefS: v3(c.refS), Margin: c.margin, GBar: c.gbar}, true
}

// SetState makes the cache the one State returned (built, same lists in
// the same order).
func (c *Cache) SetState(s CacheState) {
	c.revokeLease()
	c.vf, c.fv, c.ee, c.ve, c.ev, c.vv = s.VF, s.FV, s.EE, s.VE, s.EV, s.VV
	q := geom.Quat{W: s.RefQ[0], X: s.RefQ[1], Y: s.RefQ[2], Z: s.RefQ[3]}
	c.refT, c.refQ, c.refS, c.margin, c.gbar, c.built = geom.V(s.RefT[0], s.RefT[1], s.RefT[2]), q, geom.V(s.RefS[0], s.RefS[1], s.RefS[2]), s.Margin, s.GBar, true
	c.trk.on, c.swp.on = false, false
	// No build distances yet: 0, so that Detect solves every listed pair
	// until the first placement with a proved motion bound fills them in
	// (pend, Cache.fill).
	z := func(l [][2]int32) []float64 { return make([]float64, len(l)) }
	c.dvf, c.dfv, c.dee, c.dve, c.dev, c.dvv = z(s.VF), z(s.FV), z(s.EE), z(s.VE), z(s.EV), z(s.VV)
	c.skip, c.pend = skipBound{}, true
	c.setDmin()
	c.setListed()
}

func v3(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }
