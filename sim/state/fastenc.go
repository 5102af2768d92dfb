package state

import (
	"math"
	"strconv"

	"grainlab/sim/world"
)

// Hand-written encodings of a state file's two bulk records, a Body and a
// history PairState: encoding/json's bytes (its field order, omitempty and
// omitzero rules and floatEncoder's number format) without its reflection
// and Opt3's MarshalJSON compacted a vector at a time (at 10⁶ spheres the
// file is ~1 GB). Each returns false, and the caller encodes the record
// with encoding/json, for what it does not write: a non-finite number
// (encoding/json's error), a string that needs escaping, a pair with a
// superquadric's or a polyhedron's state (Sep, Chord, Cache).

// appendFloat appends f as encoding/json writes a float64 (floatEncoder:
// 'f' format, 'e' below 1e-6 and from 1e21 with the exponent's leading
// zero dropped, the shortest digits that read back to f).
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// finiteAll reports whether every value is finite.
func finiteAll(v ...float64) bool {
	z := 0.0
	for _, x := range v {
		z += x - x
	}
	return z == 0
}

func appendFloats(b []byte, v []float64) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFloat(b, x)
	}
	return append(b, ']')
}

// appendName appends s quoted when it needs no escaping (printable ASCII
// without ", \, <, > and &: encoding/json's HTML-safe set).
func appendName(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}

// appendBody appends d's encoding (json.Marshal(d)'s bytes).
func appendBody(b []byte, d *Body) ([]byte, bool) {
	if !finiteAll(d.Position[:]...) || !finiteAll(d.Quaternion[:]...) || !finiteAll(d.Velocity[:]...) ||
		!finiteAll(d.AngularVelocity[:]...) || !finiteAll(d.Force.V[:]...) || !finiteAll(d.Torque.V[:]...) {
		return b, false
	}
	n := len(b)
	b = append(b, `{"name":`...)
	b, ok := appendName(b, d.Name)
	if !ok {
		return b[:n], false
	}
	b = append(b, `,"position":`...)
	b = appendFloats(b, d.Position[:])
	b = append(b, `,"quaternion":`...)
	b = appendFloats(b, d.Quaternion[:])
	b = append(b, `,"velocity":`...)
	b = appendFloats(b, d.Velocity[:])
	b = append(b, `,"angular_velocity":`...)
	b = appendFloats(b, d.AngularVelocity[:])
	if d.Force != (Opt3{}) { // omitzero
		b = append(b, `,"force":`...)
		b = appendFloats(b, d.Force.V[:])
	}
	if d.Torque != (Opt3{}) {
		b = append(b, `,"torque":`...)
		b = appendFloats(b, d.Torque.V[:])
	}
	return append(b, '}'), true
}

// appendPair appends p's encoding (json.Marshal(p)'s bytes).
func appendPair(b []byte, p *world.PairState) ([]byte, bool) {
	if p.Sep != nil || p.Chord != nil || p.Cache != nil || !finiteAll(p.Shift[:]...) ||
		p.Mid != nil && !finiteAll(p.Mid[:]...) || p.Spring != nil && !finiteAll(p.Spring[:]...) {
		return b, false
	}
	for i := range p.Prev {
		c := &p.Prev[i]
		if !finiteAll(c.PA[:]...) || !finiteAll(c.PB[:]...) || !finiteAll(c.N[:]...) || !finiteAll(c.Gn, c.G0, c.Fn, c.Epot) ||
			!finiteAll(c.Ft[:]...) || !finiteAll(c.M[:]...) || !finiteAll(c.Gt[:]...) || c.FricN != nil && !finiteAll(c.FricN[:]...) {
			return b, false
		}
	}
	b = append(b, `{"a":`...)
	b = strconv.AppendInt(b, int64(p.A), 10)
	b = append(b, `,"b":`...)
	b = strconv.AppendInt(b, int64(p.B), 10)
	b = append(b, `,"wall":`...)
	b = strconv.AppendInt(b, int64(p.Wall), 10)
	if p.Cand {
		b = append(b, `,"cand":true`...)
	}
	b = append(b, `,"shift":`...) // an array is never empty (omitempty)
	b = appendFloats(b, p.Shift[:])
	if p.Mid != nil {
		b = append(b, `,"mid":`...)
		b = appendFloats(b, p.Mid[:])
	}
	if p.Spring != nil {
		b = append(b, `,"spring":`...)
		b = appendFloats(b, p.Spring[:])
	}
	if p.SepAx {
		b = append(b, `,"sep_ax":true`...)
	}
	if len(p.Prev) > 0 {
		b = append(b, `,"prev":[`...)
		for i := range p.Prev {
			c := &p.Prev[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"key":[`...)
			for j, k := range c.Key {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(k), 10)
			}
			b = append(b, `],"pa":`...)
			b = appendFloats(b, c.PA[:])
			b = append(b, `,"pb":`...)
			b = appendFloats(b, c.PB[:])
			b = append(b, `,"n":`...)
			b = appendFloats(b, c.N[:])
			b = append(b, `,"gn":`...)
			b = appendFloat(b, c.Gn)
			b = append(b, `,"g0":`...)
			b = appendFloat(b, c.G0)
			b = append(b, `,"fn":`...)
			b = appendFloat(b, c.Fn)
			b = append(b, `,"ft":`...)
			b = appendFloats(b, c.Ft[:])
			b = append(b, `,"epot":`...)
			b = appendFloat(b, c.Epot)
			b = append(b, `,"m":`...)
			b = appendFloats(b, c.M[:])
			b = append(b, `,"gt":`...)
			b = appendFloats(b, c.Gt[:])
			if c.FricN != nil {
				b = append(b, `,"fric_n":`...)
				b = appendFloats(b, c.FricN[:])
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}
