package world

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"unsafe"
)

// perSphere is a slice field of the sphere path found by reflection whose
// length is n (or nw·n for the wall flags seen): its path, storage and a
// copy of its bytes before the renumbering.
type perSphere struct {
	name  string
	v     reflect.Value
	size  int // element size
	old   []byte
	block int // n, or 0 when the slice is laid out as blocks of n (seen)
}

// SphereRenumberCheck renumbers the spheres of w by a random permutation
// (applyOrder) and checks by reflection that EVERY slice of the sphere path
// (Spheres and the structs it holds by value) whose length is the number of
// spheres n, or a multiple of n, was permuted exactly once (new k holds
// old perm[k], byte for byte), except the arrays listed in notPermuted,
// which the renumbering rebuilds (tests). Pointer-free arrays are first
// filled with random bytes (idx with a random permutation of itself) so
// that arrays whose values are all alike still tell a forgotten permute.
// It returns the names of the arrays checked. The world is left garbage.
func SphereRenumberCheck(w *World, seed int64, share bool) (checked []string, err error) {
	s := w.Spheres()
	if share {
		s.rotShare() // one rotational array for both states (as while nothing turns)
		if !s.rotShared() {
			return nil, fmt.Errorf("rotShare: not shared")
		}
	}
	n := len(s.idx)
	if n < 3 {
		return nil, fmt.Errorf("%d spheres", n)
	}
	notPermuted := map[string]bool{
		"sidx": true, // per body: rebuilt from idx
		// Drift's alias of the Verlet list's reference positions, set again
		// by every Drift (the renumbering invalidates the list: Ref is nil)
		"driftRef": true,
		"disp.ref": true,
	}
	rng := rand.New(rand.NewSource(seed))
	var found []perSphere
	var aliases []string
	seenPtr := map[uintptr]string{}
	var walk func(v reflect.Value, name string)
	walk = func(v reflect.Value, name string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				f := v.Field(i)
				fn := v.Type().Field(i).Name
				if v.Type().Field(i).Anonymous {
					walk(f, name)
				} else if name == "" {
					walk(f, fn)
				} else {
					walk(f, name+"."+fn)
				}
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", name, i))
			}
		case reflect.Slice:
			l := v.Len()
			if debugWalk {
				fmt.Println("slice", name, l)
			}
			// per pair or per slot, not per sphere (renumbered by applyOrder: the pair and slot tests)
			// the CSR of the list: rebuilt (csrStale)
			if strings.HasPrefix(name, "lists[") || strings.HasPrefix(name, "slots") || strings.HasPrefix(name, "csr.") {
				return
			}
			if l == 0 || l%n != 0 || notPermuted[name] {
				return
			}
			v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
			size := int(v.Type().Elem().Size())
			p := v.Pointer()
			if other, ok := seenPtr[p]; ok {
				// an alias (the shared rotational array): checked once, under its first name
				aliases = append(aliases, name+" = "+other)
				return
			}
			seenPtr[p] = name
			raw := unsafe.Slice((*byte)(v.UnsafePointer()), l*size)
			if !hasPointers(v.Type().Elem()) && name != "idx" {
				if v.Type().Elem().Kind() == reflect.Bool {
					for i := range raw {
						raw[i] = byte(rng.Intn(2))
					}
				} else {
					rng.Read(raw)
				}
			}
			block := n
			if l != n {
				block = 0
			}
			found = append(found, perSphere{name, v, size, bytes.Clone(raw), block})
		}
	}
	walk(reflect.ValueOf(s).Elem(), "")
	if name := "idx"; true {
		perm := rng.Perm(n)
		idx := make([]int32, n)
		for k, o := range perm {
			idx[k] = s.idx[o]
		}
		copy(s.idx, idx)
		for k, i := range s.idx {
			s.sidx[i] = int32(k)
		}
		for i := range found {
			if found[i].name == name {
				found[i].old = bytes.Clone(unsafe.Slice((*byte)(unsafe.Pointer(&s.idx[0])), 4*n))
			}
		}
	}
	perm32 := make([]int32, n)
	for k, o := range rng.Perm(n) {
		perm32[k] = int32(o)
	}
	sc := s.orderScratch() // the idle list's pairs when they have the room (a renumbering's own scratch)
	s.applyOrder(perm32, &sc)
	for _, a := range found {
		checked = append(checked, fmt.Sprintf("%s(%d)", a.name, a.v.Len()))
		v := a.v
		l := v.Len()
		raw := unsafe.Slice((*byte)(v.UnsafePointer()), l*a.size)
		for b := 0; b < l/n; b++ {
			for k := range n {
				got := raw[(b*n+k)*a.size : (b*n+k+1)*a.size]
				o := int(perm32[k])
				want := a.old[(b*n+o)*a.size : (b*n+o+1)*a.size]
				if !bytes.Equal(got, want) {
					return checked, fmt.Errorf("%s (%d entries, element %v): new [%d] is not old [perm[%d] = %d]: not permuted once", a.name, l, v.Type().Elem(), b*n+k, k, o)
				}
			}
		}
	}
	for k, i := range s.idx {
		if s.sidx[i] != int32(k) {
			return checked, fmt.Errorf("sidx[%d] = %d, want %d", i, s.sidx[i], k)
		}
	}
	byBody := s.inBodyOrder()
	for j := range n {
		if k := byBody[j]; j > 0 && s.idx[byBody[j-1]] >= s.idx[k] {
			return checked, fmt.Errorf("inBodyOrder not in body order at %d", j)
		}
	}
	checked = append(checked, aliases...)
	return checked, nil
}

func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.String, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return true
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	}
	return false
}

var debugWalk = false
