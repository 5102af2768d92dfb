package window

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grainlab/app"
)

// TestHistoryDirBadInput: `view --history-dir` naming no directory exits 2
// naming the flag and the path, before any window opens.
func TestHistoryDirBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(file, nil, 0o644)
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		var so, se strings.Builder
		if code := app.Main([]string{"view", "--history-dir", dir}, &so, &se); code != app.ExitInput || !strings.Contains(se.String(), "--history-dir "+dir) {
			t.Errorf("--history-dir %s: exit %d, %q", dir, code, se.String())
		}
	}
}

// TestExportFramesBadInput: export --frames reports a bad dump (file, line,
// column) with exit 2 before any window opens.
func TestExportFramesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.dump")
	os.WriteFile(bad, []byte("ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\nITEM: ATOMS id x y radius\n1 0 0 1\n"), 0o644)
	var so, se strings.Builder
	if code := app.Main([]string{"export", bad, "--frames", dir}, &so, &se); code != app.ExitInput || !strings.Contains(se.String(), bad+":9: column z missing") {
		t.Errorf("export --frames of a bad dump: exit %d, %q; want exit 2 and %q", code, se.String(), bad+":9: column z missing")
	}
}

// TestViewFlagsBadInput: `view --integrator rk4` blames --integrator (not
// --set integrator.name) and lists the integrators; --ui-scale outside
// [0.5, 4] is refused; both exit 2 before any window opens.
func TestViewFlagsBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"view", "--integrator", "rk4"}, []string{`--integrator "rk4": unknown integrator (one of explicit, newmark, variational, variational1, cd)`}},
		{[]string{"view", "cube-drop-a", "--integrator", "rk4"}, []string{`--integrator "rk4"`, "explicit, newmark"}},
		{[]string{"view", "--ui-scale", "9"}, []string{"--ui-scale must be between 0.5 and 4"}},
		{[]string{"view", "--ui-scale", "-1"}, []string{"--ui-scale must be between 0.5 and 4"}},
	} {
		var so, se strings.Builder
		code := app.Main(c.args, &so, &se)
		for _, w := range c.want {
			if code != app.ExitInput || !strings.Contains(se.String(), w) || strings.Contains(se.String(), "--set integrator") {
				t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, se.String(), w)
			}
		}
	}
}

// TestViewRunCompareBadInput: `view RUN --compare newmark` (or
// --compare-set) on a recorded run exits 2 with one line naming the flag,
// before the file is read or any window opens (a recording has no scene to
// re-simulate).
func TestViewRunCompareBadInput(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run.grec")
	os.WriteFile(run, nil, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--compare", "newmark"}, "--compare needs a scene: a recorded run cannot be re-simulated"},
		{[]string{"--compare-set", "mu_s=0.3"}, "--compare-set needs a scene: a recorded run cannot be re-simulated"},
		{[]string{"--compare", "cd", "--compare-set", "mu_s=0.3"}, "--compare and --compare-set need a scene"},
	} {
		var so, se strings.Builder
		args := append([]string{"view", run}, c.args...)
		code := app.Main(args, &so, &se)
		if code != app.ExitInput || !strings.Contains(se.String(), c.want) || strings.Count(se.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", args, code, se.String(), c.want)
		}
	}
}

// TestAutoRestartKeepsPacked: on the default scene, --set of the contact
// law and friction keeps the packed start silently; any other --set starts
// from the scene's initial state and says so in one line naming the key.
func TestAutoRestartKeepsPacked(t *testing.T) {
	for _, c := range []struct {
		scene   string
		sets    []string
		restart string
		note    string
	}{
		{app.DefaultScene, nil, "builtin:" + app.DefaultPacked, ""},
		{app.DefaultScene, []string{"contact.default.mu_s=0.5", "contact.default.eps1=2e7"}, "builtin:" + app.DefaultPacked, ""},
		{app.DefaultScene, []string{"contact.default.mu_s=0.5", "generators.fill.count=100"}, "",
			"--set generators.fill.count is not one the packed state allows: starting from the scene's initial state"},
		{"cube-drop-a", []string{"contact.default.mu_s=0.5"}, "", ""},
	} {
		o := app.Options{Scene: c.scene, Sets: c.sets, Restart: "auto"}
		note := app.AutoRestart(&o)
		if o.Restart != c.restart || note != c.note {
			t.Errorf("%s %v: restart %q note %q; want %q %q", c.scene, c.sets, o.Restart, note, c.restart, c.note)
		}
	}
	// the packed start with a law override loads (the state file accepts it)
	o := app.Options{Scene: app.DefaultScene, Sets: []string{"contact.default.mu_s=0.5", "contact.default.mu_d=0.4"}, Restart: "auto", Workers: 1}
	app.AutoRestart(&o)
	s, err := app.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if s.World.Time != 6 || s.World.DefaultParams().Friction.MuS != 0.5 {
		t.Errorf("packed start with mu_s=0.5: t = %g, mu_s = %g", s.World.Time, s.World.DefaultParams().Friction.MuS)
	}
}
