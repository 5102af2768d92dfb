package state

import (
	"bytes"
	"reflect"
	"testing"

	"grainlab/sim/integrate"
	"grainlab/sim/scene"
	"grainlab/sim/world"
)

// paramEdit is one live contact-parameter edit of the sliding block, as
// the window makes them: a number (SetParam, the panel's single fields and
// events) or the panel's whole law (SetLaw).
type paramEdit struct {
	at  float64
	set func(w *world.World) error
}

// slidingEdits are three edits of the sliding block's law (sliding-block-a:
// barrier, ζ 0.5, μ_s 0.8, μ_d 0.6): μ_d at 0.01 s, the law (a softer
// barrier, less damping, less friction) at 0.02 s and ζ at 0.03 s.
var slidingEdits = []paramEdit{
	{0.01, func(w *world.World) error { return w.SetParam("contact.default.mu_d", 0.45) }},
	{0.02, func(w *world.World) error {
		return w.SetLaw("contact.default", world.LawEdit{Kind: "barrier", Values: map[string]float64{
			"gbar": 0.001, "eps1": 1e5, "n1": 1, "f": 0.5, "n2": -2, "zeta": 0.2, "mu_s": 0.5, "mu_d": 0.3, "eps_t": 1e5, "c_t": 20}})
	}},
	{0.03, func(w *world.World) error { return w.SetParam("contact.default.zeta", 0.05) }},
}

// A run resumed from a keyframe (state.Apply on the running world) is the
// restart from that keyframe (Apply on a fresh world of the scene), bit for
// bit, after live contact-parameter edits: the sliding block (explicit,
// variational and cd) with three edits (a number, the whole law, a number) and a
// keyframe before them, right after the first (taken at its time, as the
// window takes one after an edit), between them or after them. The
// resumed world's edit list is the keyframe's, its contact parameters are
// the restart's (World.ParamDiff finds none that differ, both ways), and
// 0.02 s later both worlds' whole state files (state.Encode: bodies,
// forces, contact history, parameters, edits, integrator state) are the
// same bytes. Before the fix the resumed run kept the latest parameters
// while its edit list went back to the keyframe's (and SetLaw did not
// exist: the window's law edit recorded only ḡ).
func TestResumeEqualsRestartAfterParamEdits(t *testing.T) {
	const end = 1.0
	for _, in := range []string{"explicit", "variational", "cd"} {
		sets := []string{"integrator.name=" + in}
		for _, c := range []struct {
			kt    float64 // keyframe time
			after int     // edits made before the keyframe
		}{{0.005, 0}, {0.01, 1}, {0.015, 1}, {0.025, 2}, {0.035, 3}} {
			a, _ := started(t, "sliding-block-a", sets...)
			var key []byte
			for k, e := range slidingEdits {
				if key == nil && k == c.after {
					to(t, a, c.kt, end)
					var err error
					if key, err = Encode(a); err != nil {
						t.Fatal(err)
					}
				}
				to(t, a, e.at, end)
				if err := e.set(a); err != nil { // between two steps, as the window's commands
					t.Fatal(err)
				}
			}
			if key == nil {
				to(t, a, c.kt, end)
				var err error
				if key, err = Encode(a); err != nil {
					t.Fatal(err)
				}
			}
			to(t, a, 0.04, end)

			f := resumeTo(t, a, key)
			b, err := scene.Build(sceneSpec(t, "sliding-block-a", sets...)) // restart
			if err != nil {
				t.Fatal(err)
			}
			b.Settings.Workers = 2
			if err := Apply(b, f, "keyframe"); err != nil {
				t.Fatal(err)
			}
			if err := integrate.Start(b); err != nil {
				t.Fatal(err)
			}
			if len(a.Edits) != c.after || !reflect.DeepEqual(a.Edits, f.History.Edits) || !reflect.DeepEqual(b.Edits, f.History.Edits) {
				t.Fatalf("%s, keyframe at %g s: edits resumed %+v, restarted %+v, want the keyframe's %d: %+v", in, c.kt, a.Edits, b.Edits, c.after, f.History.Edits)
			}
			if d := a.ParamDiff(b.TakeHistory().Params); len(d) > 0 {
				t.Fatalf("%s, keyframe at %g s: resumed parameters differ from the restart's: %v", in, c.kt, d)
			}
			if d := a.ParamDiff(f.History.Params); len(d) > 0 {
				t.Fatalf("%s, keyframe at %g s: resumed parameters differ from the keyframe's record: %v", in, c.kt, d)
			}
			to(t, a, c.kt+0.02, end)
			to(t, b, c.kt+0.02, end)
			if d := diffBodies(a, b); d != "" {
				t.Fatalf("%s, keyframe at %g s: resumed and restarted runs differ at %g s: %s", in, c.kt, c.kt+0.02, d)
			}
			sa, err := Encode(a)
			if err != nil {
				t.Fatal(err)
			}
			sb, err := Encode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(sa, sb) {
				t.Fatalf("%s, keyframe at %g s: the resumed and restarted state files differ at %g s", in, c.kt, c.kt+0.02)
			}
			t.Logf("%s, keyframe at %g s (%d edits before it): resumed = restarted at %g s (%d steps, %d state bytes)", in, c.kt, c.after, a.Time, a.Steps, len(sa))
		}
	}
}

// The window's law edit is one recorded edit (World.SetLaw): a restart
// from a state file written after it runs with the edited law — no note
// (ParamDiff finds nothing) and the same bits 0.02 s on as the run that
// made it. Before the fix the law panel's edit went through SetParams and
// recorded only ḡ, so the restart ran the scene's law.
func TestExactRestartAfterLawEdit(t *testing.T) {
	const end = 1.0
	a, _ := started(t, "sliding-block-a")
	to(t, a, 0.02, end)
	if err := slidingEdits[1].set(a); err != nil {
		t.Fatal(err)
	}
	if err := integrate.Start(a); err != nil {
		t.Fatal(err)
	}
	to(t, a, 0.025, end)
	data, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	to(t, a, 0.045, end)
	b, notes := restartFrom(t, data, false, "sliding-block-a")
	if len(notes) > 0 {
		t.Fatalf("notes on a restart after a law edit: %v", notes)
	}
	to(t, b, 0.045, end)
	if d := diffBodies(a, b); d != "" {
		t.Fatalf("restart after a law edit differs at 0.045 s: %s", d)
	}
}

// SetLaw refuses an unknown law, an unknown key and an invalid law (μ_d >
// μ_s) naming them, and changes nothing: parameters and edits as before.
func TestSetLawRefuses(t *testing.T) {
	w, _ := started(t, "sliding-block-a")
	before := w.TakeHistory().Params
	for _, c := range []struct {
		path string
		l    world.LawEdit
		want string
	}{
		{"contact.default", world.LawEdit{Kind: "spring"}, `unknown normal law "spring"`},
		{"contact.default", world.LawEdit{Kind: "linear", Values: map[string]float64{"stiffness": 1}}, `contact.default.stiffness: unknown contact parameter "stiffness"`},
		{"contact.default", world.LawEdit{Kind: "barrier", Values: map[string]float64{"mu_d": 0.9}}, "mu_d"},
		{"contact.nosuch.default", world.LawEdit{Kind: "barrier"}, "unknown material"},
		{"default", world.LawEdit{Kind: "barrier"}, "expected contact.default"},
	} {
		err := w.SetLaw(c.path, c.l)
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("SetLaw(%s, %+v): %v, want an error with %q", c.path, c.l, err, c.want)
		}
	}
	if d := w.ParamDiff(before); len(d) > 0 || len(w.Edits) > 0 {
		t.Errorf("refused laws changed the world: %v, edits %+v", d, w.Edits)
	}
}
