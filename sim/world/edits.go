package world

import (
	"errors"
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
		return &fieldError{lawKey + ".kind", fmt.Errorf("%s: unknown normal law %q (barrier, linear, hertz)", path, l.Kind)}
	}
	p.Normal.Kind = law.Kind(kind)
	keys := make([]string, 0, len(l.Values))
	for k := range l.Values {
		keys = append(keys, k)
	}
	slices.Sort(keys) // each key sets its own field: any order gives the same law
	for _, k := range keys {
		if err := SetField(&p, k, l.Values[k]); err != nil {
			return &fieldError{lawKey + ".values." + k, fmt.Errorf("%s.%s: %w", path, k, err)}
		}
	}
	p.HasPoly = true
	if !p.HasSmooth {
		p.Smooth = law.Smooth{}
	}
	if err := p.Validate(); err != nil {
		return &fieldError{lawKey, fmt.Errorf("%s: %w", path, err)}
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

// EditError is an edit of a history that RestoreHistory cannot replay:
// Index is its place in History.Edits, Field the field at fault as a
// dotted path inside the edit ("law.kind", "law.values.eps1", "material";
// "" for the edit as a whole), for messages that name it (sim/state adds
// the file's line).
type EditError struct {
	Index int
	Time  float64
	Field string
	Err   error
}

// Error reads "edits[i].field (at t s): problem".
func (e *EditError) Error() string {
	f := ""
	if e.Field != "" {
		f = "." + e.Field
	}
	return fmt.Sprintf("edits[%d]%s (at %g s): %v", e.Index, f, e.Time, e.Err)
}

// Unwrap returns the edit's error.
func (e *EditError) Unwrap() error { return e.Err }

// lawKey is an Edit's JSON key of its law (EditError.Field), not the
// contact parameter of that name.
const lawKey = "law"

// fieldError is an error of one field of an edit (SetLaw's), with the
// field's message unchanged.
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// applyEdit makes edit i of a history again (RestoreHistory's replay): a
// shape edit (SetSmoothShape: material and shape), a law (SetLaw: path of
// a material pair and law) or a parameter (SetParam: path of a parameter
// and value). An edit of more than one kind (a law with a value or a
// material, a shape with a path or a law, a parameter with a material) is
// refused: which was meant is unclear. Each appends itself to Edits.
func (w *World) applyEdit(i int, e Edit) error {
	fail := func(field, format string, args ...any) error {
		return &EditError{Index: i, Time: e.Time, Field: field, Err: fmt.Errorf(format, args...)}
	}
	var err error
	switch {
	case e.Shape != nil:
		switch {
		case e.Law != nil:
			return fail(lawKey, "a shape edit (material, shape) with a law: an edit is a shape, a law (path, law) or a parameter (path, value)")
		case e.Path != "" || e.Value != 0:
			return fail("path", "a shape edit (material, shape) with a path or value: an edit is a shape, a law (path, law) or a parameter (path, value)")
		}
		m := w.materialIndex(e.Material)
		if m < 0 {
			return fail("material", "no material %q", e.Material)
		}
		err = w.SetSmoothShape(m, *e.Shape)
	case e.Law != nil:
		switch {
		case e.Material != "":
			return fail("material", "a law edit (path, law) with a material: the law's material pair is its path, contact.default or contact.<matA>.<matB>")
		case e.Value != 0:
			return fail("value", "a law edit (path, law) with a value: the law's numbers are law.values; a value belongs to a parameter edit (path contact.….<key>)")
		}
		if parts := strings.Split(e.Path, "."); len(parts) == 3 && w.materialIndex(parts[2]) < 0 {
			if q, ok := law.Lookup(parts[2]); ok && q.Kind != law.Choice {
				return fail("path", "%s names the parameter %s: a law edit's path is a material pair, contact.default or contact.<matA>.<matB> (its numbers go in law.values)", e.Path, parts[2])
			}
		}
		err = w.SetLaw(e.Path, *e.Law)
	default:
		if e.Material != "" {
			return fail("material", "a parameter edit (path, value) with a material and no shape: a shape edit has material and shape")
		}
		err = w.SetParam(e.Path, e.Value)
	}
	if err != nil {
		field := ""
		var fe *fieldError
		if errors.As(err, &fe) {
			field = fe.field
		}
		return &EditError{Index: i, Time: e.Time, Field: field, Err: err}
	}
	return nil
}
