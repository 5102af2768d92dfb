//go:build !(amd64.v3 || arm64 || ppc64 || ppc64le || s390x || riscv64 || loong64)

package fma

// MayFuse is false on builds where the Go compiler emits no fused
// multiply-adds (amd64 v1 and v2, 386, …): written-out copies must match
// their definitions bit for bit.
const MayFuse = false
