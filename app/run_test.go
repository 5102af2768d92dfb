package app

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/state"
)

// grainlab run writes the three documented files: series.csv with the
// columns of docs/outputs.md (its last row at the end time, energy columns
// consistent), contacts.csv and final.json; exit code 0.
func TestRunWritesOutputs(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	code := Main([]string{"run", "sliding-block-a", "--time", "0.2", "--out", dir, "--quiet"}, &bytes.Buffer{}, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	f, err := os.Open(filepath.Join(dir, "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	for _, c := range []string{"t", "dt", "kinetic", "potential_gravity", "potential_contact", "total_energy", "contacts",
		"contacts_vf", "contacts_ee", "contacts_ve", "contacts_vv", "contacts_suppressed", "night_owls",
		"wall_ground_fx", "wall_ground_fy", "wall_ground_fz", "load_push_fx"} {
		if !contains(head, c) && !(c == "load_push_fx" && hasPrefix(head, "load")) {
			t.Errorf("series.csv has no column %q (header %v)", c, head)
		}
	}
	col := func(name string) int {
		for i, h := range head {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	last := rows[len(rows)-1]
	num := func(name string) float64 {
		v, err := strconv.ParseFloat(last[col(name)], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if math.Abs(num("t")-0.2) > 1e-12 {
		t.Errorf("last row at t=%g, want 0.2", num("t"))
	}
	if e := num("kinetic") + num("potential_gravity") + num("potential_contact"); math.Abs(e-num("total_energy")) > 1e-9*math.Abs(e) {
		t.Errorf("total_energy %g ≠ sum of parts %g", num("total_energy"), e)
	}
	// The block rests on the ground: the ground carries its weight.
	if fz := num("wall_ground_fz"); math.Abs(fz-9.81) > 0.05*9.81 {
		t.Errorf("ground reaction %g N, want ≈ 9.81 N", fz)
	}
	fin, err := state.Read(filepath.Join(dir, "final.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fin.Bodies) != 1 || math.Abs(fin.Time-0.2) > 1e-12 {
		t.Errorf("final.json: %d bodies at t=%g, want 1 at 0.2", len(fin.Bodies), fin.Time)
	}
	data, err := os.ReadFile(filepath.Join(dir, "contacts.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 1+4 {
		t.Errorf("contacts.csv has %d lines, want a header and the 4 vertex–face contacts of the resting cube", n)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasPrefix(list []string, p string) bool {
	for _, x := range list {
		if strings.HasPrefix(x, p) {
			return true
		}
	}
	return false
}

// Bad input exits with code 2 and a message naming file, line and key; a
// scene that cannot be simulated is not bad input.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\ntime: 1\nintegrator: {name: explicit, dt: 1.0e-4}\ncontact:\n  default: {gbar: -1, eps1: 1.0e5}\n"), 0o644)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"run", "no-such-scene"}, ExitInput, "no-such-scene"},
		{[]string{"run", bad, "--out", dir}, ExitInput, "bad.yaml:5: contact.default"},
		{[]string{"run", "cube-drop-a", "--set", "contact.default.mu_x=1", "--out", dir}, ExitInput, `unknown key "mu_x"`},
		{[]string{"run", "cube-drop-a", "--time", "NaN", "--out", dir}, ExitInput, "--time"},
		{[]string{"run", "cube-drop-a", "--time", "inf", "--out", dir}, ExitInput, "--time must be a finite number"},
		{[]string{"run", "cube-drop-a", "--dt", "-inf", "--out", dir}, ExitInput, "--dt must be a finite number"},
		{[]string{"run", "cube-drop-a", "--workers", "-3", "--out", dir}, ExitInput, "--workers must be ≥ 0"},
		{[]string{"run", "cube-drop-a", "--integrator", "rk4", "--out", dir}, ExitInput, `--integrator "rk4": unknown integrator`},
		{[]string{"run", "sphere-piling", "--integrator", "cd", "--set", "contact.default.mu_roll=0.1", "--out", dir}, ExitInput,
			"--integrator cd: integrator cd cannot run this scene: contact default–default has rolling resistance"},
		{[]string{"run", "cube-drop-a", "--checkpoint", "-1", "--out", dir}, ExitInput, "--checkpoint must be"},
		{[]string{"run", filepath.Join(dir, "missing.yaml"), "--out", dir}, ExitInput, "missing.yaml: no such file"},
		{[]string{"run", "scenes/cube-drop-x", "--out", dir}, ExitInput, "scenes/cube-drop-x: no such file"},
		{[]string{"run", dir, "--out", dir}, ExitInput, "is a directory"},
		{[]string{"run", "cube-drop-a", "--set", "output.every=1e-12", "--out", dir}, ExitInput, "output.every = 1e-12 s is below the smallest time step integrator.dt_min"},
		{[]string{"bench", "--scene", "cube-drop-a", "--workers", "-3"}, ExitInput, "--workers must be ≥ 0"},
		{[]string{"run"}, ExitInput, "missing SCENE"},
		{[]string{"frobnicate"}, ExitInput, "unknown command"},
		{[]string{"lammps", "cube-drop-a", "--out", dir}, ExitInput, "is not a sphere"},
		{[]string{"lammps", "sphere-box", "--dt", "NaN", "--out", dir}, ExitInput, "--dt"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		code := Main(c.args, &bytes.Buffer{}, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr.String(), c.code, c.msg)
		}
	}
}

// `grainlab lammps` writes the deck of a sphere scene: the input script and
// the data file it reads, one atom per sphere.
func TestLammpsWritesDeck(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	if code := Main([]string{"lammps", "sphere-box-soft", "--steps", "50", "--out", dir}, &bytes.Buffer{}, &stderr); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	in, err := os.ReadFile(filepath.Join(dir, "in.lammps"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "data.spheres"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(in), "read_data data.spheres\n") || !strings.Contains(string(in), "timestep 0.0001\nthermo 50\nrun 50\n") ||
		!strings.Contains(string(data), "218 atoms\n") {
		t.Errorf("deck:\n%s\n%.300s", in, data)
	}
}

// --restart continues from a final.json: the restarted run starts at its time
// with its body states.
func TestRunRestart(t *testing.T) {
	dir := t.TempDir()
	if code := Main([]string{"run", "cube-drop-c", "--time", "0.05", "--out", dir, "--quiet"}, &bytes.Buffer{}, os.Stderr); code != 0 {
		t.Fatal("first run failed")
	}
	s, err := Load(Options{Scene: "cube-drop-c", Restart: filepath.Join(dir, "final.json")})
	if err != nil {
		t.Fatal(err)
	}
	fin, _ := state.Read(filepath.Join(dir, "final.json"))
	b := s.World.Bodies()[s.World.BodyByName(fin.Bodies[0].Name)]
	if s.World.Time != 0.05 || b.X.Z != fin.Bodies[0].Position[2] || b.V.Z != fin.Bodies[0].Velocity[2] {
		t.Fatalf("restarted at t=%g, z=%g, vz=%g; want the saved %g, %g, %g", s.World.Time, b.X.Z, b.V.Z, fin.Time, fin.Bodies[0].Position[2], fin.Bodies[0].Velocity[2])
	}
}
