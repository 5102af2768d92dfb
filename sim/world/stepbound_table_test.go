package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/law"
)

// The stiffness table of StableDtBelow's contact bound (stiffTable) never
// lies below the law: at(g) ≥ k_c(g') for every gap g' ≥ g (k_c falls as
// the gap opens), for the collapse's barrier law (S0 eq. 49, n1 = 1, n2 =
// −2), a steeper barrier, a Linear and a Hertz law; gaps drawn over the
// table's 20 octaves below ḡ, at bucket ends and beyond the table (+Inf
// there), each compared with k_c at itself and at larger gaps in its
// bucket and above. Fails when an entry is taken at a bucket's upper end.
func TestStiffTableBoundsLaw(t *testing.T) {
	barrier := func(gbar, eps1, n1, f, n2 float64) law.Normal {
		n, err := law.NewNormal(gbar, eps1, n1, f, n2)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	laws := []law.Normal{
		barrier(0.01, 1e7, 1, 0.5, -2),
		barrier(2e-3, 3e8, 2, 0.3, -5),
		{Kind: law.Linear, GBar: 0.005, Eps1: 1e6},
		{Kind: law.Hertz, GBar: 0.004, Eps1: 1e9},
	}
	rng := rand.New(rand.NewPCG(2, 4))
	w := &World{lawGen: 1}
	for li, n := range laws {
		p := &ContactParams{Normal: n}
		var ts stiffTables
		tab := ts.of(w, p)
		for trial := 0; trial < 20000; trial++ {
			g := n.GBar * math.Pow(2, -22*rng.Float64())
			if trial%7 == 0 { // a bucket's lower end
				g = math.Float64frombits(math.Float64bits(g) >> 48 << 48)
			}
			k := tab.at(g)
			if g < n.GBar*math.Pow(2, -20) {
				continue // below the table: +Inf or the bound, either holds
			}
			if math.IsInf(k, 1) {
				t.Fatalf("law %d: at(%g) = +Inf inside the table", li, g)
			}
			for _, gp := range []float64{g, math.Nextafter(g, math.Inf(1)), g * (1 + 1e-3*rng.Float64()), g * (1 + rng.Float64())} {
				if kp := n.Stiffness(gp); !(k >= kp) {
					t.Fatalf("law %d: at(%g) = %g below k_c(%g) = %g", li, g, k, gp, kp)
				}
			}
		}
		if !math.IsInf(tab.at(n.GBar*math.Pow(2, -25)), 1) || !math.IsInf(tab.at(0), 1) || !math.IsInf(tab.at(math.NaN()), 1) {
			t.Fatalf("law %d: no +Inf below the table, at 0 or NaN", li)
		}
		// A new law generation empties the table.
		w.lawGen++
		if tab = ts.of(w, p); tab.gen != w.lawGen || !math.IsNaN(tab.k[stiffBuckets/2]) {
			t.Fatalf("law %d: table not reset for a new law generation", li)
		}
	}
}
