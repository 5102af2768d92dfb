package body

import (
	"strconv"
	"strings"
)

// GenNames returns the names of a generator's bodies, prefix+"0",
// prefix+"1", …, prefix+strconv.Itoa(count−1), end to end in one string
// (one allocation for every name): the name of body i starts where those
// of 0 … i−1 end and is GenNameLen(prefix, i) bytes long.
func GenNames(prefix string, count int) string {
	size := 0
	for i := 0; i < count; i++ {
		size += GenNameLen(prefix, i)
	}
	var sb strings.Builder // String() does not copy
	sb.Grow(size)
	var digits [20]byte
	for i := 0; i < count; i++ {
		sb.WriteString(prefix)
		sb.Write(strconv.AppendInt(digits[:0], int64(i), 10))
	}
	return sb.String()
}

// GenNameLen returns the length of a generator's body name prefix+strconv.Itoa(i), i ≥ 0.
func GenNameLen(prefix string, i int) int {
	n := len(prefix) + 1
	for ; i >= 10; i /= 10 {
		n++
	}
	return n
}
