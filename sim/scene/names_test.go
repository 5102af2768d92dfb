package scene

import (
	"strings"
	"testing"
)

// Generated names are checked by their form, not stored: a body named like
// a generated one clashes at that name's index (the lowest when several
// do), names outside the generator's range or not in strconv.Itoa's form
// (fill3 for 3 bodies, fill01) do not, and an earlier generator whose name
// begins the later one's clashes at the first shared name.
func TestGeneratedNameClashes(t *testing.T) {
	cases := []struct {
		name string
		sets []string
		want string // "" builds
	}{
		{"outside the range", []string{"bodies.fill0.name=fill3"}, ""},
		{"leading zero", []string{"bodies.fill0.name=fill01"}, ""},
		{"inside the range", []string{"bodies.fill0.name=fill2"}, `generators[0].name: body name "fill2" is also made by bodies[0]`},
		{"no index", []string{"bodies.fill0.name=fill"}, ""},
	}
	for _, c := range cases {
		s, err := parseWith(collisionScene, c.sets...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Build(s)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// a1 (3 bodies: a10, a11, a12) before a (20 bodies): a10 is the first clash.
	two := strings.Replace(collisionScene, "name: fill0", "name: lone", 1) + `  - name: fill
    shape: cube
    count: 20
    density: 1000
    region: {min: [2, 0, 0], max: [3, 1, 1]}
`
	two = strings.Replace(two, "  - name: fill\n    shape: cube\n    count: 3", "  - name: fill1\n    shape: cube\n    count: 3", 1)
	s, err := parseWith(two)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = Build(s); err == nil || !strings.Contains(err.Error(), `generators[1].name: body name "fill10" is also made by generators[0]`) {
		t.Errorf("got %v, want fill10 made by both generators", err)
	}
}
