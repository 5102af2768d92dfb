//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// func eeSSE2(a, b *Posed, ee [][2]int32, dee []float64, lim, g2 float64, k int, out []Contact) (next, m int)
//
// edgeEdgesGo's loop (pair.go) with mk on scalar SSE2, from list entry k:
// S0 Appendix eq. 67–69, every operation and its order as the Go
// expressions (no fusing: IEEE results identical to Go's). Per entry: the
// skip test dee[k] < lim; A's edge values when A's edge changes (t_A,
// |t_A|², b_A, S0 eq. 68; kept in the frame); t_B, ab, bb, det =
// |t_A × t_B|² and the parallel test; b_B, d = b_A − b_B, de, df, ζ_A and
// its test, ζ_B and its test (S0 eq. 69); pa, pb (S0 eq. 67; b_B
// recomputed, the same value); the gap test; then mk: the contact zeroed
// in out's spare capacity, Key{EE, FA, FB}, PA, PB, Gn = √(|pa − pb|²)
// (the gap test's sum), N = (pa − pb)·(1/Gn) when Gn > 0. Each index is
// checked against its length (unsigned: a negative index is out of range).
//
// Offsets (edge_amd64.go checks them at compile time): Posed.Poly 0,
// Posed.V 136; Polyhedron.Edges 64; shape.Edge 32 bytes with V at 0;
// Contact 240 bytes: Kind 0, FA 4, FB 8, PA 16, PB 40, N 64, Gn 88.
//
// Registers: CX k, DX len(ee), SI ee, DI dee, R9 A's last edge, R8 the
// next contact's slot, R13 m, X14 lim; R11, R12 an edge's vertices;
// X0–X2 t_B. Frame: t_A 0, aa 24, b_A 32, A's edges 56 and count 64, A's
// vertices 72 and count 80, B's 88, 96, 104, 112, room 120.

DATA eehalf<>+0(SB)/8, $0x3fe0000000000000  // 0.5
GLOBL eehalf<>(SB), RODATA|NOPTR, $8
DATA eetol<>+0(SB)/8, $0x3d719799812dea11   // degenParallelTol, 1e-12
GLOBL eetol<>(SB), RODATA|NOPTR, $8
DATA eeone<>+0(SB)/8, $0x3ff0000000000000   // 1
GLOBL eeone<>(SB), RODATA|NOPTR, $8
DATA eemone<>+0(SB)/8, $0xbff0000000000000  // −1
GLOBL eemone<>(SB), RODATA|NOPTR, $8

// HALFDIFF sets X to 0.5·(b − a) of coordinate off, a at A, b at B (Sub, Scale(0.5)).
#define HALFDIFF(off, A, B, X) \
	MOVSD off(B), X \
	SUBSD off(A), X \
	MULSD eehalf<>(SB), X

// MID sets X to 0.5·(a + b) of coordinate off (Add, Scale(0.5)).
#define MID(off, A, B, X) \
	MOVSD off(A), X \
	ADDSD off(B), X \
	MULSD eehalf<>(SB), X

TEXT ·eeSSE2(SB), NOSPLIT, $128-128
	MOVQ a+0(FP), AX
	MOVQ 0(AX), BX
	MOVQ 64(BX), R10
	MOVQ R10, 56(SP)
	MOVQ 72(BX), R10
	MOVQ R10, 64(SP)
	MOVQ 136(AX), R10
	MOVQ R10, 72(SP)
	MOVQ 144(AX), R10
	MOVQ R10, 80(SP)
	MOVQ b+8(FP), AX
	MOVQ 0(AX), BX
	MOVQ 64(BX), R10
	MOVQ R10, 88(SP)
	MOVQ 72(BX), R10
	MOVQ R10, 96(SP)
	MOVQ 136(AX), R10
	MOVQ R10, 104(SP)
	MOVQ 144(AX), R10
	MOVQ R10, 112(SP)
	MOVQ ee_base+16(FP), SI
	MOVQ ee_len+24(FP), DX
	MOVQ dee_base+40(FP), DI
	MOVSD lim+64(FP), X14
	MOVQ k+80(FP), CX
	MOVQ out_len+96(FP), AX
	MOVQ out_cap+104(FP), R10
	SUBQ AX, R10
	MOVQ R10, 120(SP)
	IMUL3Q $240, AX, R8
	ADDQ out_base+88(FP), R8
	XORQ R13, R13
	MOVQ $0x100000000, R9 // no sign-extended int32: A's edge is read first

loop:
	CMPQ CX, DX
	JGE  end
	// if !(dee[k] < lim) { continue }
	MOVSD   (DI)(CX*8), X0
	UCOMISD X0, X14
	JLS     next
	MOVLQSX (SI)(CX*8), AX  // p[0]
	MOVLQSX 4(SI)(CX*8), BX // p[1]
	CMPQ    AX, R9
	JEQ     edgeB

	// A's edge: e := &edA[p[0]]; a1, a2 := &va[e.V[0]], &va[e.V[1]]
	CMPQ    AX, 64(SP)
	JCC     bad
	MOVQ    AX, R10
	SHLQ    $5, R10
	ADDQ    56(SP), R10
	MOVLQSX 0(R10), R11
	MOVLQSX 4(R10), R12
	CMPQ    R11, 80(SP)
	JCC     bad
	CMPQ    R12, 80(SP)
	JCC     bad
	MOVQ    AX, R9          // last = p[0]
	LEAQ    (R11)(R11*2), R11
	LEAQ    (R12)(R12*2), R12
	MOVQ    72(SP), R10
	LEAQ    (R10)(R11*8), R11
	LEAQ    (R10)(R12*8), R12
	// t_A = 0.5·(a2 − a1), aa = tax·tax + tay·tay + taz·taz, b_A = 0.5·(a1 + a2)
	HALFDIFF(0, R11, R12, X0)
	HALFDIFF(8, R11, R12, X1)
	HALFDIFF(16, R11, R12, X2)
	MOVSD   X0, 0(SP)
	MOVSD   X1, 8(SP)
	MOVSD   X2, 16(SP)
	MULSD   X0, X0
	MULSD   X1, X1
	ADDSD   X1, X0
	MULSD   X2, X2
	ADDSD   X2, X0
	MOVSD   X0, 24(SP)
	MID(0, R11, R12, X0)
	MID(8, R11, R12, X1)
	MID(16, R11, R12, X2)
	MOVSD   X0, 32(SP)
	MOVSD   X1, 40(SP)
	MOVSD   X2, 48(SP)

edgeB:
	// f := &edB[p[1]]; b1, b2 := &vb[f.V[0]], &vb[f.V[1]]
	CMPQ    BX, 96(SP)
	JCC     bad
	SHLQ    $5, BX
	ADDQ    88(SP), BX
	MOVLQSX 0(BX), R11
	MOVLQSX 4(BX), R12
	CMPQ    R11, 112(SP)
	JCC     bad
	CMPQ    R12, 112(SP)
	JCC     bad
	LEAQ    (R11)(R11*2), R11
	LEAQ    (R12)(R12*2), R12
	MOVQ    104(SP), R10
	LEAQ    (R10)(R11*8), R11
	LEAQ    (R10)(R12*8), R12

	// t_B = 0.5·(b2 − b1): X0, X1, X2
	HALFDIFF(0, R11, R12, X0)
	HALFDIFF(8, R11, R12, X1)
	HALFDIFF(16, R11, R12, X2)
	// ab = tax·tbx + tay·tby + taz·tbz: X3
	MOVSD 0(SP), X3
	MULSD X0, X3
	MOVSD 8(SP), X4
	MULSD X1, X4
	ADDSD X4, X3
	MOVSD 16(SP), X4
	MULSD X2, X4
	ADDSD X4, X3
	// bb = tbx·tbx + tby·tby + tbz·tbz: X4
	MOVAPD X0, X4
	MULSD  X0, X4
	MOVAPD X1, X5
	MULSD  X1, X5
	ADDSD  X5, X4
	MOVAPD X2, X5
	MULSD  X2, X5
	ADDSD  X5, X4
	// det = cx·cx + cy·cy + cz·cz: X5, with cx = tay·tbz − taz·tby,
	// cy = taz·tbx − tax·tbz, cz = tax·tby − tay·tbx
	MOVSD 8(SP), X5
	MULSD X2, X5
	MOVSD 16(SP), X6
	MULSD X1, X6
	SUBSD X6, X5
	MULSD X5, X5
	MOVSD 16(SP), X6
	MULSD X0, X6
	MOVSD 0(SP), X7
	MULSD X2, X7
	SUBSD X7, X6
	MULSD X6, X6
	ADDSD X6, X5
	MOVSD 0(SP), X6
	MULSD X1, X6
	MOVSD 8(SP), X7
	MULSD X0, X7
	SUBSD X7, X6
	MULSD X6, X6
	ADDSD X6, X5
	// if !(det > degenParallelTol·aa·bb) { continue }
	MOVSD   eetol<>(SB), X6
	MULSD   24(SP), X6
	MULSD   X4, X6
	UCOMISD X6, X5
	JLS     next
	// d = b_A − b_B, b_B = 0.5·(b1 + b2): X7, X8, X9
	MID(0, R11, R12, X6)
	MOVSD 32(SP), X7
	SUBSD X6, X7
	MID(8, R11, R12, X6)
	MOVSD 40(SP), X8
	SUBSD X6, X8
	MID(16, R11, R12, X6)
	MOVSD 48(SP), X9
	SUBSD X6, X9
	// de = dx·tax + dy·tay + dz·taz: X10
	MOVAPD X7, X10
	MULSD  0(SP), X10
	MOVAPD X8, X6
	MULSD  8(SP), X6
	ADDSD  X6, X10
	MOVAPD X9, X6
	MULSD  16(SP), X6
	ADDSD  X6, X10
	// df = dx·tbx + dy·tby + dz·tbz: X7
	MULSD X0, X7
	MULSD X1, X8
	ADDSD X8, X7
	MULSD X2, X9
	ADDSD X9, X7
	// ζ_A = (ab·df − bb·de)/det: X6; if !(ζ_A > −1 && ζ_A < 1) { continue }
	MOVAPD  X3, X6
	MULSD   X7, X6
	MULSD   X10, X4
	SUBSD   X4, X6
	DIVSD   X5, X6
	UCOMISD eemone<>(SB), X6
	JLS     next
	MOVSD   eeone<>(SB), X8
	UCOMISD X6, X8
	JLS     next
	// ζ_B = (aa·df − ab·de)/det: X9; if !(ζ_B > −1 && ζ_B < 1) { continue }
	MOVSD   24(SP), X9
	MULSD   X7, X9
	MULSD   X10, X3
	SUBSD   X3, X9
	DIVSD   X5, X9
	UCOMISD eemone<>(SB), X9
	JLS     next
	UCOMISD X9, X8
	JLS     next
	// pa = b_A + ζ_A·t_A: X3, X4, X5
	MOVSD 0(SP), X3
	MULSD X6, X3
	ADDSD 32(SP), X3
	MOVSD 8(SP), X4
	MULSD X6, X4
	ADDSD 40(SP), X4
	MOVSD 16(SP), X5
	MULSD X6, X5
	ADDSD 48(SP), X5
	// pb = b_B + ζ_B·t_B: X0, X1, X2
	MULSD X9, X0
	MID(0, R11, R12, X6)
	ADDSD X6, X0
	MULSD X9, X1
	MID(8, R11, R12, X6)
	ADDSD X6, X1
	MULSD X9, X2
	MID(16, R11, R12, X6)
	ADDSD X6, X2
	// g = pa − pb: X10, X11, X12; if gx·gx + gy·gy + gz·gz >= ḡ² { continue }
	MOVAPD  X3, X10
	SUBSD   X0, X10
	MOVAPD  X4, X11
	SUBSD   X1, X11
	MOVAPD  X5, X12
	SUBSD   X2, X12
	MOVAPD  X10, X6
	MULSD   X10, X6
	MOVAPD  X11, X7
	MULSD   X11, X7
	ADDSD   X7, X6
	MOVAPD  X12, X7
	MULSD   X12, X7
	ADDSD   X7, X6
	UCOMISD g2+72(FP), X6
	JCC     next

	// Accepted: mk in the slot at R8, if out has room.
	CMPQ   R13, 120(SP)
	JEQ    full
	XORPS  X15, X15
	MOVUPS X15, 0(R8)
	MOVUPS X15, 16(R8)
	MOVUPS X15, 32(R8)
	MOVUPS X15, 48(R8)
	MOVUPS X15, 64(R8)
	MOVUPS X15, 80(R8)
	MOVUPS X15, 96(R8)
	MOVUPS X15, 112(R8)
	MOVUPS X15, 128(R8)
	MOVUPS X15, 144(R8)
	MOVUPS X15, 160(R8)
	MOVUPS X15, 176(R8)
	MOVUPS X15, 192(R8)
	MOVUPS X15, 208(R8)
	MOVUPS X15, 224(R8)
	MOVB   $1, 0(R8)        // Kind EE
	MOVQ   (SI)(CX*8), R10  // FA, FB
	MOVQ   R10, 4(R8)
	MOVSD  X3, 16(R8)
	MOVSD  X4, 24(R8)
	MOVSD  X5, 32(R8)
	MOVSD  X0, 40(R8)
	MOVSD  X1, 48(R8)
	MOVSD  X2, 56(R8)
	// Gn = √(gx·gx + gy·gy + gz·gz); if Gn > 0 { N = g·(1/Gn) }
	SQRTSD  X6, X6
	MOVSD   X6, 88(R8)
	UCOMISD X15, X6
	JLS     stored
	MOVSD   eeone<>(SB), X7
	DIVSD   X6, X7
	MULSD   X7, X10
	MULSD   X7, X11
	MULSD   X7, X12
	MOVSD   X10, 64(R8)
	MOVSD   X11, 72(R8)
	MOVSD   X12, 80(R8)

stored:
	ADDQ $240, R8
	INCQ R13

next:
	INCQ CX
	JMP  loop

full:
bad:
	MOVQ CX, next+112(FP)
	MOVQ R13, m+120(FP)
	RET

end:
	MOVQ DX, next+112(FP)
	MOVQ R13, m+120(FP)
	RET
