package app

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"testing"

	"grainlab/sim/contact"
	"grainlab/sim/geom"
	"grainlab/sim/snap"
)

// fmtContactRow is contacts.csv's row as ContactsWriter.Write wrote it up to
// session 22: one fmt.Fprintf, featName built with string concatenation.
func fmtContactRow(t float64, a, b int, na, nb string, k *contact.Contact) string {
	featName := func(k *contact.Contact, onA bool) string {
		kinds := featKinds(k) // the letters (unchanged); the oracle is the formatting
		if onA {
			return string(kinds[0]) + strconv.Itoa(int(k.FA))
		}
		return string(kinds[1]) + strconv.Itoa(int(k.FB))
	}
	p := k.Point()
	state := "stick"
	if k.Fric.Sliding {
		state = "slip"
	}
	if !k.Active() {
		state = "suppressed"
	}
	fa, fb := featName(k, true), featName(k, false)
	return fmt.Sprintf("%s,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n",
		g(t), a, b, na, nb, k.Kind, fa, fb,
		g(p.X), g(p.Y), g(p.Z), g(k.N.X), g(k.N.Y), g(k.N.Z), g(k.Gn), g(k.Fn),
		g(k.Ft.X), g(k.Ft.Y), g(k.Ft.Z), state, k.Rule)
}

// appendContact writes fmt's bytes: odd floats (±0, NaN, ±Inf, subnormals,
// the largest float, 1e21 and 1e-7 around the %g switches, exact integers,
// 10-digit rounding), every kind, swap, rule and friction state, names with
// commas and non-ASCII, negative and large indices; 20 000 random rows.
func TestAppendContactIsFprintf(t *testing.T) {
	odd := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324, -5e-324,
		2.2250738585072014e-308, 2.225073858507201e-308, math.MaxFloat64, -math.MaxFloat64,
		1e21, 1e20, 9.999999999e20, 1e-7, 1e-6, 9.9999999995e-5, 1e-5, 1e-4, 1, -1, 3, 42, 1e10, 123456789012,
		9999999999, 99999999995, 0.1, 1.0 / 3, -2.5e-310, 1.2345678905, 123456.78945}
	names := []string{"s0", "", "wall floor", "a,b", "ü—名", `q"x`}
	rng := rand.New(rand.NewSource(16))
	pick := func() float64 {
		switch rng.Intn(4) {
		case 0:
			return odd[rng.Intn(len(odd))]
		case 1:
			return math.Float64frombits(rng.Uint64())
		case 2:
			return rng.NormFloat64() * math.Pow(10, float64(rng.Intn(60)-30))
		}
		return float64(rng.Intn(2000) - 1000)
	}
	vec := func() geom.Vec3 { return geom.Vec3{X: pick(), Y: pick(), Z: pick()} }
	var r []byte
	for i := range 20000 {
		k := &contact.Contact{PA: vec(), PB: vec(), N: vec(), Gn: pick(), Fn: pick(), Ft: vec()}
		k.Kind = snap.ContactKind(rng.Intn(int(snap.NumContactKinds)))
		k.Swap = rng.Intn(2) == 0
		k.FA, k.FB = int32(rng.Intn(40)-5), int32(rng.Int31())
		if rng.Intn(3) == 0 {
			k.Rule = contact.Rule(1 + rng.Intn(4))
		}
		k.Fric.Sliding = rng.Intn(2) == 0
		tt := pick()
		if i < len(odd) { // each odd value in every column once
			x := odd[i]
			k.PA, k.PB, k.N, k.Ft = geom.Vec3{X: x, Y: x, Z: x}, geom.Vec3{X: x, Y: x, Z: x}, geom.Vec3{X: x, Y: -x, Z: x}, geom.Vec3{X: x, Y: x, Z: -x}
			k.Gn, k.Fn, tt = x, -x, x
		}
		a, b := rng.Intn(1<<20), rng.Int()
		na, nb := names[rng.Intn(len(names))], names[rng.Intn(len(names))]
		r = appendContact(r[:0], tt, a, b, na, nb, k)
		if want := fmtContactRow(tt, a, b, na, nb, k); string(r) != want {
			t.Fatalf("row %d:\n got %q\nwant %q", i, r, want)
		}
	}
}
