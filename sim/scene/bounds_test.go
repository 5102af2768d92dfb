package scene

import (
	"strings"
	"testing"
)

// collisionScene has a body fill0 (line 10) beside a generator fill (line 12).
const collisionScene = `name: clash
time: 1
integrator: {name: explicit, dt: 1.0e-4}
contact:
  default: {gbar: 0.001, eps1: 1.0e5}
shapes:
  cube: {type: box, size: [0.1, 0.1, 0.1]}
bodies:
  - shape: cube
    name: fill0
    density: 1000
    position: [5, 5, 5]
generators:
  - name: fill
    shape: cube
    count: 3
    density: 1000
    region: {min: [0, 0, 0], max: [1, 1, 1]}
`

// A body fill0 beside a generator fill would give two bodies named fill0:
// refused at the generator's name, naming the body's line too.
func TestBuildNameCollision(t *testing.T) {
	s, err := Parse([]byte(collisionScene), "clash.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(s)
	want := `clash.yaml:14: generators[0].name: body name "fill0" is also made by bodies[0] (clash.yaml:10): body names must be unique`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %q…", err, want)
	}
	// Two generators can collide as well: a (11 bodies) makes a10, as does a1.
	two := strings.Replace(collisionScene, "name: fill0", "name: lone", 1) + `  - name: fill1
    shape: cube
    count: 1
    density: 1000
    region: {min: [2, 0, 0], max: [3, 1, 1]}
`
	s, err = parseWith(two, "generators.fill.count=11")
	if err != nil {
		t.Fatal(err)
	}
	if _, err = Build(s); err == nil || !strings.Contains(err.Error(), `body name "fill10" is also made by generators[0] (test.yaml:14)`) {
		t.Fatalf("got %v, want a collision of fill10 naming both lines", err)
	}
}

// parseWith parses scene text with overrides (a test helper).
func parseWith(text string, sets ...string) (*Spec, error) {
	return ParseWithOverrides([]byte(text), "test.yaml", sets)
}

// A contact law too stiff for the lightest body is refused with the numbers:
// Δt_c = 2√(m/k) (S0 §2.4.7) below dt_min. cube-drop-a: m = 1 kg, dt_min 1e-9 s.
func TestBuildRefusesStiffnessBelowDtMin(t *testing.T) {
	cases := []struct{ set, want string }{
		// linear part (i) of the barrier law at f·ḡ, n1 = 1: k = ε1 = 1e20 N/m → Δt_c = 2e-10 s.
		{"contact.default.eps1=1e20", "--set contact.default.eps1: contact.default: contact default–default: critical step 2√(m/k) = 2√(1 kg / 1e+20 N/m) = 2e-10 s"},
		// a 1e-300 kg/m³ cube: m = 1e-303 kg against k = 2e5 N/m.
		{"bodies.cube.density=1e-300", "critical step 2√(m/k) = 2√(1e-303 kg / 2e+05 N/m)"},
	}
	for _, c := range cases {
		s, err := LoadBuiltin("cube-drop-a", c.set)
		if err != nil {
			t.Fatal(err)
		}
		if _, err = Build(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: got %v, want %q", c.set, err, c.want)
		}
	}
	// The same stiffness with a step bound it can meet builds: Δt_c = 2e-10 s ≥ dt_min = 1e-10 s.
	s, err := LoadBuiltin("cube-drop-a", "contact.default.eps1=1e20", "integrator.dt_min=1e-10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(s); err != nil {
		t.Fatalf("Δt_c = 2e-10 s ≥ dt_min: %v", err)
	}
	// smooth law: sphere-box, kn 1e300 N/m.
	s, err = LoadBuiltin("sphere-box", "contact.default.kn=1e300")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(s); err == nil || !strings.Contains(err.Error(), "is below integrator.dt_min") {
		t.Fatalf("kn 1e300: got %v", err)
	}
}

// A mass out of the float range (density 1e300 times a 1e-3 m³ cube
// overflows the inertia's inverse) is refused at the body.
func TestBuildRefusesMassOutOfRange(t *testing.T) {
	s, err := LoadBuiltin("cube-drop-a", "bodies.cube.density=1e308")
	if err != nil {
		t.Fatal(err)
	}
	if _, err = Build(s); err == nil || !strings.Contains(err.Error(), "out of the float range") {
		t.Fatalf("got %v", err)
	}
}

// Body counts are checked against memory before any body is allocated:
// 10⁷ tetrapods (~10 KB each) exceed a 1 GB limit, and the error gives the
// estimate; the refusal is immediate (no 10⁷ allocations).
func TestBuildRefusesBodiesBeyondMemory(t *testing.T) {
	defer func(f func() float64) { memoryLimit = f }(memoryLimit)
	memoryLimit = func() float64 { return 1e9 }
	s, err := LoadBuiltin("box-of-tetrapods", "generators.fill.count=10000000")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Build(s)
	want := "--set generators.fill.count: generators[0].count: 10000000 bodies would take about"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %q…", err, want)
	}
	if lim := MemoryLimit(); !(lim > 0) {
		t.Fatalf("MemoryLimit %g", lim)
	}
}

// A generator region many cells wide (2·10⁴ m of 3.9 mm cells: 2.7·10¹³
// cells per layer) builds with few bodies inside the region, without
// allocating a permutation of every cell.
func TestGeneratorWideRegion(t *testing.T) {
	s, err := LoadBuiltin("sphere-piling", "generators.0.region.min=[-1e4,-1e4,0]", "generators.0.region.max=[1e4,1e4,1]", "generators.0.count=10")
	if err != nil {
		t.Fatal(err)
	}
	w, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range w.Bodies() {
		if b.Wall >= 0 {
			continue
		}
		n++
		if r := b.Radius(); b.X.X-r < -1e4 || b.X.X+r > 1e4 || b.X.Y-r < -1e4 || b.X.Y+r > 1e4 || b.X.Z-r < 0 || b.X.Z+r > 1 {
			t.Fatalf("%s at %v (radius %g) is outside the region", b.Name, b.X, r)
		}
	}
	if n != 10 {
		t.Fatalf("%d bodies, want 10", n)
	}
}
