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
	MOVSD 16(DX), X1   // x2
	MOVUPD 0(R9), X12  // (lo.X, lo.Y)
	MOVUPD 24(R9), X13 // (hi.X, hi.Y)
	MOVSD 16(R9), X14  // lo.Z
	MOVSD 40(R9), X0  // hi.Z

loop:
	MOVUPD 0(SI), X3 // (v.X, v.Y)
	MOVAPD X3, X4
	UNPCKLPD X4, X4  // (v.X, v.X)
	UNPCKHPD X3, X3  // (v.Y, v.Y)
	MOVSD 16(SI), X5
	UNPCKLPD X5, X5  // (v.Z, v.Z)
	MULPD X8, X4
	MULPD X9, X3
	ADDPD X3, X4
	MULPD X10, X5
	ADDPD X5, X4
	ADDPD X11, X4    // (w.X, w.Y)
	MOVUPD X4, 0(DI)

	MOVSD 0(SI), X6
	MULSD 48(R8), X6
	MOVSD 8(SI), X7
	MULSD 56(R8), X7
	ADDSD X7, X6
	MOVSD 16(SI), X7
	MULSD 64(R8), X7
	ADDSD X7, X6
	ADDSD X1, X6     // w.Z
	MOVSD X6, 16(DI)

	MOVAPD X4, X7
	MINPD X12, X7
	MOVAPD X7, X12
	MAXPD X13, X4
	MOVAPD X4, X13
	MOVAPD X6, X7
	MINSD X14, X7
	MOVAPD X7, X14
	MAXSD X0, X6
	MOVAPD X6, X0

	ADDQ $24, SI
	ADDQ $24, DI
	DECQ CX
	JNZ loop

	MOVUPD X12, 0(R9)
	MOVUPD X13, 24(R9)
	MOVSD X14, 16(R9)
	MOVSD X0, 40(R9)
	RET
