package shape

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/geom"
)

var update = flag.Bool("update", false, "rewrite assets/meshes/tetrapod.stl from DefaultTetrapod()")

// tetrapodAsset is the shipped mesh, relative to this package's directory.
const tetrapodAsset = "../../assets/meshes/tetrapod.stl"

func mustTetrapod(t testing.TB) *Polyhedron {
	p, err := Tetrapod(DefaultTetrapod())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func binarySTL(t testing.TB, p *Polyhedron) []byte {
	var b bytes.Buffer
	if err := WriteSTLBinary(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func asciiSTL(t testing.TB, p *Polyhedron) []byte {
	var b bytes.Buffer
	if err := WriteSTLASCII(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func parseSolid(t testing.TB, data []byte, name string) *Polyhedron {
	t.Helper()
	v, tr, err := ReadSTL(bytes.NewReader(data), name, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPolyhedron(name, v, tr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Binary round trip: same topology, vertices within float32 rounding
// (1e-7·radius), volume within 1e-6 relative.
func TestSTLBinaryRoundTrip(t *testing.T) {
	p := mustTetrapod(t)
	data := binarySTL(t, p)
	if len(data) != 84+50*len(p.Faces) {
		t.Fatalf("binary size %d", len(data))
	}
	q := parseSolid(t, data, "rt.stl")
	if len(q.Verts) != len(p.Verts) || len(q.Faces) != len(p.Faces) || q.NumEdges(Concave) != p.NumEdges(Concave) {
		t.Fatalf("round trip: %d verts %d faces, want %d %d", len(q.Verts), len(q.Faces), len(p.Verts), len(p.Faces))
	}
	v, tr, err := ReadSTL(bytes.NewReader(data), "rt.stl", 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxFaceVertexDist(p, v, tr); d > 1e-7*p.Radius {
		t.Fatalf("vertices moved by %g", d)
	}
	if math.Abs(q.Volume-p.Volume) > 1e-6*p.Volume {
		t.Errorf("volume %v → %v", p.Volume, q.Volume)
	}
}

// maxFaceVertexDist compares the face corners of p (body frame) with those
// of a mesh read back from STL (reading renumbers vertices; faces keep order).
func maxFaceVertexDist(p *Polyhedron, verts []geom.Vec3, tris [][3]int32) float64 {
	d := 0.0
	for f := range p.Faces {
		for k := 0; k < 3; k++ {
			d = math.Max(d, p.Verts[p.Faces[f].V[k]].Dist(verts[tris[f][k]]))
		}
	}
	return d
}

// ASCII round trip is exact: shortest round-trip decimal coordinates.
func TestSTLASCIIRoundTrip(t *testing.T) {
	v, tr := lShape(0.8)
	p, err := NewPolyhedron("L shape", v, tr)
	if err != nil {
		t.Fatal(err)
	}
	data := asciiSTL(t, p)
	if !bytes.HasPrefix(data, []byte("solid L_shape\n")) {
		t.Errorf("header %q", data[:20])
	}
	q := parseSolid(t, data, "l.stl")
	v, tr, err = ReadSTL(bytes.NewReader(data), "l.stl", 0)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxFaceVertexDist(p, v, tr); d != 0 {
		t.Fatalf("vertices moved by %g", d)
	}
	if math.Abs(q.Volume-p.Volume) > 1e-12*p.Volume || relMatErr(q.InertiaUnit, p.InertiaUnit) > 1e-12 {
		t.Errorf("mass properties changed: %v %v", q.Volume, q.InertiaUnit)
	}
}

// soupCube writes the 12 triangles of a unit cube as an ASCII triangle soup
// (36 vertices, each corner repeated), optionally jittered.
func soupCube(jitter float64) string {
	v := boxVerts(1, 1, 1, geom.Vec3{})
	var b strings.Builder
	b.WriteString("solid cube\n")
	n := 0
	for _, t := range boxTris() {
		b.WriteString("facet normal 0 0 0\nouter loop\n")
		for _, i := range t {
			x := v[i]
			j := jitter * float64(n%3-1)
			n++
			b.WriteString("vertex " + ftoa(x.X+j) + " " + ftoa(x.Y-j) + " " + ftoa(x.Z) + "\n")
		}
		b.WriteString("endloop\nendfacet\n")
	}
	b.WriteString("endsolid cube\n")
	return b.String()
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Welding merges the repeated corners of a triangle soup into 8 vertices,
// also when they differ by 1e-12 (below the default 1e-9·diagonal), and not
// when the tolerance is smaller than the jitter (want −1: more than 8).
func TestWeldSoupCube(t *testing.T) {
	for _, c := range []struct {
		jitter, tol float64
		want        int
	}{{0, 0, 8}, {1e-12, 0, 8}, {1e-5, 1e-4, 8}, {1e-5, 1e-7, -1}} {
		v, tr, err := ReadSTL(strings.NewReader(soupCube(c.jitter)), "soup.stl", c.tol)
		if err != nil {
			t.Fatal(err)
		}
		if (c.want > 0 && len(v) != c.want) || (c.want < 0 && len(v) <= 8) || len(tr) != 12 {
			t.Errorf("jitter %g tol %g: %d vertices, %d triangles; want %d, 12", c.jitter, c.tol, len(v), len(tr), c.want)
		}
		if c.want == 8 {
			p, err := NewPolyhedron("soup", v, tr)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(p.Volume-1) > 1e-9 {
				t.Errorf("welded cube volume %v", p.Volume)
			}
		}
	}
}

// A binary file whose header starts with "solid" is still read as binary.
func TestSTLBinaryHeaderSolid(t *testing.T) {
	data := binarySTL(t, Box(1, 2, 3))
	copy(data, "solid box exported by a CAD tool")
	if q := parseSolid(t, data, "cad.stl"); math.Abs(q.Volume-6) > 1e-6 {
		t.Errorf("volume %v", q.Volume)
	}
}

// Errors name the file and the line (ASCII) or the triangle/truncation (binary).
func TestSTLErrors(t *testing.T) {
	good := soupCube(0)
	lines := strings.Split(good, "\n")
	typo := strings.Join(append(append(append([]string(nil), lines[:17]...), "vertx 0 0 0"), lines[18:]...), "\n")
	nan := strings.Replace(good, "vertex -0.5 -0.5 -0.5", "vertex -0.5 nan -0.5", 1)
	four := strings.Replace(good, "endloop", "vertex 1 1 1\nendloop", 1)
	bin := binarySTL(t, Box(1, 1, 1))
	short := bin[:len(bin)-57]
	huge := append([]byte(nil), bin[:84]...)
	binary.LittleEndian.PutUint32(huge[80:], 0xFFFFFFFF)
	badF := append([]byte(nil), bin...)
	binary.LittleEndian.PutUint32(badF[84+3*50+12+4:], math.Float32bits(float32(math.Inf(1))))
	for _, c := range []struct {
		name string
		data string
		want string
	}{
		{"typo", typo, `rock.stl:18: expected "vertex", got "vertx"`},
		{"nan", nan, `rock.stl:4: non-finite coordinate "nan"`},
		{"four", four, `rock.stl:7: facet has more than 3 vertices`},
		{"eof", good[:len(good)-15], `rock.stl:85: unexpected end of file`},
		{"empty", "solid x\nendsolid x\n", "rock.stl: no triangles"},
		{"junk", "hello world", `rock.stl:1: expected "solid", got "hello"`},
		{"short", string(short), "rock.stl: binary STL truncated: header says 12 triangles, file holds 10"},
		{"huge", string(huge), "rock.stl: binary STL truncated: header says 4294967295 triangles, file holds 0"},
		{"inf", string(badF), "rock.stl: binary triangle 3: vertex 0 has a non-finite coordinate"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := ReadSTL(strings.NewReader(c.data), "rock.stl", 0)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
			t.Errorf("%s: allocated %d bytes", c.name, a)
		}
	}
}

// LoadSTL reads the shipped tetrapod; it matches DefaultTetrapod() (same
// vertex count, volume within 1e-9 relative of a fresh float32 encoding).
// With -update it rewrites the asset first:
//
//	go test ./sim/shape -run TestWriteTetrapodAsset -update
func TestWriteTetrapodAsset(t *testing.T) {
	fresh := binarySTL(t, mustTetrapod(t))
	if *update {
		if err := os.MkdirAll(filepath.Dir(tetrapodAsset), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tetrapodAsset, fresh, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shipped, err := LoadSTL(tetrapodAsset, 0)
	if err != nil {
		t.Fatalf("%v (regenerate with -update)", err)
	}
	want := parseSolid(t, fresh, "fresh.stl")
	if len(shipped.Verts) != len(want.Verts) || len(shipped.Faces) != len(want.Faces) ||
		math.Abs(shipped.Volume-want.Volume) > 1e-9*want.Volume {
		t.Errorf("shipped %s: %d verts, %d faces, V %v; regenerated: %d, %d, %v (run with -update)",
			tetrapodAsset, len(shipped.Verts), len(shipped.Faces), shipped.Volume, len(want.Verts), len(want.Faces), want.Volume)
	}
	if shipped.NumEdges(Concave) != 4*DefaultTetrapod().Sides || shipped.Name != "tetrapod.stl" {
		t.Errorf("shipped mesh %q has %d concave edges", shipped.Name, shipped.NumEdges(Concave))
	}
}
