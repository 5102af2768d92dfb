package body

import (
	"math"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"unsafe"
	"weak"

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
		iBody: geom.Diag(1, 1, 1), iBodyInv: geom.Diag(1, 1, 1), jMax: 1}
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
		case reflect.String:
			p := (*string)(unsafe.Pointer(v.UnsafeAddr()))
			old := *p
			*p = old + "x"
			if sameBits(&base, &orig) {
				t.Errorf("sameBits misses a change of %s", path)
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
	if n != 1+5+4+18+1+1 {
		t.Fatalf("walked %d fields", n)
	}
}

// A sphere's Body fits the 208-byte size class (it was 448 with the mass
// properties and shape inline, 224 with the generator's name).
func TestBodySize(t *testing.T) {
	if s := unsafe.Sizeof(Body{}); s > 208 {
		t.Fatalf("body.Body is %d bytes, over the 208-byte size class", s)
	}
}

// The ring of recent records keeps nothing alive that no body uses: once
// the last body of a large mesh is gone (a scene reloaded), a collection
// frees the mesh, though its record is still among the eight latest; a
// record in use is still shared, and one that was freed is made anew.
func TestRecentKeepsNoUnusedRecord(t *testing.T) {
	mesh, err := shape.Tetrapod(shape.DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	gone := weak.Make(mesh)
	a := New("a", mesh, 1000, geom.V(0, 0, 0), geom.QIdent())
	if b := New("b", mesh, 1000, geom.V(1, 0, 0), geom.QIdent()); b.p != a.p {
		t.Fatalf("two bodies of one mesh hold two records")
	}
	runtime.KeepAlive(a)
	a, mesh = nil, nil
	runtime.GC()
	runtime.GC()
	if gone.Value() != nil {
		t.Fatalf("the mesh of a body no longer used is still alive after a collection (the ring of recent records holds it)")
	}

	kept := NewSphere("kept", 0.013, 2500, geom.V(0, 0, 0))
	runtime.GC()
	if s := NewSphere("s", 0.013, 2500, geom.V(1, 0, 0)); s.p != kept.p {
		t.Fatalf("a record in use is not shared after a collection")
	}
	runtime.KeepAlive(kept)
}

// share is safe from several goroutines (go test -race): scenes may be
// built on two goroutines at once (the window's loop and a comparison run).
func TestShareConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				a := NewSphere("a", 0.001*float64(1+i%3+g), 2500, geom.V(0, 0, 0))
				b := NewSphere("b", 0.001*float64(1+i%3+g), 2500, geom.V(0, 0, 0))
				if a.Mass() != b.Mass() || a.SQ() != b.SQ() {
					t.Errorf("two spheres of one radius differ")
					return
				}
				if i%100 == 0 {
					runtime.GC()
				}
			}
		}()
	}
	wg.Wait()
}
