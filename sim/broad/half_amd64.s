//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// RANGES walks the ranges rg[0…nr−1] from slot BX of the first: at rng
// with BX the slot, CX its range's end and SI &sl[BX]; a jump to next
// goes on to the next range (DX), and after the last to end.
#define RANGES(next, rng, end) \
	XORQ DX, DX \
	MOVLQSX 4(R10), CX \
	JMP rng \
next: \
	INCQ DX \
	CMPQ DX, R11 \
	JGE end \
	MOVLQSX 0(R10)(DX*8), BX \
	MOVLQSX 4(R10)(DX*8), CX \
rng: \
	CMPQ BX, CX \
	JGE next \
	MOVQ BX, SI \
	SHLQ $5, SI \
	ADDQ DI, SI

// func cellPairsSSE2(sl *slotBody, a0, a1 int32, rg *[5][2]int32, nr int, s2 float64, out *[2]int32) int
//
// cellPairs (half_amd64.go) on SSE2: the slot pairs of cell a0…a1−1's
// half stencil within the bound, float64(dx²) + float64(dy²) +
// float64(dz²) <= s2 summed in that order (halfCellsOne's test), written
// to out as the slots' bodies (sl[a].I, sl[b].I); returns their number. Two bodies a, e = a+1
// of the cell at once, as halfCellsOne's Go loop: a–e, then both against
// rg[0] from a+2 (to rg[0][1]) and rg[1…nr−1]; a last odd body alone
// from a+1. A slot (X, Y, Z, I: 32 bytes) is loaded once for the two
// tests: (x, y) in one MOVUPD, dx, dy of both bodies in two SUBPD and
// squared in two MULPD, transposed so that one ADDPD gives dx² + dy² of
// both; dz of both packed ((z_b, z_b) − (z_a, z_e)); CMPPD "less or equal"
// (false for NaN, as Go's <=), MOVMSKPD. No FMA: the same roundings as Go.
//
// Registers: DI slots, R8 a, R9 a1, R10 rg, R11 nr, R12 out, R13 the
// pairs written, BX b, CX the range's end, DX the range, SI &sl[b], R14
// a body's index (ABI0: R14 may be clobbered);
// X0 (x_a, y_a), X2 (x_e, y_e), X1 (z_a, z_e), X9 (s2, s2).
TEXT ·cellPairsSSE2(SB), NOSPLIT, $0-56
	MOVQ sl+0(FP), DI
	MOVLQSX a0+8(FP), R8
	MOVLQSX a1+12(FP), R9
	MOVQ rg+16(FP), R10
	MOVQ nr+24(FP), R11
	MOVSD s2+32(FP), X9
	UNPCKLPD X9, X9
	MOVQ out+40(FP), R12
	XORQ R13, R13

pair:
	LEAQ 1(R8), AX
	CMPQ AX, R9
	JGE single
	MOVQ R8, SI
	SHLQ $5, SI
	ADDQ DI, SI
	MOVUPD 0(SI), X0
	MOVSD 16(SI), X1
	MOVUPD 32(SI), X2
	MOVSD 48(SI), X3
	// a–e: (x_e − x_a, y_e − y_a), z_e − z_a.
	MOVAPD X2, X4
	SUBPD X0, X4
	MULPD X4, X4
	MOVAPD X4, X5
	UNPCKHPD X5, X5
	ADDSD X5, X4
	MOVAPD X3, X5
	SUBSD X1, X5
	MULSD X5, X5
	ADDSD X5, X4
	CMPSD X9, X4, $2
	MOVMSKPD X4, AX
	TESTL $1, AX
	JZ pairz
	MOVL 24(SI), AX
	MOVL AX, 0(R12)(R13*8)
	MOVL 56(SI), AX
	MOVL AX, 4(R12)(R13*8)
	INCQ R13

pairz:
	UNPCKLPD X3, X1 // (z_a, z_e)
	LEAQ 2(R8), BX
	RANGES(pnext, prange, pdone)

ploop:
	MOVUPD 0(SI), X4
	MOVAPD X4, X5
	SUBPD X0, X4
	SUBPD X2, X5
	MULPD X4, X4
	MULPD X5, X5
	MOVAPD X4, X6
	UNPCKLPD X5, X4 // (dx_a², dx_e²)
	UNPCKHPD X5, X6 // (dy_a², dy_e²)
	ADDPD X6, X4
	MOVSD 16(SI), X7
	UNPCKLPD X7, X7
	SUBPD X1, X7
	MULPD X7, X7
	ADDPD X7, X4
	CMPPD X9, X4, $2
	MOVMSKPD X4, AX
	TESTL AX, AX
	JNZ phit

pcont:
	ADDQ $32, SI
	INCQ BX
	CMPQ BX, CX
	JLT ploop
	JMP pnext

phit:
	TESTL $1, AX
	JZ phite
	MOVQ R8, R14
	SHLQ $5, R14
	MOVL 24(DI)(R14*1), R14 // sl[a].I
	MOVL R14, 0(R12)(R13*8)
	MOVL 24(SI), R14        // sl[b].I
	MOVL R14, 4(R12)(R13*8)
	INCQ R13

phite:
	TESTL $2, AX
	JZ pcont
	MOVQ R8, R14
	SHLQ $5, R14
	MOVL 56(DI)(R14*1), R14 // sl[a+1].I
	MOVL R14, 0(R12)(R13*8)
	MOVL 24(SI), R14
	MOVL R14, 4(R12)(R13*8)
	INCQ R13
	JMP pcont

pdone:
	ADDQ $2, R8
	JMP pair

single:
	CMPQ R8, R9
	JGE done
	MOVQ R8, SI
	SHLQ $5, SI
	ADDQ DI, SI
	MOVUPD 0(SI), X0
	MOVSD 16(SI), X1
	MOVL 24(SI), R14 // sl[a].I
	LEAQ 1(R8), BX
	RANGES(snext, srange, done)

sloop:
	MOVUPD 0(SI), X4
	SUBPD X0, X4
	MULPD X4, X4
	MOVAPD X4, X5
	UNPCKHPD X5, X5
	ADDSD X5, X4
	MOVSD 16(SI), X7
	SUBSD X1, X7
	MULSD X7, X7
	ADDSD X7, X4
	CMPSD X9, X4, $2
	MOVMSKPD X4, AX
	TESTL $1, AX
	JZ scont
	MOVL R14, 0(R12)(R13*8)
	MOVL 24(SI), AX
	MOVL AX, 4(R12)(R13*8)
	INCQ R13

scont:
	ADDQ $32, SI
	INCQ BX
	CMPQ BX, CX
	JLT sloop
	JMP snext

done:
	MOVQ R13, ret+48(FP)
	RET
