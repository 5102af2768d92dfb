package body

import (
	"math"
	"reflect"
	"testing"
	"unsafe"

	"grainlab/sim/geom"
	"grainlab/sim/shape"
	"grainlab/sim/sq"
)

// Bodies of one species share one record (spheres of one radius and density,
// polyhedra of one shape and density); SetShape and SetMass copy on write:
// the edited body gets new properties, the others keep theirs bit for bit.
func TestSharedRecordCopyOnWrite(t *testing.T) {
	a := NewSphere("a", 0.01, 2500, geom.V(0, 0, 0))
	b := NewSphere("b", 0.01, 2500, geom.V(1, 0, 0))
	c := NewSphere("c", 0.02, 2500, geom.V(2, 0, 0))
	if a.p != b.p {
		t.Fatalf("spheres of one radius and density hold two records")
	}
	if a.p == c.p || c.Mass() == a.Mass() {
		t.Fatalf("spheres of two radii share a record")
	}
	box := shape.Box(0.1, 0.2, 0.3)
	p, q := New("p", box, 1000, geom.V(0, 0, 0), geom.QIdent()), New("q", box, 1000, geom.V(1, 0, 0), geom.QIdent())
	if p.p != q.p {
		t.Fatalf("polyhedra of one shape and density hold two records")
	}

	ma, ia, ra := a.Mass(), a.IBody(), a.R
	b.SetShape(sq.Sphere(0.02)) // S1 §2.1 at b's density: c's record
	if a.Mass() != ma || a.IBody() != ia || a.R != ra || a.SQ() != sq.Sphere(0.01) || a.RVol() != 0.01 {
		t.Fatalf("SetShape on b changed a: m %g I %v R %g", a.Mass(), a.IBody(), a.R)
	}
	if m := c.Mass(); math.Abs(b.Mass()-m) > 1e-12*m || b.R != 0.02 || b.RVol() != 0.02 || b.Density() != 2500 || b.SQ() != sq.Sphere(0.02) {
		t.Fatalf("b after SetShape: m %g want %g, R %g", b.Mass(), m, b.R)
	}
	m0 := 4.0 / 3 * math.Pi * 1e-6 * 2500 // ρ·4/3·π·r³
	if math.Abs(a.Mass()-m0) > 1e-12*m0 {
		t.Fatalf("a's mass %g want %g", a.Mass(), m0)
	}

	q.SetMass(7, geom.Diag(1, 2, 4))
	if q.Mass() != 7 || q.InvMass() != 1.0/7 || q.IBodyInv() != geom.Diag(1, 0.5, 0.25) || q.Poly() != box || q.Density() != 1000 {
		t.Fatalf("q after SetMass: m %g 1/m %g J⁻¹ %v", q.Mass(), q.InvMass(), q.IBodyInv())
	}
	if m := 1000 * 0.1 * 0.2 * 0.3; math.Abs(p.Mass()-m) > 1e-12*m || p.InvMass() != 1/p.Mass() {
		t.Fatalf("SetMass on q changed p: m %g want %g", p.Mass(), m)
	}

	f := NewFixed("wall", box, geom.V(0, 0, 0), geom.QIdent())
	if f.Mass() != 0 || f.InvMass() != 0 || f.IBodyInv() != (geom.Mat3{}) || f.Poly() != box {
		t.Fatalf("fixed body: m %g 1/m %g", f.Mass(), f.InvMass())
	}
}

// sameBits tells apart records that differ in any one field, by one bit
// (+0 and −0 included), so that a shared record always holds exactly the
// bits the body's own would.
func TestSameBitsSeesEveryField(t *testing.T) {
	base := props{poly: shape.Box(1, 1, 1), sq: sq.Sphere(1), rVol: 1, density: 1, mass: 1, invMass: 1,
		iBody: geom.Diag(1, 1, 1), iBodyInv: geom.Diag(1, 1, 1)}
	orig := base
	if !sameBits(&base, &orig) {
		t.Fatalf("a record differs from its copy")
	}
	n := 0
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), path)
			}
		case reflect.Float64:
			p := (*float64)(unsafe.Pointer(v.UnsafeAddr()))
			old := *p
			for _, x := range []float64{math.Nextafter(old, math.Inf(1)), math.Copysign(0, -1)} {
				*p = x
				if sameBits(&base, &orig) {
					t.Errorf("sameBits misses a change of %s to %v", path, x)
				}
			}
			*p = old
			n++
		case reflect.Pointer:
			p := (**shape.Polyhedron)(unsafe.Pointer(v.UnsafeAddr()))
			old := *p
			*p = shape.Box(1, 1, 1)
			if sameBits(&base, &orig) {
				t.Errorf("sameBits misses a change of %s", path)
			}
			*p = old
			n++
		default:
			t.Errorf("%s: a field of kind %v that sameBits does not compare", path, v.Kind())
		}
	}
	walk(reflect.ValueOf(&base).Elem(), "props")
	if n != 1+5+4+18 {
		t.Fatalf("walked %d fields", n)
	}
}

// A sphere's Body fits the 224-byte size class (it was 448 with the mass
// properties and shape inline).
func TestBodySize(t *testing.T) {
	if s := unsafe.Sizeof(Body{}); s > 224 {
		t.Fatalf("body.Body is %d bytes, over the 224-byte size class", s)
	}
}
