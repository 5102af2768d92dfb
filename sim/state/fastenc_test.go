package state

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"grainlab/sim/world"
)

// The hand-written encodings of a Body and a PairState are json.Marshal's
// bytes: numbers across encoding/json's format switches (1e-6, 1e21, ±0,
// subnormals, exact integers), every optional field present and absent;
// and they decline (false) what they do not write.
func TestFastEncodingIsMarshal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edges := []float64{0, math.Copysign(0, -1), 1, -1, 1e-6, 9.999999999999999e-7, 1e21, 9.999999999999999e20, 1e-300,
		5e-324, math.MaxFloat64, 0.1, 123456789, -2.5e-8, 1e20, 1.5e-7, 0.2}
	num := func() float64 {
		if r.IntN(3) == 0 {
			return edges[r.IntN(len(edges))]
		}
		return (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
	}
	v3 := func() [3]float64 { return [3]float64{num(), num(), num()} }
	for i := range 3000 {
		d := Body{Name: "s" + string(rune('0'+i%10)), Position: v3(), Quaternion: [4]float64{num(), num(), num(), num()},
			Velocity: v3(), AngularVelocity: v3()}
		if i%3 != 0 {
			d.Force, d.Torque = Opt3{v3(), true}, Opt3{v3(), i%2 == 0}
		}
		p := world.PairState{A: int32(r.IntN(1 << 20)), B: int32(r.IntN(1 << 20)), Wall: r.IntN(5) - 1, Cand: i%2 == 0, Shift: v3(), SepAx: i%5 == 0}
		if i%4 == 0 {
			m := v3()
			p.Mid = &m
		}
		if i%3 == 1 {
			p.Spring = &[2]float64{num(), num()}
		}
		for range i % 3 {
			c := world.ContactState{Key: [6]int32{int32(i), -1, 7, 0, 2, 5}, PA: v3(), PB: v3(), N: v3(), Gn: num(), G0: num(),
				Fn: num(), Ft: v3(), Epot: num(), M: v3(), Gt: v3()}
			if i%7 == 0 {
				fn := v3()
				c.FricN = &fn
			}
			p.Prev = append(p.Prev, c)
		}
		for _, c := range []struct {
			v    any
			fast func() ([]byte, bool)
		}{{&d, func() ([]byte, bool) { return appendBody(nil, &d) }}, {&p, func() ([]byte, bool) { return appendPair(nil, &p) }}} {
			want, err := json.Marshal(c.v)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := c.fast()
			if !ok || !bytes.Equal(got, want) {
				t.Fatalf("record %d: %v\n got %s\nwant %s", i, ok, got, want)
			}
		}
	}
	bad := Body{Name: "a<b", Quaternion: [4]float64{1}}
	if _, ok := appendBody(nil, &bad); ok {
		t.Error("a name to escape: written")
	}
	bad = Body{Name: "s", Velocity: [3]float64{math.NaN()}}
	if _, ok := appendBody(nil, &bad); ok {
		t.Error("a NaN: written")
	}
	if _, ok := appendPair(nil, &world.PairState{Sep: make([]float64, 9)}); ok {
		t.Error("a separation certificate: written")
	}
}
