package ui

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"grainlab/sim/law"
)

// ParseNumber parses a user-typed number, rejecting NaN and ±Inf.
func ParseNumber(text string) (float64, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return 0, errors.New("empty")
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, errors.New("out of range")
		}
		return 0, errors.New("not a number")
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, errors.New("must be finite")
	}
	return v, nil
}

// FormatEdit formats v for an edit buffer so that it parses back exactly.
func FormatEdit(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// FieldSpec describes one numeric field of a parameter struct T.
type FieldSpec[T any] struct {
	Label string
	Tip   string
	Get   func(*T) *float64
}

// Editor keeps text buffers for the numeric fields of a T, validates the
// candidate on every edit and releases it only when valid.
type Editor[T comparable] struct {
	Fields []FieldSpec[T]
	Bufs   []string // edit buffers, one per field
	Errs   []string // per-field error ("" when fine)
	Err    string   // whole-candidate error from the validator
	ErrAt  int      // field the whole-candidate error is shown next to (−1: none)

	base     T // value the buffers started from (non-numeric fields live here)
	lastSeen T // last value passed to Sync
	dirty    bool
	synced   bool
}

// NewEditor returns an editor for fields.
func NewEditor[T comparable](fields []FieldSpec[T]) *Editor[T] {
	n := len(fields)
	return &Editor[T]{Fields: fields, Bufs: make([]string, n), Errs: make([]string, n), ErrAt: -1}
}

// Dirty reports whether the buffers hold uncommitted edits.
func (e *Editor[T]) Dirty() bool { return e.dirty }

// Sync adopts the current value cur when nothing is being edited and cur
// changed since the last Sync (so a committed edit is not overwritten by the
// old value while the app applies it).
func (e *Editor[T]) Sync(cur T) {
	if e.dirty || (e.synced && cur == e.lastSeen) {
		return
	}
	e.Reset(cur)
}

// Reset discards edits and shows cur.
func (e *Editor[T]) Reset(cur T) {
	e.base, e.lastSeen = cur, cur
	e.dirty, e.synced = false, true
	for i, f := range e.Fields {
		e.Bufs[i] = FormatEdit(*f.Get(&cur))
		e.Errs[i] = ""
	}
	e.Err, e.ErrAt = "", -1
}

// Base returns the value the buffers started from.
func (e *Editor[T]) Base() T { return e.base }

// Edit records new text for field i and revalidates the whole candidate.
// validate may be nil. It returns the candidate and whether it is valid.
func (e *Editor[T]) Edit(i int, text string, validate func(T) error) (T, bool) {
	if i >= 0 && i < len(e.Bufs) {
		e.Bufs[i] = text
	}
	e.dirty = true
	return e.check(i, validate)
}

// Modify applies a non-text change (a combo box) to the candidate and revalidates.
func (e *Editor[T]) Modify(f func(*T), validate func(T) error) (T, bool) {
	f(&e.base) // non-text fields live in base; buffers cover the numbers
	e.dirty = true
	return e.check(-1, validate)
}

// Candidate rebuilds and validates the value the buffers describe.
func (e *Editor[T]) Candidate(validate func(T) error) (T, bool) { return e.check(e.ErrAt, validate) }

func (e *Editor[T]) check(at int, validate func(T) error) (T, bool) {
	c := e.base
	ok := true
	for i, f := range e.Fields {
		v, err := ParseNumber(e.Bufs[i])
		if err != nil {
			e.Errs[i] = err.Error()
			ok = false
			continue
		}
		e.Errs[i] = ""
		*f.Get(&c) = v
	}
	e.Err, e.ErrAt = "", -1
	if !ok {
		return c, false
	}
	if validate != nil {
		if err := validate(c); err != nil {
			e.Err, e.ErrAt = err.Error(), at
			return c, false
		}
	}
	return c, true
}

// Commit validates the candidate; when valid it becomes the new base, the
// editor is clean, and the value is returned with ok.
func (e *Editor[T]) Commit(validate func(T) error) (T, bool) {
	c, ok := e.check(e.ErrAt, validate)
	if !ok {
		return c, false
	}
	e.base = c
	e.dirty = false
	return c, true
}

// FieldError returns the message to show next to field i ("" for none).
func (e *Editor[T]) FieldError(i int) string {
	if e.Errs[i] != "" {
		return e.Errs[i]
	}
	if e.ErrAt == i {
		return e.Err
	}
	return ""
}

// panelFields makes the panel's fields of the Numbers of law.Params that
// are on the panel and pass keep, in table order (label: the scene key;
// tooltip: the table's doc and unit; accessor: the table's, on the law.Set
// that set returns).
func panelFields[T any](keep func(*law.Param) bool, set func(*T) *law.Set) []FieldSpec[T] {
	var out []FieldSpec[T]
	for i := range law.Params {
		p := &law.Params[i]
		if !p.Panel || p.Field == nil || !keep(p) {
			continue
		}
		tip := p.Doc
		if p.Unit != "" {
			tip += " (" + p.Unit + ")"
		}
		out = append(out, FieldSpec[T]{Label: p.Name, Tip: tip, Get: func(v *T) *float64 { return p.Field(set(v)) }})
	}
	return out
}

// lawFields are the editable numeric fields of LawParams, in panel order:
// the barrier law's then the friction's (law.Params).
var lawFields = panelFields(func(p *law.Param) bool { return p.Class != law.ClassSmooth },
	func(l *LawParams) *law.Set { return &l.Set })

// number of the normal-law fields (the rest are friction)
var lawNormalFields = func() int {
	n := 0
	for _, f := range lawFields {
		if q, _ := law.Lookup(f.Label); q.Class == law.ClassBarrier {
			n++
		}
	}
	return n
}()

// materialFields are the editable numeric fields of Material: the
// half-lengths (text fields) then the exponents (sliders).
var materialFields = []FieldSpec[Material]{
	{"a (m)", "half-length along the body x axis (m)", func(m *Material) *float64 { return &m.A }},
	{"b (m)", "half-length along the body y axis (m)", func(m *Material) *float64 { return &m.B }},
	{"c (m)", "half-length along the body z axis (m)", func(m *Material) *float64 { return &m.C }},
	{"n1", "blockiness of the profile along z (2 = round, 10 = nearly flat ends)", func(m *Material) *float64 { return &m.N1 }},
	{"n2", "blockiness of the xy cross-section (2 = round, 10 = nearly square)", func(m *Material) *float64 { return &m.N2 }},
}

// first exponent field of materialFields
const materialExpField = 3

// Blockiness range of the panel's sliders.
const (
	MinBlockiness = 2
	MaxBlockiness = 10
)

// basicMaterialCheck rejects non-positive half-lengths and exponents outside
// the sliders' range [MinBlockiness, MaxBlockiness].
func basicMaterialCheck(m Material) error {
	if !(m.A > 0 && m.B > 0 && m.C > 0) {
		return errors.New("half-lengths must be > 0")
	}
	if !(m.N1 >= MinBlockiness && m.N1 <= MaxBlockiness && m.N2 >= MinBlockiness && m.N2 <= MaxBlockiness) {
		return fmt.Errorf("exponents must lie in [%d, %d]", MinBlockiness, MaxBlockiness)
	}
	return nil
}

// smoothFields are the editable numeric fields of SmoothLaw; each label is
// the scene key world.SetParam takes (contact.default.<label>).
var smoothFields = panelFields(func(p *law.Param) bool { return p.Class == law.ClassSmooth },
	func(l *SmoothLaw) *law.Set { return &l.Set })

// FlagSpec describes one checkbox of a T: label (the scene key), tooltip
// and accessor.
type FlagSpec[T any] struct {
	Label string
	Tip   string
	Get   func(*T) *bool
}

// smoothFlags are the checkboxes of SmoothLaw (law.Params' smooth Flags on
// the panel); a change is sent as contact.default.<label> = 0 or 1.
var smoothFlags = func() []FlagSpec[SmoothLaw] {
	var out []FlagSpec[SmoothLaw]
	for i := range law.Params {
		if p := &law.Params[i]; p.Panel && p.Class == law.ClassSmooth && p.Kind == law.Flag {
			out = append(out, FlagSpec[SmoothLaw]{Label: p.Name, Tip: p.Doc, Get: func(l *SmoothLaw) *bool { return p.Flag(&l.Set) }})
		}
	}
	return out
}()

// flagEdit is the ParamEdit that sets flag key to on (world.SetField takes 0 or 1).
func flagEdit(key string, on bool) ParamEdit {
	e := ParamEdit{Key: key}
	if on {
		e.Value = 1
	}
	return e
}

// smoothFieldUsed reports whether field i of smoothFields applies to model
// (law.Param.Models).
func smoothFieldUsed(model string, i int) bool {
	p, _ := law.Lookup(smoothFields[i].Label)
	return p.AppliesTo(model)
}

// ownSmoothCheck rejects negative values (the simulation checks the rest).
func ownSmoothCheck(l SmoothLaw) error {
	for _, f := range smoothFields {
		if *f.Get(&l) < 0 {
			return fmt.Errorf("%s must be >= 0", f.Label)
		}
	}
	return nil
}

// SmoothEdits lists every numeric field of l as a ParamEdit by scene key
// (law.Params' names), in panel order.
func SmoothEdits(l SmoothLaw) []ParamEdit {
	out := make([]ParamEdit, len(smoothFields))
	for i, f := range smoothFields {
		out[i] = ParamEdit{Key: f.Label, Value: *f.Get(&l)}
	}
	return out
}

// smoothChanges lists the fields of c that differ from cur.
func smoothChanges(dst []ParamEdit, cur, c SmoothLaw) []ParamEdit {
	for _, f := range smoothFields {
		if v := *f.Get(&c); v != *f.Get(&cur) {
			dst = append(dst, ParamEdit{Key: f.Label, Value: v})
		}
	}
	return dst
}

// chain combines the panel's own check with an optional validator.
func chain[T any](own func(T) error, ext func(T) error) func(T) error {
	return func(v T) error {
		if own != nil {
			if err := own(v); err != nil {
				return err
			}
		}
		if ext != nil {
			if err := ext(v); err != nil {
				return err
			}
		}
		return nil
	}
}
