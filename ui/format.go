package ui

import (
	"math"
	"strconv"
	"strings"
)

var siPrefixes = []struct {
	exp int
	p   string
}{{-15, "f"}, {-12, "p"}, {-9, "n"}, {-6, "µ"}, {-3, "m"}, {0, ""}, {3, "k"}, {6, "M"}, {9, "G"}, {12, "T"}}

// FormatSI formats v with 4 significant digits and an SI prefix: 0.00123 "N" → "1.230 mN".
func FormatSI(v float64, unit string) string {
	sep := " "
	switch {
	case math.IsNaN(v):
		return "NaN" + sep + unit
	case math.IsInf(v, 1):
		return "+Inf" + sep + unit
	case math.IsInf(v, -1):
		return "-Inf" + sep + unit
	case v == 0:
		return "0" + sep + unit
	}
	a := math.Abs(v)
	e := int(math.Floor(math.Log10(a)/3)) * 3
	e = max(-15, min(12, e))
	pre := ""
	for _, p := range siPrefixes {
		if p.exp == e {
			pre = p.p
		}
	}
	m := v / math.Pow(10, float64(e))
	// 4 significant digits
	digits := 3 - int(math.Floor(math.Log10(math.Abs(m))))
	digits = max(0, min(3, digits))
	s := strconv.FormatFloat(m, 'f', digits, 64)
	if strings.HasPrefix(s, "1000") && e < 12 { // rounding carried into the next prefix
		return FormatSI(math.Copysign(math.Pow(10, float64(e+3)), v), unit)
	}
	return s + sep + pre + unit
}

// FormatCount formats n with thin thousands separators: 1234567 → "1 234 567".
func FormatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// FormatSci formats v in compact scientific form with 4 significant digits.
func FormatSci(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	if a := math.Abs(v); a >= 1e-3 && a < 1e5 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	return strconv.FormatFloat(v, 'e', 3, 64)
}

// FormatFactor formats a real-time factor or speed: 0.01234 → "0.0123x", 250 → "250x".
func FormatFactor(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + "x"
}
