//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// func withinSSE2(P []Pair, X []geom.Vec3, k int, cut2 float64) int
//
// withinGo (kernel.go) on SSE2: the first pair j ≥ k of P whose centres
// are within the cut-off, float64(dx²) + float64(dy²) + float64(dz²) <
// cut2 summed in that order (dist2), or len(P); −1 − j at the first pair
// j with an index not below len(X) (unsigned) before any such pair.
//
// Two pairs a turn (lanes 0 and 1 of the XMM registers, pairs j and j+1):
// the (x, y) of each centre in one load, dx, dy of a pair in one SUBPD and
// squared in one MULPD, then transposed so that one ADDPD gives dx² + dy²
// of both pairs; dz of both pairs packed; CMPPD "less than, ordered"
// (false for NaN, as Go's <), MOVMSKPD, and the lowest set lane first.
// Every index is checked before its loads; a turn with a bad index, and
// the last pair of an odd count, goes to the one-pair loop, which stops at
// the bad pair unless a pair before it is within.
TEXT ·withinSSE2(SB), NOSPLIT, $0-72
	MOVQ P_base+0(FP), SI
	MOVQ P_len+8(FP), CX
	MOVQ X_base+24(FP), DI
	MOVQ X_len+32(FP), R8
	MOVQ k+48(FP), BX
	MOVSD cut2+56(FP), X8
	UNPCKLPD X8, X8 // (cut2, cut2)
	LEAQ -1(CX), R9 // a turn needs pairs BX and BX+1: BX < len-1
	CMPQ BX, R9
	JGE  one

two:
	MOVL 0(SI)(BX*8), AX   // I of pair BX
	MOVL 4(SI)(BX*8), DX   // J of pair BX
	MOVL 8(SI)(BX*8), R10  // I of pair BX+1
	MOVL 12(SI)(BX*8), R11 // J of pair BX+1
	CMPQ AX, R8
	JAE  one
	CMPQ DX, R8
	JAE  one
	CMPQ R10, R8
	JAE  one
	CMPQ R11, R8
	JAE  one
	LEAQ (AX)(AX*2), AX // 24-byte centres: index·3, scaled by 8
	LEAQ (DX)(DX*2), DX
	LEAQ (R10)(R10*2), R10
	LEAQ (R11)(R11*2), R11
	MOVUPD (DI)(AX*8), X0  // (x, y) of I, pair BX
	MOVUPD (DI)(DX*8), X1  // (x, y) of J
	SUBPD  X1, X0          // (dx, dy)
	MULPD  X0, X0          // (dx², dy²)
	MOVUPD (DI)(R10*8), X2 // pair BX+1
	MOVUPD (DI)(R11*8), X3
	SUBPD  X3, X2
	MULPD  X2, X2
	MOVAPD X0, X1
	UNPCKLPD X2, X0        // (dx², dx²'): lane 0 pair BX, lane 1 pair BX+1
	UNPCKHPD X2, X1        // (dy², dy²')
	ADDPD  X1, X0          // dx² + dy²
	MOVSD  16(DI)(AX*8), X4
	MOVHPD 16(DI)(R10*8), X4 // (z, z') of the I
	MOVSD  16(DI)(DX*8), X5
	MOVHPD 16(DI)(R11*8), X5 // of the J
	SUBPD  X5, X4
	MULPD  X4, X4
	ADDPD  X4, X0          // (dx² + dy²) + dz²
	CMPPD  X8, X0, $1      // lanes d² < cut2 (LT_OS: false for NaN)
	MOVMSKPD X0, AX
	TESTL  AX, AX
	JNZ    hit
	ADDQ   $2, BX
	CMPQ   BX, R9
	JLT    two

one:
	CMPQ BX, CX
	JGE  done
	MOVL 0(SI)(BX*8), AX
	MOVL 4(SI)(BX*8), DX
	CMPQ AX, R8
	JAE  bad
	CMPQ DX, R8
	JAE  bad
	LEAQ (AX)(AX*2), AX
	LEAQ (DX)(DX*2), DX
	MOVSD 0(DI)(AX*8), X0
	SUBSD 0(DI)(DX*8), X0
	MULSD X0, X0           // dx²
	MOVSD 8(DI)(AX*8), X1
	SUBSD 8(DI)(DX*8), X1
	MULSD X1, X1
	ADDSD X1, X0           // dx² + dy²
	MOVSD 16(DI)(AX*8), X1
	SUBSD 16(DI)(DX*8), X1
	MULSD X1, X1
	ADDSD X1, X0           // + dz²
	UCOMISD X0, X8         // cut2 above d² (unordered: not above)
	JHI  done
	INCQ BX
	JMP  one

hit:
	BSFL AX, AX            // the lowest lane within: pair BX + lane
	ADDQ AX, BX

done:
	MOVQ BX, ret+64(FP)
	RET

bad:
	NOTQ BX                // −1 − BX
	MOVQ BX, ret+64(FP)
	RET
