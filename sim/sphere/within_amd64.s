//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// func withinSSE2(P []Pair, X []geom.Vec3, k int, cut2 float64) (j int, m uint, next int)
//
// within (within_amd64.go) on SSE2: the pairs of P from k on whose centres
// are within the cut-off, float64(dx²) + float64(dy²) + float64(dz²) <
// cut2 summed in that order (dist2, withinGo's test), up to next: pair
// j + i for each bit i of m (m = 0, j = next = len(P): none); j = −1 − i
// at the first pair i with an index not below len(X) (unsigned) before
// any pair within (then m = 0, next = len(P)).
//
// Eight pairs a turn, in four halves of two pairs (PAIRS2: lanes 0 and 1
// of the XMM registers): the (x, y) of each centre in one load, dx, dy of
// a pair in one SUBPD and squared in one MULPD, then transposed so that
// one ADDPD gives dx² + dy² of both pairs; dz of both pairs packed; CMPPD
// "less than, ordered" (false for NaN, as Go's <), MOVMSKPD, and the
// turn's eight bits returned (next: the turn's end). The turn's sixteen
// indices are checked before any load, at once (PCMPGTL on the indices
// biased by −2³¹); a turn with a bad index, and the last one to seven
// pairs of P, go to the
// one-pair loop (scalar SSE2, the same operations), which checks each
// index and stops at a bad one unless a pair before it is within. (Four
// pairs a turn until session 21: a turn's bookkeeping — the index test,
// the prefetch's gate, the loop — is now spread over eight pairs, and a
// scan returns to Go at most once every eight pairs: 10⁵ box 1 159 →
// 1 113 M instructions, docs/performance.md "Session 21: the step's
// passes".)

// PAIRS2(off, M): the squared distances of the pairs at off(SI)(BX*8) and
// off+8(SI)(BX*8) (lanes 0 and 1), their indices known in range, compared
// with cut2: the lanes' mask (bit 0 and bit 1) in M. Uses AX, DX, R10, R11,
// X0–X5.
#define PAIRS2(off, M) \
	MOVL off(SI)(BX*8), AX \
	MOVL off+4(SI)(BX*8), DX \
	MOVL off+8(SI)(BX*8), R10 \
	MOVL off+12(SI)(BX*8), R11 \
	LEAQ (AX)(AX*2), AX \
	LEAQ (DX)(DX*2), DX \
	LEAQ (R10)(R10*2), R10 \
	LEAQ (R11)(R11*2), R11 \
	MOVUPD (DI)(AX*8), X0 \
	MOVUPD (DI)(DX*8), X1 \
	SUBPD X1, X0 \
	MULPD X0, X0 \
	MOVUPD (DI)(R10*8), X2 \
	MOVUPD (DI)(R11*8), X3 \
	SUBPD X3, X2 \
	MULPD X2, X2 \
	MOVAPD X0, X1 \
	UNPCKLPD X2, X0 \
	UNPCKHPD X2, X1 \
	ADDPD X1, X0 \
	MOVSD 16(DI)(AX*8), X4 \
	MOVHPD 16(DI)(R10*8), X4 \
	MOVSD 16(DI)(DX*8), X5 \
	MOVHPD 16(DI)(R11*8), X5 \
	SUBPD X5, X4 \
	MULPD X4, X4 \
	ADDPD X4, X0 \
	CMPPD X8, X0, $1 \
	MOVMSKPD X0, M

// PFD: the turn prefetches (PREFETCHT0: a hint, never a fault) the
// centres X[J] of pairs BX+PFD, +2, +4 and +6 (one a two pairs, as with
// four pairs a turn), while those pairs are in P (BX < len(P) − PFD − 8),
// on systems of at least PFMIN centres (6 MiB: far larger than L2, where
// the gathers of X[J] miss it; below, the 12 instructions a turn would be
// spent on centres already in cache). The
// same loads and arithmetic otherwise: the same answers. At 10⁶ spheres
// withinSSE2 −9 to −14% of CPU (docs/performance.md, "Session 20: the
// passes at 10⁶").
#define PFD 24
#define PFMIN 262144

TEXT ·withinSSE2(SB), NOSPLIT, $0-88
	MOVQ P_base+0(FP), SI
	MOVQ P_len+8(FP), CX
	MOVQ X_base+24(FP), DI
	MOVQ X_len+32(FP), R8
	MOVQ k+48(FP), BX
	MOVSD cut2+56(FP), X8
	UNPCKLPD X8, X8 // (cut2, cut2)
	// Eight pairs a turn: their sixteen indices checked at once, each biased
	// by −2³¹ (uint32 order as int32 order) against len(X) − 1, biased,
	// when 1 ≤ len(X) ≤ 2³¹ − 1; else the one-pair loop only.
	LEAQ -1(R8), AX
	CMPQ AX, $0x7fffffff
	JAE  one
	XORL $0x80000000, AX
	MOVQ AX, X9
	PSHUFL $0, X9, X9   // len(X) − 1 − 2³¹ in the four int32 lanes
	MOVL $0x80000000, AX
	MOVQ AX, X10
	PSHUFL $0, X10, X10 // the bias
	LEAQ -7(CX), R9     // a turn needs pairs BX … BX+7: BX < len−7
	// The prefetch (PFD) while BX < R14: only from PFMIN centres on.
	MOVQ $-1, R14
	CMPQ R8, $PFMIN
	JLT  nopfx
	LEAQ -(PFD+8)(CX), R14
nopfx:
	CMPQ BX, R9
	JGE  one

eight:
	CMPQ BX, R14
	JGE  nopf
	MOVL (PFD*8+4)(SI)(BX*8), AX
	LEAQ (AX)(AX*2), AX
	PREFETCHT0 (DI)(AX*8)
	MOVL (PFD*8+20)(SI)(BX*8), AX
	LEAQ (AX)(AX*2), AX
	PREFETCHT0 (DI)(AX*8)
	MOVL (PFD*8+36)(SI)(BX*8), AX
	LEAQ (AX)(AX*2), AX
	PREFETCHT0 (DI)(AX*8)
	MOVL (PFD*8+52)(SI)(BX*8), AX
	LEAQ (AX)(AX*2), AX
	PREFETCHT0 (DI)(AX*8)
nopf:
	MOVOU 0(SI)(BX*8), X6   // the indices of pairs BX, BX+1
	MOVOU 16(SI)(BX*8), X7  // of pairs BX+2, BX+3
	MOVOU 32(SI)(BX*8), X11 // of pairs BX+4, BX+5
	MOVOU 48(SI)(BX*8), X12 // of pairs BX+6, BX+7
	PXOR  X10, X6
	PXOR  X10, X7
	PXOR  X10, X11
	PXOR  X10, X12
	PCMPGTL X9, X6          // lanes whose index ≥ len(X) (uint32)
	PCMPGTL X9, X7
	PCMPGTL X9, X11
	PCMPGTL X9, X12
	POR   X7, X6
	POR   X12, X11
	POR   X11, X6
	PMOVMSKB X6, AX
	TESTL AX, AX
	JNZ   one               // a bad index: the one-pair loop checks each
	PAIRS2(0, R12)
	PAIRS2(16, R13)
	SHLL  $2, R13
	ORL   R13, R12          // pairs BX … BX+3 in bits 0 … 3
	PAIRS2(32, R13)
	SHLL  $4, R13
	ORL   R13, R12          // BX+4, BX+5 in bits 4, 5
	PAIRS2(48, R13)
	SHLL  $6, R13
	ORL   R13, R12          // BX+6, BX+7 in bits 6, 7
	JNZ   hit
	ADDQ  $8, BX
	CMPQ  BX, R9
	JLT   eight

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
	JHI  hit1
	INCQ BX
	JMP  one

hit:
	MOVQ BX, j+64(FP)
	MOVQ R12, m+72(FP)
	ADDQ $8, BX
	MOVQ BX, next+80(FP)
	RET

hit1:
	MOVQ BX, j+64(FP)
	MOVQ $1, m+72(FP)
	INCQ BX
	MOVQ BX, next+80(FP)
	RET

done:
	MOVQ BX, j+64(FP)
	MOVQ $0, m+72(FP)
	MOVQ BX, next+80(FP)
	RET

bad:
	NOTQ BX                // −1 − BX
	MOVQ BX, j+64(FP)
	MOVQ $0, m+72(FP)
	MOVQ CX, next+80(FP)   // len(P)
	RET
