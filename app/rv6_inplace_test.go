package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/state"
	"grainlab/sim/world"
)

// r6: WriteInPlace's bytes are Write's at many points of lazy sphere runs
// (walls with candidate slots, friction, periodic, renumbering every
// build, a wall switched off), taken at every 37th step — but, while the
// spheres are in spatial order, for the order and the list's reference in
// it, which only the in-place file keeps (the hand-over puts the spheres
// back in body order and drops the list: s25 b5f).
func TestRV6WriteInPlaceIsWrite(t *testing.T) {
	m, e := world.SphereReorderMin, world.SphereReorderEvery
	world.SphereReorderMin, world.SphereReorderEvery = 64, 1
	t.Cleanup(func() { world.SphereReorderMin, world.SphereReorderEvery = m, e })
	per := filepath.Join(t.TempDir(), "per.yaml") // the soft box with friction, periodic in x and y over a plane
	if err := os.WriteFile(per, []byte(rv6PeriodicFriction), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		scene string
		sets  []string
		end   float64
		off   bool
	}{{"sphere-box-soft", nil, 0.3, false}, {"sphere-piling", nil, 0.05, false}, {per, nil, 0.1, false},
		{"sphere-box-soft", []string{"generators[0].count=1"}, 0.05, false}, {"sphere-box-soft", nil, 0.3, true}}
	for _, c := range cases {
		if c.off && !exportKeepsRim {
			// The floor off, spheres fall past the side walls' lower rims:
			// the in-place file keeps a rim slot's contacts, the hand-over
			// (Spheres.export) still states the slot's facet contact over
			// them (sim/state TestHandOverKeepsRim).
			t.Logf("%s %v off=%v: skipped until Spheres.export keeps a rim slot's contacts", c.scene, c.sets, c.off)
			continue
		}
		s, err := Load(Options{Scene: c.scene, Sets: c.sets, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		w := s.World
		if c.off {
			w.SyncBodies()
			if err := w.SetWallEnabled(w.Walls[0].Name, false); err != nil {
				t.Fatal(err)
			}
		}
		dir := t.TempDir()
		k, n := 0, 0
		for w.Time < c.end-1e-12 {
			if _, err := integrate.AdvancePastLazy(w, c.end, c.end, func() bool { k++; return k%37 == 0 }); err != nil {
				t.Fatal(err)
			}
			a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
			if err := state.WriteInPlace(a, w); err != nil {
				t.Fatal(err)
			}
			if err := state.Write(b, w); err != nil {
				t.Fatal(err)
			}
			da, _ := os.ReadFile(a)
			db, _ := os.ReadFile(b)
			if !bytes.Equal(da, db) && !sameButOrder(t, da, db) {
				t.Fatalf("%s %v step %d: WriteInPlace %d bytes, Write %d", c.scene, c.sets, w.Steps, len(da), len(db))
			}
			n++
		}
		t.Logf("%s %v off=%v: %d writes equal, last %d steps", c.scene, c.sets, c.off, n, w.Steps)
	}
}

// sameButOrder reports whether the in-place file a is the handed-over file
// b but for what only a file of spheres kept in spatial order holds (the
// order, and the list's reference in it, which the hand-over drops:
// world.History.SphereOrder).
func sameButOrder(t *testing.T, a, b []byte) bool {
	t.Helper()
	var ma, mb map[string]any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if err := da.Decode(&ma); err != nil {
		t.Fatal(err)
	}
	if err := db.Decode(&mb); err != nil {
		t.Fatal(err)
	}
	h, _ := ma["history"].(map[string]any)
	if h == nil || h["sphere_order"] == nil {
		return false
	}
	for _, k := range []string{"sphere_order", "verlet_ref", "verlet_rad"} {
		delete(h, k)
	}
	return reflect.DeepEqual(ma, mb)
}

// rv6PeriodicFriction is sphere-box-soft with friction (μ = 0.5), periodic
// in x and y, over a plane wall.
const rv6PeriodicFriction = `name: sphere-box-soft
description: "S2 §3.4 box 1000x softer than S2 (kd/mg = 195, for speed work): 218 spheres settle in a 6d x 6d x 120d box"
time: 1.0                   # chosen: s
params:
  d: 0.002                  # chosen: m, sphere diameter
  rho: 2500                 # chosen: kg/m³  (m = 1.0472e-5 kg)

integrator:
  name: explicit
  dt: 1.0e-5                # chosen: s
  dt_min: 1.0e-9
  dt_max: 1.0e-4
  safety: 0.2

contact:
  default:
    model: hooke            # LAMMPS gran/hooke (S2 eq. 20-21)
    kn: 10.02               # chosen: k d/(m g) = 195, 1000× below S2 §3's 195000
    gamma_n: 20             # chosen: 1/s (S2 varies γ)
    kt: 5                   # S2 §3: no friction
    gamma_t: 10             # S2 §3: γ_t = γ_n/2
    mu: 0.5                   # S2 §3: μ = 0

shapes:
  ball: {type: sphere, radius: 0.001}

generators:
  - name: s
    shape: ball
    count: 218              # S2 §3.4
    density: ${rho}
    region: {min: [0, 0, 0.001], max: [0.012, 0.012, 0.24]}
    seed: 1

periodic: {x: true, y: true, min: [0, 0, 0], max: [0.012, 0.012, 0.24]}

walls:
  - {name: bottom, type: plane, point: [0.006, 0.006, 0], normal: [0, 0, 1], size: [0.012, 0.012]}

output:
  every: 0.01
  contacts: final
`

// exportKeepsRim: Spheres.export (sim/world/spheres_sync.go, the wall
// slots' loop) keeps a rim slot's contacts in its generic entry (`if
// sl.pTouch && !sl.pRim`), as HistoryStreamInPlace does (session 26).
const exportKeepsRim = true
