//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// func placeSSE2(dst, src *geom.Vec3, n int, x *geom.Vec3, R *geom.Mat3, box *AABB)
//
// place (posed.go) on SSE2, two lanes for the X and Y coordinates and one
// for Z, each lane the same IEEE operations in the same order as place's
// scalar code (so the same bits): w = ((v.X·r0 + v.Y·r1) + v.Z·r2) + t per
// coordinate, and the box's extremes as place's comparisons (MINPD d, s =
// d < s ? d : s, i.e. fmin(lo, w) with d = w, s = lo; MAXPD likewise).
// R is row-major (r00 at 0, r10 at 24, r20 at 48); box holds the extremes
// to start from and receives the result. n ≥ 1.
//
// Two vertices a turn (A, B), the extremes passed between them in turn
// without copies: after B, lo (X, Y) is in X13, hi in X6, lo Z in X2, hi Z
// in X0; A writes them to X12, X4, X1, X14, from which B takes them.

// VERT places the vertex at off(SI) into off(DI): (w.X, w.Y) in W, w.Z in Z.
#define VERT(off, W, Z) \
	MOVUPD off(SI), X3 \
	MOVAPD X3, W \
	UNPCKLPD W, W \
	UNPCKHPD X3, X3 \
	MOVSD off+16(SI), X5 \
	UNPCKLPD X5, X5 \
	MULPD X8, W \
	MULPD X9, X3 \
	ADDPD X3, W \
	MULPD X10, X5 \
	ADDPD X5, W \
	ADDPD X11, W \
	MOVUPD W, off(DI) \
	MOVSD off(SI), Z \
	MULSD 48(R8), Z \
	MOVSD off+8(SI), X7 \
	MULSD 56(R8), X7 \
	ADDSD X7, Z \
	MOVSD off+16(SI), X7 \
	MULSD 64(R8), X7 \
	ADDSD X7, Z \
	ADDSD 16(DX), Z \
	MOVSD Z, off+16(DI)

// HALFA: vertex A at off, extremes from B's registers into A's.
#define HALFA(off) \
	VERT(off, X4, X14) \
	MOVAPD X4, X12 \
	MINPD X13, X12 \
	MAXPD X6, X4 \
	MOVAPD X14, X1 \
	MINSD X2, X1 \
	MAXSD X0, X14

// HALFB: vertex B at off, extremes from A's registers into B's.
#define HALFB(off) \
	VERT(off, X6, X0) \
	MOVAPD X6, X13 \
	MINPD X12, X13 \
	MAXPD X4, X6 \
	MOVAPD X0, X2 \
	MINSD X1, X2 \
	MAXSD X14, X0

TEXT ·placeSSE2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ x+24(FP), DX
	MOVQ R+32(FP), R8
	MOVQ box+40(FP), R9
	MOVSD 0(R8), X8
	MOVHPD 24(R8), X8  // (r00, r10)
	MOVSD 8(R8), X9
	MOVHPD 32(R8), X9  // (r01, r11)
	MOVSD 16(R8), X10
	MOVHPD 40(R8), X10 // (r02, r12)
	MOVUPD 0(DX), X11  // (x0, x1)
	MOVUPD 0(R9), X13  // (lo.X, lo.Y)
	MOVUPD 24(R9), X6  // (hi.X, hi.Y)
	MOVSD 16(R9), X2   // lo.Z
	MOVSD 40(R9), X0   // hi.Z

pairs:
	CMPQ CX, $2
	JLT  last
	HALFA(0)
	HALFB(24)
	ADDQ $48, SI
	ADDQ $48, DI
	SUBQ $2, CX
	JMP  pairs

last:
	TESTQ CX, CX
	JZ    done
	HALFA(0)
	MOVAPD X12, X13
	MOVAPD X4, X6
	MOVAPD X1, X2
	MOVAPD X14, X0

done:
	MOVUPD X13, 0(R9)
	MOVUPD X6, 24(R9)
	MOVSD X2, 16(R9)
	MOVSD X0, 40(R9)
	RET
