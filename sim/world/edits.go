package world

import (
	"fmt"
	"slices"
	"strings"

	"grainlab/sim/law"
)

// LawEdit is a material pair's polyhedral contact law set at once (SetLaw,
// the window's law panel): the normal law's kind (law.Kind's name:
// barrier, linear, hertz) and parameters by the keys of SetField.
type LawEdit struct {
	Kind   string             `json:"kind"`
	Values map[string]float64 `json:"values"`
}

// pairOf reads a material pair's path: contact.default or
// contact.<matA>.<matB>.
func (w *World) pairOf(path string) (a, b int, err error) {
	parts := strings.Split(path, ".")
	switch {
	case len(parts) == 2 && parts[0] == "contact" && parts[1] == "default":
		return 0, 0, nil
	case len(parts) == 3 && parts[0] == "contact":
		a, b = w.materialIndex(parts[1]), w.materialIndex(parts[2])
		if a < 0 || b < 0 {
			return 0, 0, fmt.Errorf("%s: unknown material", path)
		}
		return a, b, nil
	}
	return 0, 0, fmt.Errorf("%s: expected contact.default or contact.<matA>.<matB>", path)
}

// SetLaw changes the polyhedral contact law of the material pair at path
// (contact.default or contact.<matA>.<matB>) of the running world in one
// edit: its normal law becomes l.Kind and every parameter of l.Values is
// set (SetField; the others keep their values), the pair then has a
// polyhedral law (HasPoly) and, when it has no smooth law, no smooth
// parameters. The new law is validated first: on error nothing changes.
// The edit is recorded in Edits (a restart, and a resume, replay it).
func (w *World) SetLaw(path string, l LawEdit) error {
	a, b, err := w.pairOf(path)
	if err != nil {
		return err
	}
	p := *w.Params(a, b)
	kind := -1
	for _, k := range []law.Kind{law.Barrier, law.Linear, law.Hertz} {
		if k.String() == l.Kind {
			kind = int(k)
		}
	}
	if kind < 0 {
		return fmt.Errorf("%s: unknown normal law %q (barrier, linear, hertz)", path, l.Kind)
	}
	p.Normal.Kind = law.Kind(kind)
	keys := make([]string, 0, len(l.Values))
	for k := range l.Values {
		keys = append(keys, k)
	}
	slices.Sort(keys) // each key sets its own field: any order gives the same law
	for _, k := range keys {
		if err := SetField(&p, k, l.Values[k]); err != nil {
			return fmt.Errorf("%s.%s: %w", path, k, err)
		}
	}
	p.HasPoly = true
	if !p.HasSmooth {
		p.Smooth = law.Smooth{}
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	w.setPairParams(a, b, p)
	vals := make(map[string]float64, len(l.Values))
	for k, v := range l.Values {
		vals[k] = v
	}
	w.Edits = append(w.Edits, Edit{Time: w.Time, Path: path, Law: &LawEdit{Kind: l.Kind, Values: vals}})
	return nil
}

// setPairParams makes p the contact parameters of materials a and b while
// running (SetParam, SetLaw): the scene's parameters of the pair are kept
// first (keepSceneParams), the Verlet skin is chosen again (ḡ may have
// changed) and every cached bound is dropped.
func (w *World) setPairParams(a, b int, p ContactParams) {
	w.keepSceneParams(a, b)
	if a == 0 && b == 0 {
		*w.params[0][0] = p
	} else {
		w.params[a][b], w.params[b][a] = &p, &p
	}
	w.skin = 0 // ḡ may have changed
	w.invalidate()
}

// keepSceneParams records the contact parameters of materials a and b
// before their first edit while running (World.sceneParams; nil: the pair
// had none of its own), unless they are recorded already.
func (w *World) keepSceneParams(a, b int) {
	a, b = min(a, b), max(a, b)
	k := [2]int{a, b}
	if _, ok := w.sceneParams[k]; ok {
		return
	}
	if w.sceneParams == nil {
		w.sceneParams = map[[2]int]*ContactParams{}
	}
	var p *ContactParams
	if q := w.params[a][b]; q != nil {
		c := *q
		p = &c
	}
	w.sceneParams[k] = p
}

// restoreSceneParams gives every material pair an edit has changed its
// parameters before the first edit (the scene's, to the bit), so that a
// history's edits replayed next (RestoreHistory) start from the parameters
// a restarted run starts from: a resumed world holds those of its latest
// edits, which a history from before them does not have.
func (w *World) restoreSceneParams() {
	if len(w.sceneParams) == 0 {
		return
	}
	for k, p := range w.sceneParams {
		a, b := k[0], k[1]
		switch {
		case a == 0 && b == 0:
			if p != nil { // the default pair's parameters are changed in place (SetParam)
				*w.params[0][0] = *p
			}
		case p == nil:
			w.params[a][b], w.params[b][a] = nil, nil
		default:
			c := *p
			w.params[a][b], w.params[b][a] = &c, &c
		}
	}
	w.skin = 0
	w.invalidate()
}

// applyEdit makes one recorded edit again (RestoreHistory's replay): a
// shape edit (SetSmoothShape), a law (SetLaw) or a parameter (SetParam).
// Each appends itself to Edits.
func (w *World) applyEdit(e Edit) error {
	switch {
	case e.Shape != nil:
		m := w.materialIndex(e.Material)
		if m < 0 {
			return fmt.Errorf("no material %q", e.Material)
		}
		return w.SetSmoothShape(m, *e.Shape)
	case e.Law != nil:
		return w.SetLaw(e.Path, *e.Law)
	}
	return w.SetParam(e.Path, e.Value)
}
