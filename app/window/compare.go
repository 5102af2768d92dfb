package window

// The window's side of two integrators side by side (issue 18 item 7):
// the --compare flags, the panel's Compare section, and the ghost overlay
// of the second run (render.DrawGhost) over the main run's frame at the
// same time. The comparison itself is app.Compare.

import (
	"flag"
	"fmt"
	"strings"

	"grainlab/app"
	"grainlab/render"
	"grainlab/sim/snap"
	"grainlab/ui"
)

// compareOptions are `grainlab view`'s --compare and --compare-set.
type compareOptions struct {
	Integrator string
	Sets       app.SetFlags
}

// compareFlags declares --compare and --compare-set on fs.
func compareFlags(fs *flag.FlagSet, c *compareOptions) {
	fs.StringVar(&c.Integrator, "compare", "", "run a second copy of the scene with this integrator in lock step, drawn as a ghost (panel: Compare with…)")
	fs.Var(&c.Sets, "compare-set", "run a second copy with this law edit: --compare-set mu_s=0.3 (a bare key is contact.default.KEY; repeatable)")
}

// config returns the comparison the flags ask for (ok false: none).
func (c *compareOptions) config(o app.Options) (cfg app.CompareConfig, ok bool, err error) {
	if c.Integrator == "" && len(c.Sets) == 0 {
		return cfg, false, nil
	}
	sets, err := ui.ParseCompareSets(strings.Join(c.Sets, " "))
	if err != nil {
		return cfg, false, &app.InputError{Err: fmt.Errorf("--compare-set %w", err)}
	}
	cfg = app.CompareConfig{Integrator: c.Integrator, Sets: sets}
	return cfg, true, app.CheckCompare(o, cfg)
}

// compareView is the window's comparison (main thread only).
type compareView struct {
	c     *app.Compare
	in    ui.CompareInput
	drawn *app.ComparePair // the pair of the last frame
}

// changed reports a comparison published since the last frame (the
// paused window then draws a frame: the ghost catches up after a step).
func (v *compareView) changed() bool { return v.c != nil && v.c.Pair() != v.drawn }

// start replaces the running comparison by cfg (checked first: a refusal
// is returned and the old comparison keeps running).
func (v *compareView) start(loop *app.SimLoop, o app.Options, cfg app.CompareConfig) error {
	if err := app.CheckCompare(o, cfg); err != nil {
		return err
	}
	v.stop()
	v.c = app.StartCompare(loop, cfg)
	v.drawn = nil
	return nil
}

// stop ends the comparison, if any.
func (v *compareView) stop() {
	if v.c != nil {
		v.c.Stop()
		v.c = nil
	}
	v.drawn = nil
}

// pair returns the comparison this frame draws — the one shown read, so
// that the frame's snapshot, ghost and panel come from one pair even when
// the comparison publishes in between — or the latest before the first
// frame (nil: none running, or none yet).
func (v *compareView) pair() *app.ComparePair {
	if v.c == nil {
		return nil
	}
	p := v.drawn
	if p == nil {
		p = v.c.Pair()
	}
	if p != nil && p.Main != nil && p.Err == "" {
		return p
	}
	return nil
}

// shown is the snapshot the frame draws: at the live edge of a comparison,
// the main run's frame the second run was compared at (the main run is at
// most one frame ahead of it), so that both are drawn at the same time;
// otherwise s.
func (v *compareView) shown(s, live *snap.Snapshot) *snap.Snapshot {
	if v.c != nil {
		v.drawn = v.c.Pair()
	}
	p := v.pair()
	if p == nil || s != live || live == nil || p.Main.Scene != live.Scene || p.Main.Stats.Time > live.Stats.Time {
		return s
	}
	return p.Main
}

// drawGhost draws the second run over the frame when the frame shows the
// main run's compared snapshot.
func (v *compareView) drawGhost(r *render.Renderer, s *snap.Snapshot, view *render.View, cam *render.Camera, fbw, fbh int) {
	if p := v.pair(); p != nil && s == p.Main {
		r.DrawGhost(p.Second, view, cam, fbw, fbh)
	}
}

// input is the panel's Compare section (nil in a player).
func (v *compareView) input(player bool) *ui.CompareInput {
	if player {
		return nil
	}
	in := &v.in
	*in = ui.CompareInput{EnergyA: in.EnergyA[:0], EnergyB: in.EnergyB[:0], ContactsA: in.ContactsA[:0],
		ContactsB: in.ContactsB[:0], DiffSeries: in.DiffSeries[:0]}
	if v.c == nil {
		return in
	}
	p := v.c.Pair()
	in.Running, in.Label, in.Status, in.Err = true, p.Config.String(), p.Status, p.Err
	if p.Main == nil {
		return in
	}
	in.Time, in.MaxDiff, in.Energy, in.Contacts = p.Time, p.MaxDiff, p.Energy, p.Contacts
	in.Steps = [2]int64{p.StepsA, p.StepsB}
	if b := p.MaxDiffBody; b >= 0 && b < len(p.Main.Bodies) {
		in.MaxBody = p.Main.Bodies[b].Name
	}
	for _, x := range p.Series {
		in.EnergyA = append(in.EnergyA, float32(x.Energy[0]))
		in.EnergyB = append(in.EnergyB, float32(x.Energy[1]))
		in.ContactsA = append(in.ContactsA, float32(x.Contacts[0]))
		in.ContactsB = append(in.ContactsB, float32(x.Contacts[1]))
		in.DiffSeries = append(in.DiffSeries, float32(x.MaxDiff))
	}
	return in
}

// applyCompare starts or stops the comparison from the panel.
func (w *window) applyCompare(a *ui.CompareActions) {
	if a.Stop {
		w.cmp.stop()
		w.status, w.statusErr = "comparison stopped", false
	}
	if a.Start == nil {
		return
	}
	st := w.loop.State()
	o := app.Options{Scene: st.Scene}
	if st.Scene == w.opts.Scene {
		o.Sets = w.opts.Sets
	}
	cfg := app.CompareConfig{Integrator: a.Start.Integrator, Sets: a.Start.Sets}
	if err := w.cmp.start(w.loop, o, cfg); err != nil {
		w.status, w.statusErr = "comparison refused: "+err.Error(), true
		return
	}
	w.status, w.statusErr = "comparing with "+cfg.String(), false
}
