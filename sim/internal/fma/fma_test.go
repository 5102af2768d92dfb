package fma

import (
	"math"
	"testing"
)

//go:noinline
func mulAdd(x, y, z float64) float64 { return x*y + z }

//go:noinline
func mulAddRounded(x, y, z float64) float64 { return float64(x*y) + z }

// TestMayFuse: where the compiler fused x*y + z (x·y = 1 − 2⁻⁶⁰ exactly,
// which rounds to 1, so only a fused add keeps −2⁻⁶⁰), MayFuse must say so;
// an explicit conversion must forbid it on every build.
func TestMayFuse(t *testing.T) {
	x, y := 1+math.Ldexp(1, -30), 1-math.Ldexp(1, -30)
	if r := mulAddRounded(x, y, -1); r != 0 {
		t.Fatalf("float64(x*y) - 1 = %g, want 0", r)
	}
	fused := mulAdd(x, y, -1) != 0
	t.Logf("fused %v, MayFuse %v", fused, MayFuse)
	if fused && !MayFuse {
		t.Fatal("the compiler fused x*y + z but MayFuse is false: add this build to fuse.go's tags")
	}
}

func TestSame(t *testing.T) {
	if !Same(1, 1, 0, 0) || !Same(math.NaN(), math.NaN(), 0, 0) {
		t.Fatal("equal bits or two NaNs must be the same")
	}
	if got := Same(1, math.Nextafter(1, 2), 1e-15, 0); got != MayFuse {
		t.Fatalf("1 and the next float: Same %v, want MayFuse (%v)", got, MayFuse)
	}
	if Same(1, 1.1, 1e-15, 0) {
		t.Fatal("1 and 1.1 within 1e-15")
	}
}
