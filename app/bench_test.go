package app

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"grainlab/sim/world"
)

// TestBenchCrewLines: `grainlab bench` prints under its stage table how the
// step used the workers, with sane figures, on the first steps of the
// packed 300-tetrapod collapse: with one worker no fork–join, no batch, no
// join wait, a helpers' share of 0 and a serial share below 100% (the
// placing, pair and body passes are timed as splittable with any number of
// workers); with two, fork–joins every step, at least 8 batches each
// (parallelMin 64 items in batches of at least 8), and shares in [0, 100]%.
func TestBenchCrewLines(t *testing.T) {
	for _, workers := range []string{"1", "2"} {
		var out, errb bytes.Buffer
		if code := cmdBench([]string{"--time", "2e-3", "--workers", workers}, &out, &errb); code != ExitOK {
			t.Fatalf("%s workers: exit %d: %s", workers, code, errb.String())
		}
		// the first number after a line's label
		fig := map[string]float64{}
		lines := strings.Split(out.String(), "\n")
		stages := -1
		for i, line := range lines {
			if strings.HasPrefix(line, "stages ") {
				stages = i
			}
			for _, label := range []string{"fork–joins/step", "helpers' share", "join wait", "serial share"} {
				if rest, ok := strings.CutPrefix(line, label); ok {
					if stages < 0 || i < stages {
						t.Errorf("%s workers: %q before the stage table", workers, label)
					}
					f := strings.Fields(rest)
					if len(f) == 0 {
						t.Fatalf("%s workers: %q has no figure: %q", workers, label, line)
					}
					v, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
					if err != nil {
						t.Fatalf("%s workers: %q: %v", workers, line, err)
					}
					fig[label] = v
					// the batches per step, in parentheses after the fork–joins
					if label == "fork–joins/step" && len(f) > 1 {
						fig["batches"], _ = strconv.ParseFloat(strings.TrimPrefix(f[1], "("), 64)
					}
				}
			}
		}
		if len(fig) != 5 {
			t.Fatalf("%s workers: figures %v, want the four crew lines; output:\n%s", workers, fig, out.String())
		}
		t.Logf("%s workers: %v", workers, fig)
		fj, b, help, wait, serial := fig["fork–joins/step"], fig["batches"], fig["helpers' share"], fig["join wait"], fig["serial share"]
		if help < 0 || help > 100 || serial < 0 || serial >= 100 || wait < 0 {
			t.Errorf("%s workers: helpers' share %g%%, serial share %g%%, join wait %g µs/step: want shares in [0, 100]%% (serial below 100) and a wait ≥ 0", workers, help, serial, wait)
		}
		if workers == "1" {
			if fj != 0 || b != 0 || help != 0 || wait != 0 {
				t.Errorf("one worker: %g fork–joins and %g batches per step, helpers' share %g%%, wait %g µs/step; want all 0", fj, b, help, wait)
			}
		} else if fj <= 0 || b < 8*fj {
			t.Errorf("two workers: %g fork–joins and %g batches per step; want > 0 fork–joins, ≥ 8 batches each", fj, b)
		}
	}
}

// TestBenchVerletLine: `grainlab bench` prints the Verlet skin and the
// list's rebuilds over the measured steps: on 300 spheres falling in
// sphere-box-soft (world.SphereSkinMin lowered) the sphere path's 0.6 r_min (r = 1 mm) with at least one
// rebuild, and with --set contact.skin=0.0002 that skin and more rebuilds
// (a third of the skin is crossed sooner).
func TestBenchVerletLine(t *testing.T) {
	defer func(n int) { world.SphereSkinMin = n }(world.SphereSkinMin)
	world.SphereSkinMin = 300 // the sphere path's skin from 300 spheres
	rebuilds := map[string]int{}
	for _, c := range []struct{ set, want string }{
		{"contact.skin=auto", "skin 0.0006 m (0.6 r_min), "},
		{"contact.skin=0.0002", "skin 0.0002 m (0.2 r_min), "},
	} {
		var out, errb bytes.Buffer
		args := []string{"--scene", "sphere-box-soft", "--set", "generators.s.count=300", "--set", c.set, "--time", "0.03", "--workers", "1"}
		if code := cmdBench(args, &out, &errb); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", c.set, code, errb.String())
		}
		var line string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "Verlet list ") {
				line = l
			}
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "Verlet list")), c.want)
		if !ok {
			t.Fatalf("%s: line %q, want it to start %q; output:\n%s", c.set, line, "Verlet list      "+c.want, out.String())
		}
		n, err := strconv.Atoi(strings.Fields(rest)[0])
		if err != nil || n < 1 {
			t.Fatalf("%s: line %q: want a number of rebuilds ≥ 1", c.set, line)
		}
		rebuilds[c.set] = n
	}
	if rebuilds["contact.skin=0.0002"] <= rebuilds["contact.skin=auto"] {
		t.Fatalf("rebuilds %v: want more at the narrower skin", rebuilds)
	}
	t.Logf("rebuilds %v", rebuilds)
}

// TestBenchSphereSerialShare: on the sphere path the serial share is the
// share of the loop outside the sphere path's split passes (Spheres.fork,
// timed in Profile.Parallel since session 16; it read 100% before): with
// two workers on 6000 falling spheres, when the step forked, a share below
// 100%; with one worker (passes unsplit, untimed) "not measured".
func TestBenchSphereSerialShare(t *testing.T) {
	sets := []string{"--scene", "sphere-box-soft", "--set", "generators[0].count=6000",
		"--set", "generators[0].region.max=[0.0389,0.0389,0.0778]", "--set", "walls[0].max=[0.0389,0.0389,0.0778]", "--time", "2e-3"}
	for _, workers := range []string{"1", "2"} {
		var out, errb bytes.Buffer
		if code := cmdBench(append(sets, "--workers", workers), &out, &errb); code != ExitOK {
			t.Fatalf("%s workers: exit %d: %s", workers, code, errb.String())
		}
		var fj float64 = -1
		serial := ""
		for _, line := range strings.Split(out.String(), "\n") {
			if rest, ok := strings.CutPrefix(line, "fork–joins/step"); ok {
				fj, _ = strconv.ParseFloat(strings.Fields(rest)[0], 64)
			}
			if rest, ok := strings.CutPrefix(line, "serial share"); ok {
				serial = strings.TrimSpace(rest)
			}
		}
		t.Logf("%s workers: %g fork–joins/step, serial share %s", workers, fj, serial)
		switch {
		case fj < 0 || serial == "":
			t.Fatalf("%s workers: no crew lines:\n%s", workers, out.String())
		case fj == 0:
			if !strings.HasPrefix(serial, "not measured") {
				t.Errorf("%s workers: no fork–join, serial share %q: want \"not measured\"", workers, serial)
			}
		default:
			v, err := strconv.ParseFloat(strings.TrimSuffix(strings.Fields(serial)[0], "%"), 64)
			if err != nil || !(v >= 0 && v < 100) {
				t.Errorf("%s workers: %g fork–joins/step, serial share %q: want a share in [0, 100)%%", workers, fj, serial)
			}
		}
		if workers == "2" && fj == 0 {
			t.Errorf("two workers on 6000 spheres: no fork–join (the Drift and Accept passes split from %d spheres)", 2048)
		}
	}
}
