// Package fma tells tests whether the compiler may fuse x*y ± z into one
// fused multiply-add on this build (docs/ARCHITECTURE.md, "Determinism and
// fused multiply-adds"), and compares two formulations of one quantity: bit
// for bit where nothing fuses, within a stated relative tolerance where it
// may (a fused product is rounded once, its written-out copy twice, so the
// two can differ in the last bits, more after cancellation).
package fma

import (
	"math"
	"reflect"
)

// Same reports whether a and b have the same bits (or are both NaN), or,
// on a build where MayFuse is true, whether |a − b| ≤ rel·max(|a|, |b|, scale).
func Same(a, b, rel, scale float64) bool {
	if math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	if !MayFuse {
		return false
	}
	return math.Abs(a-b) <= rel*max(math.Abs(a), math.Abs(b), scale)
}

// Equal is reflect.DeepEqual for values of one type built from structs,
// arrays, slices and scalars, except that float64s are compared with Same
// (bits where nothing fuses; rel·max(|a|, |b|, scale) where products may).
func Equal(x, y any, rel, scale float64) bool {
	return equal(reflect.ValueOf(x), reflect.ValueOf(y), rel, scale)
}

func equal(x, y reflect.Value, rel, scale float64) bool {
	if x.Type() != y.Type() {
		return false
	}
	switch x.Kind() {
	case reflect.Float64:
		return Same(x.Float(), y.Float(), rel, scale)
	case reflect.Struct:
		for i := 0; i < x.NumField(); i++ {
			if !equal(x.Field(i), y.Field(i), rel, scale) {
				return false
			}
		}
		return true
	case reflect.Array, reflect.Slice:
		if x.Len() != y.Len() || (x.Kind() == reflect.Slice && x.IsNil() != y.IsNil()) {
			return false
		}
		for i := 0; i < x.Len(); i++ {
			if !equal(x.Index(i), y.Index(i), rel, scale) {
				return false
			}
		}
		return true
	case reflect.Pointer, reflect.Interface:
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		return equal(x.Elem(), y.Elem(), rel, scale)
	case reflect.Bool:
		return x.Bool() == y.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return x.Int() == y.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return x.Uint() == y.Uint()
	case reflect.String:
		return x.String() == y.String()
	}
	// Maps, funcs, channels, float32, complex: not used by the tests.
	return false
}
