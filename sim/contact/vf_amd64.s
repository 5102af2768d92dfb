//go:build amd64 && !purego && !amd64.v3

#include "textflag.h"

// func vfSolve(x, f1, f2, f3, p *geom.Vec3) (state int)
//
// VertexFace (degen.go) on scalar SSE2 up to its early accept, S0
// Appendix eq. 64–66, every operation and its order as the Go expressions
// (no fusing: IEEE results identical to Go's): t1 = 0.5·(f2 − f1), t2 =
// 0.5·(f3 − f1), b = 0.5·(f2 + f3), c = t1 × t2, a11, a12, a22, det =
// |c|², the sliver test; r = x − b, r1, r2, ζ, θ, p = (b + ζ·t1) + θ·t2;
// vfInside, then degenInTriangle's first test. state 0: a sliver, or a
// barycentric coordinate below −ParamTol (ok false); 1: p written, inside
// every edge's band (ok true); 2: p written, in an edge's band or NaN:
// degenInTriangle's tie rule decides (the caller runs VertexFace). Registers: X0–X2 t1, X3–X5 t2, X9 det, X10 a11, X11
// a12, X12 a22, X13 ζ, X14 θ; b in the frame.

DATA vfhalf<>+0(SB)/8, $0x3fe0000000000000   // 0.5
GLOBL vfhalf<>(SB), RODATA|NOPTR, $8
DATA vfmhalf<>+0(SB)/8, $0xbfe0000000000000  // −0.5
GLOBL vfmhalf<>(SB), RODATA|NOPTR, $8
DATA vfone<>+0(SB)/8, $0x3ff0000000000000    // 1
GLOBL vfone<>(SB), RODATA|NOPTR, $8
DATA vftol<>+0(SB)/8, $0x3d719799812dea11    // degenParallelTol, 1e-12
GLOBL vftol<>(SB), RODATA|NOPTR, $8
DATA vfptol<>+0(SB)/8, $0x3d719799812dea11   // ParamTol, 1e-12
GLOBL vfptol<>(SB), RODATA|NOPTR, $8
DATA vfmptol<>+0(SB)/8, $0xbd719799812dea11  // −ParamTol
GLOBL vfmptol<>(SB), RODATA|NOPTR, $8

// VFHALF sets X to 0.5·(b op a) of coordinate off.
#define VFHALF(op, off, A, B, X) \
	MOVSD off(B), X \
	op    off(A), X \
	MULSD vfhalf<>(SB), X

TEXT ·vfSolve(SB), NOSPLIT, $24-48
	MOVQ x+0(FP), AX
	MOVQ f1+8(FP), BX
	MOVQ f2+16(FP), CX
	MOVQ f3+24(FP), DX
	MOVQ p+32(FP), SI
	// t1 = 0.5·(f2 − f1), t2 = 0.5·(f3 − f1) (Sub, Scale(0.5))
	VFHALF(SUBSD, 0, BX, CX, X0)
	VFHALF(SUBSD, 8, BX, CX, X1)
	VFHALF(SUBSD, 16, BX, CX, X2)
	VFHALF(SUBSD, 0, BX, DX, X3)
	VFHALF(SUBSD, 8, BX, DX, X4)
	VFHALF(SUBSD, 16, BX, DX, X5)
	// b = 0.5·(f2 + f3) (Add, Scale(0.5)), to the frame
	VFHALF(ADDSD, 0, DX, CX, X6)
	VFHALF(ADDSD, 8, DX, CX, X7)
	VFHALF(ADDSD, 16, DX, CX, X8)
	MOVSD X6, 0(SP)
	MOVSD X7, 8(SP)
	MOVSD X8, 16(SP)
	// det = |t1 × t2|² = cx·cx + cy·cy + cz·cz: X9 (Cross, Norm2)
	MOVAPD X1, X9
	MULSD  X5, X9
	MOVAPD X2, X10
	MULSD  X4, X10
	SUBSD  X10, X9
	MULSD  X9, X9
	MOVAPD X2, X10
	MULSD  X3, X10
	MOVAPD X0, X11
	MULSD  X5, X11
	SUBSD  X11, X10
	MULSD  X10, X10
	ADDSD  X10, X9
	MOVAPD X0, X10
	MULSD  X4, X10
	MOVAPD X1, X11
	MULSD  X3, X11
	SUBSD  X11, X10
	MULSD  X10, X10
	ADDSD  X10, X9
	// a11 = t1·t1: X10; a12 = t1·t2: X11; a22 = t2·t2: X12 (Dot)
	MOVAPD X0, X10
	MULSD  X0, X10
	MOVAPD X1, X13
	MULSD  X1, X13
	ADDSD  X13, X10
	MOVAPD X2, X13
	MULSD  X2, X13
	ADDSD  X13, X10
	MOVAPD X0, X11
	MULSD  X3, X11
	MOVAPD X1, X13
	MULSD  X4, X13
	ADDSD  X13, X11
	MOVAPD X2, X13
	MULSD  X5, X13
	ADDSD  X13, X11
	MOVAPD X3, X12
	MULSD  X3, X12
	MOVAPD X4, X13
	MULSD  X4, X13
	ADDSD  X13, X12
	MOVAPD X5, X13
	MULSD  X5, X13
	ADDSD  X13, X12
	// if !(det > degenParallelTol·a11·a22) { ok = false }
	MOVSD   vftol<>(SB), X13
	MULSD   X10, X13
	MULSD   X12, X13
	UCOMISD X13, X9
	JLS     sliver
	// r = x − b; r1 = r·t1: X7; r2 = r·t2: X6
	MOVSD  0(AX), X6
	SUBSD  0(SP), X6
	MOVAPD X6, X7
	MULSD  X0, X7
	MULSD  X3, X6
	MOVSD  8(AX), X8
	SUBSD  8(SP), X8
	MOVAPD X8, X13
	MULSD  X1, X13
	ADDSD  X13, X7
	MULSD  X4, X8
	ADDSD  X8, X6
	MOVSD  16(AX), X8
	SUBSD  16(SP), X8
	MOVAPD X8, X13
	MULSD  X2, X13
	ADDSD  X13, X7
	MULSD  X5, X8
	ADDSD  X8, X6
	// ζ = (a22·r1 − a12·r2)/det: X13; θ = (a11·r2 − a12·r1)/det: X14
	MOVAPD X12, X13
	MULSD  X7, X13
	MOVAPD X11, X15
	MULSD  X6, X15
	SUBSD  X15, X13
	DIVSD  X9, X13
	MOVAPD X10, X14
	MULSD  X6, X14
	MULSD  X7, X11
	SUBSD  X11, X14
	DIVSD  X9, X14
	// p = (b + ζ·t1) + θ·t2 (AddScaled twice)
	MULSD X13, X0
	ADDSD 0(SP), X0
	MULSD X14, X3
	ADDSD X3, X0
	MOVSD X0, 0(SI)
	MULSD X13, X1
	ADDSD 8(SP), X1
	MULSD X14, X4
	ADDSD X4, X1
	MOVSD X1, 8(SI)
	MULSD X13, X2
	ADDSD 16(SP), X2
	MULSD X14, X5
	ADDSD X5, X2
	MOVSD X2, 16(SI)
	// n1 = −0.5·(ζ+θ): X6, n2 = 0.5·(1+ζ): X7, n3 = 0.5·(1+θ): X8 (S0
	// eq. 27, as vfInside and degenInTriangle compute them)
	MOVAPD X13, X6
	ADDSD  X14, X6
	MULSD  vfmhalf<>(SB), X6
	MOVSD  vfone<>(SB), X7
	ADDSD  X13, X7
	MULSD  vfhalf<>(SB), X7
	MOVSD  vfone<>(SB), X8
	ADDSD  X14, X8
	MULSD  vfhalf<>(SB), X8
	// vfInside: n1 > t && n2 > t && n3 > t: ok
	UCOMISD vfptol<>(SB), X6
	JLS     edge
	UCOMISD vfptol<>(SB), X7
	JLS     edge
	UCOMISD vfptol<>(SB), X8
	JLS     edge
	MOVQ    $1, state+40(FP)
	RET

edge:
	// degenInTriangle's first test: any n_k < −t: not ok; else its tie
	// rule decides (state 2; NaNs too)
	MOVSD   vfmptol<>(SB), X9
	UCOMISD X6, X9
	JHI     sliver
	UCOMISD X7, X9
	JHI     sliver
	UCOMISD X8, X9
	JHI     sliver
	MOVQ    $2, state+40(FP)
	RET

sliver:
	MOVQ $0, state+40(FP)
	RET
