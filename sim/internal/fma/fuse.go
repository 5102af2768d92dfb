//go:build amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64

package fma

// MayFuse is true on builds where the Go compiler emits fused multiply-adds
// for x*y ± z: GOAMD64=v3 and up (amd64.v3 is set for v4 too), arm64,
// ppc64x, s390x, riscv64, loong64.
const MayFuse = true
